// Partial sums of reduce-split operators (HyPar's model parallelism, AccPar's
// Type-II, Megatron's row-parallel layers) as a reduce-scatter: task r of a
// piece receives every other task's partial of slice r and adds them; in the
// backward pass each slice's output gradient is all-gathered back to every task
// of the piece (docs/methods/flexflow.md#reduce-splits). Together: an all-reduce.
#include "core/sim/graph_builder.h"
#include "core/sim/reduction.h"

namespace partita::sim {

Box reduceSlice(const Box& piece, int r, int reduce) {
    size_t dim = 0;
    for (size_t d = 1; d < kDims; ++d)
        if (piece[d].size() > piece[dim].size()) dim = d;
    Box b = piece;
    const std::int64_t n = piece[dim].size();
    b[dim] = {piece[dim].lo + n * r / reduce, piece[dim].lo + n * (r + 1) / reduce};
    return b;
}

Work partialSumWork(const Network& net, const Operator& op, const Box& out, int reduce, double element_bytes) {
    const double r = reduce;
    const double n = static_cast<double>(out[0].size()), c = static_cast<double>(out[1].size());
    const Box pre = prePoolBox(op, out);
    const double in_elems = static_cast<double>(volume(inputBox(net, op, 0, out))) / r;
    const double features = op.type == OpType::Conv
                                ? double(op.window.kernel_h) * op.window.kernel_w * static_cast<double>(op.in_shape.c)
                                : static_cast<double>(op.in_shape.c);
    const double positions = op.type == OpType::Conv ? static_cast<double>(pre[2].size() * pre[3].size()) : 1.0;
    const double flops = 2 * n * c * positions * features / r;
    const double bytes = (in_elems + static_cast<double>(volume(pre)) + features * c / r) * element_bytes;
    return {flops, bytes, flops, bytes};
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

double GraphBuilder::vectorTime(const Work& work, const ComputeDevice& device) const {
    if (options_.kernels) return device.task_overhead_s + options_.kernels->kernelTime(work.flops, work.bytes, false);
    return analyticTime(work, device);
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
    // Task k = p + r * pieces holds slice r of piece p; its reduction and gradient tasks have index k.
    for (int k = 0; k < c.parts(); ++k) {
        const int p = k % pieces, holder = c.devices[static_cast<size_t>(k)];
        const Box out = reduceSlice(outputBox(extent, c, p), c.reduceIndex(k), c.reduce);
        const double bytes = static_cast<double>(volume(prePoolBox(o, out))) * options_.element_bytes;
        const ComputeDevice& dev = topo_.devices[static_cast<size_t>(holder)];
        switch (kind) {
        case RX:  // every other task's partial of this slice travels to the holder
            for (int r = 0; r < c.reduce; ++r) {
                const int from_task = p + r * pieces, from = c.devices[static_cast<size_t>(from_task)];
                if (from != holder && bytes > 0)
                    message(graph, group, &fwd.tasks[static_cast<size_t>(from_task)], 1, from, holder, bytes,
                            TaskInfo{.op = op, .part = k, .phase = Phase::Transfer});
            }
            break;
        case RC: {
            const double time = vectorTime(reductionWork(o, out, c.reduce, options_.element_bytes), dev);
            const int t = graph.addTask(group, holder, time, nextId(graph, group),
                                        TaskInfo{.op = op, .part = k, .phase = Phase::Forward});
            // The partials computed on the holder's device (its own and any sharing it, or any not sent).
            for (int r = 0; r < c.reduce; ++r) {
                const int from_task = p + r * pieces;
                if (c.devices[static_cast<size_t>(from_task)] == holder || bytes == 0)
                    graph.addEdge(group, fwd.tasks[static_cast<size_t>(from_task)], t);
            }
            break;
        }
        case BG: {
            // Waits for the forward sum (the loss needs it) and for the consumers' gradients (their edges come later).
            const int t = graph.addTask(group, holder, vectorTime(unpoolWork(o, out, options_.element_bytes), dev),
                                        nextId(graph, group), TaskInfo{.op = op, .part = k, .phase = Phase::Backward});
            graph.addEdge(group, graph.group(opGroup(op, RC)).tasks[static_cast<size_t>(k)], t);
            break;
        }
        case BB: {  // the slice's gradient goes to every task of the piece
            const int gather = graph.group(opGroup(op, BG)).tasks[static_cast<size_t>(k)];
            const TaskGroup& bwd = graph.group(opGroup(op, BC));
            for (int r = 0; r < c.reduce; ++r) {
                const int to_task = p + r * pieces, to = c.devices[static_cast<size_t>(to_task)];
                if (to == holder || bytes == 0) {
                    graph.addEdge(group, gather, bwd.tasks[static_cast<size_t>(to_task)]);
                } else {
                    const auto hops = message(graph, group, &gather, 1, holder, to, bytes,
                                              TaskInfo{.op = op, .part = to_task, .phase = Phase::Transfer});
                    graph.addEdge(group, hops.second, bwd.tasks[static_cast<size_t>(to_task)]);
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
