#pragma once
// Full simulation (docs/methods/flexflow.md#full-simulation, Algorithm 1): a list schedule in which
// every device (compute device or link) runs its tasks first-in first-out.
#include <cstdint>
#include <vector>

#include "core/sim/task_graph.h"
#include "core/sim/task_heap.h"  // keyLess
#include "core/util/progress.h"

namespace partita::sim {

struct SimResult {
    double makespan = 0;                    // seconds
    std::vector<double> ready, start, end;  // by task slot (0 for dead slots)
    std::vector<int> order;                 // live tasks in simulation order: increasing (ready, id)
};

// Pops tasks by (readyTime, task id); a task starts at max(ready, end of the
// previous task on its device). Because ids are topological and times are
// non-negative, every task pushed has a larger key than the one popped, so the
// simulation order is exactly increasing (ready, id) and so is each device's
// FIFO order: the timeline is the unique solution of
//   ready(t) = max end(p) over predecessors p (0 if none),
//   start(t) = max(ready(t), end(task before t on its device in (ready, id) order)),
//   end(t) = start(t) + exe(t),
// which is what the delta simulator maintains.
SimResult simulate(const TaskGraph& graph);
// The same into an existing result, reusing its memory. With `cancel`, asked every 16,384 tasks
// (well under 100 ms of work), a true answer throws partita::Cancelled.
void simulate(const TaskGraph& graph, SimResult& out, const CancelFn& cancel = {});

}  // namespace partita::sim
