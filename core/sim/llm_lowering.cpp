// An LLM plan lowered to the task graph (docs/methods/llm.md#on-the-simulator).
#include "core/sim/llm_lowering.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/llm/numbers.h"
#include "core/sim/flow_network.h"
#include "core/sim/graph_builder.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace partita::sim {

using llm::d;

const char* llmTaskKindName(LlmTaskKind k) {
    switch (k) {
    case LlmTaskKind::Forward: return "forward";
    case LlmTaskKind::Recompute: return "recompute";
    case LlmTaskKind::Backward: return "backward";
    case LlmTaskKind::TpCollective: return "TP/SP collective";
    case LlmTaskKind::PpSend: return "PP send";
    case LlmTaskKind::DpReduce: return "DP reduction";
    case LlmTaskKind::Optimizer: return "optimizer step";
    }
    return "?";
}

namespace {

// Collective seconds of every group at once, as the ring (or hierarchical) algorithm's rounds with
// all groups' transfers of a round sharing the links max-min fairly: concurrent groups that cross one
// oversubscribed uplink slow each other down. The bandwidth part is divided by the profile tier's
// efficiency (the fraction of link bandwidth the profile says a collective reaches).
std::vector<double> concurrentTimes(const Topology& topo, CollectiveOp op, CollectiveAlgorithm algo,
                                    const std::vector<std::vector<int>>& groups, double bytes, double efficiency) {
    std::vector<double> out(groups.size(), 0);
    if (groups.empty() || groups[0].size() < 2 || bytes <= 0) return out;
    std::vector<std::vector<CollectivePhase>> phases;
    for (const auto& g : groups) phases.push_back(collectivePhases(topo, op, algo, g, bytes));
    std::vector<double> capacity;
    for (const Link& l : topo.links) capacity.push_back(l.bandwidth_Bps);
    for (size_t ph = 0; ph < phases[0].size(); ++ph) {
        std::vector<Flow> flows;
        std::vector<size_t> owner;
        std::vector<double> latency(groups.size(), 0);
        for (size_t g = 0; g < groups.size(); ++g) {
            if (ph >= phases[g].size()) continue;
            for (const Transfer& t : phases[g][ph].round) {
                Flow f;
                topo.route(t.from, t.to, f.links);
                f.bytes = t.bytes;
                double lat = 0;
                for (int l : f.links) lat += topo.links[static_cast<size_t>(l)].latency_s;
                latency[g] = std::max(latency[g], lat);
                flows.push_back(std::move(f));
                owner.push_back(g);
            }
        }
        std::vector<double> beta(groups.size(), 0);
        const auto finish = maxMinFinishTimes(capacity, flows);
        for (size_t i = 0; i < flows.size(); ++i) beta[owner[i]] = std::max(beta[owner[i]], finish[i]);
        for (size_t g = 0; g < groups.size(); ++g)
            if (ph < phases[g].size())
                out[g] += phases[g][ph].latency_rounds * latency[g] + phases[g][ph].steps * beta[g] / efficiency;
    }
    return out;
}

CollectiveOp toSim(llm::Op op) {
    switch (op) {
    case llm::Op::AllGather: return CollectiveOp::AllGather;
    case llm::Op::ReduceScatter: return CollectiveOp::ReduceScatter;
    default: return CollectiveOp::AllReduce;
    }
}

// The profile's time for a DP collective, hierarchical across tier-0 islands as the analytic model
// prices it (docs/methods/llm.md#derivation).
double tierDpTime(const llm::Profile& p, const llm::Placement& pl, llm::Op op, double bytes, std::int64_t peers) {
    const llm::Tier& outer = p.tiers[static_cast<size_t>(pl.dp)];
    const std::int64_t k = pl.dp_local;
    if (k <= 1 || pl.dp == 0 || peers % k != 0) return outer.time(op, bytes, peers, true);
    const llm::Tier& inner = p.tiers[0];
    const std::int64_t across = peers / k;
    switch (op) {
    case llm::Op::ReduceScatter:
        return inner.time(op, bytes, k, true) + outer.time(op, bytes / d(k), across, true);
    case llm::Op::AllGather:
        return outer.time(op, bytes / d(k), across, true) + inner.time(op, bytes, k, true);
    default:
        return inner.time(llm::Op::ReduceScatter, bytes, k, true) +
               outer.time(llm::Op::AllReduce, bytes / d(k), across, true) +
               inner.time(llm::Op::AllGather, bytes, k, true);
    }
}

bool hierarchicalApplies(const Topology& topo, const std::vector<int>& group) {
    try {
        collectivePhases(topo, CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, group, 1.0);
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

}  // namespace

std::size_t llmTaskEstimate(const llm::Plan& plan, const Topology& topology) {
    const std::int64_t v = plan.schedule == llm::Schedule::Interleaved ? plan.interleave : 1;
    const std::int64_t slots = 2 * v * std::max<std::int64_t>(1, plan.microBatches());
    // Per GPU per slot: compute (+ recompute), a collective member and a share of its join, and a
    // message's hops (a few); then the DP member, join and optimizer.
    std::size_t hops = 1;
    if (topology.deviceCount() > 1) hops = std::max<std::size_t>(1, topology.route(0, topology.deviceCount() - 1).size());
    const std::size_t per_slot = 4 + hops;
    return static_cast<std::size_t>(plan.gpus()) * (static_cast<std::size_t>(slots) * per_slot + 3);
}

LlmSimulation simulateLlmPlan(const llm::Transformer& m, const llm::Plan& plan, const llm::Profile& profile,
                              const Topology& topo, const LlmSimOptions& options) {
    LlmSimulation out;
    const std::int64_t N = plan.tp * plan.pp * plan.dp * plan.cp;
    if (topo.deviceCount() < N)
        throw Error("the plan needs " + std::to_string(N) + " GPUs (tp " + std::to_string(plan.tp) + " x pp " +
                    std::to_string(plan.pp) + " x dp " + std::to_string(plan.dp) + " x cp " + std::to_string(plan.cp) +
                    "), topology '" + topo.name + "' has " + std::to_string(topo.deviceCount()) + " devices");
    if (!topo.finalized()) throw Error("topology '" + topo.name + "' is not finalized");
    out.analytic = llm::evaluate(m, plan, profile);
    const std::size_t estimate = llmTaskEstimate(plan, topo);
    if (estimate > GraphBuilder::kMaxTasks)
        throw Error("the plan's task graph would have about " + std::to_string(estimate) + " tasks, above the limit of " +
                    std::to_string(GraphBuilder::kMaxTasks) + ": fewer micro-batches or GPUs");
    out.costs = llm::timelineCosts(m, plan, profile, out.analytic);
    out.analytic_s = out.analytic.iteration_s;

    const std::int64_t tp = plan.tp, cp = plan.cp, dp = plan.dp, p = plan.pp;
    const std::int64_t v = plan.schedule == llm::Schedule::Interleaved ? plan.interleave : 1;
    const std::int64_t mb = plan.microBatches(), vp = v * p;
    // Megatron's rank order: tp fastest, then cp, dp, pp; rank r runs on device r.
    auto rank = [&](std::int64_t j, std::int64_t q, std::int64_t r, std::int64_t s) {
        return static_cast<int>(j + tp * (q + cp * (r + dp * s)));
    };
    out.rank_device.resize(static_cast<size_t>(N));
    for (std::int64_t i = 0; i < N; ++i) out.rank_device[static_cast<size_t>(i)] = static_cast<int>(i);

    // Device speed relative to the reference: compute seconds scale by reference / speed.
    auto speedOf = [&](int dev) {
        const ComputeDevice& c = topo.devices[static_cast<size_t>(dev)];
        return c.peak_flops * c.efficiency;
    };
    double ref = options.reference_flops;
    if (ref <= 0)
        for (int dev = 0; dev < N; ++dev) ref = std::max(ref, speedOf(dev));
    std::vector<double> slow(static_cast<size_t>(N), 1);
    for (int dev = 0; dev < N; ++dev) slow[static_cast<size_t>(dev)] = speedOf(dev) > 0 ? ref / speedOf(dev) : 1;

    // Collective scaling per group: topology time (all concurrent groups together) / the profile's.
    const llm::Placement& pl = out.analytic.placement;
    const double elem = plan.precision.value_or(profile.precision.param) == llm::Dtype::Fp32 ? 4 : 2;
    std::vector<double> tp_ratio(static_cast<size_t>(N), 1), dp_ratio(static_cast<size_t>(N), 1);
    if (tp > 1) {
        std::vector<std::vector<int>> groups;
        for (std::int64_t s = 0; s < p; ++s)
            for (std::int64_t r = 0; r < dp; ++r)
                for (std::int64_t q = 0; q < cp; ++q) {
                    groups.emplace_back();
                    for (std::int64_t j = 0; j < tp; ++j) groups.back().push_back(rank(j, q, r, s));
                }
        const llm::Tier& tier = profile.tiers[static_cast<size_t>(pl.tp)];
        const double P = d(plan.micro_batch) * d(m.seq) / d(cp) * d(m.hidden) * elem;
        const bool sp = plan.sequence_parallel;
        std::vector<double> topo_t(groups.size(), 0);
        double tier_t = 0;
        for (llm::Op op : sp ? std::vector<llm::Op>{llm::Op::AllGather, llm::Op::ReduceScatter}
                             : std::vector<llm::Op>{llm::Op::AllReduce}) {
            const auto t = concurrentTimes(topo, toSim(op), CollectiveAlgorithm::Ring, groups, P, tier.efficiency);
            for (size_t g = 0; g < groups.size(); ++g) topo_t[g] += t[g];
            tier_t += tier.time(op, P, tp, true);
        }
        for (size_t g = 0; g < groups.size(); ++g)
            for (int dev : groups[g]) tp_ratio[static_cast<size_t>(dev)] = tier_t > 0 ? topo_t[g] / tier_t : 1;
    }
    const std::int64_t G = dp * cp;
    if (G > 1) {
        std::vector<std::vector<int>> groups;
        for (std::int64_t s = 0; s < p; ++s)
            for (std::int64_t j = 0; j < tp; ++j) {
                groups.emplace_back();
                for (std::int64_t r = 0; r < dp; ++r)
                    for (std::int64_t q = 0; q < cp; ++q) groups.back().push_back(rank(j, q, r, s));
            }
        const llm::Tier& outer = profile.tiers[static_cast<size_t>(pl.dp)];
        const bool hier = pl.dp_local > 1 && pl.dp != 0 && G % pl.dp_local == 0 && hierarchicalApplies(topo, groups[0]);
        const auto algo = hier ? CollectiveAlgorithm::Hierarchical : CollectiveAlgorithm::Ring;
        const double bytes = std::max(1.0, llm::stageParams(m, plan, 0)) * 2;
        std::vector<double> topo_t(groups.size(), 0);
        double tier_t = 0;
        for (llm::Op op : plan.shardsOptimizer() ? std::vector<llm::Op>{llm::Op::ReduceScatter, llm::Op::AllGather}
                                                 : std::vector<llm::Op>{llm::Op::AllReduce}) {
            const auto t = concurrentTimes(topo, toSim(op), algo, groups, bytes, outer.efficiency);
            for (size_t g = 0; g < groups.size(); ++g) topo_t[g] += t[g];
            tier_t += tierDpTime(profile, pl, op, bytes, G);
        }
        for (size_t g = 0; g < groups.size(); ++g)
            for (int dev : groups[g]) dp_ratio[static_cast<size_t>(dev)] = tier_t > 0 ? topo_t[g] / tier_t : 1;
    }

    // Resources: the topology's devices, links and collective streams.
    TaskGraph& g = out.graph;
    const int D = topo.deviceCount(), L = static_cast<int>(topo.links.size());
    std::vector<std::string> names;
    for (const auto& dv : topo.devices) names.push_back(dv.name);
    for (const auto& l : topo.links) names.push_back(l.name);
    for (const auto& dv : topo.devices) names.push_back(dv.name + " stream");
    g.setResources(D, L, std::move(names));
    std::vector<std::string> ops;
    for (std::int64_t s = 0; s < p; ++s)
        for (int k = 0; k < kLlmKinds; ++k)
            ops.push_back("stage " + std::to_string(s) + " " + llmTaskKindName(static_cast<LlmTaskKind>(k)));
    g.setOperators(std::move(ops));
    g.setGroupCount(1);
    g.reserve(estimate, estimate * 2);
    std::uint64_t next_id = 0;
    auto opIndex = [&](std::int64_t s, LlmTaskKind k) { return static_cast<int>(s * kLlmKinds + static_cast<int>(k)); };
    auto add = [&](int resource, double exe, std::int64_t s, LlmTaskKind k, std::int64_t micro, Phase ph, double bytes = 0,
                   int from = -1, int to = -1) {
        TaskInfo info;
        info.op = opIndex(s, k);
        info.part = static_cast<int>(micro);
        info.phase = ph;
        info.bytes = bytes;
        info.from = from, info.to = to;
        return g.addTask(0, resource, std::max(0.0, exe), next_id++, info);
    };

    // Framework overhead is not in the slot times (docs/methods/llm.md#pipeline-timeline); it rides on
    // the compute, half in the forward and half in the backward, scaled like the stage's layers.
    const double slow_layers = [&] {
        double hi = 0;
        for (std::int64_t s = 0; s < p; ++s) hi = std::max(hi, d(llm::stageLayers(m, plan, s)));
        return hi;
    }();
    auto overheadOf = [&](std::int64_t s) {
        return out.analytic.time.overhead / d(mb) / d(v) * (slow_layers > 0 ? d(llm::stageLayers(m, plan, s)) / slow_layers : 1);
    };

    // Per GPU: the last task of its previous slot (its chain), and a pending blocking send.
    std::vector<int> chain(static_cast<size_t>(N), -1), send_block(static_cast<size_t>(N), -1);
    // The message into virtual stage k for micro-batch i (its last hops), per replica and TP index.
    // Inputs of each virtual stage and micro-batch: (device, task) pairs, the task a GPU waits for.
    std::vector<std::vector<int>> fwd_in(static_cast<size_t>(vp * mb)), bwd_in(static_cast<size_t>(vp * mb));
    std::vector<char> fwd_done(static_cast<size_t>(vp * mb), 0), bwd_done(static_cast<size_t>(vp * mb), 0);
    auto at = [&](std::int64_t k, std::int64_t i) { return static_cast<size_t>(k * mb + i); };
    std::vector<std::vector<llm::SlotOp>> order;
    for (std::int64_t s = 0; s < p; ++s) order.push_back(llm::stageOrder(plan.schedule, p, v, mb, s));
    std::vector<size_t> next(static_cast<size_t>(p), 0);
    std::vector<int> hops;

    // A message from `from` to `to` after `dep`: every hop of the route occupies its link for
    // latency + bytes / (bandwidth x efficiency) from the same moment (cut-through: the message
    // streams through its route); it has arrived when its slowest hop is done. Returns the hops.
    const llm::Tier& pp_tier = profile.tiers[static_cast<size_t>(pl.pp)];
    std::vector<std::vector<int>> messages;  // each message's hop tasks, to find what delayed it
    auto message = [&](int dep, int from, int to, double bytes, std::int64_t s, std::int64_t micro, std::vector<int>& ends) {
        topo.route(from, to, hops);
        messages.emplace_back();
        for (size_t h = 0; h < hops.size(); ++h) {
            const Link& link = topo.links[static_cast<size_t>(hops[h])];
            const int t = add(D + hops[h], link.latency_s + bytes / (link.bandwidth_Bps * pp_tier.efficiency), s,
                              LlmTaskKind::PpSend, micro, Phase::Transfer, bytes, from, to);
            g.addEdge(0, dep, t);
            ends.push_back(t);
            messages.back().push_back(t);
        }
    };

    for (bool progress = true; progress;) {
        progress = false;
        for (std::int64_t s = 0; s < p; ++s) {
            auto& n = next[static_cast<size_t>(s)];
            while (n < order[static_cast<size_t>(s)].size()) {
                const llm::SlotOp op = order[static_cast<size_t>(s)][n];
                const std::int64_t k = op.chunk * p + s, i = op.micro_batch;
                // Inputs: the previous virtual stage's forward, the next one's backward (the last
                // virtual stage's backward follows its own forward on the same GPUs).
                const std::vector<int>* in = nullptr;
                if (op.forward && k > 0) {
                    if (!fwd_done[at(k - 1, i)]) break;
                    in = &fwd_in[at(k, i)];
                } else if (!op.forward) {
                    if (k == vp - 1 ? !fwd_done[at(k, i)] : !bwd_done[at(k + 1, i)]) break;
                    if (k < vp - 1) in = &bwd_in[at(k, i)];
                }
                const llm::SlotTimes& c = out.costs.stage[static_cast<size_t>(s)];
                const double ovh = overheadOf(s) / 2;
                const Phase ph = op.forward ? Phase::Forward : Phase::Backward;
                // The slot's message target: the next virtual stage forward, the previous backward.
                const std::int64_t kk = op.forward ? k + 1 : k - 1;
                const bool sends = kk >= 0 && kk < vp;
                const std::int64_t s2 = sends ? kk % p : s;
                for (std::int64_t r = 0; r < dp; ++r)
                    for (std::int64_t q = 0; q < cp; ++q) {
                        std::vector<int> compute(static_cast<size_t>(tp));
                        for (std::int64_t j = 0; j < tp; ++j) {
                            const int dev = rank(j, q, r, s);
                            const double f = slow[static_cast<size_t>(dev)];
                            std::vector<int> deps;
                            if (chain[static_cast<size_t>(dev)] >= 0) deps.push_back(chain[static_cast<size_t>(dev)]);
                            if (send_block[static_cast<size_t>(dev)] >= 0) deps.push_back(send_block[static_cast<size_t>(dev)]);
                            int t = -1;
                            if (!op.forward && c.recompute > 0) {
                                t = add(dev, c.recompute * f, s, LlmTaskKind::Recompute, i, ph);
                                for (int dp_ : deps) g.addEdge(0, dp_, t);
                                deps = {t};
                            }
                            const double exe = (op.forward ? c.fwd : c.bwd) * f + ovh * f;
                            const int u = add(dev, exe, s, op.forward ? LlmTaskKind::Forward : LlmTaskKind::Backward, i, ph);
                            for (int dp_ : deps) g.addEdge(0, dp_, u);
                            if (in && t < 0) {
                                // Inputs attach to the slot's first task.
                                for (size_t x = 0; x < (*in).size(); x += 2)
                                    if ((*in)[x] == dev) g.addEdge(0, (*in)[x + 1], u);
                            } else if (in) {
                                for (size_t x = 0; x < (*in).size(); x += 2)
                                    if ((*in)[x] == dev) g.addEdge(0, (*in)[x + 1], t);
                            }
                            compute[static_cast<size_t>(j)] = u;
                        }
                        // Exposed TP/SP collectives after the compute: a join, then one task per member.
                        std::vector<int> done = compute;
                        const double comm = op.forward ? c.comm_fwd : c.comm_bwd;
                        if (comm > 0 && tp > 1) {
                            const int join = add(g.streamOf(rank(0, q, r, s)), 0, s, LlmTaskKind::TpCollective, i, Phase::Sync);
                            for (int t : compute) g.addEdge(0, t, join);
                            for (std::int64_t j = 0; j < tp; ++j) {
                                const int dev = rank(j, q, r, s);
                                const double bytes = op.forward ? c.bytes_comm_fwd : c.bytes_comm_bwd;
                                const int t = add(g.streamOf(dev), comm * tp_ratio[static_cast<size_t>(dev)], s,
                                                  LlmTaskKind::TpCollective, i, Phase::Sync, bytes, dev, dev);
                                g.addEdge(0, join, t);
                                done[static_cast<size_t>(j)] = t;
                            }
                        } else if (comm > 0) {
                            // tp = 1: exposed context-parallel time stays on the device.
                            for (std::int64_t j = 0; j < tp; ++j) {
                                const int dev = rank(j, q, r, s);
                                const int t = add(g.streamOf(dev), comm, s, LlmTaskKind::TpCollective, i, Phase::Sync);
                                g.addEdge(0, compute[static_cast<size_t>(j)], t);
                                done[static_cast<size_t>(j)] = t;
                            }
                        }
                        for (std::int64_t j = 0; j < tp; ++j) {
                            const int dev = rank(j, q, r, s);
                            chain[static_cast<size_t>(dev)] = done[static_cast<size_t>(j)];
                            send_block[static_cast<size_t>(dev)] = -1;
                            if (!sends) continue;
                            const int to = rank(j, q, r, s2);
                            auto& dst = op.forward ? fwd_in[at(kk, i)] : bwd_in[at(kk, i)];
                            if (to == dev) {
                                dst.push_back(to), dst.push_back(done[static_cast<size_t>(j)]);
                                continue;
                            }
                            std::vector<int> hop_ends;
                            message(done[static_cast<size_t>(j)], dev, to, c.bytes_send, s, i, hop_ends);
                            for (int h : hop_ends) dst.push_back(to), dst.push_back(h);
                            // Without PP overlap the sender waits for its send (Megatron's blocking p2p).
                            if (!plan.pp_overlap && !hop_ends.empty()) {
                                const int w = add(dev, 0, s, LlmTaskKind::PpSend, i, Phase::Transfer);
                                for (int h : hop_ends) g.addEdge(0, h, w);
                                send_block[static_cast<size_t>(dev)] = w;
                            }
                        }
                    }
                (op.forward ? fwd_done : bwd_done)[at(k, i)] = 1;
                ++n;
                progress = true;
            }
        }
    }
    for (std::int64_t s = 0; s < p; ++s)
        if (next[static_cast<size_t>(s)] != order[static_cast<size_t>(s)].size())
            throw std::logic_error("simulateLlmPlan: the schedule stalls on stage " + std::to_string(s));

    // DP reduction per gradient group after every member's last slot, then the optimizer step.
    for (std::int64_t s = 0; s < p; ++s)
        for (std::int64_t j = 0; j < tp; ++j) {
            std::vector<int> members;
            for (std::int64_t r = 0; r < dp; ++r)
                for (std::int64_t q = 0; q < cp; ++q) members.push_back(rank(j, q, r, s));
            std::vector<int> ready(members.size());
            for (size_t x = 0; x < members.size(); ++x) {
                const int dev = members[x];
                int last = chain[static_cast<size_t>(dev)];
                if (send_block[static_cast<size_t>(dev)] >= 0) last = send_block[static_cast<size_t>(dev)];
                ready[x] = last;
            }
            if (G > 1 && out.costs.dp_s > 0) {
                const int join = add(g.streamOf(members[0]), 0, s, LlmTaskKind::DpReduce, -1, Phase::Sync);
                for (int t : ready)
                    if (t >= 0) g.addEdge(0, t, join);
                for (size_t x = 0; x < members.size(); ++x) {
                    const int dev = members[x];
                    ready[x] = add(g.streamOf(dev), out.costs.dp_s * dp_ratio[static_cast<size_t>(dev)], s,
                                   LlmTaskKind::DpReduce, -1, Phase::Sync, out.costs.dp_bytes, dev, dev);
                    g.addEdge(0, join, ready[x]);
                }
            }
            for (size_t x = 0; x < members.size(); ++x) {
                const int dev = members[x];
                const int t = add(dev, out.costs.optimizer_s * slow[static_cast<size_t>(dev)], s, LlmTaskKind::Optimizer,
                                  -1, Phase::Backward);
                if (ready[x] >= 0) g.addEdge(0, ready[x], t);
            }
        }

    if (p > 1) {
        out.pp_send_analytic_s = out.costs.stage[0].send;
        for (int h : topo.route(rank(0, 0, 0, 0), rank(0, 0, 0, 1))) {
            const Link& link = topo.links[static_cast<size_t>(h)];
            out.pp_send_s = std::max(out.pp_send_s, link.latency_s + out.costs.stage[0].bytes_send /
                                                                         (link.bandwidth_Bps * pp_tier.efficiency));
        }
    }
    out.result = simulate(g);
    out.simulated_s = out.result.makespan;

    // What the simulation shows per stage, and why it differs.
    const auto& R = out.result;
    std::vector<double> busy(static_cast<size_t>(N), 0);
    std::vector<double> link_wait(static_cast<size_t>(L), 0);
    std::vector<double> stage_end(static_cast<size_t>(p), 0);
    for (size_t t = 0; t < g.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (!g.alive(ti)) continue;
        const int res = g.resource(ti);
        const TaskInfo& info = g.info(ti);
        const std::int64_t s = info.op / kLlmKinds;
        const auto kind = static_cast<LlmTaskKind>(info.op % kLlmKinds);
        if (res < D && res < N) {
            if (kind == LlmTaskKind::Forward || kind == LlmTaskKind::Backward || kind == LlmTaskKind::Recompute)
                busy[static_cast<size_t>(res)] += g.exe(ti);
            if (kind == LlmTaskKind::Backward) stage_end[static_cast<size_t>(s)] = std::max(stage_end[static_cast<size_t>(s)], R.end[t]);
        }
    }
    // A message is late by how much its last hop ends after it would unloaded (the slowest hop's
    // time after its input was ready); the link of that hop is charged.
    for (const auto& msg : messages) {
        double ready = 0, unloaded = 0, arrive = 0;
        int late = -1;
        for (int t : msg) {
            ready = std::max(ready, R.ready[static_cast<size_t>(t)]);
            unloaded = std::max(unloaded, g.exe(t));
            if (R.end[static_cast<size_t>(t)] >= arrive) arrive = R.end[static_cast<size_t>(t)], late = t;
        }
        const double delay = arrive - ready - unloaded;
        if (late >= 0 && delay > 1e-12) link_wait[static_cast<size_t>(g.resource(late) - D)] += delay;
    }
    for (int l = 0; l < L; ++l)
        if (link_wait[static_cast<size_t>(l)] > out.busiest_link_wait_s)
            out.busiest_link_wait_s = link_wait[static_cast<size_t>(l)], out.busiest_link = l;

    struct Reason {
        double seconds;
        std::string text;
    };
    std::vector<Reason> reasons;
    for (std::int64_t s = 0; s < p; ++s) {
        LlmStageReport rep;
        rep.stage = s;
        rep.end_s = stage_end[static_cast<size_t>(s)];
        const llm::SlotTimes& c = out.costs.stage[static_cast<size_t>(s)];
        rep.analytic_compute_s = d(mb * v) * (c.fwd + c.bwd + c.recompute + 2 * overheadOf(s) / 2);
        double worst = 0;
        for (std::int64_t r = 0; r < dp; ++r)
            for (std::int64_t q = 0; q < cp; ++q)
                for (std::int64_t j = 0; j < tp; ++j) {
                    const int dev = rank(j, q, r, s);
                    if (slow[static_cast<size_t>(dev)] > worst) worst = slow[static_cast<size_t>(dev)], rep.slowest_device = dev;
                    rep.compute_s = std::max(rep.compute_s, busy[static_cast<size_t>(dev)]);
                    rep.tp_ratio = std::max(rep.tp_ratio, tp_ratio[static_cast<size_t>(dev)]);
                    rep.dp_ratio = std::max(rep.dp_ratio, dp_ratio[static_cast<size_t>(dev)]);
                }
        rep.speed = worst > 0 ? 1 / worst : 1;
        const ComputeDevice& sd = topo.devices[static_cast<size_t>(rep.slowest_device)];
        if (rep.speed < 0.995)
            reasons.push_back({rep.compute_s - rep.analytic_compute_s,
                               "stage " + std::to_string(s) + " runs on " + sd.name + " (" + sd.kind + ") at " +
                                   fixed(100 * rep.speed, 1) + " % of the reference GPU: its compute takes " +
                                   fixed(rep.compute_s, 3) + " s, not " + fixed(rep.analytic_compute_s, 3) + " s"});
        else if (rep.speed > 1.005)
            reasons.push_back({rep.compute_s - rep.analytic_compute_s,
                               "stage " + std::to_string(s) + " runs on " + sd.name + " (" + sd.kind + ") at " +
                                   fixed(100 * rep.speed, 1) + " % of the GPU the analytic model planned on"});
        out.stages.push_back(rep);
    }
    // Collectives: the stage whose groups are slowest against the profile's tier, once each.
    auto worstStage = [&](auto ratio) {
        size_t w = 0;
        for (size_t s = 1; s < out.stages.size(); ++s)
            if (ratio(out.stages[s]) > ratio(out.stages[w])) w = s;
        return w;
    };
    const size_t wt = worstStage([](const LlmStageReport& r) { return r.tp_ratio; });
    const size_t wd = worstStage([](const LlmStageReport& r) { return r.dp_ratio; });
    const llm::SlotTimes& cw = out.costs.stage[wt];
    const double tp_s = d(mb * v) * (cw.comm_fwd + cw.comm_bwd);
    const double tp_r = out.stages[wt].tp_ratio, dp_r = out.stages[wd].dp_ratio;
    if (tp_r > 1.005)
        reasons.push_back({tp_s * (tp_r - 1), "TP/SP collectives take up to " + fixed(tp_r, 2) +
                                                  "x the profile tier's time on the topology's links (stage " +
                                                  std::to_string(wt) + ": " + fixed(tp_s * (tp_r - 1) * 1e3, 1) +
                                                  " ms more exposed)"});
    if (dp_r > 1.005)
        reasons.push_back({out.costs.dp_s * (dp_r - 1),
                           "the DP reduction takes up to " + fixed(dp_r, 2) + "x the profile tier's time (stage " +
                               std::to_string(wd) + ": " + fixed(out.costs.dp_s * (dp_r - 1) * 1e3, 1) +
                               " ms more; its groups share links with the other groups reducing at once)"});
    if (out.busiest_link >= 0 && out.busiest_link_wait_s > 0)
        reasons.push_back({out.busiest_link_wait_s / d(std::max<std::int64_t>(1, tp * dp * cp)),
                           "PP messages arrive late behind other traffic on " +
                               topo.links[static_cast<size_t>(out.busiest_link)].name + " (" +
                               fixed(out.busiest_link_wait_s * 1e3, 2) + " ms of delay in all, contention)"});
    std::stable_sort(reasons.begin(), reasons.end(), [](const Reason& a, const Reason& b) { return a.seconds > b.seconds; });
    // What changes the iteration by less than 0.1 % is not a reason.
    for (const auto& r : reasons)
        if (std::abs(r.seconds) >= 1e-3 * out.analytic_s) out.reasons.push_back(r.text);
    return out;
}

}  // namespace partita::sim
