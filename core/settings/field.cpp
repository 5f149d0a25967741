#include "core/settings/field.h"

#include <cmath>
#include <charconv>

#include "core/settings/field_docs.h"
#include "core/util/format.h"

namespace partita {

std::string fieldProblem(FieldType type, const Range& range, double v) {
    if (type == FieldType::Integer && !(v == std::floor(v) && v >= range.lo && v <= range.hi))
        return "must be an integer from " + formatNumber(range.lo) + " to " + formatNumber(range.hi) + ", got " +
               formatNumber(v);
    return rangeProblem(v, range);
}

std::string fieldNumberText(double v) {
    // compactNumber's "4.2e+11" as "4.2e11", the form users type and the editor shows.
    std::string t = compactNumber(v);
    const auto e = t.find('e');
    if (e == std::string::npos) return t;
    std::string mantissa = t.substr(0, e), exponent = t.substr(e + 1);
    const bool negative = !exponent.empty() && exponent[0] == '-';
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
    while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
    return mantissa + "e" + (negative ? "-" : "") + exponent;
}

std::optional<double> parseFieldNumber(const std::string& text) {
    if (text.empty()) return std::nullopt;
    double v = 0;  // from_chars: the same in every locale
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<bool> parseFieldFlag(const std::string& text) {
    if (text == "true" || text == "1" || text == "on") return true;
    if (text == "false" || text == "0" || text == "off") return false;
    return std::nullopt;
}

std::string choiceNames(const std::vector<FieldChoice>& choices, bool quoted) {
    std::string out;
    for (size_t i = 0; i < choices.size(); ++i) {
        if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
        out += quoted ? std::string("\"") + choices[i].name + "\"" : std::string(choices[i].name);
    }
    return out;
}

const char* fieldModelsName(FieldModels m) {
    switch (m) {
    case FieldModels::HyPar: return "HyPar";
    case FieldModels::AccPar: return "AccPar";
    default: return "both";
    }
}

std::string axisReadersText(unsigned readers) {
    using namespace axis_readers;
    const std::pair<unsigned, const char*> names[] = {
        {kGridPlans, "HyPar, DP, MP, OWT"}, {kAccPar, "AccPar"}, {kSimulate, "Simulate"}, {kMcmc, "MCMC"}};
    std::string out;
    for (const auto& [bit, name] : names)
        if (readers & bit) out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

}  // namespace partita
