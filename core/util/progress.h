#pragma once
// How long computations report progress and learn that they should stop,
// without any GUI types: the app wraps these around its job runner.
#include <functional>

#include "core/util/error.h"

namespace partita {

using ProgressFn = std::function<void(double fraction)>;  // 0..1, called from the calling thread
using CancelFn = std::function<bool()>;                   // true = stop as soon as possible

// Throws Cancelled when `cancel` says stop.
inline void throwIfCancelled(const CancelFn& cancel) {
    if (cancel && cancel()) throw Cancelled();
}

}  // namespace partita
