#include "core/sweep/spec.h"

#include "core/sweep/axes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <unordered_set>

#include "core/sim/compute_cost.h"
#include "core/topology/topology.h"
#include "core/sweep/dimensions.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/limits.h"
#include "core/util/utf8.h"

namespace partita::sweep {

namespace fs = std::filesystem;
using detail::Dimension;
using detail::dimensionIndex;
using detail::dimensions;
using detail::valueKey;

namespace {

constexpr std::int64_t kMaxSeed = std::int64_t{1} << 53;

[[noreturn]] void specFail(const std::string& source, const std::string& pointer, const std::string& message) {
    throw InputError(source, pointer.empty() ? "/" : pointer, message);
}

// A name of examples/ or a path: paths contain a slash or end in a file extension.
bool isPath(const std::string& s) {
    return s.find('/') != std::string::npos || s.ends_with(".json") || s.ends_with(".onnx") || s.ends_with(".txt") ||
           s.ends_with(".yml") || s.ends_with(".yaml");
}

std::string resolve(const std::string& s, const std::string& base_dir) {
    const fs::path p(s);
    return p.is_absolute() || base_dir.empty() ? s : (fs::path(base_dir) / p).lexically_normal().string();
}

const Json& nonEmptyList(Fields& f, const std::string& key) {
    const Json& v = f.raw(key);
    if (!v.is_array() || v.empty())
        f.fail(key, "expected a non-empty list, found " + (v.is_array() ? "[]" : excerpt(v)));
    return v;
}

std::string text(const Json& v, const std::string& source, const std::string& pointer) {
    if (!v.is_string()) specFail(source, pointer, "expected a string, found " + excerpt(v));
    return v.get<std::string>();
}

std::vector<Source> readNetworks(const Json& list, const std::string& source, const std::string& base_dir,
                                 const std::string& examples_dir) {
    std::vector<Source> out;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string at = "/networks/" + std::to_string(i);
        Source s;
        s.label = text(list[i], source, at);
        if (isPath(s.label)) {
            s.path = resolve(s.label, base_dir);  // a missing file makes its points fail, not the spec
        } else {
            s.built_in = true;
            s.path = examples_dir + "/networks/" + s.label + ".json";
            if (!fs::exists(s.path)) specFail(source, at, "no built-in network '" + s.label + "' (examples/networks)");
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<Source> readArrays(const Json& list, const std::string& source, const std::string& base_dir,
                               const std::string& examples_dir) {
    std::vector<Source> out;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string at = "/arrays/" + std::to_string(i);
        Source s;
        if (list[i].is_object()) {
            Fields f(list[i], at, source);
            s.levels = static_cast<int>(f.integerIn("levels", 1, Array::kMaxLevels));
            const std::string t = f.string("topology", "htree");
            if (t != "htree" && t != "torus") f.fail("topology", "expected \"htree\" or \"torus\", found '" + t + "'");
            f.finish();
            s.topology = t == "htree" ? Topology::HTree : Topology::Torus;
            s.label = "levels=" + std::to_string(s.levels) + (t == "torus" ? ",torus" : "");
        } else {
            s.label = text(list[i], source, at);
            if (isPath(s.label)) {
                s.path = resolve(s.label, base_dir);
            } else {
                s.built_in = true;
                s.path = examples_dir + "/arrays/" + s.label + ".json";
                if (!fs::exists(s.path)) specFail(source, at, "no built-in array '" + s.label + "' (examples/arrays)");
            }
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<Source> readTopologies(const Json& list, const std::string& source, const std::string& base_dir) {
    std::vector<Source> out;
    const auto presets = sim::builtinTopologyNames();
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string at = "/topologies/" + std::to_string(i);
        Source s;
        s.label = text(list[i], source, at);
        if (isPath(s.label)) {
            s.path = resolve(s.label, base_dir);
        } else {
            if (std::find(presets.begin(), presets.end(), s.label) == presets.end())
                specFail(source, at, "no built-in topology '" + s.label + "' (p100-16, k80-64, hmc-htree-16, hmc-torus-16)");
            s.built_in = true;
        }
        out.push_back(std::move(s));
    }
    return out;
}


// The registered method of `key` if it runs in sweeps.
const MethodInfo* sweepMethod(const std::string& key) {
    const MethodInfo* m = findMethod(key);
    return m && m->sweep().in_sweeps ? m : nullptr;
}

// "kernels": {"profile": preset or file, "precision": optional, the profile's parameter dtype by
// default, as `simulate --profile`}. The profile is read here, once for every point.
void readKernels(const Json& v, const std::string& source, const std::string& at, const std::string& base_dir,
                 MethodEntry& m) {
    Fields k(v, at, source);
    const std::string given = k.string("profile");
    // A file is named by its resolved path, so that a stored run reopens it from anywhere.
    m.kernels_label = llm::isProfilePreset(given) ? given : resolve(given, base_dir);
    try {
        m.kernels_profile = std::make_shared<const llm::Profile>(llm::loadProfile(m.kernels_label));
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        k.fail("profile", e.what());
    }
    m.kernels_precision = k.parsed("precision", llm::dtypeName(m.kernels_profile->precision.param), llm::parseDtype);
    k.finish();
    try {  // the curves must exist for the precision
        sim::SimOptions probe;
        sim::useKernelCurves(probe, *m.kernels_profile, m.kernels_precision, m.kernels_label);
    } catch (const std::exception& e) {
        k.fail("precision", e.what());
    }
    // Its content, not only its name: an edited file makes new points.
    m.kernels_key = llm::profileToJson(*m.kernels_profile).dump() + "/" + llm::dtypeName(m.kernels_precision);
}

MethodEntry readMethod(const Json& v, const std::string& source, const std::string& at, const std::string& base_dir) {
    MethodEntry m;
    if (!v.is_object()) {
        m.method = text(v, source, at);
        m.info = sweepMethod(m.method);
        if (!m.info) specFail(source, at, "unknown method '" + m.method + "' (" + sweepMethodList() + ")");
        if (!m.info->sweep().needs_options.empty()) specFail(source, at, m.info->sweep().needs_options);
        m.label = m.method;
        return m;
    }
    Fields f(v, at, source);
    m.method = f.string("method");
    m.info = sweepMethod(m.method);
    if (!m.info) f.fail("method", "unknown method '" + m.method + "' (" + sweepMethodList() + ")");
    const SweepTraits& traits = m.info->sweep();
    m.label = f.string("label", m.method);
    if (m.label.empty()) f.fail("label", "must not be empty");
    if (traits.accpar_options) {
        m.balanced_baselines = f.boolean("balanced_baselines", false);
        m.comm_only = f.boolean("comm_only", false);
    }
    if (m.simulated()) {
        m.sync = f.parsed("sync", "ring", sim::parseSyncMode);
        m.collectives = f.parsed("collectives", "algorithm", sim::parseCollectiveModel);
        m.training = !f.boolean("inference", false);
        if (f.has("kernels")) readKernels(f.raw("kernels"), source, f.pointer("kernels"), base_dir, m);
    }
    if (traits.strategy_option) {
        const std::string s = f.string("strategy", "dp");
        if (s != "dp" && s != "owt" && s != "mp" && s != "grid")
            f.fail("strategy", "expected \"dp\", \"owt\", \"mp\" or \"grid\", found '" + s + "'");
        m.source = parseSimSource(s);
    }
    if (const SettingsSweep* settings = m.info->settingsSweep()) {
        if (!f.has("settings")) f.fail("settings", m.info->sweep().needs_options);
        m.settings = settings->readBase(f.raw("settings"), source, f.pointer("settings"), base_dir);
    }
    if (traits.mcmc_options) {
        m.mcmc.iterations = f.integerIn("iterations", 1, kMaxSeed, 0);
        m.mcmc.budget_s = f.nonNegative("budget_s", 0);
        if (m.mcmc.budget_s > 1e7) f.fail("budget_s", "must be at most 10,000,000 seconds");
        m.mcmc.seed = static_cast<std::uint64_t>(f.integerIn("seed", 0, kMaxSeed, 1));
        m.mcmc.beta = f.nonNegative("beta", 1.0);
        m.mcmc.stop_on_stall = f.boolean("stop_on_stall", false);
        if (f.has("starts")) {
            const Json& starts = f.raw("starts");
            if (!starts.is_array() || starts.empty())
                f.fail("starts", "expected a non-empty list of \"dp\", \"owt\", \"mp\" or \"random\"");
            m.mcmc.starts.clear();
            for (size_t i = 0; i < starts.size(); ++i) {
                const std::string s = text(starts[i], source, f.pointer("starts") + "/" + std::to_string(i));
                if (s != "dp" && s != "owt" && s != "mp" && s != "random")
                    specFail(source, f.pointer("starts") + "/" + std::to_string(i),
                         "expected \"dp\", \"owt\", \"mp\" or \"random\", found '" + s + "'");
                m.mcmc.starts.push_back(s);
            }
        }
    }
    f.finish();
    return m;
}

// The combinations the spec's lists make (zip groups counted once), from the raw JSON before any
// entry is read: an over-large sweep is refused before work proportional to its lists' lengths.
// A zip group that is not yet valid is left out (its error comes later, from readZip).
void checkCombinations(const Json& root, const std::string& source) {
    std::map<std::string, std::int64_t> size;  // dimension -> values
    const auto count = [&](const char* key) {
        if (root.contains(key) && root.at(key).is_array()) size[key] = static_cast<std::int64_t>(root.at(key).size());
    };
    count("networks");
    count("arrays");
    count("topologies");
    count("methods");
    if (root.contains("methods") && root.at("methods").is_array()) size["method"] = size["methods"];
    for (const char* key : {"networks", "arrays", "topologies"})
        if (size.count(key)) size[std::string(key).substr(0, std::string(key).size() - 1)] = size[key];
    for (const char* key : {"networks", "arrays", "topologies", "methods"}) size.erase(key);
    if (root.contains("axes") && root.at("axes").is_object())
        for (auto it = root.at("axes").begin(); it != root.at("axes").end(); ++it)
            if (it->is_array()) size[it.key()] = static_cast<std::int64_t>(it->size());
    if (root.contains("zip") && root.at("zip").is_array())
        for (const Json& group : root.at("zip")) {
            if (!group.is_array() || group.size() < 2) continue;
            std::vector<std::string> names;
            for (const Json& n : group)
                if (n.is_string() && size.count(n.get<std::string>())) names.push_back(n.get<std::string>());
            if (names.size() != group.size()) continue;
            std::int64_t n = size[names[0]];
            for (const auto& name : names) n = std::min(n, size[name]);
            for (const auto& name : names) size.erase(name);
            size["zip:" + names[0]] = n;
        }
    std::int64_t product = 1;
    for (const auto& [name, n] : size)
        if (__builtin_mul_overflow(product, std::max<std::int64_t>(n, 1), &product) || product > kMaxPoints)
            throw InputError(source, "", "the sweep expands to more than " + withCommas(double(kMaxPoints)) +
                                             " combinations (the limit); split it into several sweeps");
}

// "hypar reads batch, levels, ...; llm reads tp, pp, ...": what the sweep's methods read, for messages.
std::string axesReadBy(const std::vector<MethodEntry>& methods) {
    std::string out;
    for (const MethodEntry& m : methods) {
        std::string names;
        for (const std::string& a : axesRead(*m.info))
            if (a != "topology") names += (names.empty() ? "" : ", ") + a;
        out += (out.empty() ? "" : "; ") + m.label + (names.empty() ? " reads no axis" : " reads " + names);
    }
    return out;
}

std::vector<Axis> readAxes(const Json& axes, const std::string& source, const std::vector<MethodEntry>& methods) {
    if (!axes.is_object()) specFail(source, "/axes", "expected an object of axis: [values], found " + excerpt(axes));
    std::vector<std::string> names;
    for (auto it = axes.begin(); it != axes.end(); ++it) {
        if (!knownAxis(it.key()))
            specFail(source, "/axes/" + it.key(), "unknown axis '" + it.key() + "' (" + axisNames() + ")");
        if (std::none_of(methods.begin(), methods.end(), [&](const MethodEntry& m) { return readsAxis(*m.info, it.key()); }))
            specFail(source, "/axes/" + it.key(),
                     "no method of this sweep reads axis '" + it.key() + "' (" + axesReadBy(methods) + ")");
        names.push_back(it.key());
    }
    std::stable_sort(names.begin(), names.end(),
                     [](const std::string& a, const std::string& b) { return axisRank(a) < axisRank(b); });
    std::vector<Axis> out;
    for (const std::string& name : names) {
        const std::string at = "/axes/" + name;
        const Json& values = axes.at(name);
        if (!values.is_array() || values.empty())
            specFail(source, at, "expected a non-empty list of values, found " + excerpt(values));
        Axis axis{name, {}};
        std::unordered_set<std::string> seen;  // linear in the axis' length
        axis.values.reserve(values.size());
        for (size_t i = 0; i < values.size(); ++i) {
            const std::string vat = at + "/" + std::to_string(i);
            if (const std::string why = axisProblem(name, values[i]); !why.empty())
                specFail(source, vat, "axis '" + name + "' " + why + ", found " + excerpt(values[i]));
            if (!seen.insert(valueKey(values[i])).second)
                specFail(source, vat, excerpt(values[i]) + " repeats an earlier value of axis '" + axis.name + "'");
            axis.values.push_back(values[i]);
        }
        out.push_back(std::move(axis));
    }
    return out;
}

std::vector<std::vector<std::string>> readZip(const Json& zip, const std::vector<Dimension>& dims,
                                              const std::string& source) {
    if (!zip.is_array()) specFail(source, "/zip", "expected a list of groups of dimension names, found " + excerpt(zip));
    std::vector<std::vector<std::string>> groups;
    std::map<std::string, size_t> seen;
    for (size_t g = 0; g < zip.size(); ++g) {
        const std::string at = "/zip/" + std::to_string(g);
        if (!zip[g].is_array() || zip[g].size() < 2)
            specFail(source, at, "a zip group lists two or more dimensions, found " + excerpt(zip[g]));
        std::vector<std::string> group;
        for (size_t i = 0; i < zip[g].size(); ++i) {
            const std::string iat = at + "/" + std::to_string(i);
            const std::string name = text(zip[g][i], source, iat);
            const int d = dimensionIndex(dims, name);
            if (d < 0) specFail(source, iat, "'" + name + "' is not a dimension of this sweep");
            if (seen.count(name)) specFail(source, iat, "'" + name + "' is already in zip group " + std::to_string(seen[name]));
            seen[name] = g;
            const size_t n0 = dims[static_cast<size_t>(dimensionIndex(dims, zip[g][0].get<std::string>()))].values.size();
            const size_t n = dims[static_cast<size_t>(d)].values.size();
            if (n != n0)
                specFail(source, iat, "'" + name + "' has " + std::to_string(n) + " values, '" +
                                      zip[g][0].get<std::string>() + "' " + std::to_string(n0) +
                                      ": zipped dimensions need as many values each");
            group.push_back(name);
        }
        groups.push_back(std::move(group));
    }
    return groups;
}

Json readExclude(const Json& rules, const std::vector<Dimension>& dims, const std::string& source) {
    if (!rules.is_array()) specFail(source, "/exclude", "expected a list of rules, found " + excerpt(rules));
    if (rules.size() > kMaxExcludeRules)  // every combination is tested against every rule
        specFail(source, "/exclude", std::to_string(rules.size()) + " rules exceed the limit of " +
                                     std::to_string(kMaxExcludeRules) + "; a rule's values may be a list");
    std::vector<std::unordered_set<std::string>> keys(dims.size());  // each dimension's values, made when needed
    for (size_t r = 0; r < rules.size(); ++r) {
        const std::string at = "/exclude/" + std::to_string(r);
        if (!rules[r].is_object() || rules[r].empty())
            specFail(source, at, "a rule is a non-empty object of dimension: value(s), found " + excerpt(rules[r]));
        for (auto it = rules[r].begin(); it != rules[r].end(); ++it) {
            const std::string kat = at + "/" + it.key();
            const int d = dimensionIndex(dims, it.key());
            if (d < 0) specFail(source, kat, "'" + it.key() + "' is not a dimension of this sweep");
            auto& known = keys[static_cast<size_t>(d)];
            if (known.empty())
                for (const Json& v : dims[static_cast<size_t>(d)].values) known.insert(valueKey(v));
            const Json list = it->is_array() ? *it : Json::array({*it});
            for (size_t i = 0; i < list.size(); ++i)
                if (!known.count(valueKey(list[i])))
                    specFail(source, it->is_array() ? kat + "/" + std::to_string(i) : kat,
                         excerpt(list[i]) + " is not a value of '" + it.key() + "'");
        }
    }
    return rules;
}

}  // namespace

Spec readSpec(const std::string& text_, const std::string& source, const std::string& base_dir,
              const std::string& examples_dir) {
    const Json root = parseJsonText(text_, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-sweep/1");
    checkCombinations(root, source);
    Spec s;
    s.source = source;
    s.name = f.string("name", validUtf8(fs::path(source).stem().string()));  // a name from a path may hold any byte
    s.description = f.string("description", "");
    // A sweep of settings methods alone (llm) needs no network: one placeholder entry stands for it.
    const bool needs_network = !root.contains("methods") || !root.at("methods").is_array() ||
                               std::any_of(root.at("methods").begin(), root.at("methods").end(), [](const Json& m) {
                                   const Json* key = m.is_object() && m.contains("method") ? &m.at("method") : &m;
                                   const MethodInfo* info = key->is_string() ? findMethod(key->get<std::string>()) : nullptr;
                                   return !info || !info->settingsSweep();
                               });
    if (needs_network || f.has("networks")) s.networks = readNetworks(nonEmptyList(f, "networks"), source, base_dir, examples_dir);
    else s.networks.push_back(Source{"none", "", false, 0, Topology::HTree});
    if (f.has("arrays")) {
        s.arrays = readArrays(nonEmptyList(f, "arrays"), source, base_dir, examples_dir);
    } else {
        Source a;
        a.levels = 4;
        a.label = "levels=4";
        s.arrays.push_back(a);
    }
    if (f.has("topologies"))
        s.topologies = readTopologies(nonEmptyList(f, "topologies"), source, base_dir);
    const Json& methods = nonEmptyList(f, "methods");
    for (size_t i = 0; i < methods.size(); ++i) s.methods.push_back(readMethod(methods[i], source, "/methods/" + std::to_string(i), base_dir));
    if (f.has("axes")) s.axes = readAxes(f.raw("axes"), source, s.methods);

    auto hasAxis = [&](const std::string& name) {
        return std::any_of(s.axes.begin(), s.axes.end(), [&](const Axis& a) { return a.name == name; });
    };
    bool simulated = false;
    std::unordered_set<std::string> labels;
    for (size_t i = 0; i < s.methods.size(); ++i) {
        const MethodEntry& m = s.methods[i];
        const std::string at = "/methods/" + std::to_string(i);
        if (!labels.insert(m.label).second)
            specFail(source, at, "the label '" + m.label + "' is used twice; give each entry its own \"label\"");
        simulated = simulated || m.simulated();
        if (m.simulated() && s.topologies.empty())
            specFail(source, at, m.method + " needs \"topologies\" to run on");
        if (m.info->sweep().mcmc_options) {
            const Json& given = methods[i];
            for (const char* key : {"iterations", "seed", "beta"})
                if (given.contains(key) && hasAxis(key))
                    specFail(source, at + "/" + key, std::string("'") + key + "' is also an axis; give it in one place");
            if (m.mcmc.iterations == 0 && m.mcmc.budget_s == 0 && !hasAxis("iterations"))
                specFail(source, at, "mcmc needs \"iterations\" (here or as an axis) or \"budget_s\"");
        }
    }
    if (!s.topologies.empty() && !simulated) specFail(source, "/topologies", "no simulate or mcmc method uses them");
    for (const auto* list : {&s.networks, &s.arrays, &s.topologies}) {
        std::unordered_set<std::string> listed;
        for (size_t i = 0; i < list->size(); ++i)
            if (!listed.insert((*list)[i].label).second) {
                const std::string key = list == &s.networks ? "networks" : list == &s.arrays ? "arrays" : "topologies";
                specFail(source, "/" + key + "/" + std::to_string(i), "'" + (*list)[i].label + "' is listed twice");
            }
    }
    const auto dims = dimensions(s);
    if (f.has("zip")) s.zip = readZip(f.raw("zip"), dims, source);
    if (f.has("exclude")) s.exclude = readExclude(f.raw("exclude"), dims, source);
    f.finish();
    return s;
}

Spec loadSpec(const std::string& path, const std::string& examples_dir) {
    return readSpec(readTextFile(path), path, fs::path(path).parent_path().string(), examples_dir);
}

}  // namespace partita::sweep
