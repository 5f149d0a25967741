#pragma once
// The last line behind the parameter limits (issue 26 item 3): an engine result that is not a finite
// number becomes an error naming the inputs, never a printed "nan" or "inf".
#include <cmath>
#include <string>

#include "core/util/error.h"
#include "core/util/format.h"

namespace partita {

// Throws Error("<inputs>: <what> is not a finite number (inf); ...") unless `value` is finite.
inline void requireFinite(double value, const std::string& what, const std::string& inputs) {
    if (std::isfinite(value)) return;
    throw Error(inputs + ": " + what + " is not a finite number (" + compactNumber(value) +
                "); a parameter lies outside what the model computes (docs/formats/limits.md)");
}

// a / b where two zeros are equal (1): all energies are zero when every energy parameter is.
inline double ratioOf(double a, double b) { return a == 0 && b == 0 ? 1.0 : a / b; }

}  // namespace partita
