#pragma once
// Small conversions shared by the LLM model's sources (docs/methods/llm.md).
#include <cstdint>
#include <string>

namespace partita::llm {

inline constexpr double kGiB = 1073741824.0;  // bytes in a GiB

// A count as a double, for the model's floating-point formulas.
inline double d(std::int64_t v) { return static_cast<double>(v); }

inline std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace partita::llm
