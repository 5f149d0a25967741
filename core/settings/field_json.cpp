#include "core/settings/field_json.h"

#include "core/util/format.h"

namespace partita {

std::string jsonIntegerProblem(const Json& v, std::int64_t lo, std::int64_t hi) {
    const bool ok = v.is_number_integer() && !(v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(hi)) &&
                    v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
    return ok ? "" : "takes integers from " + std::to_string(lo) + " to " + std::to_string(hi);
}

std::string jsonNumberProblem(const Json& v, double lo, bool open, double hi) {
    const bool ok = v.is_number() && (open ? v.get<double>() > lo : v.get<double>() >= lo) && v.get<double>() <= hi;
    return ok ? "" : std::string("takes numbers ") + (open ? "above " : "from ") + formatNumber(lo) + " to " +
                         formatNumber(hi);
}

std::string jsonNameProblem(const Json& v, const std::vector<std::string>& names) {
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) {
        if (v.is_string() && v.get<std::string>() == names[i]) return "";
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("\"" + names[i] + "\"");
    }
    return "takes " + list;
}

}  // namespace partita
