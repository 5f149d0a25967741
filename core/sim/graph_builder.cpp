#include "core/sim/graph_builder.h"

#include <algorithm>

#include "core/sim/compute_cost.h"
#include "core/sim/reduction.h"
#include "core/util/error.h"

namespace partita::sim {

GraphBuilder::GraphBuilder(const Network& net, std::int64_t batch, const Topology& topology, const SimOptions& options)
    : net_(net), batch_(batch), topo_(topology), options_(options), n_ops_(static_cast<int>(net.ops.size())) {
    std::vector<std::vector<int>> in_edges(net.ops.size()), out_edges(net.ops.size());
    for (int j = 0; j < n_ops_; ++j) {
        const auto& inputs = net.ops[static_cast<size_t>(j)].input_ids;
        for (size_t s = 0; s < inputs.size(); ++s) {
            if (inputs[s] < 0) continue;  // the network input: loading is not charged
            in_edges[static_cast<size_t>(j)].push_back(static_cast<int>(edges_.size()));
            out_edges[static_cast<size_t>(inputs[s])].push_back(static_cast<int>(edges_.size()));
            edges_.push_back({inputs[s], j, static_cast<int>(s)});
        }
    }
    const int n_edges = static_cast<int>(edges_.size());
    position_.assign(static_cast<size_t>(kKinds * n_ops_ + 2 * n_edges), 0);
    std::uint32_t pos = 0;
    for (int j = 0; j < n_ops_; ++j) {
        for (int e : in_edges[static_cast<size_t>(j)]) position_[static_cast<size_t>(edgeGroup(e, false))] = pos++;
        for (Kind k : {FC, RX, RC}) position_[static_cast<size_t>(opGroup(j, k))] = pos++;
    }
    for (int j = n_ops_ - 1; j >= 0; --j) {
        for (int e : out_edges[static_cast<size_t>(j)]) position_[static_cast<size_t>(edgeGroup(e, true))] = pos++;
        for (Kind k : {BG, BB, BC, S}) position_[static_cast<size_t>(opGroup(j, k))] = pos++;
    }
    group_at_.assign(position_.size(), -1);
    for (size_t g = 0; g < position_.size(); ++g) group_at_[position_[g]] = static_cast<int>(g);
    // Build order (not id order): a group's edges reach only tasks of groups built before it.
    op_groups_.resize(net.ops.size());
    for (int i = 0; i < n_ops_; ++i) {
        auto& g = op_groups_[static_cast<size_t>(i)];
        g.push_back(opGroup(i, FC));
        if (options_.training) g.push_back(opGroup(i, BC));
        g.push_back(opGroup(i, RX));
        g.push_back(opGroup(i, RC));
        if (options_.training) {
            g.push_back(opGroup(i, BG));
            g.push_back(opGroup(i, BB));
        }
        for (const auto* list : {&in_edges[static_cast<size_t>(i)], &out_edges[static_cast<size_t>(i)]})
            for (int e : *list) {
                g.push_back(edgeGroup(e, false));
                if (options_.training) g.push_back(edgeGroup(e, true));
            }
        if (options_.training) g.push_back(opGroup(i, S));
    }
}

std::uint64_t GraphBuilder::nextId(const TaskGraph& graph, int group) const {
    return (static_cast<std::uint64_t>(position_[static_cast<size_t>(group)]) << 32) | graph.group(group).tasks.size();
}

void GraphBuilder::buildAll(TaskGraph& graph, const SoapStrategy& strategy, const CancelFn& cancel) const {
    const auto stopIf = [&] {
        if (cancel && cancel()) throw Cancelled();
    };
    std::vector<std::string> names;
    for (const auto& d : topo_.devices) names.push_back(d.name);
    for (const auto& l : topo_.links) names.push_back(l.name);
    if (collectiveStreams())
        for (const auto& d : topo_.devices) names.push_back(d.name + " comm");
    graph.setResources(topo_.deviceCount(), static_cast<int>(topo_.links.size()), std::move(names));
    std::vector<std::string> ops;
    for (const auto& op : net_.ops) ops.push_back(op.name);
    graph.setOperators(std::move(ops));
    graph.setGroupCount(position_.size());
    const auto [tasks, edges] = estimate(strategy);
    if (tasks > kMaxTasks)
        throw Error("the task graph would have about " + std::to_string(tasks) + " tasks, more than the limit of " +
                    std::to_string(kMaxTasks) + " (about 2.4 GB): every hop of every activation message is a task" +
                    (collectiveStreams() ? std::string("") : std::string(", and a per-hop ring all-reduce over p "
                    "devices sends 2p(p-1) messages per weight (--collectives algorithm makes it p tasks)")) +
                    "; use fewer devices, a smaller batch or a strategy that moves fewer activations");
    graph.reserve(tasks, edges);
    // Compute groups first: transfers and syncs connect to their tasks.
    for (int i = 0; i < n_ops_; ++i) buildCompute(graph, strategy, i, false);
    if (options_.training)
        for (int i = 0; i < n_ops_; ++i) buildCompute(graph, strategy, i, true);
    for (int i = 0; i < n_ops_; ++i)
        for (Kind k : {RX, RC, BG, BB})
            if (options_.training || k == RX || k == RC) buildReduction(graph, strategy, i, k);
    for (int e = 0; e < static_cast<int>(edges_.size()); ++e) {
        stopIf();
        buildTransfers(graph, strategy, e, false);
        if (options_.training) buildTransfers(graph, strategy, e, true);
    }
    if (options_.training)
        for (int i = 0; i < n_ops_; ++i) {
            stopIf();
            buildSync(graph, strategy, i);
        }
}

void GraphBuilder::rebuildOp(TaskGraph& graph, const SoapStrategy& strategy, int op,
                             std::vector<DeferredSync>* deferred) const {
    deferred_ = deferred;
    struct Unset {
        const GraphBuilder& builder;
        ~Unset() { builder.deferred_ = nullptr; }
    } unset{*this};
    for (int g : groupsOf(op)) buildGroup(graph, strategy, g);
}

void GraphBuilder::buildGroup(TaskGraph& graph, const SoapStrategy& strategy, int group) const {
    if (group < kKinds * n_ops_) {
        const int op = group / kKinds;
        switch (const auto kind = static_cast<Kind>(group % kKinds)) {
        case FC: buildCompute(graph, strategy, op, false); break;
        case BC: buildCompute(graph, strategy, op, true); break;
        case S: buildSync(graph, strategy, op); break;
        default: buildReduction(graph, strategy, op, kind); break;
        }
    } else {
        const int rel = group - kKinds * n_ops_;
        buildTransfers(graph, strategy, rel / 2, rel % 2 == 1);
    }
}

double GraphBuilder::computeTime(const Operator& op, const OpConfig& config, const Box& out, int device,
                                 bool backward) const {
    const ComputeDevice& dev = topo_.devices[static_cast<size_t>(device)];
    if (options_.measured && config.reduce == 1)  // the table has no reduce column
        if (auto t = options_.measured->lookup(op, batch_, config.degree, dev.kind, backward)) return *t;
    const Work fwd = config.reduce > 1 ? partialSumWork(net_, op, out, config.reduce, options_.element_bytes)
                                       : forwardWork(net_, op, out, options_.element_bytes);
    if (options_.kernels) return options_.kernels->time(op, fwd, backward, dev.task_overhead_s);
    return analyticTime(backward ? backwardWork(op, fwd) : fwd, dev);
}

void GraphBuilder::addComputeLoad(int op, const OpConfig& config, std::vector<double>& load,
                                  std::vector<int>& devices) const {
    const Operator& o = net_.ops[static_cast<size_t>(op)];
    const Extent extent = outputExtent(o, batch_);
    for (bool backward : {false, true}) {
        if (backward && !options_.training) break;
        for (int k = 0; k < config.parts(); ++k) {
            const int dev = config.devices[static_cast<size_t>(k)];
            double& l = load[static_cast<size_t>(dev)];
            if (l == 0) devices.push_back(dev);
            l += computeTime(o, config, outputBox(extent, config, k), dev, backward);
        }
    }
}

void GraphBuilder::buildCompute(TaskGraph& graph, const SoapStrategy& strategy, int op, bool backward) const {
    const Operator& o = net_.ops[static_cast<size_t>(op)];
    const OpConfig& c = strategy.ops[static_cast<size_t>(op)];
    const Extent extent = outputExtent(o, batch_);
    const int group = opGroup(op, backward ? BC : FC);
    const TaskGroup& fwd = graph.group(opGroup(op, FC));
    for (int k = 0; k < c.parts(); ++k) {
        const int dev = c.devices[static_cast<size_t>(k)];
        const double exe = computeTime(o, c, outputBox(extent, c, k), dev, backward);
        const int t =
            graph.addTask(group, dev, exe, nextId(graph, group),
                          TaskInfo{.op = op, .part = k, .phase = backward ? Phase::Backward : Phase::Forward});
        if (backward) graph.addEdge(group, fwd.tasks[static_cast<size_t>(k)], t);
    }
}

std::pair<int, int> GraphBuilder::message(TaskGraph& graph, int group, const int* deps, size_t ndeps, int from, int to,
                                          double bytes, TaskInfo info) const {
    thread_local std::vector<int> route;  // reused: this runs for every message of every proposal
    topo_.route(from, to, route);
    info.bytes = bytes;
    info.from = from;
    info.to = to;
    int first = -1, prev = -1;
    for (size_t h = 0; h < route.size(); ++h) {
        const Link& link = topo_.links[static_cast<size_t>(route[h])];
        info.first_hop = h == 0;
        const int t = graph.addTask(group, graph.computeDevices() + route[h],
                                    link.latency_s + bytes / link.bandwidth_Bps, nextId(graph, group), info);
        if (h == 0) {
            first = t;
            for (size_t d = 0; d < ndeps; ++d) graph.addEdge(group, deps[d], t);
        } else {
            graph.addEdge(group, prev, t);
        }
        prev = t;
    }
    return {first, prev};
}

void GraphBuilder::buildTransfers(TaskGraph& graph, const SoapStrategy& strategy, int e, bool backward) const {
    const TensorEdge& te = edges_[static_cast<size_t>(e)];
    const Operator& prod = net_.ops[static_cast<size_t>(te.producer)];
    const Operator& cons = net_.ops[static_cast<size_t>(te.consumer)];
    const OpConfig& cp = strategy.ops[static_cast<size_t>(te.producer)];
    const OpConfig& cc = strategy.ops[static_cast<size_t>(te.consumer)];
    const Extent ep = outputExtent(prod, batch_), ec = outputExtent(cons, batch_);
    const int group = edgeGroup(e, backward);
    const Kind kind = backward ? BC : FC;
    const TaskGroup& ctasks = graph.group(opGroup(te.consumer, kind));
    const std::int64_t slice = cc.reduce > 1 ? reducedChannels(net_, cons) / cc.reduce : 0;
    thread_local std::vector<PieceMessage> pieces;  // reused: this runs for every tensor of every proposal
    pieces.clear();
    size_t cross = 0;
    Degrees step{}, lo{}, hi{};
    for (size_t d = 0; d < kDims; ++d) step[d] = static_cast<int>(ep[d] / cp.degree[d]);
    thread_local std::vector<Box> produced;  // by producer task: its output box (its slice when reduce-split)
    produced.resize(static_cast<size_t>(cp.parts()));
    for (int k = 0; k < cp.parts(); ++k) {
        const int piece = k % cp.pieces();
        produced[static_cast<size_t>(k)] = outputBox(ep, cp, piece);
        if (cp.reduce > 1) produced[static_cast<size_t>(k)] = reduceSlice(produced[static_cast<size_t>(k)], k / cp.pieces(), cp.reduce);
    }
    for (int b = 0; b < cc.parts(); ++b) {
        Box need = inputBox(net_, cons, te.slot, outputBox(ec, cc, b));
        if (slice > 0) need[1] = {cc.reduceIndex(b) * slice, (cc.reduceIndex(b) + 1) * slice};
        if (volume(need) == 0) continue;
        for (size_t d = 0; d < kDims; ++d) {
            lo[d] = static_cast<int>(need[d].lo / step[d]);
            hi[d] = static_cast<int>((need[d].hi - 1) / step[d]);
        }
        // Producer pieces overlapping `need`, sample index fastest.
        Degrees a = lo;
        while (true) {
            const int piece = cp.index(a);
            // A reduce-split producer's piece is summed in slices, slice r on task piece + r * pieces.
            for (int r = 0; r < cp.reduce; ++r) {
                const int k = piece + r * cp.pieces();
                const Box& have = produced[static_cast<size_t>(k)];
                const std::int64_t elems = volume(intersect(have, need));
                if (cp.reduce > 1 && elems == 0) continue;
                PieceMessage m{.src = outputTask(graph, te.producer, k, backward),
                               .dst = ctasks.tasks[static_cast<size_t>(b)],
                               .from = cp.devices[static_cast<size_t>(k)],
                               .to = cc.devices[static_cast<size_t>(b)],
                               .part = backward ? k : b,
                               .bytes = static_cast<double>(elems) * options_.element_bytes};
                if (backward) {
                    std::swap(m.src, m.dst);
                    std::swap(m.from, m.to);
                }
                if (m.from != m.to) ++cross;
                pieces.push_back(m);
            }
            size_t d = 0;
            while (d < kDims && a[d] == hi[d]) a[d] = lo[d], ++d;
            if (d == kDims) break;
            ++a[d];
        }
    }
    const int op = backward ? te.producer : te.consumer;
    if (collectiveStreams() && cross > 0 && buildRedistribution(graph, group, pieces, cross, op)) return;
    for (const PieceMessage& m : pieces) {
        if (m.from == m.to) {
            graph.addEdge(group, m.src, m.dst);
        } else {
            const TaskInfo info{.op = op, .part = m.part, .phase = Phase::Transfer};
            graph.addEdge(group, message(graph, group, &m.src, 1, m.from, m.to, m.bytes, info).second, m.dst);
        }
    }
}

// A many-to-many redistribution as one collective (docs/methods/flexflow.md#redistribution-as-a-collective):
// when the messages outnumber the devices exchanging them (a change of split, as sample to channel), it
// is a join after every sending piece, then one task per device on its collective stream lasting the
// largest route latency plus the busiest link's bytes over its bandwidth; each receiving piece waits
// for its device's task. Few messages (a shift, a gather) stay point to point.
bool GraphBuilder::buildRedistribution(TaskGraph& graph, int group, const std::vector<PieceMessage>& pieces,
                                       size_t cross, int op) const {
    // Reused across calls (this runs for every exchange of every proposal): a device's place among
    // the members (-1 when not one), and per task slot the last call that saw it as a sender or a
    // receiver, to take each once without sorting.
    thread_local std::vector<int> members, touched_links, place;
    thread_local std::vector<double> load;
    thread_local std::vector<std::uint32_t> sent_mark, received_mark;
    thread_local std::uint32_t call = 0;
    place.resize(static_cast<size_t>(topo_.deviceCount()), -1);
    members.clear();
    for (const PieceMessage& m : pieces)
        if (m.from != m.to)
            for (int dev : {m.from, m.to})
                if (place[static_cast<size_t>(dev)] < 0) {
                    place[static_cast<size_t>(dev)] = 0;
                    members.push_back(dev);
                }
    std::sort(members.begin(), members.end());  // a member's task id follows its device
    for (size_t r = 0; r < members.size(); ++r) place[static_cast<size_t>(members[r])] = static_cast<int>(r);
    struct Unmark {  // leave `place` all -1 for the next call, whatever happens
        ~Unmark() {
            for (int dev : members) place[static_cast<size_t>(dev)] = -1;
        }
    } unmark;
    if (cross <= members.size()) return false;
    if (++call == 0) {  // wrapped: forget every mark
        std::fill(sent_mark.begin(), sent_mark.end(), 0);
        std::fill(received_mark.begin(), received_mark.end(), 0);
        call = 1;
    }
    sent_mark.resize(std::max(sent_mark.size(), graph.slotCount() + 1), 0);
    received_mark.resize(sent_mark.size(), 0);
    load.resize(topo_.links.size(), 0.0);
    touched_links.clear();
    double latency = 0, largest = 0;
    auto traffic = std::make_shared<std::vector<Transfer>>();
    traffic->reserve(cross);
    std::vector<double> sent(members.size(), 0.0);
    // Each sender's messages go out at once: its routes form a tree (Topology::fanOut).
    thread_local std::vector<std::vector<std::pair<int, double>>> outgoing;
    if (outgoing.size() < members.size()) outgoing.resize(members.size());
    for (size_t r = 0; r < members.size(); ++r) outgoing[r].clear();
    for (const PieceMessage& m : pieces) {
        if (m.from == m.to) continue;
        const auto r = static_cast<size_t>(place[static_cast<size_t>(m.from)]);
        outgoing[r].emplace_back(m.to, m.bytes);
        largest = std::max(largest, m.bytes);
        sent[r] += m.bytes;
        traffic->push_back({m.from, m.to, m.bytes});
    }
    for (size_t r = 0; r < members.size(); ++r)
        if (!outgoing[r].empty()) latency = std::max(latency, topo_.fanOut(members[r], outgoing[r], load, touched_links));
    double busiest = 0;
    for (int l : touched_links) {
        double& bytes = load[static_cast<size_t>(l)];
        busiest = std::max(busiest, bytes / topo_.links[static_cast<size_t>(l)].bandwidth_Bps);
        bytes = 0;
    }
    const double time = latency + busiest;
    const TaskInfo info{.op = op, .phase = Phase::Transfer};
    const int join = collectiveJoin(graph, group, members, info);
    for (const PieceMessage& m : pieces)
        if (m.from != m.to && sent_mark[static_cast<size_t>(m.src)] != call) {
            sent_mark[static_cast<size_t>(m.src)] = call;
            graph.addEdge(group, m.src, join);
        }
    thread_local std::vector<int> member_task;
    collectiveMembers(graph, group, join, members, time, sent, 1.0, info, member_task);
    // Each receiving piece after its device's task (once), local pieces straight from their producer.
    for (const PieceMessage& m : pieces) {
        if (m.from == m.to) {
            graph.addEdge(group, m.src, m.dst);
        } else if (received_mark[static_cast<size_t>(m.dst)] != call) {
            received_mark[static_cast<size_t>(m.dst)] = call;
            graph.addEdge(group, member_task[static_cast<size_t>(place[static_cast<size_t>(m.to)])], m.dst);
        }
    }
    graph.addCollective(group, {std::move(traffic), 1.0, largest});
    return true;
}

}  // namespace partita::sim
