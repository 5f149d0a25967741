#include "core/util/ranges.h"

#include "core/util/format.h"

namespace partita {

std::string rangeProblem(double v, const Range& r) {
    if (v >= r.lo && v <= r.hi) return {};  // false for NaN
    return "must be between " + formatNumber(r.lo) + " and " + formatNumber(r.hi) + r.unit + ", got " +
           formatNumber(v) + r.unit;
}

}  // namespace partita
