#include "core/io/json_fields.h"

#include <algorithm>
#include <cmath>
#include <vector>
#include <fstream>
#include <sstream>

#include "core/util/error.h"

namespace partita {

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "", "cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw InputError(path, "", "cannot read the file");
    return text.str();
}

Json parseJsonText(const std::string& text, const std::string& source) {
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& e) {
        // Convert the byte offset into a line and column a person can find.
        const size_t end = std::min(e.byte == 0 ? 0 : e.byte - 1, text.size());
        size_t line = 1, col = 1;
        for (size_t i = 0; i < end; ++i) {
            if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
        }
        std::string what = e.what();
        const auto cut = what.find("parse error");
        if (cut != std::string::npos) what = what.substr(cut);
        throw InputError(source, "line " + std::to_string(line) + ", column " + std::to_string(col),
                         "malformed JSON (" + what + ")");
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
    if (!(d > 0)) fail(key, "must be positive, got " + raw(key).dump());
    return d;
}

double Fields::positive(const std::string& key, double fallback) { return has(key) ? positive(key) : fallback; }

double Fields::nonNegative(const std::string& key, double fallback) {
    if (!has(key)) return fallback;
    const double d = number(key);
    if (d < 0) fail(key, "must not be negative, got " + raw(key).dump());
    return d;
}

std::int64_t Fields::positiveInt(const std::string& key) {
    const Json& v = raw(key);
    if (!v.is_number_integer()) fail(key, "expected an integer, found " + v.dump());
    const auto i = v.get<std::int64_t>();
    if (i <= 0) fail(key, "must be positive, got " + std::to_string(i));
    return i;
}

std::int64_t Fields::positiveInt(const std::string& key, std::int64_t fallback) {
    return has(key) ? positiveInt(key) : fallback;
}

std::int64_t Fields::integerIn(const std::string& key, std::int64_t lo, std::int64_t hi) {
    const Json& v = raw(key);
    if (!v.is_number_integer()) fail(key, "expected an integer, found " + v.dump());
    const auto i = v.get<std::int64_t>();
    if (i < lo || i > hi)
        fail(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + std::to_string(i));
    return i;
}

bool Fields::boolean(const std::string& key, bool fallback) {
    if (!has(key)) return fallback;
    const Json& v = raw(key);
    if (!v.is_boolean()) fail(key, "expected true or false, found " + v.dump());
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
