#pragma once
// Repetition in partita-topology/1 files (docs/formats/topology.md#templates): an entry's "for"
// clause binds integer variables, "where" filters the combinations, and every
// "{expression}" in a name is replaced by its value, e.g. "n{n}.gpu{g}".
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/io/json_fields.h"

namespace partita::sim::tmpl {

using Bindings = std::vector<std::pair<std::string, std::int64_t>>;

// Integer arithmetic over literals and variables: + - * / % (C++ semantics),
// comparisons < <= > >= == != (1 or 0), unary minus and parentheses.
// Throws std::invalid_argument on syntax errors, unknown variables, division by zero.
std::int64_t evaluate(const std::string& expression, const Bindings& vars);

// Replaces every "{expression}" in `text` by its value; other text is copied.
std::string expand(const std::string& text, const Bindings& vars);

// "n=2, g=1", or "" without variables (for error messages).
std::string describe(const Bindings& vars);

// Reads the optional "for" ([["n", 4], ["g", [0, 1]]]: a count or a list of values)
// and "where" keys of an entry. Returns every binding, the first variable slowest;
// a single empty binding when the entry has no "for".
std::vector<Bindings> readRepetition(Fields& f);

}  // namespace partita::sim::tmpl
