#pragma once
// Strict reading of JSON objects: every key must be known, every error names
// the file and the JSON pointer of the offending value.
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace partita {

struct Range;
using Json = nlohmann::json;

// Parses text; a syntax error, a number out of range or nesting deeper than limits::kJsonDepth
// becomes InputError(source, "line L, column C", ...).
Json parseJsonText(const std::string& text, const std::string& source);
// A short rendering of a user's value for an error message: at most `max_chars` characters and a
// few levels deep, whatever the value's size (messages never serialise a whole input).
std::string excerpt(const Json& value, size_t max_chars = 60);
// Reads a whole file; a missing or unreadable file is an InputError.
std::string readTextFile(const std::string& path);

class Fields {
public:
    Fields(const Json& object, std::string pointer, std::string source);

    bool has(const std::string& key) const;
    const Json& raw(const std::string& key);  // marks the key used; must exist
    std::string string(const std::string& key);
    std::string string(const std::string& key, const std::string& fallback);
    double number(const std::string& key);
    double number(const std::string& key, double fallback);
    double positive(const std::string& key);
    double positive(const std::string& key, double fallback);
    double nonNegative(const std::string& key, double fallback);
    // A number within `r` (core/util/ranges.h); the message names the range.
    double inRange(const std::string& key, const Range& r);
    double inRange(const std::string& key, const Range& r, double fallback);
    std::int64_t positiveInt(const std::string& key);
    std::int64_t positiveInt(const std::string& key, std::int64_t fallback);
    std::int64_t integerIn(const std::string& key, std::int64_t lo, std::int64_t hi);
    std::int64_t integerIn(const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t fallback);
    bool boolean(const std::string& key, bool fallback);
    // A string turned into a value by `parse`, whose std::invalid_argument (naming the choices)
    // becomes this key's error.
    template <class Parse>
    auto parsed(const std::string& key, const std::string& fallback, Parse parse) -> decltype(parse(fallback)) {
        const std::string value = string(key, fallback);
        try {
            return parse(value);
        } catch (const std::invalid_argument& e) {
            fail(key, e.what());
        }
    }
    // Rejects any key that was not read (call last).
    void finish() const;

    [[noreturn]] void fail(const std::string& key, const std::string& message) const;
    std::string pointer(const std::string& key) const { return pointer_ + "/" + key; }
    const std::string& source() const { return source_; }

private:
    const Json& object_;
    std::string pointer_;
    std::string source_;
    mutable std::set<std::string> used_;
};

// The "format" key must equal `expected` ("partita-network/1").
void checkFormat(Fields& fields, const std::string& expected);

}  // namespace partita
