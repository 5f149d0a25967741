#include "core/sweep/axes.h"

#include <cstdint>

#include "core/settings/array_fields.h"
#include "core/settings/cost_fields.h"
#include "core/sweep/point_run.h"
#include "core/util/format.h"

namespace partita::sweep {
namespace {

// Command-line values read through a double must be exact integers: seeds and counts up to 2^53.
constexpr std::int64_t kMaxCount = std::int64_t{1} << 53;

std::string integers(const Json& v, std::int64_t lo, std::int64_t hi) {
    const bool ok = v.is_number_integer() && !(v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(hi)) &&
                    v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
    return ok ? "" : "takes integers from " + std::to_string(lo) + " to " + std::to_string(hi);
}

std::string numbers(const Json& v, double lo, bool open, double hi) {
    const bool ok = v.is_number() && (open ? v.get<double>() > lo : v.get<double>() >= lo) && v.get<double>() <= hi;
    return ok ? "" : std::string("takes numbers ") + (open ? "above " : "from ") + formatNumber(lo) + " to " +
                         formatNumber(hi);
}

std::string oneOf(const Json& v, const std::vector<std::string>& names) {
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) {
        if (v.is_string() && v.get<std::string>() == names[i]) return "";
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("\"" + names[i] + "\"");
    }
    return "takes " + list;
}

// The checks a field's row implies: integers and numbers within its range, one of its choice names.
template <class S>
std::function<std::string(const Json&)> fieldProblem(const Field<S>& f) {
    if (f.type == FieldType::Integer)
        return [&f](const Json& v) {
            return integers(v, static_cast<std::int64_t>(f.range.lo), static_cast<std::int64_t>(f.range.hi));
        };
    if (f.type == FieldType::Choice)
        return [&f](const Json& v) {
            std::vector<std::string> names;
            for (const FieldChoice& c : f.choices) names.push_back(c.name);
            return oneOf(v, names);
        };
    return [&f](const Json& v) { return numbers(v, f.range.lo, false, f.range.hi); };
}

// The value as the field stores it: a choice's index, else the number.
template <class S>
double fieldValue(const Field<S>& f, const Json& v) {
    return f.type == FieldType::Choice ? *choiceIndex(f, v.get<std::string>()) : v.get<double>();
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
    return {key, fieldProblem(f), [&f](Prepared& p, const Json& v) { setFieldValue(f, p.params, fieldValue(f, v)); }};
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
        {"mode", [](const Json& v) { return oneOf(v, {"cal", "lit"}); },
         [](Prepared& p, const Json& v) { p.params.comm.w_intra = v.get<std::string>() == "cal" ? 2.0 : 1.0; }},
        costAxis("out_size"),
        {"ratio_model", fieldProblem(ratio),
         [&ratio](Prepared& p, const Json& v) { setFieldValue(ratio, p.accpar, fieldValue(ratio, v)); }},
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

std::string axisNames() {
    std::string names;
    for (const AxisDef& a : axisDefs()) names += (names.empty() ? "" : ", ") + a.name;
    return names;
}

}  // namespace partita::sweep
