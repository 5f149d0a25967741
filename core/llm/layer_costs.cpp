// Partita's model (docs/methods/llm.md#derivation): kernel times from the profile's per-kernel efficiency,
// TP/SP collectives with per-step latency, PP p2p exposed, bubbles from every stage's time,
// DP with ZeRO / distributed optimizer (hierarchical across tiers, overlapped when asked), the
// optimizer step, embeddings on the first stage and the LM head on the last.
#include "core/llm/layer_costs.h"

#include <algorithm>
#include <cmath>

#include "core/llm/numbers.h"
#include "core/util/format.h"

namespace partita::llm {

double CostContext::passTime(const Kernel& k, const Pass& pass) const {
    if (pass.flops <= 0 && pass.bytes <= 0) return 0;
    const Device& dev = profile->device;
    const bool matrix = k.engine == Engine::Matrix;
    // fp8 runs the linear layers' GEMMs only; attention and element-wise kernels stay in 16 bit.
    const bool fp8 = compute == Dtype::Fp8 && matrix && !k.attention_core;
    const Unit& unit = dev.unit(matrix, fp8 ? Dtype::Fp8 : compute == Dtype::Fp8 ? Dtype::Bf16 : compute);
    return dev.kernelTime(unit, pass.flops, pass.bytes, dev.causal_attention_discount && k.attention_core && matrix ? 2 : 1);
}

CostContext costContext(const Transformer& m, const Profile& profile, const Plan& plan) {
    CostContext c;
    c.model = &m;
    c.profile = &profile;
    c.compute = plan.precision.value_or(profile.precision.param);
    c.element_bytes = c.compute == Dtype::Fp32 ? 4 : 2;  // fp8 GEMMs keep 16-bit activations
    c.flash_attention = profile.device.flash_attention;
    return c;
}

LayerKey layerKey(const Plan& plan, const Placement& placement) {
    LayerKey k;
    k.tp = plan.tp;
    k.cp = plan.cp;
    k.cp_tier = placement.cp;
    k.micro_batch = plan.micro_batch;
    k.sequence_parallel = plan.sequence_parallel && plan.tp > 1;
    k.recompute = plan.recompute;
    k.ag_redo = k.sequence_parallel && plan.agRedo();
    k.tp_tier = placement.tp;
    k.tp_overlap = plan.tp_overlap;
    return k;
}

LayerCost layerCost(const CostContext& ctx, const LayerKey& key) {
    const Transformer& m = *ctx.model;
    KernelStyle style;
    style.fused_qkv = true;
    style.flash_attention = ctx.flash_attention;
    style.fp8 = ctx.compute == Dtype::Fp8;
    style.element_bytes = ctx.element_bytes;
    const auto kernels = layerKernels(m, key.micro_batch, key.tp, key.sequence_parallel, style, key.cp);
    LayerCost c;
    c.overhead = ctx.profile->device.layer_overhead_s;
    double gemm_fwd = 0, gemm_bwd = 0, attention_fwd = 0, attention_bwd = 0;
    for (const auto& k : kernels) {
        const double f = ctx.passTime(k, k.fwd);
        const double b = ctx.passTime(k, k.agrad) + ctx.passTime(k, k.wgrad);
        c.fwd += f;
        c.bwd += b;
        if (k.engine == Engine::Matrix && !k.attention_core) gemm_fwd += f, gemm_bwd += b;
        if (k.attention_core) attention_fwd += f, attention_bwd += b;
        if (key.recompute == Recompute::Full || (key.recompute == Recompute::Selective && k.attention_core)) {
            c.recompute += f;
            if (k.engine == Engine::Matrix) c.recompute_flops += k.fwd.flops;
        }
    }
    // Context parallelism: each rank's K and V block travels the ring cp - 1 times forward, K, V and
    // their gradients backward, behind the attention kernels (docs/methods/llm.md#derivation).
    if (key.cp > 1) {
        const Tier& tier = ctx.profile->tiers[static_cast<size_t>(key.cp_tier)];
        const double kv = m.kv_heads % key.tp == 0 ? d(m.kvDim()) / d(key.tp) : d(m.headDim());
        const double block = 2 * d(key.micro_batch) * d(m.seq) / d(key.cp) * kv * ctx.element_bytes;
        const double ring = d(key.cp - 1) * tier.time(Op::P2p, block, 2, true);
        c.cp_fwd = std::max(0.0, ring - attention_fwd);
        c.cp_bwd = std::max(0.0, 2 * ring - attention_bwd);
    }
    // TP collectives on the full activation P = b·s·h·e among tp (docs/methods/llm.md#derivation), s/cp tokens with CP.
    if (key.tp > 1) {
        const Tier& tier = ctx.profile->tiers[static_cast<size_t>(key.tp_tier)];
        const double P = d(key.micro_batch) * d(m.seq) / d(key.cp) * d(m.hidden) * ctx.element_bytes;
        const double ar = tier.time(Op::AllReduce, P, key.tp, true);
        const double ag = tier.time(Op::AllGather, P, key.tp, true);
        const double rs = tier.time(Op::ReduceScatter, P, key.tp, true);
        const double pair = key.sequence_parallel ? 2 * ag + 2 * rs : 2 * ar;  // per pass, 4 or 2 collectives
        double fwd = pair, bwd = pair;
        double redo = key.ag_redo ? 2 * ag : 0;
        double rec = key.recompute == Recompute::Full ? pair : 0;
        if (key.tp_overlap != TpOverlap::None) {
            // Each collective is cut into tp tiles behind its GEMM; tp - 1 tiles overlap and expose
            // what the GEMM cannot hide, the compute stolen while they run, and ("pipe") the first tile.
            const double u = tier.compute_steal, n = d(key.tp);
            auto exposed = [&](double comm, double gemm) {
                if (comm <= 0) return 0.0;
                const double hidden_part = (n - 1) / n;
                double x = hidden_part * std::max(0.0, comm - gemm / (1 - u)) + hidden_part * comm * u;
                if (key.tp_overlap == TpOverlap::Pipe) x += comm / n;
                return x;
            };
            fwd = exposed(fwd, gemm_fwd);
            bwd = exposed(bwd, gemm_bwd / 2);
            redo = exposed(redo, gemm_bwd / 2);
            rec = exposed(rec, gemm_fwd);
        }
        c.tp_fwd = fwd;
        c.tp_bwd = bwd;
        c.ag_redo = redo;
        c.tp_recompute = rec;
    }
    ActivationOptions a;
    a.tp = key.tp;
    a.cp = key.cp;
    a.sequence_parallel = key.sequence_parallel;
    a.recompute = key.recompute;
    a.flash_attention = ctx.flash_attention;
    a.fp8 = ctx.compute == Dtype::Fp8;
    a.sharded_ln_input = !key.sequence_parallel || key.ag_redo || key.recompute == Recompute::Full;
    c.activation_bytes = layerActivationBytes(m, key.micro_batch, a);
    a.recompute = Recompute::None;
    c.working_bytes = layerActivationBytes(m, key.micro_batch, a);
    return c;
}

EdgeCost edgeCost(const CostContext& ctx, const LayerKey& key) {
    const Transformer& m = *ctx.model;
    KernelStyle style;
    style.element_bytes = ctx.element_bytes;
    EdgeCost e;
    for (const auto& k : embeddingKernels(m, key.micro_batch, key.tp, style, key.cp)) {
        e.first_fwd += ctx.passTime(k, k.fwd);
        e.first_bwd += ctx.passTime(k, k.agrad) + ctx.passTime(k, k.wgrad);
    }
    for (const auto& k : headKernels(m, key.micro_batch, key.tp, key.sequence_parallel, style, key.cp)) {
        e.last_fwd += ctx.passTime(k, k.fwd);
        e.last_bwd += ctx.passTime(k, k.agrad) + ctx.passTime(k, k.wgrad);
    }
    const double s = d(m.seq) / d(key.cp), b = d(key.micro_batch), h = d(m.hidden), t = d(key.tp);
    if (key.tp > 1) {
        const Tier& tier = ctx.profile->tiers[static_cast<size_t>(key.tp_tier)];
        const double P = b * s * h * ctx.element_bytes;
        // The vocabulary-parallel embedding all-reduces (or reduce-scatters with SP) its output;
        // the LM head gathers its input with SP; the loss all-reduces three fp32 values per token.
        e.first_tp = key.sequence_parallel ? tier.time(Op::ReduceScatter, P, key.tp, true) +
                                                 tier.time(Op::AllGather, P, key.tp, true)
                                           : 2 * tier.time(Op::AllReduce, P, key.tp, true);
        e.last_tp = (key.sequence_parallel
                         ? tier.time(Op::AllGather, P, key.tp, true) + tier.time(Op::ReduceScatter, P, key.tp, true)
                         : 0) +
                    3 * tier.time(Op::AllReduce, b * s * 4, key.tp, true);
    }
    e.first_bytes_per_mb = (m.dropout ? s * b * h : 0) / (key.sequence_parallel ? t : 1) + 8 * s * b / t;
    e.last_bytes = (4 * s * b * h + 4 * s * b * d(m.vocab)) / t;
    return e;
}

namespace {

// One collective over `peers` GPUs of the DP group, hierarchical when it spans tier 0 islands of `local`.
double dpCollective(const Profile& p, const Placement& pl, Op op, double bytes, std::int64_t peers) {
    if (peers <= 1 || bytes <= 0) return 0;
    const Tier& outer = p.tiers[static_cast<size_t>(pl.dp)];
    const std::int64_t k = pl.dp_local;
    if (k <= 1 || pl.dp == 0 || peers % k != 0) return outer.time(op, bytes, peers, true);
    const Tier& inner = p.tiers[0];
    const std::int64_t across = peers / k;
    switch (op) {
    case Op::AllReduce:
        return inner.time(Op::ReduceScatter, bytes, k, true) + outer.time(Op::AllReduce, bytes / d(k), across, true) +
               inner.time(Op::AllGather, bytes, k, true);
    case Op::ReduceScatter:
        return inner.time(Op::ReduceScatter, bytes, k, true) + outer.time(Op::ReduceScatter, bytes / d(k), across, true);
    case Op::AllGather:
        return outer.time(Op::AllGather, bytes / d(k), across, true) + inner.time(Op::AllGather, bytes, k, true);
    default: return outer.time(op, bytes, peers, true);
    }
}

struct StageTime {
    double per_mb = 0;  // one micro-batch forward + backward, all exposed terms
    double fwd = 0, bwd = 0, recompute = 0, cp = 0, tp = 0, redo = 0, p2p = 0, overhead = 0;  // per micro-batch
    double bwd_window = 0, fwd_window = 0;  // for DP overlap
};

const char* cutHint(const std::string& term) {
    if (term == "activations") return "recompute more, a smaller micro-batch, sequence parallelism or more pipeline stages";
    if (term == "optimizer") return "the distributed optimizer or ZeRO, or more tensor / pipeline parallelism";
    if (term == "grads") return "ZeRO stage 2, or more tensor / pipeline parallelism";
    if (term == "weights") return "more tensor / pipeline parallelism, or ZeRO stage 3";
    if (term == "extras") return "a smaller micro-batch, or more tensor parallelism for the vocabulary";
    if (term == "working") return "a smaller micro-batch or more tensor parallelism";
    return "a larger GPU";
}

}  // namespace

Evaluation assemble(const CostContext& ctx, const Plan& plan, const Placement& pl, const LayerCost& layer,
                    const EdgeCost& edge, bool detail) {
    const Transformer& m = *ctx.model;
    const Profile& prof = *ctx.profile;
    const std::int64_t p = plan.pp, v = plan.interleave, mb = plan.microBatches();
    const double t = d(plan.tp);
    Evaluation ev;
    ev.model = ModelKind::Partita;
    ev.micro_batches = mb;
    ev.placement = pl;
    ev.capacity_bytes = prof.device.hbm_bytes;

    // PP p2p per micro-batch per GPU: v sends forward and v backward of P/t (SP or scatter/gather)
    // or P, plus the receiver's all-gather on tier 0 for scatter/gather (docs/methods/llm.md#derivation).
    double p2p = 0;
    if (p > 1 && !plan.pp_overlap) {
        const bool split = plan.tp > 1 && (plan.sequence_parallel || plan.scatter_gather);
        const double P = d(plan.micro_batch) * d(m.seq) / d(plan.cp) * d(m.hidden) * ctx.element_bytes;
        const Tier& tier = prof.tiers[static_cast<size_t>(pl.pp)];
        double one = tier.time(Op::P2p, split ? P / t : P, 2, true);
        if (split && !plan.sequence_parallel)
            one += prof.tiers[static_cast<size_t>(pl.tp)].time(Op::AllGather, P, plan.tp, true);
        p2p = 2 * d(v) * one;
    }
    const double per_layer = layer.perLayer();
    auto stageTime = [&](std::int64_t stage) {
        StageTime s;
        const double L = d(stageLayers(m, plan, stage));
        const bool first = stage == 0, last = stage == p - 1;
        s.fwd = L * layer.fwd + (first ? edge.first_fwd : 0) + (last ? edge.last_fwd : 0);
        s.bwd = L * layer.bwd + (first ? edge.first_bwd : 0) + (last ? edge.last_bwd : 0);
        s.recompute = L * layer.recompute;
        s.cp = L * (layer.cp_fwd + layer.cp_bwd);
        s.tp = L * (layer.tp_fwd + layer.tp_bwd + layer.tp_recompute) + (first ? edge.first_tp : 0) +
               (last ? edge.last_tp : 0);
        s.redo = L * layer.ag_redo;
        s.overhead = L * layer.overhead;
        s.p2p = p2p;
        s.per_mb = L * per_layer + (first ? edge.first_fwd + edge.first_bwd + edge.first_tp : 0) +
                   (last ? edge.last_fwd + edge.last_bwd + edge.last_tp : 0) + p2p;
        s.bwd_window = L * (layer.bwd + layer.recompute + layer.cp_bwd + layer.tp_bwd + layer.tp_recompute + layer.ag_redo);
        s.fwd_window = L * (layer.fwd + layer.cp_fwd + layer.tp_fwd);
        return s;
    };

    // Stages that can differ: the first, the last, and the middle ones (the first extra-layer
    // middle stage is the slowest of them; counts cover an uneven split).
    const std::int64_t extra = m.layers % p;
    const StageTime first = stageTime(0);
    const StageTime last = p > 1 ? stageTime(p - 1) : first;
    StageTime mid_hi, mid_lo;
    std::int64_t n_hi = 0, n_lo = 0;
    if (p > 2) {
        // Middle stages 1..p-2: those below `extra` have one more layer.
        n_hi = std::max<std::int64_t>(0, std::min(extra, p - 1) - 1);
        n_lo = (p - 2) - n_hi;
        if (n_hi > 0) mid_hi = stageTime(1);
        if (n_lo > 0) mid_lo = stageTime(p - 2);
    }
    // The slowest stage sets the pace; every other stage's time is the fill and drain.
    std::int64_t slow_stage = 0;
    StageTime slow = first;
    double sum_all = first.per_mb;
    if (p > 1) {
        sum_all += last.per_mb;
        if (last.per_mb > slow.per_mb) slow = last, slow_stage = p - 1;
    }
    if (n_hi > 0) {
        sum_all += d(n_hi) * mid_hi.per_mb;
        if (mid_hi.per_mb > slow.per_mb) slow = mid_hi, slow_stage = 1;
    }
    if (n_lo > 0) {
        sum_all += d(n_lo) * mid_lo.per_mb;
        if (mid_lo.per_mb > slow.per_mb) slow = mid_lo, slow_stage = p - 2;
    }
    const double M = d(mb);
    TimeTerms& T = ev.time;
    T.fwd = M * slow.fwd;
    T.bwd = M * slow.bwd;
    T.recompute = M * slow.recompute;
    T.cp_exposed = M * slow.cp;
    T.tp_exposed = M * slow.tp;
    T.ag_redo = M * slow.redo;
    T.pp_p2p = M * slow.p2p;
    T.overhead = M * slow.overhead;
    T.bubble = (sum_all - slow.per_mb) / d(v);

    // Memory, DP and optimizer per stage; the iteration ends with the slowest of them.
    const std::int64_t group = plan.gradientGroup();  // dp x cp GPUs hold the same parameters
    const Dtype plan_dtype = plan.precision.value_or(prof.precision.param);
    const Dtype param_dtype = plan_dtype == Dtype::Fp8 ? Dtype::Bf16 : plan_dtype;  // fp8 keeps 16-bit weights
    const BytesPerParam bpp = bytesPerParam(
        Precision{param_dtype, prof.precision.grad_accum, prof.precision.grad_reduce, prof.precision.optimizer},
        plan.zero, plan.distributed_optimizer, group);
    const double param_bytes = dtypeBytes(param_dtype);
    // Gradients are reduced in the profile's dtype; ZeRO (DeepSpeed) and Megatron's fp16 path (no
    // --accumulate-allreduce-grads-in-fp32) reduce them in 16 bit.
    const double grad_bytes = plan.zero > 0 || param_dtype == Dtype::Fp16 ? param_bytes
                                                                          : dtypeBytes(prof.precision.grad_reduce);
    // The optimizer's element-wise unit: its own dtype's, else the 16-bit one (a profile may list only that).
    const Unit* fp32_unit = &prof.device.unit(false, Dtype::Bf16);
    for (const auto& u : prof.device.vector)
        if (u.dtype == prof.precision.optimizer) fp32_unit = &u;
    const Unit& fp32 = *fp32_unit;
    auto tailTime = [&](std::int64_t stage, const StageTime& st, double& dp_exposed, double& optimizer) {
        const double psi = stageParams(m, plan, stage);
        const double L = std::max(1.0, d(stageLayers(m, plan, stage)));
        dp_exposed = 0;
        if (group > 1) {
            const double G = psi * grad_bytes, W = psi * param_bytes;
            double reduce = 0, gather = 0, zero3 = 0;
            if (plan.zero >= 3) {
                // DeepSpeed ZeRO-3 gathers each layer's parameters for the forward and again for the
                // backward, and reduce-scatters its gradients, every micro-batch, one collective per
                // layer over the flat group. The forward gathers are prefetched behind the forward
                // compute; the backward's are not (Narayanan et al. Table 2 measures them exposed).
                const Tier& tier = prof.tiers[static_cast<size_t>(pl.dp)];
                const double ag = L * tier.time(Op::AllGather, W / L, group, true);
                const double rs = L * tier.time(Op::ReduceScatter, G / L, group, true);
                zero3 = M * (std::max(0.0, ag - st.fwd_window) + ag + rs);
            } else if (plan.shardsOptimizer()) {
                reduce = dpCollective(prof, pl, Op::ReduceScatter, G, group);
                gather = dpCollective(prof, pl, Op::AllGather, W, group);
            } else {
                reduce = dpCollective(prof, pl, Op::AllReduce, G, group);
            }
            if (plan.dpOverlap()) {
                const double u = prof.tiers[static_cast<size_t>(pl.dp)].compute_steal;
                const double window = st.bwd_window * (v == 1 ? 1 : (d(p) * d(v - 1) + 1) / d(v));
                const double r = std::max(reduce / L, reduce - window) + reduce * u;
                const double g = gather > 0 ? std::max(gather / L, gather - st.fwd_window) + gather * u : 0;
                dp_exposed = r + g + zero3;
            } else {
                dp_exposed = reduce + gather + zero3;
            }
        }
        const double shard = plan.shardsOptimizer() ? d(group) : 1;
        const double psi_opt = psi / shard;
        const double flops = 11 * psi_opt;
        // Adam reads gradients and reads and writes master weights and moments, then writes the
        // 16-bit weights; zeroing the gradient buffer and the gradient norm touch every local gradient.
        const double bytes = psi_opt * (2 * bpp.optimizer * shard + grad_bytes + param_bytes) + 2 * psi * bpp.grads;
        const double ft = flops / (fp32.peak_flops * fp32.efficiency.at(flops, 1e9));
        const double mt = bytes / (prof.device.hbm_Bps * prof.device.hbm_efficiency.at(bytes, 1e6));
        optimizer = prof.device.compose == Compose::Sum ? ft + mt : std::max(ft, mt);
    };
    double best_tail = -1;
    auto consider = [&](std::int64_t stage, const StageTime& st) {
        double dpx = 0, opt = 0;
        tailTime(stage, st, dpx, opt);
        if (dpx + opt > best_tail) best_tail = dpx + opt, T.dp_exposed = dpx, T.optimizer = opt;
    };
    consider(0, first);
    if (p > 1) consider(p - 1, last);
    if (n_hi > 0) consider(1, mid_hi);
    if (n_lo > 0) consider(p - 2, mid_lo);
    ev.iteration_s = T.total();

    auto stageMemory = [&](std::int64_t stage) {
        StageMemory s;
        s.stage = stage;
        s.layers = stageLayers(m, plan, stage);
        s.params = stageParams(m, plan, stage);
        s.weights = s.params * bpp.weights;
        s.grads = s.params * bpp.grads;
        s.optimizer = s.params * bpp.optimizer;
        const double flight = inFlight(plan.schedule, p, v, mb, stage);
        s.activations = d(s.layers) * layer.activation_bytes * flight;
        if (stage == 0) s.extras += flight * edge.first_bytes_per_mb;
        if (stage == p - 1) s.extras += edge.last_bytes;
        s.working = layer.working_bytes;
        s.reserved = prof.device.reserved_bytes;
        return s;
    };
    auto track = [&](const StageMemory& s) {
        if (s.total() > ev.peak_bytes) ev.peak_bytes = s.total(), ev.peak_stage = s.stage;
    };
    if (detail) {
        ev.stages.reserve(static_cast<size_t>(p));
        for (std::int64_t i = 0; i < p; ++i) {
            ev.stages.push_back(stageMemory(i));
            track(ev.stages.back());
            ev.stage_time_s.push_back(stageTime(i).per_mb);
        }
    } else {
        // Stage 0 holds the most activations (in flight falls with the stage) and the embedding;
        // the last the LM head; with an uneven split stage 0 also has the extra layer.
        track(stageMemory(0));
        if (p > 1) track(stageMemory(p - 1));
        if (p > 2) track(stageMemory(1));
    }
    ev.fits = ev.peak_bytes <= ev.capacity_bytes;

    // FLOPs, MFU, HFU, tokens/s.
    ev.model_flops = iterationModelFlops(m, plan.global_batch);
    ev.hardware_flops = ev.model_flops + layer.recompute_flops * t * d(plan.cp) * d(m.layers) * M * d(plan.dp);
    const double peak = prof.device.unit(true, ctx.compute).peak_flops;
    const double gpus = d(plan.gpus());
    ev.mfu = ev.model_flops / (gpus * ev.iteration_s * peak);
    ev.hfu = ev.hardware_flops / (gpus * ev.iteration_s * peak);
    ev.tokens_per_s = d(plan.global_batch) * d(m.seq) / ev.iteration_s;

    if (detail) {
        if (!ev.fits) {
            const StageMemory& s = ev.stages[static_cast<size_t>(ev.peak_stage)];
            const std::pair<const char*, double> terms[] = {{"weights", s.weights},         {"grads", s.grads},
                                                            {"optimizer", s.optimizer},     {"activations", s.activations},
                                                            {"extras", s.extras},           {"working", s.working}};
            const auto* big = &terms[0];
            for (const auto& term : terms)
                if (term.second > big->second) big = &term;
            ev.cut = std::string(big->first) + " (" + fixed(big->second / kGiB, 2) + " GiB of " +
                     fixed(s.total() / kGiB, 2) + " GiB on stage " + std::to_string(s.stage) + "): " + cutHint(big->first);
        }
        ev.notes = prof.notes;
        if (slow_stage != 0 && p > 1)
            ev.notes.push_back("stage " + std::to_string(slow_stage) + " is the slowest (sets the pipeline's pace)");
    }
    return ev;
}

}  // namespace partita::llm
