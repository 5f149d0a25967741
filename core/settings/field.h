#pragma once
// One declaration per setting: a field table row names a setting's key (as in its JSON format), label,
// unit, range, help and member, and every surface (JSON codec, range checks, parameter editor, CLI,
// sweeps, the docs' tables) is driven by the rows. The default is not written here: it is the struct's
// own default member initialiser, read from a default-constructed struct.
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/util/ranges.h"

namespace partita {

enum class FieldType {
    Number,   // a double within `range`
    Integer,  // a whole number within `range`
    Choice,   // one of `choices` (an enum, stored as its index)
    Flag,     // true / false
    Text,     // a string
};

// Which analytic model reads a field; the editor disables HyPar-only fields for arrays of groups.
enum class FieldModels { Both, HyPar, AccPar };

// Whose answers a sweep axis changes (docs/formats/sweep.md#axes): a method names the one it is
// (SweepTraits::axis_reader), a field row that is an axis the set that reads it (Field::swept_by).
namespace axis_readers {
constexpr unsigned kGridPlans = 1;  // HyPar and its baselines on HyPar's model
constexpr unsigned kAccPar = 2;
constexpr unsigned kSimulate = 4;  // a strategy simulated (with "grid", HyPar's plan lowered)
constexpr unsigned kMcmc = 8;
constexpr unsigned kAll = kGridPlans | kAccPar | kSimulate | kMcmc;
}  // namespace axis_readers

struct FieldChoice {
    const char* name;   // the stable word: files, CLI, database
    const char* label;  // what the editor shows
};

template <class S>
struct Field {
    const char* key = "";         // the JSON key, e.g. "link_bps"
    const char* object = nullptr;  // the JSON sub-object holding it ("accelerator"), nullptr = top level
    const char* label = "";       // "Link"
    const char* unit = "";        // "bit/s", "" for none
    const char* help = "";        // one line
    FieldType type = FieldType::Number;
    Range range{};                // Number and Integer
    std::vector<FieldChoice> choices;  // Choice: index = the enum's value
    const char* choice_noun = nullptr;  // Choice: "topology" words a bad name "unknown topology 'x' (use a or b)"
    FieldModels models = FieldModels::Both;
    bool integral = false;        // stored as an integer type (written to JSON as an integer)
    bool required = false;        // must be present in a file (else the default stays)
    unsigned swept_by = 0;        // axis_readers: a sweep axis read by these methods; 0: not an axis
    // The value as a double (Choice: its index, Flag: 0/1); Text fields use text/setText.
    std::function<double(const S&)> get;
    std::function<void(S&, double)> set;
    std::function<std::string(const S&)> getText;
    std::function<void(S&, const std::string&)> setText;

