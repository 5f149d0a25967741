#include "core/sweep/axes.h"

#include <algorithm>
#include <cstdint>

#include "core/settings/array_fields.h"
#include "core/settings/cost_fields.h"
#include "core/settings/field_json.h"
#include "core/sweep/point_run.h"

namespace partita::sweep {
namespace {

// Command-line values read through a double must be exact integers: seeds and counts up to 2^53.
constexpr std::int64_t kMaxCount = std::int64_t{1} << 53;

std::string integers(const Json& v, std::int64_t lo, std::int64_t hi) { return jsonIntegerProblem(v, lo, hi); }

std::string numbers(const Json& v, double lo, bool open, double hi) { return jsonNumberProblem(v, lo, open, hi); }

template <class S>
std::function<std::string(const Json&)> fieldProblem(const Field<S>& f) {
    return [&f](const Json& v) { return fieldJsonProblem(f, v); };
}

// An array setting: checked as a positive number here and with the whole array per point (link_bps x
// factor^k); a whole-number one (levels) reshapes the array, so the point applies it (point_run.cpp).
AxisDef arrayAxis(const Field<Array>& f) {
    if (f.type == FieldType::Integer) return {f.key, fieldProblem(f), {}, AxisStage::Array, f.swept_by};
    return {f.key, [](const Json& v) { return numbers(v, 0, true, 1e300); },
            [&f](Prepared& p, const Json& v) { f.set(p.array, v.get<double>()); }, AxisStage::Array, f.swept_by};
}

// A cost-model setting; AccPar's setting of the same key (the element size) follows it.
AxisDef costAxis(const Field<CostParams>& f) {
    const Field<AccParParams>* same = findField(accparFields(), f.key);
    return {f.key, fieldProblem(f),
            [&f, same](Prepared& p, const Json& v) {
                setFieldJson(f, p.params, v);
                if (same) setFieldJson(*same, p.accpar, v);
            },
            AxisStage::Params, f.swept_by};
}

AxisDef accparAxis(const Field<AccParParams>& f) {
    return {f.key, fieldProblem(f), [&f](Prepared& p, const Json& v) { setFieldJson(f, p.accpar, v); },
            AxisStage::Params, f.swept_by};
}

// The field tables' axes (rows with readers), then the sweep's own: the cost model's mode and MCMC's settings.
std::vector<AxisDef> makeAxes() {
    using namespace axis_readers;
    std::vector<AxisDef> axes;
    for (const auto& f : costFields())
        if (f.swept_by) axes.push_back(costAxis(f));
    axes.push_back({"mode", [](const Json& v) { return jsonNameProblem(v, {"cal", "lit"}); },
                    [](Prepared& p, const Json& v) { p.params.comm.w_intra = v.get<std::string>() == "cal" ? 2.0 : 1.0; },
                    AxisStage::Params, kGridPlans | kSimulate});
    for (const auto& f : arrayFields())
        if (f.swept_by) axes.push_back(arrayAxis(f));
    for (const auto& f : accparFields())
        if (f.swept_by) axes.push_back(accparAxis(f));
    axes.push_back({"iterations", [](const Json& v) { return integers(v, 1, kMaxCount); },
                    [](Prepared& p, const Json& v) { p.sim.mcmc.iterations = v.get<std::int64_t>(); }, AxisStage::Mcmc,
                    kMcmc});
    axes.push_back({"seed", [](const Json& v) { return integers(v, 0, kMaxCount); },
                    [](Prepared& p, const Json& v) { p.sim.mcmc.seed = v.get<std::uint64_t>(); }, AxisStage::Mcmc,
                    kMcmc});
    axes.push_back({"beta", [](const Json& v) { return numbers(v, 0, false, 1e300); },
                    [](Prepared& p, const Json& v) { p.sim.mcmc.beta = v.get<double>(); }, AxisStage::Mcmc, kMcmc});
    return axes;
}

}  // namespace

const std::vector<AxisDef>& axisDefs() {
    static const std::vector<AxisDef> axes = makeAxes();
    return axes;
}

const AxisDef* findAxis(const std::string& name) {
    for (const AxisDef& a : axisDefs())
        if (a.name == name) return &a;
    return nullptr;
}

namespace {

// The settings methods' axes, registered ones at the time of the call (a test may register more).
std::vector<const SettingsAxis*> settingsAxes() {
    std::vector<const SettingsAxis*> out;
    for (const MethodInfo* m : allMethods())
        if (const SettingsSweep* s = m->settingsSweep())
            for (const SettingsAxis& a : s->axes())
                if (std::none_of(out.begin(), out.end(), [&](const SettingsAxis* b) { return b->name == a.name; }))
                    out.push_back(&a);
    return out;
}

}  // namespace

const SettingsAxis* findSettingsAxis(const std::string& name) {
    for (const SettingsAxis* a : settingsAxes())
        if (a->name == name) return a;
    return nullptr;
}

bool knownAxis(const std::string& name) { return findAxis(name) || findSettingsAxis(name); }

std::string axisProblem(const std::string& name, const Json& v) {
    if (const AxisDef* a = findAxis(name)) return a->problem(v);
    if (const SettingsAxis* a = findSettingsAxis(name)) return a->problem(v);
    return "unknown";
}

int axisRank(const std::string& name) {
    const auto& defs = axisDefs();
    for (std::size_t i = 0; i < defs.size(); ++i)
        if (defs[i].name == name) return static_cast<int>(i);
    const auto more = settingsAxes();
    for (std::size_t i = 0; i < more.size(); ++i)
        if (more[i]->name == name) return static_cast<int>(defs.size() + i);
    return -1;
}

bool readsAxis(const MethodInfo& method, const std::string& name) {
    const unsigned reader = method.sweep().axis_reader;
    if (name == "topology") return (reader & (axis_readers::kSimulate | axis_readers::kMcmc)) != 0;
    if (const AxisDef* a = findAxis(name)) return (a->readers & reader) != 0;
    if (const SettingsSweep* s = method.settingsSweep())
        return std::any_of(s->axes().begin(), s->axes().end(), [&](const SettingsAxis& a) { return a.name == name; });
    return false;
}

std::vector<std::string> axesRead(const MethodInfo& method) {
    std::vector<std::string> out;
    if (readsAxis(method, "topology")) out.push_back("topology");
    for (const AxisDef& a : axisDefs())
        if (readsAxis(method, a.name)) out.push_back(a.name);
    if (const SettingsSweep* s = method.settingsSweep())
        for (const SettingsAxis& a : s->axes()) out.push_back(a.name);
    return out;
}

std::string axisNames() {
    std::string names;
    for (const AxisDef& a : axisDefs()) names += (names.empty() ? "" : ", ") + a.name;
    for (const SettingsAxis* a : settingsAxes()) names += ", " + a->name;
    return names;
}

}  // namespace partita::sweep
