#include "core/sim/delta.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/sim/delta_impl.h"
#include "core/util/error.h"

namespace partita::sim {

DeltaSimulator::Impl::Impl(Network n, double b, SoapStrategy s, Topology t, SimOptions o)
    : net(std::move(n)),
      topo(std::move(t)),
      options(std::move(o)),
      batch(batchCount(b)),
      strategy(std::move(s)),
      builder(net, batch, topo, options) {
    start();
}

// A full build and simulation of `strategy` into the graph and timeline (their memory is reused).
void DeltaSimulator::Impl::start(const CancelFn& cancel) {
    validateStrategy(net, batch, strategy, topo.deviceCount(), options.allow_shared_devices);
    built = false;
    graph.clear();
    builder.buildAll(graph, strategy, cancel);
    // Proposals soon need these at about the graph's size: reserve them once
    // (address space only until used) instead of growing and copying them later.
    const size_t tasks = graph.slotCount(), headroom = tasks + tasks / 4;
    graph.reserve(headroom, graph.edgeCount() + graph.edgeCount() / 4);
    slots.reserve(headroom);
    queued.reserve(headroom);
    replay_state.reserve(headroom);
    replaced.reserve(headroom);
    log.reserve(tasks);
    rest.reserve(tasks);
    SimResult r = simulate(graph);
    slots.clear();
    queued.clear();
    grow();
    for (size_t t = 0; t < slots.size(); ++t) slots[t] = Slot{r.ready[t], r.start[t], r.end[t], 0};
    order.reserve(headroom);
    order.assign(r.order.begin(), r.order.end());
    makespan = r.makespan;
    busy.assign(static_cast<size_t>(graph.resourceCount()), 0.0);
    old_load.assign(static_cast<size_t>(graph.computeDevices()), 0.0);
    new_load.assign(old_load.size(), 0.0);
    for (int t : order) busy[static_cast<size_t>(graph.resource(t))] += graph.exe(t);
    built = true;
    ++stats.full_builds;
}

// Reaching a strategy that differs in a few operators (MCMC's resets to its best and restarts from
// a perturbation of it) costs a proposal per operator instead of a full build, which at thousands
// of devices takes seconds. Each step is a delta proposal, so the state is exactly a full build's
// (docs/methods/flexflow.md#delta-simulation). Up to Tuning::move_ops differing operators; the
// rule counts operators, not seconds, so that a run asks its cancel callback the same number of times.
bool DeltaSimulator::Impl::moveTo(const SoapStrategy& target, const CancelFn& cancel) {
    if (!built || target.ops.size() != strategy.ops.size() || target.network != strategy.network) return false;
    const std::vector<int> differing = differingOps(target, strategy);
    if (differing.size() > tuning.move_ops) return false;
    validateStrategy(net, batch, target, topo.deviceCount(), options.allow_shared_devices);  // before any change
    proposeEach(differing, target, cancel);
    strategy.source = target.source;
    ++stats.moves;
    return true;
}

void DeltaSimulator::Impl::stopIfCancelled(const CancelFn& cancel) {
    if (cancel && cancel()) {
        built = false;  // as after a cancelled build: only reset() or destruction may follow
        throw Cancelled();
    }
}

std::vector<int> DeltaSimulator::Impl::differingOps(const SoapStrategy& a, const SoapStrategy& b) {
    std::vector<int> ops;
    for (size_t i = 0; i < a.ops.size(); ++i)
        if (!(a.ops[i] == b.ops[i])) ops.push_back(static_cast<int>(i));
    return ops;
}

void DeltaSimulator::Impl::proposeEach(const std::vector<int>& ops, const SoapStrategy& target, const CancelFn& cancel) {
    for (int o : ops) {
        stopIfCancelled(cancel);
        propose(o, target.ops[static_cast<size_t>(o)], kNotQueued);
        --stats.proposals;  // a step of a move, not a proposal
        commitPending();
    }
}

// MCMC returns to its best every few iterations, usually one or two operators away from it. A move
// would propose them back, each a list schedule of most of the graph on a data-parallel strategy;
// rebuilding their groups and copying the bookmarked timeline back (by stable id, as slots are
// reused) costs a fraction of one. The state is exactly a full build's: the bookmark was one, and
// the graph is built from the same configurations. Chosen by counting operators, as moveTo.
bool DeltaSimulator::Impl::restoreBookmark(const SoapStrategy& target, const CancelFn& cancel) {
    if (!built || !marked || target.ops.size() != mark_strategy.ops.size() || target.network != mark_strategy.network)
        return false;
    const std::vector<int> away = differingOps(target, mark_strategy);
    if (away.size() > tuning.move_ops || away.size() >= differingOps(target, strategy).size()) return false;
    const std::vector<int> back = differingOps(strategy, mark_strategy);
    if (back.size() > std::max(tuning.move_ops, net.ops.size() / 4)) return false;  // a build is as cheap
    validateStrategy(net, batch, target, topo.deviceCount(), options.allow_shared_devices);  // before any change
    for (int o : back) {
        stopIfCancelled(cancel);
        replaceOp(o, mark_strategy.ops[static_cast<size_t>(o)]);
    }
    order.clear();
    for (const Mark& m : mark_timeline) {
        const int t = builder.slotOf(graph, m.id);
        if (t < 0 || !graph.alive(t) || graph.id(t) != m.id) throw std::logic_error("delta bookmark: a task is missing");
        at(t) = Slot{m.ready, m.start, m.end, 0};
        order.push_back(t);
    }
    if (order.size() != graph.taskCount()) throw std::logic_error("delta bookmark: the graph has other tasks");
    makespan = mark_makespan;
    proposeEach(away, target, cancel);
    strategy.source = target.source;
    ++stats.restores;
    return true;
}

void DeltaSimulator::Impl::replaceOp(int o, const OpConfig& config) {
    const auto& groups = builder.groupsOf(o);
    stash.resize(groups.size());
    for (size_t i = 0; i < groups.size(); ++i) {
        graph.detachGroup(groups[i], stash[i]);
        addBusy(stash[i].tasks, -1);
    }
    strategy.ops[static_cast<size_t>(o)] = config;
    builder.rebuildOp(graph, strategy, o);
    grow();
    for (int g : groups) addBusy(graph.group(g).tasks, 1);
    for (TaskGroup& g : stash) graph.releaseGroup(g);
}

void DeltaSimulator::bookmark() {
    Impl& m = *impl_;
    if (m.pending) throw std::logic_error("a proposal is pending: commit() or revert() it first");
    if (!m.built) throw std::logic_error("no strategy to bookmark: reset() first");
    m.mark_strategy = m.strategy;
    m.mark_makespan = m.makespan;
    m.mark_timeline.resize(m.order.size());
    for (size_t k = 0; k < m.order.size(); ++k) {
        const Impl::Slot& s = m.at(m.order[k]);
        m.mark_timeline[k] = {m.graph.id(m.order[k]), s.ready, s.start, s.end};
    }
    m.marked = true;
}

void DeltaSimulator::Impl::addBusy(const std::vector<int>& tasks, double sign) {
    for (int t : tasks) busy[static_cast<size_t>(graph.resource(t))] += sign * graph.exe(t);
}

void DeltaSimulator::Impl::commitPending() {
    for (TaskGroup& g : stash) {
        addBusy(g.tasks, -1);
        graph.releaseGroup(g);
    }
    for (int g : builder.groupsOf(op)) addBusy(graph.group(g).tasks, 1);
    swapped = false;
    log.clear();
    replaced.clear();
    pending = false;
}

void DeltaSimulator::reset(SoapStrategy strategy, const CancelFn& cancel) {
    Impl& m = *impl_;
    if (m.pending) throw std::logic_error("a proposal is pending: commit() or revert() it first");
    if (m.restoreBookmark(strategy, cancel) || m.moveTo(strategy, cancel)) return;
    SoapStrategy old = std::exchange(m.strategy, std::move(strategy));
    try {
        m.start(cancel);
    } catch (const Cancelled&) {
        throw;  // stopping is what was asked: no rebuild of the previous state
    } catch (...) {
        m.strategy = std::move(old);  // invalid: keep the previous state
        m.start();
        throw;
    }
}

double DeltaSimulator::Impl::propose(int o, const OpConfig& config, double bound) {
    if (pending) throw std::logic_error("a proposal is pending: commit() or revert() it first");
    if (o < 0 || o >= static_cast<int>(net.ops.size())) throw std::out_of_range("no operator " + std::to_string(o));
    validateConfig(net, o, batch, config, topo.deviceCount(), options.allow_shared_devices);
    pending = true;
    op = o;
    old_config = strategy.ops[static_cast<size_t>(o)];
    old_makespan = makespan;
    ++stats.proposals;
    // The exit's slack covers the rounding of the sums of work it compares (see below).
    limit = bound < kNotQueued ? bound + 1e-6 * std::abs(bound) + 1e-12 : kNotQueued;
    untouched = limit < kNotQueued && computeExceeds(o, config);
    if (untouched) {
        abandoned = true;
        ++stats.abandoned;
        ++stats.abandoned_untouched;
        makespan = kNotQueued;
        return makespan;
    }
    // 1. Update the task graph.
    const auto& groups = builder.groupsOf(o);
    stash.resize(groups.size());
    for (size_t i = 0; i < groups.size(); ++i) graph.detachGroup(groups[i], stash[i]);
    strategy.ops[static_cast<size_t>(o)] = config;
    deferred.clear();
    builder.rebuildOp(graph, strategy, o, limit < kNotQueued ? &deferred : nullptr);
    grow();
    for (int g : groups)
        for (int t : graph.group(g).tasks) {
            touch(t);
            at(t).flags |= kNew;
            ++stats.rebuilt_tasks;
        }
    unpriced = deferred.size();
    stats.deferred_syncs += deferred.size();
    for (size_t k = 0; k < deferred.size(); ++k)
        for (int t : deferred[k].members) {
            at(t).flags |= kUnpriced;
            deferred_of[static_cast<size_t>(t)] = static_cast<int>(k);
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
    // Per resource: the old order's alive tasks after K0 (remaining) and its
    // removed ones (dead_ahead: a device is not clean before it has passed them,
    // as its next task's start changes); for early exit, the work still to place
    // (the alive old tasks after K0 and the new tasks). The exit's slack covers
    // the rounding of these sums (relative 1e-10 even over millions of tasks), so
    // a proposal is never abandoned when its exact makespan is within the bound.
    abandoned = false;
    const bool bounded = limit < kNotQueued;
    remaining.assign(resources, 0);
    dead_ahead.assign(resources, 0);
    if (bounded) work_left.assign(resources, 0.0);
    for (int t : replaced) {
        const auto d = static_cast<size_t>(graph.resource(t));
        if (!graph.alive(t)) {
            ++dead_ahead[d];
            continue;
        }
        ++remaining[d];
        if (bounded) work_left[d] += graph.exe(t);
    }
    if (bounded) {
        for (int g : groups)
            for (int t : graph.group(g).tasks) work_left[static_cast<size_t>(graph.resource(t))] += graph.exe(t);
        for (size_t d = 0; d < resources && !abandoned; ++d)
            abandoned = overBound(static_cast<int>(d), last[d] >= 0 ? at(last[d]).end : 0.0);
    }
    clean.assign(resources, 1);
    dirty = 0;
    for (size_t d = 0; d < resources; ++d) updateClean(static_cast<int>(d));
    changed_now = 0;
    swapped = false;
    // Past this many changed tasks the change is spreading: replay (step 5).
    replay_at = std::max(tuning.replay_min, replaced.size() / std::max<size_t>(tuning.replay_divisor, 1));
    if (!abandoned) sweep();
    finish();
    return makespan;
}

// Before any graph work: a device runs one task at a time from time 0, so the new makespan is at
// least its busy time with the operator's old tasks taken out and its new compute put in. Proposals
// that overload a device are settled here without building the operator's transfers and weight sync
// (76 of 974 rejections in 1,000 proposals from DP on Inception-v3 at 64 GPUs, where a rejection
// mostly comes from communication; more where compute dominates; docs/methods/flexflow.md#delta-simulation).
bool DeltaSimulator::Impl::computeExceeds(int o, const OpConfig& config) {
    load_devices.clear();
    builder.addComputeLoad(o, config, new_load, load_devices);
    const int devices = graph.computeDevices();
    for (int g : builder.groupsOf(o))
        for (int t : graph.group(g).tasks)
            if (graph.resource(t) < devices) old_load[static_cast<size_t>(graph.resource(t))] += graph.exe(t);
    bool exceeds = false;
    for (int d : load_devices) {
        const auto ds = static_cast<size_t>(d);
        exceeds = exceeds || busy[ds] - old_load[ds] + new_load[ds] > limit;
    }
    for (int d : load_devices) new_load[static_cast<size_t>(d)] = 0;
    for (int g : builder.groupsOf(o))
        for (int t : graph.group(g).tasks)
            if (graph.resource(t) < devices) old_load[static_cast<size_t>(graph.resource(t))] = 0;
    return exceeds;
}

// The work the early exit counts on each member's stream grows by the time it now has (syncs are
// deferred only under a bound).
void DeltaSimulator::Impl::price(int k) {
    const GraphBuilder::DeferredSync& sync = deferred[static_cast<size_t>(k)];
    builder.priceSync(graph, sync);
    for (int t : sync.members) {
        at(t).flags &= static_cast<std::uint8_t>(~kUnpriced);
        work_left[static_cast<size_t>(graph.resource(t))] += graph.exe(t);
    }
    --unpriced;
    ++stats.priced_syncs;
}

void DeltaSimulator::Impl::finish() {
    if (!abandoned && unpriced > 0) throw std::logic_error("delta simulation: a weight sync was left unpriced");
    for (int t : touched) {
        at(t).flags = 0;  // every task got placed, or the proposal was abandoned
        queued[static_cast<size_t>(t)] = kNotQueued;
    }
    touched.clear();
    heap.clear();
    stats.changed += changed_now;
    if (abandoned) {
        ++stats.abandoned;
        makespan = kNotQueued;
        return;
    }
    if (swapped) {
        makespan = resimulated_makespan;
        return;
    }
    makespan = 0;
    for (int t : last)
        if (t >= 0) makespan = std::max(makespan, at(t).end);
}

void DeltaSimulator::Impl::undoLog() {
    for (auto it = log.rbegin(); it != log.rend(); ++it) {
        Slot& s = at(it->task);
        s.ready = it->ready;
        s.start = it->start;
        s.end = it->end;
    }
    log.clear();
}

void DeltaSimulator::Impl::restoreOrder() {
    order.resize(kept);
    order.insert(order.end(), replaced.begin(), replaced.end());
}

void DeltaSimulator::Impl::revert() {
    if (!pending) throw std::logic_error("no proposal to revert");
    if (untouched) {  // abandoned before the graph changed
        makespan = old_makespan;
        untouched = false;
        pending = false;
        return;
    }
    if (swapped) {  // a resimulation: the old timeline is in the spare buffer
        std::swap(slots, spare_slots);
        std::swap(order, spare_order);
        swapped = false;
    }
    undoLog();
    restoreOrder();
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
double DeltaSimulator::propose(int op, const OpConfig& config) { return impl_->propose(op, config, Impl::kNotQueued); }
double DeltaSimulator::propose(int op, const OpConfig& config, double bound) {
    if (std::isnan(bound)) throw std::invalid_argument("the bound of a proposal must not be NaN");
    return impl_->propose(op, config, bound);
}
void DeltaSimulator::setTuning(const Tuning& tuning) { impl_->tuning = tuning; }
bool DeltaSimulator::abandoned() const { return impl_->pending && impl_->abandoned; }
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
    if (m.abandoned) throw std::logic_error("an abandoned proposal can only be reverted");
    m.commitPending();
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
