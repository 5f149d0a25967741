#pragma once
// Small helpers the core/llm readers share over core/io/json_fields.h.
#include <string>

#include "core/io/json_fields.h"

namespace partita::llm {

// True when `key` is present and not null; a null key is marked read (it takes its default).
inline bool given(Fields& f, const std::string& key) {
    if (!f.has(key)) return false;
    return !f.raw(key).is_null();
}

// A sub-object read strictly: `parent`'s `key` as Fields under the right pointer.
inline Fields object(Fields& parent, const std::string& key) {
    return Fields(parent.raw(key), parent.pointer(key), parent.source());
}

// Runs `parse` on the string at `key`; its std::invalid_argument names the place.
template <class F>
auto parsed(Fields& f, const std::string& key, F parse) {
    const std::string text = f.string(key);
    try {
        return parse(text);
    } catch (const std::invalid_argument& e) {
        f.fail(key, e.what());
    }
}

}  // namespace partita::llm
