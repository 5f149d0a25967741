#include "core/io/json_fields.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/util/error.h"
#include "core/util/input_file.h"
#include "core/util/limits.h"
#include "core/util/ranges.h"

namespace partita {

std::string readTextFile(const std::string& path) { return InputFile(path).readAll(); }

namespace {

// "line L, column C" of byte `offset` in `text`.
std::string placeOf(const std::string& text, size_t offset) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < std::min(offset, text.size()); ++i) {
        if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// Nesting is checked before parsing: deeper values would make every later recursive walk over
// the document (copies, comparisons, dumps) a stack overflow waiting to happen.
void checkDepth(const std::string& text, const std::string& source) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limits::kJsonDepth)
                throw InputError(source, placeOf(text, i),
                                 "values nest deeper than the limit of " + std::to_string(limits::kJsonDepth) + " levels");
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

void appendExcerpt(const Json& v, int depth, std::string& out, size_t budget) {
    if (out.size() >= budget) return;
    if (v.is_array() || v.is_object()) {
        if (depth >= 3 || v.empty()) {
            out += v.is_array() ? (v.empty() ? "[]" : "[...]") : (v.empty() ? "{}" : "{...}");
            return;
        }
        out += v.is_array() ? '[' : '{';
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (out.size() >= budget) break;
            if (!first) out += ", ";
            first = false;
            if (v.is_object()) out += Json(it.key()).dump(-1, ' ', false, Json::error_handler_t::replace) + ": ";
            appendExcerpt(*it, depth + 1, out, budget);
        }
        out += v.is_array() ? ']' : '}';
        return;
    }
    out += v.dump(-1, ' ', false, Json::error_handler_t::replace);  // a scalar (any bytes): strings are cut below
}

}  // namespace

std::string excerpt(const Json& value, size_t max_chars) {
    std::string out;
    appendExcerpt(value, 0, out, max_chars);
    if (out.size() > max_chars) out = out.substr(0, max_chars) + "...";
    return out;
}

Json parseJsonText(const std::string& text, const std::string& source) {
    checkDepth(text, source);
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& e) {
        std::string what = e.what();
        const auto cut = what.find("parse error");
        if (cut != std::string::npos) what = what.substr(cut);
        if (what.size() > 160) what = what.substr(0, 160) + "...";
        throw InputError(source, placeOf(text, e.byte == 0 ? 0 : e.byte - 1), "malformed JSON (" + what + ")");
    } catch (const Json::exception& e) {
        // Numbers beyond a double's range (1e400) are reported as out_of_range with the number's text.
        std::string what = e.what();
        const auto cut = what.find("] ");
        if (cut != std::string::npos) what = what.substr(cut + 2);
        size_t at = std::string::npos;
        if (const auto q = what.find('\''); q != std::string::npos) {
            const auto q2 = what.find('\'', q + 1);
            if (q2 != std::string::npos) at = text.find(what.substr(q + 1, q2 - q - 1));
        }
        if (what.size() > 160) what = what.substr(0, 160) + "...";
        throw InputError(source, at == std::string::npos ? "" : placeOf(text, at), "malformed JSON (" + what + ")");
    }
}

Fields::Fields(const Json& object, std::string pointer, std::string source)
    : object_(object), pointer_(std::move(pointer)), source_(std::move(source)) {
    if (!object_.is_object())
        throw InputError(source_, pointer_.empty() ? "/" : pointer_, "expected a JSON object, found " +
                                                                         std::string(object_.type_name()));
}

void Fields::fail(const std::string& key, const std::string& message) const {
    throw InputError(source_, pointer(key), message);
}

bool Fields::has(const std::string& key) const { return object_.contains(key); }

namespace {
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}
}  // namespace

const Json& Fields::raw(const std::string& key) {
    if (!object_.contains(key)) {
        std::string hint;
        for (auto it = object_.begin(); it != object_.end() && hint.empty(); ++it)
            if (editDistance(it.key(), key) <= 2) hint = " (found '" + it.key() + "': a misspelling?)";
        throw InputError(source_, pointer_.empty() ? "/" : pointer_, "missing key '" + key + "'" + hint);
    }
    used_.insert(key);
    return object_.at(key);
}

