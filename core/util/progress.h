#pragma once
// How long computations report progress and learn that they should stop,
// without any GUI types: the app wraps these around its job runner.
#include <functional>

namespace partita {

using ProgressFn = std::function<void(double fraction)>;  // 0..1, called from the calling thread
using CancelFn = std::function<bool()>;                   // true = stop as soon as possible

}  // namespace partita
