#pragma once
// Shared by the libFuzzer targets: an input may be refused with one of the engine's documented
// errors; anything else (another exception, a crash, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/util/error.h"

namespace partita::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

template <class F>
void refusedOrDone(F f) {
    try {
        f();
    } catch (const partita::Error&) {
        // InputError, StoreError, Cancelled: a clear refusal.
    } catch (const std::invalid_argument&) {
        // Validation of built models (validate(array), TopologyError) reports this way.
    }
}

}  // namespace partita::fuzz
