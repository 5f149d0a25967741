// Partial sums of reduce-split operators (HyPar's model parallelism, AccPar's
// Type-II): transfers of the partials to the piece's first device, the
// addition there, and in the backward pass the broadcast of the piece's output
// gradient back to every task that computed a partial.
#include "core/sim/graph_builder.h"
#include "core/sim/reduction.h"

namespace partita::sim {

Work partialSumWork(const Network& net, const Operator& op, const Box& out, int reduce, double element_bytes) {
    const double r = reduce;
    const double n = static_cast<double>(out[0].size()), c = static_cast<double>(out[1].size());
    const Box pre = prePoolBox(op, out);
    const double in_elems = static_cast<double>(volume(inputBox(net, op, 0, out))) / r;
    const double features = op.type == OpType::Conv
                                ? double(op.window.kernel_h) * op.window.kernel_w * static_cast<double>(op.in_shape.c)
                                : static_cast<double>(op.in_shape.c);
    const double positions = op.type == OpType::Conv ? static_cast<double>(pre[2].size() * pre[3].size()) : 1.0;
    return {2 * n * c * positions * features / r,
            (in_elems + static_cast<double>(volume(pre)) + features * c / r) * element_bytes};
}

Work reductionWork(const Operator& op, const Box& out, int reduce, double element_bytes) {
    const double pre = static_cast<double>(volume(prePoolBox(op, out))), post = static_cast<double>(volume(out));
    Work w{(reduce - 1) * pre, (reduce * pre + post) * element_bytes};
    if (op.type == OpType::Conv && op.pool) w.flops += post * op.pool->kernel_h * op.pool->kernel_w;
    return w;
}

Work unpoolWork(const Operator& op, const Box& out, double element_bytes) {
    if (op.type != OpType::Conv || !op.pool) return {};
    const double pre = static_cast<double>(volume(prePoolBox(op, out))), post = static_cast<double>(volume(out));
    return {post * op.pool->kernel_h * op.pool->kernel_w, (pre + post) * element_bytes};
}

int GraphBuilder::outputTask(const TaskGraph& graph, int op, int k, bool backward) const {
    const bool reduced = !graph.group(opGroup(op, RC)).tasks.empty();
    const Kind kind = reduced ? (backward ? BG : RC) : (backward ? BC : FC);
    return graph.group(opGroup(op, kind)).tasks[static_cast<size_t>(k)];
}

void GraphBuilder::buildReduction(TaskGraph& graph, const SoapStrategy& strategy, int op, Kind kind) const {
    const OpConfig& c = strategy.ops[static_cast<size_t>(op)];
    if (c.reduce == 1) return;
    const Operator& o = net_.ops[static_cast<size_t>(op)];
    const Extent extent = outputExtent(o, batch_);
    const int group = opGroup(op, kind);
    const TaskGroup& fwd = graph.group(opGroup(op, FC));
    const int pieces = c.pieces();
    for (int p = 0; p < pieces; ++p) {
        const Box out = outputBox(extent, c, p);
        const int owner = c.devices[static_cast<size_t>(p)];
        const double bytes = static_cast<double>(volume(prePoolBox(o, out))) * options_.element_bytes;
        const ComputeDevice& dev = topo_.devices[static_cast<size_t>(owner)];
        switch (kind) {
        case RX:  // every other task's partials travel to the owner
            for (int r = 1; r < c.reduce; ++r) {
                const int k = p + r * pieces;
                const int from = c.devices[static_cast<size_t>(k)];
                if (from != owner)
                    message(graph, group, &fwd.tasks[static_cast<size_t>(k)], 1, from, owner, bytes,
                            TaskInfo{.op = op, .part = p, .phase = Phase::Transfer});
            }
            break;
        case RC: {
            const int t = graph.addTask(group, owner, analyticTime(reductionWork(o, out, c.reduce, options_.element_bytes), dev),
                                        nextId(graph, group), TaskInfo{.op = op, .part = p, .phase = Phase::Forward});
            // The partials computed on the owner itself (its own and any sharing its device).
            for (int r = 0; r < c.reduce; ++r) {
                const int k = p + r * pieces;
                if (c.devices[static_cast<size_t>(k)] == owner) graph.addEdge(group, fwd.tasks[static_cast<size_t>(k)], t);
            }
            break;
        }
        case BG: {
            // Waits for the forward sum (the loss needs it) and for the consumers' gradients (their edges come later).
            const int t = graph.addTask(group, owner, analyticTime(unpoolWork(o, out, options_.element_bytes), dev),
                                        nextId(graph, group), TaskInfo{.op = op, .part = p, .phase = Phase::Backward});
            graph.addEdge(group, graph.group(opGroup(op, RC)).tasks[static_cast<size_t>(p)], t);
            break;
        }
        case BB: {
            const int gather = graph.group(opGroup(op, BG)).tasks[static_cast<size_t>(p)];
            const TaskGroup& bwd = graph.group(opGroup(op, BC));
            for (int r = 0; r < c.reduce; ++r) {
                const int k = p + r * pieces;
                const int to = c.devices[static_cast<size_t>(k)];
                if (to == owner) {
                    graph.addEdge(group, gather, bwd.tasks[static_cast<size_t>(k)]);
                } else {
                    const auto hops = message(graph, group, &gather, 1, owner, to, bytes,
                                              TaskInfo{.op = op, .part = k, .phase = Phase::Transfer});
                    graph.addEdge(group, hops.second, bwd.tasks[static_cast<size_t>(k)]);
                }
            }
            break;
        }
        default: break;
        }
    }
    if (kind == RC) {
        // The partials that travelled: the last hop of each message (the hop without a successor yet).
        const TaskGroup& sums = graph.group(group);
        for (int t : graph.group(opGroup(op, RX)).tasks) {
            bool last = true;
            graph.forEachSuccessor(t, [&](int) { last = false; });
            if (last) graph.addEdge(group, t, sums.tasks[static_cast<size_t>(graph.info(t).part)]);
        }
    }
}

}  // namespace partita::sim
