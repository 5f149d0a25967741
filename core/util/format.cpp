#include "core/util/format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace partita {

std::string formatNumber(double value) {
    // Shortest digits that read back exactly, in plain decimals for the magnitudes tables hold (a CSV
    // column never mixes 1.04544e+06 with 0.4768792); exponents only for the very small and very large.
    char buf[400];
    const double mag = std::fabs(value);
    const bool plain = mag == 0 || (mag >= 1e-4 && mag < 1e15);
    const auto r = plain ? std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed)
                         : std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    return std::string(buf, r.ptr);
}

std::string compactNumber(double value) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);  // fixed or scientific, the shorter
    return std::string(buf, r.ptr);
}

std::string withCommas(double value) {
    const bool negative = value < 0;
    const double mag = std::fabs(value);
    const double whole = std::floor(mag);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", whole);
    std::string digits = buf, out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    if (mag != whole) {
        std::snprintf(buf, sizeof buf, "%.6g", mag - whole);
        out += std::string(buf).substr(1);  // ".5"
    }
    return (negative ? "-" : "") + out;
}

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::string withPrefix(double value, const char* unit) {
    if (value == 0) return std::string("0 ") + unit;
    static const struct { double factor; const char* prefix; } steps[] = {
        {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
    for (const auto& s : steps)
        if (std::fabs(value) >= s.factor || s.factor == 1e-12) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.4g %s%s", value / s.factor, s.prefix, unit);
            return buf;
        }
    return "";
}

}  // namespace partita
