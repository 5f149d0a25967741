// Weight synchronisation groups (docs/methods/flexflow.md#partitas-decisions): the
// tasks of an operator that share a channel (parameter) index hold replicas of
// the same weight shard and must agree after the backward pass.
#include <algorithm>

#include "core/sim/graph_builder.h"
#include "core/sim/memory.h"
#include "core/sim/reduction.h"

namespace partita::sim {

void GraphBuilder::buildSync(TaskGraph& graph, const SoapStrategy& strategy, int op) const {
    const Operator& o = net_.ops[static_cast<size_t>(op)];
    if (!hasWeights(o.type)) return;
    const OpConfig& c = strategy.ops[static_cast<size_t>(op)];
    const int group = opGroup(op, S);
    const TaskGroup& bwd = graph.group(opGroup(op, BC));
    const double weights = weightElements(o);
    // A shard is an (output-channel piece, input-channel slice) pair of the weights.
    const int shards = c.degree[1] * c.reduce;
    const double shard_bytes =
        weights / shards * (options_.gradient_bytes > 0 ? options_.gradient_bytes : options_.element_bytes);

    std::vector<int> devs;                // distinct devices holding the shard (ring positions)
    std::vector<std::vector<int>> local;  // backward tasks on each position
    std::vector<int> first, last, next_first, next_last;
    // A device's position in `devs`, or -1: a map, not a search, as 4,096 replicas would make it p^2.
    thread_local std::vector<int> position;
    position.assign(static_cast<size_t>(topo_.deviceCount()), -1);
    for (int shard = 0; shard < shards; ++shard) {
        for (int dev : devs) position[static_cast<size_t>(dev)] = -1;
        devs.clear();
        local.clear();
        for (int k = 0; k < c.parts(); ++k) {
            if (c.coords(k)[1] + c.degree[1] * c.reduceIndex(k) != shard) continue;
            const int dev = c.devices[static_cast<size_t>(k)];
            int& pos = position[static_cast<size_t>(dev)];
            if (pos < 0) {  // replicas sharing a device reduce locally
                pos = static_cast<int>(devs.size());
                devs.push_back(dev);
                local.emplace_back();
            }
            local[static_cast<size_t>(pos)].push_back(bwd.tasks[static_cast<size_t>(k)]);
        }
        const int p = static_cast<int>(devs.size());
        if (p < 2) continue;
        TaskInfo info{.op = op, .phase = Phase::Sync};
        if (collectiveStreams()) {
            // The collective orders its members by the topology (device id), as NCCL builds its rings
            // from the topology rather than from the ranks' order; equal sets then share their lines.
            thread_local std::vector<int> by_id;
            by_id.resize(devs.size());
            for (size_t r = 0; r < devs.size(); ++r) by_id[r] = static_cast<int>(r);
            std::sort(by_id.begin(), by_id.end(), [&](int a, int b) {
                return devs[static_cast<size_t>(a)] < devs[static_cast<size_t>(b)];
            });
            std::vector<int> sorted_devs(devs.size());
            std::vector<std::vector<int>> sorted_local(devs.size());
            for (size_t r = 0; r < devs.size(); ++r) {
                sorted_devs[r] = devs[static_cast<size_t>(by_id[r])];
                sorted_local[r] = std::move(local[static_cast<size_t>(by_id[r])]);
                local[static_cast<size_t>(by_id[r])].clear();
            }
            buildCollectiveSync(graph, group, sorted_devs, sorted_local, shard_bytes, info);
        } else if (options_.sync == SyncMode::Ring) {
            // Reduce-scatter then all-gather: 2(p-1) steps; in each, position r
            // sends a 1/p chunk to r+1 once it has received step s-1 from r-1
            // and has sent its own step s-1 (which waited for its gradients).
            const double chunk = shard_bytes / p;
            first.assign(static_cast<size_t>(p), -1);
            last.assign(static_cast<size_t>(p), -1);
            next_first = first;
            next_last = last;
            for (int s = 0; s < 2 * (p - 1); ++s) {
                info.part = s;
                for (int r = 0; r < p; ++r) {
                    const int to = devs[static_cast<size_t>((r + 1) % p)];
                    std::pair<int, int> hops;
                    if (s == 0) {
                        const auto& deps = local[static_cast<size_t>(r)];
                        hops = message(graph, group, deps.data(), deps.size(), devs[static_cast<size_t>(r)], to, chunk,
                                       info);
                    } else {
                        const int deps[2] = {last[static_cast<size_t>((r + p - 1) % p)], first[static_cast<size_t>(r)]};
                        hops = message(graph, group, deps, 2, devs[static_cast<size_t>(r)], to, chunk, info);
                    }
                    next_first[static_cast<size_t>(r)] = hops.first;
                    next_last[static_cast<size_t>(r)] = hops.second;
                }
                std::swap(first, next_first);
                std::swap(last, next_last);
            }
        } else {
            // Parameter server on the first replica's device: every other
            // replica pushes its gradient shard, a zero-time update waits for
            // all of them, then every replica pulls the new weights.
            std::vector<int> arrived = local[0];
            for (int r = 1; r < p; ++r) {
                const auto& deps = local[static_cast<size_t>(r)];
                arrived.push_back(message(graph, group, deps.data(), deps.size(), devs[static_cast<size_t>(r)], devs[0],
                                          shard_bytes, info)
                                      .second);
            }
            const int update = graph.addTask(group, devs[0], 0.0, nextId(graph, group), info);
            for (int t : arrived) graph.addEdge(group, t, update);
            info.part = 1;
            for (int r = 1; r < p; ++r)
                message(graph, group, &update, 1, devs[0], devs[static_cast<size_t>(r)], shard_bytes, info);
        }
    }
}

std::shared_ptr<const std::vector<CollectiveLine>> GraphBuilder::allReduceLines(const std::vector<int>& group) const {
    const std::lock_guard lock(line_cache_->mutex);
    // Bounded: a long search meets many groups, and a line is cheap to recompute.
    if (line_cache_->lines.size() >= 4096 && !line_cache_->lines.contains(group)) line_cache_->lines.clear();
    auto& lines = line_cache_->lines[group];
    if (!lines)
        lines = std::make_shared<const std::vector<CollectiveLine>>(collectiveLines(topo_, CollectiveOp::AllReduce, group));
    return lines;
}

// An all-reduce as a collective (docs/methods/flexflow.md#collectives-in-the-simulator): it starts once
// every replica's gradient is ready and the first member's stream is free (a zero-time join on that
// stream), then occupies every member's stream for the fastest algorithm's time, so collectives on a
// device run one at a time, in the order they become ready, as on one NCCL stream.
void GraphBuilder::buildCollectiveSync(TaskGraph& graph, int group, const std::vector<int>& devs,
                                       const std::vector<std::vector<int>>& local, double bytes, TaskInfo info) const {
    const int join = collectiveJoin(graph, group, devs, info);
    for (const auto& tasks : local)
        for (int t : tasks) graph.addEdge(group, t, join);
    thread_local std::vector<int> members;
    if (deferred_) {  // priced by priceSync, if the proposal gets that far
        thread_local std::vector<double> none;
        none.assign(devs.size(), 0.0);
        collectiveMembers(graph, group, join, devs, 0.0, none, 0.0, info, members);
        deferred_->push_back({group, graph.group(group).collectives.size(), devs, members, bytes});
        graph.addCollective(group, {nullptr, bytes, 0.0});
        return;
    }
    const auto lines = allReduceLines(devs);
    const CollectiveLine& line = syncLine(*lines, bytes);
    collectiveMembers(graph, group, join, devs, line.time(bytes), *line.sent_per_byte, bytes, info, members);
    graph.addCollective(group, {line.traffic_per_byte, bytes, line.largest_transfer_per_byte * bytes});
}

const CollectiveLine& GraphBuilder::syncLine(const std::vector<CollectiveLine>& lines, double bytes) const {
    if (options_.collective_algorithm)
        for (const CollectiveLine& l : lines)
            if (l.algorithm == *options_.collective_algorithm) return l;
    return fastestLine(lines, bytes);
}

void GraphBuilder::priceSync(TaskGraph& graph, const DeferredSync& sync) const {
    const auto lines = allReduceLines(sync.devs);
    const CollectiveLine& line = syncLine(*lines, sync.bytes);
    const double time = line.time(sync.bytes);
    for (size_t r = 0; r < sync.members.size(); ++r) {
        graph.setExe(sync.members[r], time);
        graph.setBytes(sync.members[r], (*line.sent_per_byte)[r] * sync.bytes);
    }
    graph.collective(sync.group, sync.collective) = {line.traffic_per_byte, sync.bytes,
                                                    line.largest_transfer_per_byte * sync.bytes};
}

int GraphBuilder::collectiveJoin(TaskGraph& graph, int group, const std::vector<int>& devs, TaskInfo info) const {
    info.from = devs[0];
    info.part = -1;  // the join (members are parts 0..p-1)
    return graph.addTask(group, graph.streamOf(devs[0]), 0.0, nextId(graph, group), info);
}

void GraphBuilder::collectiveMembers(TaskGraph& graph, int group, int join, const std::vector<int>& devs, double time,
                                     const std::vector<double>& sent, double scale, TaskInfo info,
                                     std::vector<int>& members) const {
    members.resize(devs.size());
    for (size_t r = 0; r < devs.size(); ++r) {
        info.part = static_cast<int>(r);
        info.from = devs[r];
        info.bytes = sent[r] * scale;
        members[r] = graph.addTask(group, graph.streamOf(devs[r]), time, nextId(graph, group), info);
        graph.addEdge(group, join, members[r]);
    }
}

std::pair<size_t, size_t> GraphBuilder::estimate(const SoapStrategy& strategy) const {
    const size_t phases = options_.training ? 2 : 1;
    size_t tasks = 0, edges = 0;
    std::vector<int> route;
    for (int i = 0; i < n_ops_; ++i) {
        const OpConfig& c = strategy.ops[static_cast<size_t>(i)];
        tasks += phases * static_cast<size_t>(c.parts() + (c.reduce > 1 ? c.parts() * 2 : 0));
        if (!options_.training || !hasWeights(net_.ops[static_cast<size_t>(i)].type) || c.parts() < 2) continue;
        // Ring sends along the task order of each shard (devices assumed distinct); a parameter
        // server has one push and one pull per replica, with the first as the server; a
        // collective is a join and a task per member.
        const int p = c.parts() / (c.degree[1] * c.reduce);
        if (p < 2) continue;
        if (collectiveStreams()) {
            tasks += static_cast<size_t>(c.degree[1] * c.reduce) * static_cast<size_t>(p + 1);
            continue;
        }
        const bool ring = options_.sync == SyncMode::Ring;
        for (int shard = 0; shard < c.degree[1] * c.reduce; ++shard)
            for (int r = ring ? 0 : 1; r < p; ++r) {
                const int a = c.devices[static_cast<size_t>(shard * p + r)];
                const int b = c.devices[static_cast<size_t>(shard * p + (ring ? (r + 1) % p : 0))];
                if (a != b) topo_.route(a, b, route);
                const size_t hops = a == b ? 0 : route.size();
                tasks += (ring ? 2 * static_cast<size_t>(p - 1) : 2) * hops;
            }
    }
    // Transfers: one message per consumer piece and producer piece whose boxes meet (as
    // buildTransfers finds them), two hops each: a layer split a thousand ways by channel after one
    // split by sample reads from every piece, a million messages.
    for (const TensorEdge& e : edges_) {
        const Operator& prod = net_.ops[static_cast<size_t>(e.producer)];
        const Operator& cons = net_.ops[static_cast<size_t>(e.consumer)];
        const OpConfig& cp = strategy.ops[static_cast<size_t>(e.producer)];
        const OpConfig& cc = strategy.ops[static_cast<size_t>(e.consumer)];
        const Extent ep = outputExtent(prod, batch_), ec = outputExtent(cons, batch_);
        const std::int64_t slice = cc.reduce > 1 ? reducedChannels(net_, cons) / cc.reduce : 0;
        size_t messages = 0;
        for (int b = 0; b < cc.parts(); ++b) {
            Box need = inputBox(net_, cons, e.slot, outputBox(ec, cc, b));
            if (slice > 0) need[1] = {cc.reduceIndex(b) * slice, (cc.reduceIndex(b) + 1) * slice};
            if (volume(need) == 0) continue;
            size_t overlapping = static_cast<size_t>(cp.reduce);
            for (size_t d = 0; d < kDims; ++d) {
                const std::int64_t step = ep[d] / cp.degree[d];
                overlapping *= static_cast<size_t>((need[d].hi - 1) / step - need[d].lo / step + 1);
            }
            messages += overlapping;
        }
        // As collectives, a redistribution is at most a join and a task per device taking part.
        const size_t devices = static_cast<size_t>(cp.parts() + cc.parts()) + 1;
        tasks += phases * (collectiveStreams() ? std::min(2 * messages, devices) : 2 * messages);
    }
    edges = tasks + tasks / 2;
    return {tasks, edges};
}

}  // namespace partita::sim
