#include "app/cli/args.h"

#include <cmath>

namespace partita::cli {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& valued, const std::set<std::string>& flags) {
    for (size_t i = 0; i < argv.size(); ++i) {
        std::string a = argv[i];
        if (a.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + a + "'");
        std::string value;
        bool inline_value = false;
        if (const auto eq = a.find('='); eq != std::string::npos) {
            value = a.substr(eq + 1);
            a = a.substr(0, eq);
            inline_value = true;
        }
        const std::string name = a.substr(2);
        if (flags.count(name)) {
            if (inline_value) throw UsageError("option --" + name + " takes no value");
            flags_.insert(name);
        } else if (valued.count(name)) {
            if (!inline_value) {
                if (i + 1 >= argv.size()) throw UsageError("option --" + name + " needs a value");
                value = argv[++i];
            }
            values_[name] = value;
            repeated_[name].push_back(value);
        } else {
            throw UsageError("unknown option --" + name);
        }
    }
}

std::string Args::get(const std::string& name, const std::string& fallback) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

std::vector<std::string> Args::all(const std::string& name) const {
    const auto it = repeated_.find(name);
    return it == repeated_.end() ? std::vector<std::string>{} : it->second;
}

std::string Args::required(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw UsageError("option --" + name + " is required");
    return it->second;
}

double Args::number(const std::string& name, double fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(it->second, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != it->second.size() || !std::isfinite(v))
        throw UsageError("option --" + name + " expects a number, got '" + it->second + "'");
    return v;
}

int Args::integer(const std::string& name, int fallback) const {
    const double v = number(name, fallback);
    if (v != std::floor(v) || std::fabs(v) > 1e9)
        throw UsageError("option --" + name + " expects an integer, got '" + get(name) + "'");
    return static_cast<int>(v);
}

std::int64_t Args::integerIn(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const {
    if (!has(name)) return fallback;
    const double v = number(name, static_cast<double>(fallback));
    // Doubles hold every integer below 2^53 exactly; the limits passed here are far below that.
    if (v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi))
        throw UsageError("option --" + name + " expects an integer from " + std::to_string(lo) + " to " +
                         std::to_string(hi) + ", got '" + get(name) + "'");
    return static_cast<std::int64_t>(v);
}

double Args::positiveNumber(const std::string& name, double fallback, double hi) const {
    const double v = number(name, fallback);
    if (!(v > 0) || v > hi) {
        if (v > hi) throw UsageError("option --" + name + " must be at most " + std::to_string(hi) + ", got '" + get(name) + "'");
        throw UsageError("option --" + name + " must be positive, got '" + get(name) + "'");
    }
    return v;
}

double Args::numberIn(const std::string& name, double fallback, const Range& r) const {
    const double v = number(name, fallback);
    if (const std::string why = rangeProblem(v, r); !why.empty()) throw UsageError("option --" + name + " " + why);
    return v;
}

}  // namespace partita::cli
