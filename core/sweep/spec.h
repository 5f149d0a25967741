#pragma once
// A sweep specification, "partita-sweep/1" (docs/guide/sweeps.md): networks, arrays,
// topologies and methods with parameter axes, expanded as a cartesian product with optional zip
// groups and exclusion rules into a deterministic list of points.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/io/json_fields.h"
#include "core/llm/profile.h"
#include "core/model/array.h"
#include "core/run/method_registry.h"
#include "core/run/simulation.h"

namespace partita::sweep {

// Points of one sweep after exclusions (docs/formats/limits.md); checked before anything is enumerated.
inline constexpr std::int64_t kMaxPoints = 1'000'000;
// Exclude rules of one sweep: each combination is tested against each rule.
inline constexpr std::size_t kMaxExcludeRules = 256;

// One entry of "networks", "arrays" or "topologies".
struct Source {
    std::string label;        // as written: a built-in name, a path, or "levels=H" for a generated array
    std::string path;         // the file to read; empty for a generated array or a built-in topology
    bool built_in = false;    // a name of examples/ (or a preset topology)
    int levels = 0;           // generated array: defaultArray(levels, topology)
    Topology topology = Topology::HTree;
};

// One entry of "methods": a method name, or an object with the method's options.
struct MethodEntry {
    std::string label;        // unique in the sweep; the method's name unless "label" is given
    std::string method;       // a registered method's key that runs in sweeps (hypar, dp, ..., mcmc)
    const MethodInfo* info = nullptr;  // its registry entry (core/run/method_registry.h)
    // accpar
    bool balanced_baselines = false;
    bool comm_only = false;   // AccPar's element objective at ratio 1/2
    // simulate: the strategy simulated (dp, owt, mp, or grid = HyPar's plan lowered)
    SimSource source = SimSource::DataParallel;
    // simulate and mcmc
    sim::SyncMode sync = sim::SyncMode::Ring;
    sim::CollectiveModel collectives = sim::CollectiveModel::Algorithm;
    bool training = true;
    // Compute priced by an LLM profile's kernel curves (docs/methods/flexflow.md#kernel-curves): a preset's
    // name or a file's path from the spec's folder, and the profile read once; null: the devices' peaks.
    std::string kernels_label;
    std::shared_ptr<const llm::Profile> kernels_profile;
    llm::Dtype kernels_precision = llm::Dtype::Fp32;
    std::string kernels_key;  // the profile's content and the precision, written once into every point's key
    // mcmc: budget_s defaults to 0 (iterations only), so a point is reproducible
    McmcSettings mcmc{0, 0};
    // a settings method (llm): its "settings" as SettingsSweep::readBase resolved them
    Json settings;
    const SettingsSweep* settingsSweep() const { return info ? info->settingsSweep() : nullptr; }
    bool simulated() const { return info && info->sweep().sim_options; }  // runs on a topology
};

// A parameter axis, in the canonical order of axisDefs() (core/sweep/axes.h).
struct Axis {
    std::string name;
    std::vector<Json> values;  // scalars, validated
};


// Whether axis `axis` (a axisDefs() (core/sweep/axes.h) name, or "topology") changes what `method` computes; an axis that
// does not is left at its default for that method, so such points collapse into one.
bool applies(const std::string& axis, const std::string& method);

struct Spec {
    std::string source;        // the file (for messages)
    std::string name;          // "name", else the file's stem
    std::string description;   // free text for the reader
    std::vector<Source> networks, arrays, topologies;
    std::vector<MethodEntry> methods;
    std::vector<Axis> axes;    // the ones given, axisDefs() (core/sweep/axes.h) order
    std::vector<std::vector<std::string>> zip;  // groups of dimension names
    Json exclude = Json::array();               // validated rules
};

// One combination: indices into the spec's lists and the axis values that apply to its method.
struct Point {
    std::size_t index = 0;     // position in the expanded order (after exclusions and collapsing)
    int network = 0, array = 0, topology = -1, method = 0;
    std::vector<std::pair<std::string, Json>> axes;  // axisDefs() (core/sweep/axes.h) order
    // {"network": label, "array": label, ["topology": label,] "method": label, axis: value, ...}
    Json describe(const Spec& spec) const;
};

// Reads and validates a spec; relative paths are taken from `base_dir` (the spec file's folder),
// built-in names from `examples_dir`. Every error is an InputError naming `source` and the JSON
// pointer of the bad entry.
Spec readSpec(const std::string& text, const std::string& source, const std::string& base_dir,
              const std::string& examples_dir);
Spec loadSpec(const std::string& path, const std::string& examples_dir);

// The points in their deterministic order: the cartesian product of network, array, topology
// (simulate and mcmc only), method and the axes, nested in that order with the last varying
// fastest; a zip group varies together at the place of its first member; combinations an
// exclude rule matches are dropped, and combinations that differ only in axes their method
// ignores are kept once (the first). Throws InputError beyond kMaxPoints.
std::vector<Point> expand(const Spec& spec);
// The same points one at a time, in the same order, none held after `visit` returns (a sweep of 10^6
// points is never materialised); `visit` returns false to stop.
void forEachPoint(const Spec& spec, const std::function<bool(const Point&)>& visit);
// Combinations before exclusions and collapsing; throws InputError beyond kMaxPoints.
std::int64_t combinations(const Spec& spec);

}  // namespace partita::sweep
