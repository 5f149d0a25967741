#include "core/topology/template.h"

#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "core/util/checked.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::sim::tmpl {

namespace {

constexpr std::int64_t kMaxCombinations = 1'000'000;  // guards against a typo expanding forever

// Recursive descent over the grammar in the header; `pos_` walks `text_`.
class Parser {
public:
    Parser(const std::string& text, const Bindings& vars) : text_(text), vars_(vars) {}

    std::int64_t run() {
        if (text_.size() > 4096) fail("the expression is longer than 4096 characters");
        const std::int64_t v = comparison();
        skipSpace();
        if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_, 1) + "'");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& message) const {
        // Quote at most 60 characters of the expression: it may be kilobytes long.
        const std::string shown = text_.size() > 60 ? text_.substr(0, 60) + "..." : text_;
        throw std::invalid_argument("in '" + shown + "': " + message);
    }
    void skipSpace() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool accept(const std::string& token) {
        skipSpace();
        if (text_.compare(pos_, token.size(), token) != 0) return false;
        pos_ += token.size();
        return true;
    }

    std::int64_t comparison() {
        const std::int64_t a = sum();
        // Two-character operators first so "<=" is not read as "<".
        if (accept("<=")) return a <= sum();
        if (accept(">=")) return a >= sum();
        if (accept("==")) return a == sum();
        if (accept("!=")) return a != sum();
        if (accept("<")) return a < sum();
        if (accept(">")) return a > sum();
        return a;
    }
    // Every intermediate value stays within +-limits::kTemplateValue: a wrapped value would
    // silently name other devices (and so drop or move links).
    std::int64_t bounded(std::int64_t v) const {
        if (v > limits::kTemplateValue || v < -limits::kTemplateValue)
            fail(std::to_string(v) + " exceeds the limit of +-" + std::to_string(limits::kTemplateValue));
        return v;
    }
    std::int64_t sum() {
        std::int64_t a = product();
        for (;;) {
            if (accept("+")) a = bounded(a + product());
            else if (accept("-")) a = bounded(a - product());
            else return a;
        }
    }
    std::int64_t product() {
        std::int64_t a = unary();
        for (;;) {
            const bool divide = accept("/");
            const bool modulo = !divide && accept("%");
            if (!divide && !modulo && !accept("*")) return a;
            const std::int64_t b = unary();
            if ((divide || modulo) && b == 0) fail("division by zero");
            std::int64_t r = 0;
            if (!divide && !modulo && __builtin_mul_overflow(a, b, &r))
                fail(std::to_string(a) + " * " + std::to_string(b) + " exceeds the limit of +-" +
                     std::to_string(limits::kTemplateValue));
            a = bounded(divide ? a / b : modulo ? a % b : r);
        }
    }
    // Recursion is bounded: parentheses and unary minus nest at most limits::kExpressionDepth deep.
    struct Nest {
        Nest(Parser& p) : p_(p) {
            if (++p_.depth_ > limits::kExpressionDepth)
                p_.fail("nests deeper than the limit of " + std::to_string(limits::kExpressionDepth) + " levels");
        }
        ~Nest() { --p_.depth_; }
        Parser& p_;
    };
    std::int64_t unary() {
        if (accept("-")) {
            const Nest nest(*this);
            return -unary();  // operands are bounded, so negation cannot overflow
        }
        return primary();
    }
    std::int64_t primary() {
        skipSpace();
        if (accept("(")) {
            const Nest nest(*this);
            const std::int64_t v = comparison();
            if (!accept(")")) fail("missing ')'");
            return v;
        }
        const size_t start = pos_;
        if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
            if (pos_ - start > 15) fail("number too large");
            return bounded(std::stoll(text_.substr(start, pos_ - start)));
        }
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
            ++pos_;
        if (start == pos_) fail(pos_ < text_.size() ? "unexpected '" + text_.substr(pos_, 1) + "'" : "missing a value");
        const std::string name = text_.substr(start, pos_ - start);
        for (const auto& [var, value] : vars_)
            if (var == name) return bounded(value);
        fail("unknown variable '" + name + "'");
    }

    const std::string& text_;
    const Bindings& vars_;
    size_t pos_ = 0;
    int depth_ = 0;
};