    // "link-bps": the command-line option of the field.
    std::string option() const {
        std::string o = key;
        for (char& c : o)
            if (c == '_') c = '-';
        return o;
    }
    double defaultValue() const { return get(S{}); }
};

template <class S>
using FieldTable = std::vector<Field<S>>;

// The row with `key`, nullptr when there is none.
template <class S>
const Field<S>* findField(const FieldTable<S>& table, const std::string& key) {
    for (const auto& f : table)
        if (key == f.key) return &f;
    return nullptr;
}

// The index of `name` among a Choice field's names.
template <class S>
std::optional<int> choiceIndex(const Field<S>& f, const std::string& name) {
    for (size_t i = 0; i < f.choices.size(); ++i)
        if (name == f.choices[i].name) return static_cast<int>(i);
    return std::nullopt;
}

// "" when `v` is a valid value of a numeric field, else the reason (the range message of ranges.h;
// "must be an integer from LO to HI" for an Integer field).
std::string fieldProblem(FieldType type, const Range& range, double v);

// Shortest exact text of a number ("1.6e9" style is the editor's; this is core/util/format's).
std::string fieldNumberText(double v);
// Parses a whole number text ("1.6e9", "640"); nullopt unless the whole text is a finite number.
std::optional<double> parseFieldNumber(const std::string& text);
// "true"/"1"/"on" and "false"/"0"/"off".
std::optional<bool> parseFieldFlag(const std::string& text);
// "\"post\" or \"pre\"", "htree or torus" (quoted or not).
std::string choiceNames(const std::vector<FieldChoice>& choices, bool quoted);

// A field's value as text: numbers in their shortest exact form, choices by name, flags true/false.
template <class S>
std::string fieldText(const Field<S>& f, const S& s) {
    switch (f.type) {
    case FieldType::Text: return f.getText(s);
    case FieldType::Flag: return f.get(s) != 0 ? "true" : "false";
    case FieldType::Choice: return f.choices.at(static_cast<size_t>(f.get(s))).name;
    default: return fieldNumberText(f.get(s));
    }
}

// Sets a field from text as a user types it (CLI, sweeps); throws std::invalid_argument
// "KEY REASON" when the text is not a valid value (the range message of ranges.h for numbers).
template <class S>
void setFieldText(const Field<S>& f, S& s, const std::string& text) {
    const auto bad = [&](const std::string& why) { throw std::invalid_argument(std::string(f.key) + " " + why); };
    switch (f.type) {
    case FieldType::Text: f.setText(s, text); return;
    case FieldType::Flag:
        if (const auto b = parseFieldFlag(text)) f.set(s, *b ? 1 : 0);
        else bad("must be true or false, got '" + text + "'");
        return;
    case FieldType::Choice:
        if (const auto i = choiceIndex(f, text)) f.set(s, *i);
        else bad("must be " + choiceNames(f.choices, false) + ", got '" + text + "'");
        return;
    default: {
        const auto v = parseFieldNumber(text);
        if (!v) bad("expects a number, got '" + text + "'");
        if (const std::string why = fieldProblem(f.type, f.range, *v); !why.empty()) bad(why);
        f.set(s, *v);
    }
    }
}

// Sets a numeric, choice (index) or flag (0/1) field from a double, checked like setFieldText.
template <class S>
void setFieldValue(const Field<S>& f, S& s, double v) {
    if (f.type == FieldType::Text) throw std::invalid_argument(std::string(f.key) + " is text, not a number");
    if (f.type == FieldType::Choice && !(v >= 0 && v < static_cast<double>(f.choices.size()) && v == static_cast<int>(v)))
        throw std::invalid_argument(std::string(f.key) + " must be " + choiceNames(f.choices, false));
    if (const std::string why = fieldProblem(f.type, f.range, v);
        !why.empty() && (f.type == FieldType::Number || f.type == FieldType::Integer))
        throw std::invalid_argument(std::string(f.key) + " " + why);
    f.set(s, v);
}

// "default 1.6e9 bit/s; range 1 to 1e21": the default and range of a field for tooltips, help and docs.
template <class S>
std::string fieldSummary(const Field<S>& f) {
    const std::string unit = *f.unit ? std::string(" ") + f.unit : "";
    if (f.type == FieldType::Text) return f.required ? "required" : "default " + f.getText(S{});
    if (f.type == FieldType::Flag) return f.defaultValue() != 0 ? "on by default" : "off by default";
    if (f.type == FieldType::Choice)
        return "default " + fieldText(f, S{}) + "; " + choiceNames(f.choices, false);
    return "default " + fieldNumberText(f.defaultValue()) + unit + "; " +
           (f.type == FieldType::Integer ? "a whole number from " : "range ") + fieldNumberText(f.range.lo) + " to " +
           fieldNumberText(f.range.hi);
}

// Builders: `ref` is a lambda returning a reference to the member, e.g. [](Array& a) -> auto& { return a.link_bps; }.
namespace fields {

template <class S, class Ref>
Field<S> bind(Field<S> f, Ref ref) {
    using T = std::remove_cvref_t<decltype(ref(std::declval<S&>()))>;
    if constexpr (std::is_same_v<T, std::string>) {
        f.getText = [ref](const S& s) { return ref(const_cast<S&>(s)); };
        f.setText = [ref](S& s, const std::string& v) { ref(s) = v; };
    } else {
        f.integral = std::is_integral_v<T> && !std::is_same_v<T, bool>;
        f.get = [ref](const S& s) { return static_cast<double>(ref(const_cast<S&>(s))); };
        f.set = [ref](S& s, double v) {
            if constexpr (std::is_enum_v<T>) ref(s) = static_cast<T>(static_cast<int>(v));
            else if constexpr (std::is_same_v<T, bool>) ref(s) = v != 0;
            else ref(s) = static_cast<T>(v);
        };
    }
    return f;
}

template <class S, class Ref>
Field<S> number(const char* key, const char* label, const char* unit, Range range, const char* help, Ref ref,
                FieldModels models = FieldModels::Both, const char* object = nullptr) {
    Field<S> f;
    f.key = key, f.object = object, f.label = label, f.unit = unit, f.help = help;
    f.type = FieldType::Number, f.range = range, f.models = models;
    return bind(std::move(f), ref);
}

template <class S, class Ref>
Field<S> integer(const char* key, const char* label, const char* unit, Range range, const char* help, Ref ref,
                 FieldModels models = FieldModels::Both) {
    Field<S> f = number<S>(key, label, unit, range, help, ref, models);
    f.type = FieldType::Integer;
    return f;
}

template <class S, class Ref>
Field<S> choice(const char* key, const char* label, std::vector<FieldChoice> choices, const char* help, Ref ref,
                FieldModels models = FieldModels::Both) {
    Field<S> f;
    f.key = key, f.label = label, f.help = help, f.type = FieldType::Choice, f.choices = std::move(choices);
    f.models = models;
    f = bind(std::move(f), ref);
    f.integral = false;
    return f;
}

template <class S, class Ref>
Field<S> flag(const char* key, const char* label, const char* help, Ref ref, FieldModels models = FieldModels::Both) {
    Field<S> f;
    f.key = key, f.label = label, f.help = help, f.type = FieldType::Flag, f.models = models;
    return bind(std::move(f), ref);
}

// The row as a sweep axis that the methods of `readers` (axis_readers) read.
template <class S>
Field<S> axis(Field<S> f, unsigned readers) {
    f.swept_by = readers;
    return f;
}

template <class S, class Ref>
Field<S> text(const char* key, const char* label, const char* help, Ref ref, const char* object = nullptr) {
    Field<S> f;
    f.key = key, f.object = object, f.label = label, f.help = help, f.type = FieldType::Text;
    return bind(std::move(f), ref);
}

}  // namespace fields

}  // namespace partita
