#pragma once
// The methods, one object each (docs/contributing/architecture.md#methods-in-core): what the sweep,
// the results database, the runs list and the programs ask of a method. A stored run keeps its
// method's key; the key finds the object again.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/method_run.h"
#include "core/run/run.h"
#include "core/run/simulation.h"
#include "core/settings/field.h"
#include "core/util/progress.h"

namespace partita {

// What a method's answer is, and so how it is assessed and stored.
enum class MethodFamily {
    GridPlan,   // a grid on HyPar's analytic model (hypar, dp, mp, owt)
    AccPar,     // a grid under AccPar's model
    Simulated,  // a SOAP strategy simulated on a topology (simulate, mcmc)
    Settings,   // settings stored and evaluated again on load (mpt, l2s): a MethodRun
};

// What a sweep entry (docs/guide/sweeps.md) may give for the method, and which axes change it.
struct SweepTraits {
    bool in_sweeps = false;
    // Refusal of a bare name ("mcmc needs its options: ..."); empty when a bare name will do.
    std::string needs_options;
    bool accpar_options = false;    // balanced_baselines, comm_only
    bool sim_options = false;       // sync, inference; and a topology
    bool strategy_option = false;   // "strategy": dp, owt, mp or grid
    bool mcmc_options = false;      // iterations, budget_s, seed, beta, stop_on_stall, starts
    std::optional<SimSource> fixed_source;  // the simulated strategy when it is not an option
    // Which axes change what it computes: the axis_readers bit it is (core/sweep/axes.h readsAxis); a
    // settings method's axes are its settingsSweep()'s.
    unsigned axis_reader = 0;
};

// What a method's strategy for the simulator is asked for: the network at a batch over a topology's
// devices; a method that searches plans on `inputs()` (called only by such a method).
struct StrategyRequest {
    const Network& network;
    std::int64_t batch = 0;
    int devices = 0;
    std::function<InputsPtr()> inputs;
    CancelFn cancel = {};
};

// What one of a settings method's summary figures (MethodSummary) means: shown as
// "label value unit" with value = stored × scale; an empty label: the method leaves it unused.
struct SummaryFigure {
    std::string label;  // "peak memory"
    std::string unit;   // "GiB"
    double scale = 1;   // from the stored SI value to `unit`
    bool si_prefix = false;  // shown with an SI prefix ("12.3 ms"); otherwise 4 significant digits
    bool maximise = false;   // larger is better (a speed-up, MFU); else smaller
    bool used() const { return !label.empty(); }
    std::string value(double stored) const;  // "35.2 GiB"; empty when unused
    std::string text(double stored) const;   // "peak memory 35.2 GiB"; empty when unused
};

// The labels of a settings method's summary figures, as the runs list, the tooltips and the
// exports show them (the speed-up's label says what it is over: "speed-up vs w_dp").
struct SummaryLabels {
    SummaryFigure time, speedup, traffic, energy;
    // A yes/no verdict kept in the unused speed-up's place (stored 1 yes, 0 no): llm's "fits".
    // The sweep table shows it as its own column; text() leaves it out.
    std::string verdict = {};
    // The used figures' texts joined by ", ": "iteration 1.2 s, peak memory 35.2 GiB, MFU 45 %".
    std::string text(double time, double speedup, double traffic, double energy) const;
};

// The results database's form of a settings method's run (core/store/method_rows.cpp).
struct MethodHardware {
    std::string name, json;
    int devices = 0;
};

// How a settings method (MethodFamily::Settings) is kept: its settings as JSON, read back, and
// evaluated again.
class SettingsCodec {
public:
    virtual ~SettingsCodec() = default;
    virtual Json toJson(const MethodRun& run) const = 0;
    // Reads `json` into run's settings; `network_text` is what the store kept for the network.
    virtual void read(MethodRun& run, const Json& json, const std::string& source,
                      const std::string& network_text) const = 0;
    virtual MethodSummary recompute(const MethodRun& run) const = 0;
    virtual std::string networkName(const MethodRun& run) const = 0;
    virtual std::string networkText(const MethodRun& run) const = 0;  // kept in `networks`
    virtual std::string origin(const MethodRun& run) const = 0;       // the workload or preset
    virtual MethodHardware hardware(const MethodRun& run) const = 0;
    virtual double batch() const = 0;
    virtual SummaryLabels summaryLabels() const = 0;
    // Equal for equal settings on equal network text: "the same evaluation" when storing.
    virtual std::string key(const MethodRun& run) const = 0;
};

// A sweep axis of a settings method (docs/guide/sweeps.md#llm-axes): its name and the check of one value.
struct SettingsAxis {
    std::string name;
    std::function<std::string(const Json& v)> problem;  // "" when `v` is a value of the axis, else "takes ..."
};

// How a settings method runs in sweeps: a spec entry's "settings" (the base) read once when the spec
// is read, and each point's run from the base and the point's values of the method's axes.
class SettingsSweep {
public:
    virtual ~SettingsSweep() = default;
    virtual const std::vector<SettingsAxis>& axes() const = 0;
    // The entry's "settings" read and resolved (presets and files loaded; a relative path from
    // `base_dir`) into the JSON a point starts from; throws InputError naming `source` and the JSON
    // pointer under `at`.
    virtual Json readBase(const Json& given, const std::string& source, const std::string& at,
                          const std::string& base_dir) const = 0;
    // The base with the axis values applied, evaluated. An invalid combination throws an error whose
    // text begins with the field it names ("tp: tp = 3 must divide heads = 32").
    virtual MethodRun run(const Json& base, const std::vector<std::pair<std::string, Json>>& axes) const = 0;
};

class MethodInfo {
public:
    virtual ~MethodInfo() = default;
    virtual std::string key() const = 0;    // stored in the results database; never changes
    virtual std::string label() const = 0;  // "HyPar", "AccPar", "Simulate", "MCMC", "MPT", ...
    virtual std::string toolTip() const = 0;
    virtual MethodFamily family() const = 0;
    const SweepTraits& sweep() const { return sweep_; }
    // A sweep point's run: `sim` says the topology and options of simulated methods. Throws
    // std::invalid_argument for a method a sweep cannot run.
    virtual Run runPoint(const InputsPtr& inputs, const SimulationSpec& sim, const CancelFn& cancel = {}) const;
    // The name a run starts with before " · network · ...": "HyPar", "Simulate DP".
    virtual std::string runTitle(const Run&) const { return label(); }
    // The simulated strategy the method's answer is (DP, OWT, MP; a lowered grid for HyPar and
    // AccPar), or none.
    virtual std::optional<SimSource> strategySource() const { return std::nullopt; }
    // The method's answer lowered to the simulator's form (SOAP, core/sim/lowering.h); throws
    // std::invalid_argument for a method without one. Call it through methodStrategy
    // (core/run/simulation_run.h).
    virtual sim::SoapStrategy strategy(const StrategyRequest& request) const;
    virtual const SettingsCodec* settings() const { return nullptr; }
    // A settings method that runs in sweeps; nullptr for the others (they run through runPoint).
    virtual const SettingsSweep* settingsSweep() const { return nullptr; }

protected:
    SweepTraits sweep_;  // set by a method that runs in sweeps
};

// The registered method of `key`, or nullptr.
const MethodInfo* findMethod(const std::string& key);
// The same, or std::invalid_argument naming the key and the known ones.
const MethodInfo& method(const std::string& key);
// Every method, in the order registered (the built-ins first: hypar, dp, mp, owt, accpar,
// simulate, mcmc, mpt, l2s).
std::vector<const MethodInfo*> allMethods();
// The keys of the methods a sweep can run, as a message lists them: "hypar, dp, ... or mcmc".
std::string sweepMethodList();
// The keys of the methods with a strategy to simulate: "hypar, dp, mp, owt or accpar".
std::string strategyMethodList();
// The first registered method whose answer is simulated as `source` (Grid: HyPar's plan).
const MethodInfo* strategyMethod(SimSource source);
// The keys of the methods kept as settings: "mpt, l2s or llm".
std::string settingsMethodList();
// A settings method's codec, or std::invalid_argument naming the key and settingsMethodList().
const SettingsCodec& settingsCodec(const std::string& key);

// Registers one more method (a test's, or a new one); its key must be new. Unregistered when the
// handle goes.
class MethodRegistration {
public:
    explicit MethodRegistration(std::unique_ptr<MethodInfo> m);
    ~MethodRegistration();
    MethodRegistration(const MethodRegistration&) = delete;
    MethodRegistration& operator=(const MethodRegistration&) = delete;

private:
    std::string key_;
};

}  // namespace partita
