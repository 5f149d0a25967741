#pragma once
// One table of {value, name, label} rows per enum, read by the name, the label and the parse
// back, so the three directions cannot drift apart (they were a switch each).
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace partita {

template <class E>
struct EnumName {
    E value;
    const char* name;             // the stable word: files, CLI, database
    const char* label = nullptr;  // what a user reads; nullptr = the name
};

// "?" for a value the table lacks.
template <class E, std::size_t N>
constexpr const char* enumName(const EnumName<E> (&table)[N], E value) {
    for (const auto& row : table)
        if (row.value == value) return row.name;
    return "?";
}

template <class E, std::size_t N>
constexpr const char* enumLabel(const EnumName<E> (&table)[N], E value) {
    for (const auto& row : table)
        if (row.value == value) return row.label ? row.label : row.name;
    return "?";
}

// Exact, case-sensitive match on the name; the caller words the error.
template <class E, std::size_t N>
constexpr std::optional<E> parseEnum(const EnumName<E> (&table)[N], std::string_view name) {
    for (const auto& row : table)
        if (name == row.name) return row.value;
    return std::nullopt;
}

// The same, or std::invalid_argument "unknown <what> 'x' (one of a, b, c)".
template <class E, std::size_t N>
E parseEnumOrThrow(const EnumName<E> (&table)[N], std::string_view name, const char* what) {
    if (auto v = parseEnum(table, name)) return *v;
    std::string names;
    for (const auto& row : table) names += std::string(names.empty() ? "" : ", ") + row.name;
    throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(name) + "' (one of " + names + ")");
}

}  // namespace partita
