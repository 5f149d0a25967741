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

template <class S>
const Field<S>& row(const FieldTable<S>& table, const char* key) {
    return *findField(table, key);  // a key of this file: the field tables' test lists them
}

AxisDef arrayAxis(const char* key) {
    const Field<Array>& f = row(arrayFields(), key);
    // Checked as a positive number here and with the whole array per point (link_bps x factor^k).
    return {key, [](const Json& v) { return numbers(v, 0, true, 1e300); },
            [&f](Prepared& p, const Json& v) { f.set(p.array, v.get<double>()); }, AxisStage::Array};
}

AxisDef costAxis(const char* key) {
    const Field<CostParams>& f = row(costFields(), key);
    return {key, fieldProblem(f), [&f](Prepared& p, const Json& v) { setFieldJson(f, p.params, v); }};
}

std::vector<AxisDef> makeAxes() {
    const Field<Array>& levels = row(arrayFields(), "levels");
    const Field<AccParParams>& ratio = row(accparFields(), "ratio_model");
    const Field<AccParParams>& accpar_bytes = row(accparFields(), "bytes_per_element");
    AxisDef bytes = costAxis("bytes_per_element");  // both models' element size
    bytes.apply = [base = bytes.apply, &accpar_bytes](Prepared& p, const Json& v) {
        base(p, v);
        setFieldValue(accpar_bytes, p.accpar, v.get<double>());
    };
    return {
        costAxis("batch"),
        {"levels", fieldProblem(levels), {}, AxisStage::Array},
        arrayAxis("link_bps"),
        arrayAxis("level_bw_factor"),
        arrayAxis("throughput_ops"),
        bytes,
        {"mode", [](const Json& v) { return jsonNameProblem(v, {"cal", "lit"}); },
         [](Prepared& p, const Json& v) { p.params.comm.w_intra = v.get<std::string>() == "cal" ? 2.0 : 1.0; }},
        costAxis("out_size"),
        {"ratio_model", fieldProblem(ratio),
         [&ratio](Prepared& p, const Json& v) { setFieldJson(ratio, p.accpar, v); }},
        {"iterations", [](const Json& v) { return integers(v, 1, kMaxCount); },
         [](Prepared& p, const Json& v) { p.sim.mcmc.iterations = v.get<std::int64_t>(); }, AxisStage::Mcmc},
        {"seed", [](const Json& v) { return integers(v, 0, kMaxCount); },
         [](Prepared& p, const Json& v) { p.sim.mcmc.seed = v.get<std::uint64_t>(); }, AxisStage::Mcmc},
        {"beta", [](const Json& v) { return numbers(v, 0, false, 1e300); },
         [](Prepared& p, const Json& v) { p.sim.mcmc.beta = v.get<double>(); }, AxisStage::Mcmc},
    };
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

std::string axisNames() {
    std::string names;
    for (const AxisDef& a : axisDefs()) names += (names.empty() ? "" : ", ") + a.name;
    for (const SettingsAxis* a : settingsAxes()) names += ", " + a->name;
    return names;
}

}  // namespace partita::sweep
