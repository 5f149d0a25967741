#include "core/sim/delta.h"

#include <algorithm>
#include <stdexcept>

#include "core/sim/delta_impl.h"

namespace partita::sim {

DeltaSimulator::Impl::Impl(Network n, double b, SoapStrategy s, Topology t, SimOptions o)
    : net(std::move(n)),
      topo(std::move(t)),
      options(std::move(o)),
      batch(batchCount(b)),
      strategy(std::move(s)),
      builder(net, batch, topo, options) {
    validateStrategy(net, batch, strategy, topo.deviceCount(), options.allow_shared_devices);
    builder.buildAll(graph, strategy);
    SimResult r = simulate(graph);
    slots.resize(graph.slotCount());
    for (size_t t = 0; t < slots.size(); ++t) slots[t] = Slot{r.ready[t], r.start[t], r.end[t]};
    order = std::move(r.order);
    makespan = r.makespan;
}

double DeltaSimulator::Impl::propose(int o, const OpConfig& config) {
    if (pending) throw std::logic_error("a proposal is pending: commit() or revert() it first");
    if (o < 0 || o >= static_cast<int>(net.ops.size())) throw std::out_of_range("no operator " + std::to_string(o));
    validateConfig(net, o, batch, config, topo.deviceCount(), options.allow_shared_devices);
    pending = true;
    op = o;
    old_config = strategy.ops[static_cast<size_t>(o)];
    old_makespan = makespan;
    ++stats.proposals;
    // 1. Update the task graph.
    const auto& groups = builder.groupsOf(o);
    stash.resize(groups.size());
    for (size_t i = 0; i < groups.size(); ++i) graph.detachGroup(groups[i], stash[i]);
    strategy.ops[static_cast<size_t>(o)] = config;
    builder.rebuildOp(graph, strategy, o);
    grow();
    for (int g : groups)
        for (int t : graph.group(g).tasks) {
            touch(t);
            at(t).flags |= kNew;
            ++stats.rebuilt_tasks;
        }
    // 2. K0. A seed's new ready is at least its surviving predecessors' old ends
    // (or K0, if they change too); with only new predecessors, it follows them.
    seeds.clear();
    double k0 = kNotQueued;
    for (const TaskGroup& g : stash) {
        for (int t : g.tasks) k0 = std::min(k0, at(t).ready);
        for (int e : g.edges) seeds.push_back(graph.edgeTarget(e));  // may have lost a predecessor
    }
    for (int g : groups) {
        for (int t : graph.group(g).tasks) seeds.push_back(t);
        for (int e : graph.group(g).edges) seeds.push_back(graph.edgeTarget(e));  // may have gained one
    }
    for (int t : seeds) {
        if (!graph.alive(t)) continue;
        double b = 0;
        bool any = false, only_new = true;
        graph.forEachPredecessor(t, [&](int p) {
            any = true;
            if (at(p).flags & kNew) return;
            only_new = false;
            b = std::max(b, at(p).end);
        });
        if (!any || !only_new) k0 = std::min(k0, b);
    }
    for (int g : groups)  // new tasks wait for their predecessors to be placed
        for (int t : graph.group(g).tasks) wait(t);
    for (int t : seeds)
        if (graph.alive(t)) schedule(t);
    // 3. Keep the order below K0; sweep the rest.
    kept = static_cast<size_t>(
        std::lower_bound(order.begin(), order.end(), k0, [&](int t, double k) { return at(t).ready < k; }) -
        order.begin());
    replaced.assign(order.begin() + static_cast<std::ptrdiff_t>(kept), order.end());
    order.resize(kept);
    const auto resources = static_cast<size_t>(graph.resourceCount());
    last.assign(resources, -1);
    for (int t : order) last[static_cast<size_t>(graph.resource(t))] = t;
    old_last = last;
    remaining.assign(resources, 0);
    for (int t : replaced)
        if (graph.alive(t)) ++remaining[static_cast<size_t>(graph.resource(t))];
    clean.assign(resources, 1);
    dirty = 0;
    sweep();
    finish();
    return makespan;
}

void DeltaSimulator::Impl::finish() {
    for (int t : touched) {
        at(t).flags = 0;  // nothing is left waiting or queued: every task got placed
        at(t).queued = kNotQueued;
    }
    touched.clear();
    heap.clear();
    makespan = 0;
    for (int t : last)
        if (t >= 0) makespan = std::max(makespan, at(t).end);
}

void DeltaSimulator::Impl::revert() {
    if (!pending) throw std::logic_error("no proposal to revert");
    for (auto it = log.rbegin(); it != log.rend(); ++it) {
        Slot& s = at(it->task);
        s.ready = it->ready;
        s.start = it->start;
        s.end = it->end;
    }
    log.clear();
    order.resize(kept);
    order.insert(order.end(), replaced.begin(), replaced.end());
    replaced.clear();
    const auto& groups = builder.groupsOf(op);
    spare.resize(std::max(spare.size(), groups.size()));
    for (size_t i = groups.size(); i-- > 0;) {
        graph.detachGroup(groups[i], spare[i]);
        graph.releaseGroup(spare[i]);
    }
    for (size_t i = 0; i < groups.size(); ++i) graph.attachGroup(groups[i], stash[i]);
    strategy.ops[static_cast<size_t>(op)] = old_config;
    makespan = old_makespan;
    pending = false;
}

DeltaSimulator::DeltaSimulator(Network net, double batch, SoapStrategy strategy, Topology topology, SimOptions options)
    : impl_(std::make_unique<Impl>(std::move(net), batch, std::move(strategy), std::move(topology),
                                   std::move(options))) {}
DeltaSimulator::~DeltaSimulator() = default;
DeltaSimulator::DeltaSimulator(DeltaSimulator&&) noexcept = default;
DeltaSimulator& DeltaSimulator::operator=(DeltaSimulator&&) noexcept = default;

double DeltaSimulator::makespan() const { return impl_->makespan; }
double DeltaSimulator::propose(int op, const OpConfig& config) { return impl_->propose(op, config); }
void DeltaSimulator::revert() { impl_->revert(); }
bool DeltaSimulator::pending() const { return impl_->pending; }
const Network& DeltaSimulator::network() const { return impl_->net; }
const Topology& DeltaSimulator::topology() const { return impl_->topo; }
const SoapStrategy& DeltaSimulator::strategy() const { return impl_->strategy; }
const TaskGraph& DeltaSimulator::graph() const { return impl_->graph; }
std::int64_t DeltaSimulator::batch() const { return impl_->batch; }
const DeltaSimulator::Stats& DeltaSimulator::stats() const { return impl_->stats; }

void DeltaSimulator::commit() {
    Impl& m = *impl_;
    if (!m.pending) throw std::logic_error("no proposal to commit");
    for (TaskGroup& g : m.stash) m.graph.releaseGroup(g);
    m.log.clear();
    m.replaced.clear();
    m.pending = false;
}

SimResult DeltaSimulator::result() const {
    const Impl& m = *impl_;
    SimResult r;
    r.makespan = m.makespan;
    const size_t n = m.graph.slotCount();
    r.ready.assign(n, 0);
    r.start.assign(n, 0);
    r.end.assign(n, 0);
    for (int t : m.order) {
        const auto& s = m.slots[static_cast<size_t>(t)];
        r.ready[static_cast<size_t>(t)] = s.ready;
        r.start[static_cast<size_t>(t)] = s.start;
        r.end[static_cast<size_t>(t)] = s.end;
    }
    r.order = m.order;
    return r;
}

}  // namespace partita::sim
