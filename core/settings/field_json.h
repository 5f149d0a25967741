#pragma once
// A field's value given as a JSON scalar (sweep axes, spec files): the check of one value and its
// setting, from the field's row (core/settings/field.h), so every axis over a field says the same.
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/settings/field.h"

namespace partita {

// "" when `v` is an integer in [lo, hi], else "takes integers from LO to HI".
std::string jsonIntegerProblem(const Json& v, std::int64_t lo, std::int64_t hi);
// "" when `v` is a number above (open) or from lo, up to hi, else "takes numbers ...".
std::string jsonNumberProblem(const Json& v, double lo, bool open, double hi);
// "" when `v` is one of `names`, else "takes \"a\", \"b\" or \"c\"".
std::string jsonNameProblem(const Json& v, const std::vector<std::string>& names);

// "" when `v` is a value of field `f`: an integer or number within its range, one of its choice names,
// true or false for a flag; else what it takes.
template <class S>
std::string fieldJsonProblem(const Field<S>& f, const Json& v) {
    switch (f.type) {
    case FieldType::Integer:
        return jsonIntegerProblem(v, static_cast<std::int64_t>(f.range.lo), static_cast<std::int64_t>(f.range.hi));
    case FieldType::Choice: {
        std::vector<std::string> names;
        for (const FieldChoice& c : f.choices) names.push_back(c.name);
        return jsonNameProblem(v, names);
    }
    case FieldType::Flag: return v.is_boolean() ? "" : "takes true or false";
    case FieldType::Text: return v.is_string() ? "" : "takes text";
    case FieldType::Number: break;
    }
    return jsonNumberProblem(v, f.range.lo, false, f.range.hi);
}

// Sets field `f` of `s` to `v` (a value fieldJsonProblem accepts; throws std::invalid_argument otherwise).
template <class S>
void setFieldJson(const Field<S>& f, S& s, const Json& v) {
    if (const std::string why = fieldJsonProblem(f, v); !why.empty())
        throw std::invalid_argument(std::string(f.key) + " " + why);
    switch (f.type) {
    case FieldType::Text: f.setText(s, v.get<std::string>()); return;
    case FieldType::Flag: f.set(s, v.get<bool>() ? 1 : 0); return;
    case FieldType::Choice: f.set(s, *choiceIndex(f, v.get<std::string>())); return;
    default: f.set(s, v.get<double>());
    }
}

}  // namespace partita
