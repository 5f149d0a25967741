#include "core/llm/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/llm/numbers.h"

namespace partita::llm {


const char* blockKindName(BlockKind k) {
    switch (k) {
    case BlockKind::Forward: return "forward";
    case BlockKind::Backward: return "backward";
    case BlockKind::Recompute: return "recompute";
    case BlockKind::Collective: return "TP/SP collective";
    case BlockKind::PpSend: return "PP send";
    case BlockKind::DpReduce: return "DP reduction";
    case BlockKind::Optimizer: return "optimizer step";
    }
    return "?";
}

TimelineCosts timelineCosts(const Plan& plan, const Evaluation& ev) {
    const std::int64_t p = plan.pp;
    const double v = plan.schedule == Schedule::Interleaved ? d(plan.interleave) : 1.0;
    const double M = d(std::max<std::int64_t>(1, ev.micro_batches));
    const TimeTerms& T = ev.time;
    // The Evaluation's terms are the slowest stage's; the other stages scale by their own time.
    double slow = 0;
    for (double s : ev.stage_time_s) slow = std::max(slow, s);
    const double compute = T.fwd + T.bwd + T.recompute;
    const double gpus = d(std::max<std::int64_t>(1, plan.tp * plan.pp * plan.dp * plan.cp));
    const double rate = compute > 0 ? ev.hardware_flops / gpus / compute : 0;  // FLOP/s of the slowest stage's GPU
    const double fwd_share = compute > 0 ? T.fwd / compute : 0.5;
    const double coll = T.tp_exposed + T.cp_exposed;
    SlotTimes base;
    base.fwd = T.fwd / M / v;
    base.bwd = T.bwd / M / v;
    base.recompute = T.recompute / M / v;
    base.comm_fwd = coll * fwd_share / M / v;
    base.comm_bwd = (coll * (1 - fwd_share) + T.ag_redo) / M / v;
    base.send = T.pp_p2p / M / (2 * v);
    TimelineCosts c;
    for (std::int64_t s = 0; s < p; ++s) {
        const double scale =
            slow > 0 && static_cast<size_t>(s) < ev.stage_time_s.size() ? ev.stage_time_s[static_cast<size_t>(s)] / slow : 1;
        SlotTimes t = base;
        t.fwd *= scale, t.bwd *= scale, t.recompute *= scale, t.comm_fwd *= scale, t.comm_bwd *= scale, t.send *= scale;
        t.flops_fwd = t.fwd * rate, t.flops_bwd = t.bwd * rate, t.flops_recompute = t.recompute * rate;
        c.stage.push_back(t);
    }
    c.dp_s = T.dp_exposed;
    c.optimizer_s = T.optimizer;
    return c;
}

TimelineCosts timelineCosts(const Transformer& m, const Plan& plan, const Profile& profile, const Evaluation& ev) {
    TimelineCosts c = timelineCosts(plan, ev);
    const double v = plan.schedule == Schedule::Interleaved ? d(plan.interleave) : 1.0;
    const TpVolume tp = plan.tp > 1 ? tpLayerBytes(m, plan) : TpVolume{};
    const double send = plan.pp > 1 ? ppMessageBytes(m, plan) : 0;
    for (std::int64_t s = 0; s < plan.pp; ++s) {
        SlotTimes& t = c.stage[static_cast<size_t>(s)];
        const double L = d(stageLayers(m, plan, s)) / v;
        t.bytes_comm_fwd = L * tp.fwd;
        t.bytes_comm_bwd = L * (tp.bwd + tp.recompute);
        t.bytes_send = send;
    }
    if (plan.dp * plan.cp > 1) {
        const DpVolume dp = dpIterationBytes(m, plan, profile.precision, std::clamp<std::int64_t>(ev.peak_stage, 0, plan.pp - 1));
        c.dp_bytes = dp.reduce + dp.gather;
    }
    return c;
}

std::vector<SlotOp> stageOrder(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t mb,
                               std::int64_t stage) {
    std::vector<SlotOp> ops;
    const std::int64_t v = schedule == Schedule::Interleaved ? interleave : 1;
    const std::int64_t total = mb * v;
    // The k-th forward (and backward) slot: micro-batches go in groups of pp through every chunk
    // (Narayanan et al. 2021, Megatron-LM's interleaved schedule); v = 1 is plain order.
    auto slot = [&](std::int64_t k, bool forward) {
        const std::int64_t group = k / (pp * v), base = group * pp;
        const std::int64_t size = std::min(pp, mb - base);  // the last group may be short
        const std::int64_t in = k - group * pp * v;
        std::int64_t chunk = in / size;
        if (!forward) chunk = v - 1 - chunk;
        return SlotOp{chunk, base + in % size, forward};
    };
    if (schedule == Schedule::Gpipe) {
        for (std::int64_t i = 0; i < mb; ++i) ops.push_back({0, i, true});
        for (std::int64_t i = 0; i < mb; ++i) ops.push_back({0, i, false});
        return ops;
    }
    const std::int64_t warm = schedule == Schedule::Interleaved
                                  ? std::min(total, 2 * (pp - stage - 1) + (v - 1) * pp)
                                  : std::min(total, pp - stage - 1);
    std::int64_t f = 0, b = 0;
    for (; f < warm; ++f) ops.push_back(slot(f, true));
    while (f < total) {
        ops.push_back(slot(f++, true));
        ops.push_back(slot(b++, false));
    }
    while (b < total) ops.push_back(slot(b++, false));
    return ops;
}

PipelineTimeline pipelineTimeline(const Plan& plan, const TimelineCosts& costs) {
    const std::int64_t p = plan.pp;
    const std::int64_t v = plan.schedule == Schedule::Interleaved ? plan.interleave : 1;
    const std::int64_t mb = plan.microBatches();
    if (p < 1 || mb < 1 || static_cast<std::int64_t>(costs.stage.size()) != p)
        throw std::invalid_argument("pipelineTimeline: costs for " + std::to_string(costs.stage.size()) +
                                    " stages, plan has pp = " + std::to_string(p));
    PipelineTimeline tl;
    tl.stages = p, tl.chunks = v, tl.micro_batches = mb, tl.schedule = plan.schedule;
    for (std::int64_t s = 0; s < p; ++s) {
        tl.lane_names.push_back("stage " + std::to_string(s));
        tl.lane_names.push_back("stage " + std::to_string(s) + " comm");
    }
    tl.lane_names.push_back("DP / optimizer");

    // Slot ends by virtual stage (chunk·p + stage) and micro-batch; NaN-free: -1 = not yet run.
    const std::int64_t vp = v * p;
    std::vector<double> fwd_end(static_cast<size_t>(vp * mb), -1), bwd_end(static_cast<size_t>(vp * mb), -1);
    auto at = [&](std::vector<double>& e, std::int64_t k, std::int64_t i) -> double& {
        return e[static_cast<size_t>(k * mb + i)];
    };
    std::vector<std::vector<SlotOp>> order;
    for (std::int64_t s = 0; s < p; ++s) order.push_back(stageOrder(plan.schedule, p, v, mb, s));
    std::vector<size_t> next(static_cast<size_t>(p), 0);
    std::vector<double> free_at(static_cast<size_t>(p), 0);
    std::vector<std::vector<TimelineBlock>> lanes(static_cast<size_t>(2 * p + 1));
    auto add = [&](BlockKind kind, std::int64_t s, std::int64_t chunk, std::int64_t i, int lane, double start,
                   double len, double flops, double bytes) {
        if (len <= 0) return start;
        lanes[static_cast<size_t>(lane)].push_back({kind, s, chunk, i, lane, start, start + len, flops, bytes});
        return start + len;
    };
    // Run every stage's next slot whose input is ready, until all have run (a valid order never stalls).
    for (bool progress = true; progress;) {
        progress = false;
        for (std::int64_t s = 0; s < p; ++s) {
            auto& n = next[static_cast<size_t>(s)];
            while (n < order[static_cast<size_t>(s)].size()) {
                const SlotOp op = order[static_cast<size_t>(s)][n];
                const std::int64_t k = op.chunk * p + s, i = op.micro_batch;
                double ready = 0;
                if (op.forward) {
                    if (k > 0) ready = at(fwd_end, k - 1, i);
                } else {
                    ready = k == vp - 1 ? at(fwd_end, k, i) : at(bwd_end, k + 1, i);
                }
                if (ready < 0) break;
                const SlotTimes& c = costs.stage[static_cast<size_t>(s)];
                const int cl = static_cast<int>(2 * s), ml = cl + 1;
                double t = std::max(ready, free_at[static_cast<size_t>(s)]);
                if (op.forward) {
                    t = add(BlockKind::Forward, s, op.chunk, i, cl, t, c.fwd, c.flops_fwd, 0);
                } else {
                    t = add(BlockKind::Recompute, s, op.chunk, i, cl, t, c.recompute, c.flops_recompute, 0);
                    t = add(BlockKind::Backward, s, op.chunk, i, cl, t, c.bwd, c.flops_bwd, 0);
                }
                t = add(BlockKind::Collective, s, op.chunk, i, ml, t, op.forward ? c.comm_fwd : c.comm_bwd, 0,
                        op.forward ? c.bytes_comm_fwd : c.bytes_comm_bwd);
                t = add(BlockKind::PpSend, s, op.chunk, i, ml, t, c.send, 0, c.bytes_send);
                (op.forward ? at(fwd_end, k, i) : at(bwd_end, k, i)) = t;
                free_at[static_cast<size_t>(s)] = t;
                ++n;
                progress = true;
            }
        }
    }
    for (std::int64_t s = 0; s < p; ++s)
        if (next[static_cast<size_t>(s)] != order[static_cast<size_t>(s)].size())
            throw std::logic_error("pipelineTimeline: the schedule stalls on stage " + std::to_string(s));
    for (double e : free_at) tl.pipeline_end = std::max(tl.pipeline_end, e);
    // Idle time of the busiest stage is the bubble the analytic model charges.
    double busiest = 0;
    for (std::int64_t s = 0; s < p; ++s) {
        const SlotTimes& c = costs.stage[static_cast<size_t>(s)];
        busiest = std::max(busiest, d(mb * v) * (c.fwd + c.bwd + c.recompute + c.comm_fwd + c.comm_bwd + 2 * c.send));
    }
    tl.bubble_s = tl.pipeline_end - busiest;
    // One stage has no bubble: what the sums leave is rounding, not idle time.
    if (p == 1 || std::abs(tl.bubble_s) <= 1e-12 * tl.pipeline_end) tl.bubble_s = 0;
    const int dl = static_cast<int>(2 * p);
    double t = add(BlockKind::DpReduce, -1, 0, -1, dl, tl.pipeline_end, costs.dp_s, 0, costs.dp_bytes);
    t = add(BlockKind::Optimizer, -1, 0, -1, dl, t, costs.optimizer_s, 0, 0);
    tl.makespan = t;
    for (auto& lane : lanes) {
        std::stable_sort(lane.begin(), lane.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
        tl.blocks.insert(tl.blocks.end(), lane.begin(), lane.end());
    }
    return tl;
}

Json timelineChromeTrace(const PipelineTimeline& t) {
    Json events = Json::array();
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 1}, {"args", {{"name", "pipeline"}}}});
    for (size_t l = 0; l < t.lane_names.size(); ++l) {
        events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", l}, {"args", {{"name", t.lane_names[l]}}}});
        events.push_back({{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", 1}, {"tid", l}, {"args", {{"sort_index", l}}}});
    }
    for (const TimelineBlock& b : t.blocks) {
        std::string name = blockKindName(b.kind);
        if (b.micro_batch >= 0) name += " mb " + std::to_string(b.micro_batch);
        if (t.chunks > 1 && b.micro_batch >= 0) name += " chunk " + std::to_string(b.chunk);
        Json args{{"stage", b.stage}, {"chunk", b.chunk}, {"micro_batch", b.micro_batch}, {"flops", b.flops},
                  {"bytes", b.bytes}};
        events.push_back({{"ph", "X"}, {"name", name}, {"cat", blockKindName(b.kind)}, {"pid", 1}, {"tid", b.lane},
                          {"ts", b.start * 1e6}, {"dur", b.seconds() * 1e6}, {"args", args}});
    }
    return Json{{"traceEvents", events},
                {"displayTimeUnit", "ms"},
                {"otherData",
                 {{"makespan_s", t.makespan}, {"bubble_s", t.bubble_s}, {"schedule", scheduleName(t.schedule)}}}};
}

}  // namespace partita::llm
