#include "app/cli/options.h"

#include <cmath>
#include <ostream>

namespace partita::cli {

namespace {

// A finite number written in full ("4", "1e9", "-0.5"); nothing else.
bool parseNumber(const std::string& text, double& v) {
    size_t used = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        return false;
    }
    return used == text.size() && std::isfinite(v);
}

std::string expectsNumber(const std::string& text) { return "expects a number, got '" + text + "'"; }

std::string integerProblem(const std::string& text, std::int64_t lo, std::int64_t hi) {
    double v = 0;
    if (!parseNumber(text, v)) return expectsNumber(text);
    // Doubles hold every integer below 2^53 exactly; the limits passed here are no larger.
    if (v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi))
        return "expects an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" + text + "'";
    return "";
}

std::string positiveProblem(const std::string& text, double hi) {
    double v = 0;
    if (!parseNumber(text, v)) return expectsNumber(text);
    if (v > hi) return "must be at most " + std::to_string(hi) + ", got '" + text + "'";
    if (!(v > 0)) return "must be positive, got '" + text + "'";
    return "";
}

std::string rangedProblem(const std::string& text, const Range& r) {
    double v = 0;
    if (!parseNumber(text, v)) return expectsNumber(text);
    return rangeProblem(v, r);
}

void check(const std::string& name, const std::string& problem) {
    if (!problem.empty()) throw UsageError("option --" + name + " " + problem);
}

}  // namespace

const CLI::Option* Options::find(const std::string& name) const {
    if (const CLI::Option* o = app_->get_option_no_throw("--" + name)) return o;
    return app_->get_option_no_throw(name);
}

bool Options::has(const std::string& name) const {
    const CLI::Option* o = find(name);
    return o && o->count() > 0;
}

std::string Options::get(const std::string& name, const std::string& fallback) const {
    const CLI::Option* o = find(name);
    return o && !o->results().empty() ? o->results().back() : fallback;
}

std::vector<std::string> Options::all(const std::string& name) const {
    const CLI::Option* o = find(name);
    return o ? o->results() : std::vector<std::string>{};
}

std::string Options::required(const std::string& name) const {
    if (!has(name)) throw UsageError("option --" + name + " is required");
    return get(name);
}

double Options::number(const std::string& name, double fallback) const {
    if (!has(name)) return fallback;
    double v = 0;
    if (!parseNumber(get(name), v)) check(name, expectsNumber(get(name)));
    return v;
}

int Options::integer(const std::string& name, int fallback) const {
    const double v = number(name, fallback);
    if (v != std::floor(v) || std::fabs(v) > 1e9) check(name, "expects an integer, got '" + get(name) + "'");
    return static_cast<int>(v);
}

std::int64_t Options::integer64(const std::string& name, std::int64_t fallback) const {
    return has(name) ? static_cast<std::int64_t>(number(name, 0)) : fallback;
}

std::int64_t Options::integerIn(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const {
    if (!has(name)) return fallback;
    check(name, integerProblem(get(name), lo, hi));
    return static_cast<std::int64_t>(number(name, 0));
}

double Options::positiveNumber(const std::string& name, double fallback, double hi) const {
    if (!has(name)) {
        check(name, positiveProblem(std::to_string(fallback), hi));
        return fallback;
    }
    check(name, positiveProblem(get(name), hi));
    return number(name, fallback);
}

double Options::numberIn(const std::string& name, double fallback, const Range& r) const {
    const double v = number(name, fallback);
    check(name, rangeProblem(v, r));
    return v;
}

CLI::Validator isNumber() {
    return CLI::Validator([](std::string& s) { double v = 0; return parseNumber(s, v) ? std::string() : expectsNumber(s); },
                          "NUMBER");
}

CLI::Validator integerIn(std::int64_t lo, std::int64_t hi) {
    return CLI::Validator([lo, hi](std::string& s) { return integerProblem(s, lo, hi); },
                          std::to_string(lo) + ".." + std::to_string(hi));
}

CLI::Validator positiveNumber(double hi) {
    return CLI::Validator([hi](std::string& s) { return positiveProblem(s, hi); }, "> 0");
}

CLI::Validator numberIn(const Range& r) {
    return CLI::Validator([r](std::string& s) { return rangedProblem(s, r); }, "");
}

CLI::Option* value(CLI::App& app, const std::string& name, const std::string& value_name, const std::string& help) {
    return app.add_option("--" + name, help)
        ->type_name(value_name)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

CLI::Option* flag(CLI::App& app, const std::string& name, const std::string& help) {
    return app.add_flag("--" + name, help);
}

CLI::Option* positional(CLI::App& app, const std::string& name, const std::string& help) {
    return app.add_option(name, help)->type_name("");
}

CLI::App* command(CLI::App& parent, RunContext& ctx, const std::string& name, const std::string& description,
                  Handler handler) {
    CLI::App* sub = parent.add_subcommand(name, description);
    // Unknown options are collected, not thrown at, so that the error can name them as before.
    sub->allow_extras();
    sub->callback([sub, &ctx, handler] {
        const auto extra = sub->remaining();
        if (!extra.empty()) {
            const std::string& first = extra.front();
            if (first.rfind("-", 0) == 0) throw UsageError("unknown option " + first.substr(0, first.find('=')));
            throw UsageError("unexpected argument '" + first + "'");
        }
        ctx.status = handler(Options(*sub), *ctx.out, *ctx.err);
    });
    return sub;
}

CLI::App* command(CLI::App& parent, RunContext& ctx, const std::string& name, const std::string& description,
                  int (*handler)(const Options&, std::ostream& out)) {
    return command(parent, ctx, name, description,
                   Handler([handler](const Options& a, std::ostream& out, std::ostream&) { return handler(a, out); }));
}

}  // namespace partita::cli
