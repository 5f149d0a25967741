#pragma once
// A small strict option parser: "--key value" and "--flag"; unknown options
// and missing values are errors that name the option.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <set>
#include <string>
#include <vector>

#include "core/util/limits.h"
#include "core/util/ranges.h"

namespace partita::cli {

// Command-line values read through a double must be exact integers: seeds and counts up to 2^53.
inline constexpr std::int64_t kMaxSeed = std::int64_t{1} << 53;

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Args {
public:
    // `valued` options take a value, `flags` do not.
    Args(const std::vector<std::string>& argv, const std::set<std::string>& valued, const std::set<std::string>& flags);

    bool has(const std::string& name) const { return values_.count(name) || flags_.count(name); }
    bool flag(const std::string& name) const { return flags_.count(name) > 0; }
    std::string get(const std::string& name, const std::string& fallback = "") const;
    std::vector<std::string> all(const std::string& name) const;  // every value of a repeated option, in order
    std::string required(const std::string& name) const;
    double number(const std::string& name, double fallback) const;
    int integer(const std::string& name, int fallback) const;
    // An integer in [lo, hi]; anything else (0.5, 1e300, text) is a UsageError naming the range.
    std::int64_t integerIn(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const;
    // A finite number > 0 (and <= hi).
    double positiveNumber(const std::string& name, double fallback, double hi = 1e300) const;
    // A number within `r` (core/util/ranges.h); anything else is a UsageError naming the range.
    double numberIn(const std::string& name, double fallback, const Range& r) const;

private:
    std::map<std::string, std::string> values_;  // the last value of each option
    std::map<std::string, std::vector<std::string>> repeated_;
    std::set<std::string> flags_;
};

// Runs a parser of an option's value; its std::invalid_argument becomes a UsageError (exit 2).
template <class F>
auto usage(const std::string& option, F f) {
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        throw UsageError("--" + option + ": " + e.what());
    }
}

}  // namespace partita::cli
