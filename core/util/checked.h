#pragma once
// Checked integer arithmetic on input-derived values: an overflow or an out-of-range
// narrowing throws std::overflow_error, which callers turn into an InputError naming the place.
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace partita {

inline std::int64_t checkedMul(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        throw std::overflow_error(std::to_string(a) + " x " + std::to_string(b) + " overflows 64-bit integers");
    return r;
}

inline std::int64_t checkedAdd(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        throw std::overflow_error(std::to_string(a) + " + " + std::to_string(b) + " overflows 64-bit integers");
    return r;
}

inline std::int64_t checkedSub(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
        throw std::overflow_error(std::to_string(a) + " - " + std::to_string(b) + " overflows 64-bit integers");
    return r;
}

// a * b, or throws when the product exceeds `limit` (a, b >= 0); `what` names the quantity.
inline std::int64_t boundedMul(std::int64_t a, std::int64_t b, std::int64_t limit, const std::string& what) {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r) || r > limit)
        throw std::overflow_error(what + " (" + std::to_string(a) + " x " + std::to_string(b) + ") exceeds the limit of " +
                                  std::to_string(limit));
    return r;
}

// Narrows `v` to T, or throws when it does not fit.
template <class T>
T narrow(std::int64_t v, const std::string& what) {
    if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
        v > static_cast<std::int64_t>(std::numeric_limits<T>::max()))
        throw std::overflow_error(what + " " + std::to_string(v) + " does not fit");
    return static_cast<T>(v);
}

}  // namespace partita
