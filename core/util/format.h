#pragma once
// Number formatting shared by the CLI, the GUI and exports, so every surface
// shows a quantity the same way, with its unit.
#include <string>

namespace partita {

std::string formatNumber(double value);           // shortest exact text: 1045440, 0.4768792, 1e-09
std::string compactNumber(double value);          // shortest exact text, exponent when shorter: 3.2e+09
std::string withCommas(double value);             // 3901560 -> "3,901,560" (fraction kept if any)
std::string fixed(double value, int decimals);    // "%.*f"
std::string withPrefix(double value, const char* unit);  // 0.01234 "s" -> "12.34 ms" (4 significant digits)
inline std::string seconds(double value) { return withPrefix(value, "s"); }
inline std::string joules(double value) { return withPrefix(value, "J"); }

}  // namespace partita