std::string Fields::string(const std::string& key) {
    const Json& v = raw(key);
    if (!v.is_string()) fail(key, "expected a string, found " + std::string(v.type_name()));
    return v.get<std::string>();
}

std::string Fields::string(const std::string& key, const std::string& fallback) {
    return has(key) ? string(key) : fallback;
}

double Fields::number(const std::string& key) {
    const Json& v = raw(key);
    if (!v.is_number()) fail(key, "expected a number, found " + std::string(v.type_name()));
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(key, "expected a finite number");
    return d;
}

double Fields::number(const std::string& key, double fallback) { return has(key) ? number(key) : fallback; }

double Fields::positive(const std::string& key) {
    const double d = number(key);
    if (!(d > 0)) fail(key, "must be positive, got " + excerpt(raw(key)));
    return d;
}

double Fields::positive(const std::string& key, double fallback) { return has(key) ? positive(key) : fallback; }

double Fields::nonNegative(const std::string& key, double fallback) {
    if (!has(key)) return fallback;
    const double d = number(key);
    if (d < 0) fail(key, "must not be negative, got " + excerpt(raw(key)));
    return d;
}

double Fields::inRange(const std::string& key, const Range& r) {
    // Below zero (or at it for a positive range) the plainer words of positive() / nonNegative().
    raw(key);  // required
    const double d = r.lo > 0 ? positive(key) : nonNegative(key, 0);
    if (const std::string why = rangeProblem(d, r); !why.empty()) fail(key, why);
    return d;
}

double Fields::inRange(const std::string& key, const Range& r, double fallback) {
    return has(key) ? inRange(key, r) : fallback;
}

std::int64_t Fields::positiveInt(const std::string& key) {
    return integerIn(key, 1, std::numeric_limits<std::int64_t>::max());
}

std::int64_t Fields::positiveInt(const std::string& key, std::int64_t fallback) {
    return has(key) ? positiveInt(key) : fallback;
}

std::int64_t Fields::integerIn(const std::string& key, std::int64_t lo, std::int64_t hi) {
    const Json& v = raw(key);
    if (!v.is_number_integer()) fail(key, "expected an integer, found " + excerpt(v));
    // Unsigned values above int64's range are read as such, never wrapped to negatives.
    const bool huge = v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    const auto i = huge ? hi : v.get<std::int64_t>();
    if (huge || i > hi) {
        if (lo == 1 && hi == std::numeric_limits<std::int64_t>::max())
            fail(key, "must be a positive integer of at most " + std::to_string(hi) + ", got " + excerpt(v));
        fail(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + excerpt(v));
    }
    if (i < lo) {
        if (lo == 1 && hi == std::numeric_limits<std::int64_t>::max()) fail(key, "must be positive, got " + std::to_string(i));
        fail(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + std::to_string(i));
    }
    return i;
}

std::int64_t Fields::integerIn(const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t fallback) {
    return has(key) ? integerIn(key, lo, hi) : fallback;
}

bool Fields::boolean(const std::string& key, bool fallback) {
    if (!has(key)) return fallback;
    const Json& v = raw(key);
    if (!v.is_boolean()) fail(key, "expected true or false, found " + excerpt(v));
    return v.get<bool>();
}

void Fields::finish() const {
    for (auto it = object_.begin(); it != object_.end(); ++it)
        if (!used_.count(it.key())) throw InputError(source_, pointer(it.key()), "unknown key '" + it.key() + "'");
}

void checkFormat(Fields& fields, const std::string& expected) {
    const std::string found = fields.string("format");
    if (found != expected) {
        const auto slash = expected.find('/');
        if (found.rfind(expected.substr(0, slash + 1), 0) == 0)
            fields.fail("format", "unsupported version '" + found + "' (this build reads '" + expected + "')");
        fields.fail("format", "expected '" + expected + "', found '" + found + "'");
    }
}

}  // namespace partita
