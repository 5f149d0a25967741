#pragma once
// The critical path of a simulated run: the chain of tasks that decides the
// makespan. Views highlight it; it needs the task graph, so it is computed
// here and handed to them as task ids.
#include <cstdint>
#include <vector>

#include "core/sim/simulator.h"

namespace partita::sim {

// Task ids (TaskGraph::id) from the first task of the chain to the task that
// ends last. Walks back from that task through the predecessor whose end
// equals the task's start: a data predecessor (smallest id first) or else the
// task before it on its resource in FIFO order. Exact comparisons are sound:
// start = max(ready, previous end) copies one of those doubles. Ties on the
// last end go to the larger id (the later one in simulation order).
std::vector<std::uint64_t> criticalPath(const TaskGraph& graph, const SimResult& result);

}  // namespace partita::sim
