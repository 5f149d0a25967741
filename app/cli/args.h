#pragma once
// A small strict option parser: "--key value" and "--flag"; unknown options
// and missing values are errors that name the option.
#include <map>
#include <stdexcept>
#include <set>
#include <string>
#include <vector>

namespace partita::cli {

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
    std::string required(const std::string& name) const;
    double number(const std::string& name, double fallback) const;
    int integer(const std::string& name, int fallback) const;

private:
    std::map<std::string, std::string> values_;
    std::set<std::string> flags_;
};

}  // namespace partita::cli