bool isIdentifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

}  // namespace

std::int64_t evaluate(const std::string& expression, const Bindings& vars) { return Parser(expression, vars).run(); }

std::string expand(const std::string& text, const Bindings& vars) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '}') throw std::invalid_argument("in '" + text + "': '}' without '{'");
        if (text[i] != '{') {
            out += text[i];
            continue;
        }
        const size_t close = text.find('}', i);
        if (close == std::string::npos) throw std::invalid_argument("in '" + text + "': '{' without '}'");
        const std::string inner = text.substr(i + 1, close - i - 1);
        if (inner.find('{') != std::string::npos) throw std::invalid_argument("in '" + text + "': nested '{'");
        out += std::to_string(evaluate(inner, vars));
        i = close;
    }
    return out;
}

std::string describe(const Bindings& vars) {
    std::string s;
    for (const auto& [name, value] : vars) s += (s.empty() ? "" : ", ") + name + "=" + std::to_string(value);
    return s;
}

std::vector<Bindings> readRepetition(Fields& f) {
    std::vector<Bindings> all{Bindings{}};
    if (f.has("for")) {
        const Json& clause = f.raw("for");
        const std::string at = f.pointer("for");
        if (!clause.is_array() || clause.empty())
            throw InputError(f.source(), at, "expected a list of [variable, count or values], e.g. [[\"n\", 4]]");
        std::int64_t combinations = 1;
        for (size_t k = 0; k < clause.size(); ++k) {
            const Json& item = clause[k];
            const std::string here = at + "/" + std::to_string(k);
            if (!item.is_array() || item.size() != 2 || !item[0].is_string())
                throw InputError(f.source(), here, "expected [variable, count or values], found " + excerpt(item));
            const std::string name = item[0].get<std::string>();
            if (!isIdentifier(name)) throw InputError(f.source(), here, "'" + name + "' is not a variable name");
            for (const auto& [other, unused] : all.front())
                if (other == name) throw InputError(f.source(), here, "variable '" + name + "' is bound twice");
            std::vector<std::int64_t> values;
            if (item[1].is_number_integer() && item[1].get<std::int64_t>() > 0 &&
                item[1].get<std::int64_t>() <= kMaxCombinations) {
                for (std::int64_t v = 0; v < item[1].get<std::int64_t>(); ++v) values.push_back(v);
            } else if (item[1].is_array() && !item[1].empty()) {
                for (const auto& v : item[1]) {
                    const bool in_range = v.is_number_integer() && !(v.is_number_unsigned() &&
                                                                     v.get<std::uint64_t>() > std::uint64_t{limits::kTemplateValue});
                    if (!in_range || std::abs(v.get<std::int64_t>()) > limits::kTemplateValue)
                        throw InputError(f.source(), here, "values must be integers within +-" +
                                                               std::to_string(limits::kTemplateValue) + ", found " + excerpt(v));
                    values.push_back(v.get<std::int64_t>());
                }
            } else {
                throw InputError(f.source(), here,
                                 "expected a positive count or a non-empty list of integers, found " + excerpt(item[1]));
            }
            combinations *= static_cast<std::int64_t>(values.size());
            if (combinations > kMaxCombinations)
                throw InputError(f.source(), at,
                                 "expands to more than " + std::to_string(kMaxCombinations) + " entries");
            std::vector<Bindings> next;
            for (const auto& b : all)
                for (std::int64_t v : values) {
                    next.push_back(b);
                    next.back().emplace_back(name, v);
                }
            all = std::move(next);
        }
    }
    if (f.has("where")) {
        const std::string condition = f.string("where");
        std::vector<Bindings> kept;
        try {
            for (const auto& b : all)
                if (evaluate(condition, b) != 0) kept.push_back(b);
        } catch (const std::invalid_argument& e) {
            f.fail("where", e.what());
        }
        all = std::move(kept);
    }
    return all;
}

}  // namespace partita::sim::tmpl
