#pragma once
// Reading and writing the fields of a field table (core/settings/field.h) as JSON members, with the
// strict reader's messages (core/io/json_fields.h): a missing field keeps the struct's value unless it
// is required, a bad one names its pointer and the range.
#include <cmath>
#include <cstdint>
#include <string>

#include "core/io/json_fields.h"
#include "core/settings/field.h"

namespace partita {

template <class S>
void readField(Fields& f, const Field<S>& field, S& s) {
    const std::string key = field.key;
    if (!field.required && !f.has(key)) return;
    switch (field.type) {
    case FieldType::Text: field.setText(s, f.string(key)); return;
    case FieldType::Flag: field.set(s, f.boolean(key, false) ? 1 : 0); return;
    case FieldType::Choice: {
        const std::string name = f.string(key);
        const auto index = choiceIndex(field, name);
        if (!index && field.choice_noun)
            f.fail(key, std::string("unknown ") + field.choice_noun + " '" + name + "' (use " +
                            choiceNames(field.choices, false) + ")");
        if (!index) f.fail(key, "expected " + choiceNames(field.choices, true) + ", found '" + name + "'");
        field.set(s, *index);
        return;
    }
    case FieldType::Integer:
        if (field.integral) {  // written as a JSON integer
            field.set(s, static_cast<double>(f.integerIn(key, static_cast<std::int64_t>(field.range.lo),
                                                         static_cast<std::int64_t>(field.range.hi))));
        } else {  // a double holding a whole number ("256.0"), so read as a number
            const double v = f.positive(key);
            if (v != std::floor(v) || v > field.range.hi)
                f.fail(key, "must be an integer from " + fieldNumberText(field.range.lo) + " to " +
                                fieldNumberText(field.range.hi) + ", got " + excerpt(f.raw(key)));
            field.set(s, v);
        }
        return;
    case FieldType::Number: field.set(s, f.inRange(key, field.range)); return;
    }
}

// Reads the table's fields that live in `object` (nullptr = the top level) in table order.
template <class S>
void readFields(Fields& f, const FieldTable<S>& table, S& s, const char* object = nullptr) {
    for (const auto& field : table)
        if ((field.object == nullptr) == (object == nullptr) && (!object || std::string(object) == field.object))
            readField(f, field, s);
}

template <class S>
Json fieldJson(const Field<S>& field, const S& s) {
    switch (field.type) {
    case FieldType::Text: return field.getText(s);
    case FieldType::Flag: return field.get(s) != 0;
    case FieldType::Choice: return fieldText(field, s);
    default: return field.integral ? Json(static_cast<std::int64_t>(field.get(s))) : Json(field.get(s));
    }
}

// Writes every field of the table into `j`, fields of a sub-object into j[object].
template <class S>
void writeFields(Json& j, const FieldTable<S>& table, const S& s) {
    for (const auto& field : table) {
        if (field.object) j[field.object][field.key] = fieldJson(field, s);
        else j[field.key] = fieldJson(field, s);
    }
}

}  // namespace partita
