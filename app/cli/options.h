#pragma once
// partita-cli's options on CLI11: the usage error, registration helpers (one line per option, its
// help written beside it), reusable range validators, and `Options`, a read view of one parsed
// subcommand that the command bodies use.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/util/limits.h"
#include "core/util/ranges.h"

namespace partita::cli {

// Command-line values read through a double must be exact integers: seeds and counts up to 2^53.
inline constexpr std::int64_t kMaxSeed = std::int64_t{1} << 53;

// A wrong command line: exit status 2, the message names the option.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The options given to one (sub)command, by long name without the dashes (positionals by their name).
class Options {
public:
    explicit Options(const CLI::App& app) : app_(&app) {}

    bool has(const std::string& name) const;
    bool flag(const std::string& name) const { return has(name); }
    std::string get(const std::string& name, const std::string& fallback = "") const;  // the last value
    std::vector<std::string> all(const std::string& name) const;  // every value of a repeated option, in order
    std::string required(const std::string& name) const;
    double number(const std::string& name, double fallback) const;
    int integer(const std::string& name, int fallback) const;
    // An integer option whose range its validator (integerIn) checked when the command line was parsed.
    std::int64_t integer64(const std::string& name, std::int64_t fallback) const;
    // An integer in [lo, hi]; anything else (0.5, 1e300, text) is a UsageError naming the range.
    std::int64_t integerIn(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const;
    // A finite number > 0 (and <= hi).
    double positiveNumber(const std::string& name, double fallback, double hi = 1e300) const;
    // A number within `r` (core/util/ranges.h); anything else is a UsageError naming the range.
    double numberIn(const std::string& name, double fallback, const Range& r) const;

private:
    const CLI::Option* find(const std::string& name) const;
    const CLI::App* app_;
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

// Checks of a value, for CLI11's Option::check; their messages read after "option --NAME ".
CLI::Validator isNumber();
CLI::Validator integerIn(std::int64_t lo, std::int64_t hi);
CLI::Validator positiveNumber(double hi = 1e300);
CLI::Validator numberIn(const Range& r);

// "--name VALUE" (repeatable; the last one counts unless the command reads all), e.g.
// value(app, "batch", "B", "samples per step (256)")->check(integerIn(1, limits::kBatch)).
CLI::Option* value(CLI::App& app, const std::string& name, const std::string& value_name, const std::string& help);
CLI::Option* flag(CLI::App& app, const std::string& name, const std::string& help);
CLI::Option* positional(CLI::App& app, const std::string& name, const std::string& help);

// What a command does with its parsed options; returns the exit status.
using Handler = std::function<int(const Options&, std::ostream& out, std::ostream& err)>;

// The streams and the exit status of one run, shared by every command's callback.
struct RunContext {
    std::ostream* out;
    std::ostream* err;
    int status = 0;
};

// Adds subcommand `name` to `parent`, running `handler` when it is the one chosen.
CLI::App* command(CLI::App& parent, RunContext& ctx, const std::string& name, const std::string& description,
                  Handler handler);
// The same for a command that writes only to `out`.
CLI::App* command(CLI::App& parent, RunContext& ctx, const std::string& name, const std::string& description,
                  int (*handler)(const Options&, std::ostream& out));

}  // namespace partita::cli
