// The Calculon model (see calculon_model.h). A block (one transformer layer) is a list of ops, each
// with forward, activation-gradient and weight-gradient FLOPs, element counts for its inputs,
// outputs, weights and saved tensors, and flags for recompute and re-communication; times and
// memory are sums over the ops, scaled to the GPU's blocks and micro-batches.
#include "core/llm/calculon_model.h"

#include <algorithm>
#include <cmath>

namespace partita::llm {

namespace {

enum class Kind { Plain, Matrix, Dropout, Elementwise2, Fork, TpComm, Overlapped };
enum class Stage { Fw, Agrad, Wgrad, Optim };

struct Op2 {
    const char* name = "";
    Kind kind = Kind::Plain;
    double fw = 0, agrad = 0, wgrad = 0;  // FLOPs
    double inputs = 0, output = 0, act_space = 0, act_grads = 0, weights = 0, weight_grads = 0, optim_space = 0;
    bool recompute = false, recomm = false, reused = false, act_stored = true, out_stored = true;
    bool conjugate = false;
    double users = 0;            // Fork
    bool mem_like_fw = false;    // agrad touches what forward did (dropout, GeLU, softmax)
};

struct Setup {
    const Profile* profile = nullptr;
    Dtype dtype = Dtype::Fp16;
    double e = 2;
    std::int64_t t = 1;
    bool rs_ag = false, p2p_rs_ag = false;
    TpOverlap overlap = TpOverlap::None;
    double shard = 1;
    const Tier* tp_net = nullptr;

    double matrixTput(double flops) const {
        const Unit& u = profile->device.unit(true, dtype);
        return u.peak_flops * u.efficiency.at(flops, 1e9);
    }
    double vectorTput(double flops) const {
        const Unit& u = profile->device.unit(false, dtype);
        return u.peak_flops * u.efficiency.at(flops, 1e9);
    }
    double memTput(double bytes) const { return profile->device.hbm_Bps * profile->device.hbm_efficiency.at(bytes, 1e6); }
    double compose(double flop_time, double mem_time) const {
        return profile->device.compose == Compose::Sum ? flop_time + mem_time : std::max(flop_time, mem_time);
    }
    bool split(bool base) const { return rs_ag || (p2p_rs_ag && !base); }
};

double flops(const Op2& o, Stage s, const Setup& u) {
    switch (s) {
    case Stage::Fw: return o.fw;
    case Stage::Agrad: return o.agrad;
    case Stage::Wgrad: return o.wgrad;
    case Stage::Optim: return o.weight_grads / u.shard * 11;
    }
    return 0;
}

double optimizerBytes(const Op2& o, const Setup& u) {
    const double master = u.e < 4 ? o.weights * 4 : 0;
    return (master + o.optim_space * 4) / u.shard;
}

double fwMem(const Op2& o, const Setup& u) {
    if (o.kind == Kind::Fork) return 0;
    if (o.kind == Kind::Dropout) return (o.inputs + o.output) * u.e + o.act_space;
    if (o.kind == Kind::TpComm && !u.rs_ag && !o.conjugate) return 0;
    return (o.inputs + o.output + o.weights) * u.e;
}

double memAccessed(const Op2& o, Stage s, const Setup& u) {
    switch (s) {
    case Stage::Fw: return fwMem(o, u);
    case Stage::Agrad:
        if (o.mem_like_fw || o.kind == Kind::Dropout) return fwMem(o, u);
        if (o.kind == Kind::Fork) return o.act_space * u.e * (o.users + 1);
        if (o.kind == Kind::TpComm && !u.rs_ag && o.conjugate) return 0;
        return (o.weights + o.act_space + o.act_grads) * u.e;
    case Stage::Wgrad:
        if (o.weights == 0) return 0;
        return (o.weight_grads + o.act_space + o.act_grads) * u.e;
    case Stage::Optim: return optimizerBytes(o, u);
    }
    return 0;
}

bool matrixEngine(const Op2& o) { return o.kind == Kind::Matrix || o.kind == Kind::Overlapped; }

double flopsTime(const Op2& o, Stage s, const Setup& u) {
    const double f = flops(o, s, u);
    if (f == 0) return 0;
    return f / (matrixEngine(o) && s != Stage::Optim ? u.matrixTput(f) : u.vectorTput(f));
}

double memTime(const Op2& o, Stage s, const Setup& u) {
    const double b = memAccessed(o, s, u);
    if (b == 0) return 0;
    return b / u.memTput(b);
}

double baseProcessing(const Op2& o, Stage s, const Setup& u) { return u.compose(flopsTime(o, s, u), memTime(o, s, u)); }

// Bytes a TP op sends in `s` (Calculon's get_comm_bytes).
double commBytes(const Op2& o, Stage s, bool base, const Setup& u) {
    if (u.t == 1) return 0;
    const bool split = u.split(base);
    if (o.kind == Kind::TpComm) {
        if (!split && ((o.conjugate && s == Stage::Agrad) || (!o.conjugate && s == Stage::Fw))) return 0;
        if (s == Stage::Fw || s == Stage::Agrad) return o.inputs * u.e;  // comm size = the op's activation
        if (s == Stage::Wgrad && o.recomm && (split || o.conjugate)) return o.inputs * u.e;
        return 0;
    }
    if (o.kind == Kind::Overlapped) {
        const double ag = o.inputs * u.e, ar_rs = o.output * u.e;
        if (s == Stage::Fw) return o.conjugate ? ar_rs : (split ? ag : 0);
        if (s == Stage::Agrad) return !o.conjugate ? ag : (split ? ar_rs : 0);
        if (s == Stage::Wgrad) return o.recomm ? commBytes(o, Stage::Fw, base, u) : 0;
    }
    return 0;
}

double net(const Setup& u, Op op, double bytes) { return u.tp_net->time(op, bytes, u.t, false); }

// Link time of a TP op in `s` (Calculon's compute_net_time).
double netTime(const Op2& o, Stage s, bool base, const Setup& u) {
    if (u.t == 1 || (o.kind != Kind::TpComm && o.kind != Kind::Overlapped)) return 0;
    const bool split = u.split(base);
    const double bytes = commBytes(o, s, base, u);
    const double tn = static_cast<double>(u.t);
    if (o.kind == Kind::TpComm) {
        const double compute = baseProcessing(o, s, u);
        double fw_net = 0, bw_net = 0;
        if (split) {
            fw_net = net(u, o.conjugate ? Op::ReduceScatter : Op::AllGather, bytes);
            bw_net = net(u, o.conjugate ? Op::AllGather : Op::ReduceScatter, bytes);
        } else if (o.conjugate) {
            fw_net = net(u, Op::AllReduce, bytes);
        } else {
            bw_net = net(u, Op::AllReduce, bytes);
        }
        if (s == Stage::Fw) return fw_net + compute;
        if (s == Stage::Agrad) return bw_net + compute;
        if (s == Stage::Wgrad) return o.recomm ? fw_net + compute : 0;
        return 0;
    }
    // Overlapped GEMM: its collective plus the reduction's vector FLOPs.
    bool has_fw = true, has_bw = true;
    Op fw_op = Op::AllReduce, bw_op = Op::AllReduce;
    double fw_flop_time = 0, bw_flop_time = 0;
    const double reduce_flops = bytes / u.e * (tn - 1) / tn;
    if (o.conjugate) {
        if (split) fw_op = Op::ReduceScatter, bw_op = Op::AllGather;
        else fw_op = Op::AllReduce, has_bw = false;
        fw_flop_time = reduce_flops == 0 ? 0 : reduce_flops / u.vectorTput(reduce_flops);
    } else {
        if (split) fw_op = Op::AllGather, bw_op = Op::ReduceScatter;
        else has_fw = false, bw_op = Op::AllReduce;
        bw_flop_time = reduce_flops == 0 ? 0 : reduce_flops / u.vectorTput(reduce_flops);
    }
    if (s == Stage::Fw) return has_fw ? net(u, fw_op, bytes) + fw_flop_time : 0;
    if (s == Stage::Agrad) return has_bw ? net(u, bw_op, bytes) + bw_flop_time : 0;
    if (s == Stage::Wgrad) return o.recomm && has_fw ? net(u, fw_op, bytes) : 0;
    return 0;
}

// Processing time of an op in `s`; `exposed` receives the overlapped GEMM's exposed communication.
double processing(const Op2& o, Stage s, const Setup& u, double& exposed) {
    exposed = 0;
    if (o.kind == Kind::TpComm) return 0;
    if (o.kind != Kind::Overlapped) return baseProcessing(o, s, u);
    const double usage = u.tp_net->compute_steal;
    const double flop = flopsTime(o, s, u), slowed = flop / (1 - usage), mem = memTime(o, s, u);
    const double comm = netTime(o, s, true, u);
    const double compute = u.compose(flop, mem);
    if (comm == 0) return compute;
    const double n = static_cast<double>(u.t);
    const double compute_slowed = u.compose(slowed, mem);
    const double net_tile = comm / n, compute_tile = compute / n;
    const double inflection = net_tile - slowed / n;
    double time = 0;
    if (inflection > 0) {
        time = compute_tile + (n - 1) * compute_slowed / n;
        exposed = (n - 1) * inflection;
    } else {
        time = compute_tile + (n - 1) * compute_tile + (n - 1) * net_tile * usage;
    }
    if (u.overlap == TpOverlap::Pipe) exposed += net_tile, time += net_tile;
    return time;
}

double activationBytes(const Op2& o, const Setup& u) {
    if (o.kind == Kind::Dropout) return o.act_space;
    if (o.kind == Kind::TpComm) {
        if (u.rs_ag) return o.act_space * u.e / static_cast<double>(u.t);
        return o.conjugate ? o.act_space * u.e : 0;
    }
    return o.act_space * u.e;
}

double activationGradBytes(const Op2& o, const Setup& u) {
    if (o.kind == Kind::Dropout) return o.act_grads;
    if (o.kind == Kind::TpComm) {
        if (u.rs_ag) return o.act_space * u.e / static_cast<double>(u.t);
        return !o.conjugate ? o.act_grads * u.e : 0;
    }
    return o.act_grads * u.e;
}

// ---- the block's ops -----------------------------------------------------------------------------

Op2 linear(const char* name, double m, double n, double k) {
    Op2 o;
    o.name = name;
    o.kind = Kind::Matrix;
    o.fw = o.agrad = o.wgrad = 2 * m * n * k;
    o.inputs = m * n;
    o.output = m * k;
    o.weights = o.weight_grads = n * k;
    o.act_space = m * n;
    o.act_grads = m * k;
    o.optim_space = 2 * n * k;
    return o;
}

Op2 bmm(const char* name, double batch, double m, double n, double k) {
    Op2 o;
    o.name = name;
    o.kind = Kind::Matrix;
    o.fw = batch * 2 * m * n * k;
    o.agrad = batch * 4 * m * n * k;
    o.inputs = o.act_space = batch * (m * n + n * k);
    o.output = o.act_grads = batch * m * k;
    return o;
}

Op2 elementwise(const char* name, double x, double fw, double agrad, double wgrad = 0) {
    Op2 o;
    o.name = name;
    o.fw = fw * x;
    o.agrad = agrad * x;
    o.wgrad = wgrad * x;
    o.inputs = o.output = o.act_space = o.act_grads = x;
    return o;
}

Op2 layerNorm(const char* name, double x, double hidden) {
    Op2 o = elementwise(name, x, 9, 14, 7);
    o.weights = o.weight_grads = 2 * hidden;
    o.optim_space = 4 * hidden;
    return o;
}

Op2 dropout(const char* name, double x) {
    Op2 o = elementwise(name, x, 1, 1);
    o.kind = Kind::Dropout;
    return o;
}

Op2 residual(const char* name, double x) {
    Op2 o;
    o.name = name;
    o.kind = Kind::Elementwise2;
    o.fw = x;
    o.agrad = 2 * x;
    o.inputs = o.act_space = 2 * x;
    o.output = o.act_grads = x;
    return o;
}

Op2 fork(const char* name, double x, double users) {
    Op2 o;
    o.name = name;
    o.kind = Kind::Fork;
    o.inputs = o.act_space = x;
    o.agrad = users * x;
    o.users = users;
    return o;
}

Op2 tpComm(const char* name, double x, std::int64_t t, bool conjugate) {
    Op2 o;
    o.name = name;
    o.kind = Kind::TpComm;
    o.conjugate = conjugate;
    if (t == 1) return o;
    const double share = x * static_cast<double>(t - 1) / static_cast<double>(t);
    o.fw = conjugate ? share : 0;
    o.agrad = conjugate ? 0 : share;
    o.inputs = o.output = o.act_space = o.act_grads = x;
    return o;
}

Op2 overlapped(const char* name, double m, double n, double k, const Setup& u, bool conjugate) {
    const double tiles = static_cast<double>(u.t), t = tiles;
    double act = 0, grad = 0, grad_buffer = 0;
    if (u.rs_ag) {
        if (!conjugate) {
            k = k / t;
            act = std::floor(m * n / tiles);
            grad = m * k;
        } else {
            n = n / t;
            act = m * n;
            grad = std::floor(m * k / tiles);
            grad_buffer = grad;
        }
    } else if (!conjugate) {
        k = k / t;
        act = m * n;
    } else {
        n = n / t;
        grad = m * k;
        grad_buffer = m * k;
    }
    Op2 o = linear(name, m, n, k);
    o.kind = Kind::Overlapped;
    o.conjugate = conjugate;
    o.act_space = act;
    o.act_grads = grad + grad_buffer;
    return o;
}

std::vector<Op2> buildBlock(const Transformer& app, const Plan& plan, const Setup& u) {
    const double t = static_cast<double>(u.t), b = static_cast<double>(plan.micro_batch);
    const double s = static_cast<double>(app.seq), h = static_cast<double>(app.hidden);
    const double f = static_cast<double>(app.ffn), dh = static_cast<double>(app.headDim());
    const double heads = static_cast<double>(app.heads / u.t);  // t divides heads
    const double q = static_cast<double>(app.qDim());
    const double bs = b * s, A = bs * h, As = std::floor(bs / t) * h;
    const double act = u.rs_ag ? As : A;
    const bool multiquery = app.kv_heads == 1 && app.heads > 1;
    const bool full = plan.recompute == Recompute::Full;
    const bool attn = plan.recompute != Recompute::None;
    const bool redo = u.rs_ag && plan.agRedo();
    const bool ag_attn = attn || redo, ag_mlp = full || redo;
    const bool none = u.overlap == TpOverlap::None;
    std::vector<Op2> ops;
    auto add = [&](Op2 o, bool recompute, bool recomm = false) {
        o.recompute = recompute;
        o.recomm = recomm;
        ops.push_back(o);
        return &ops.back();
    };
    auto reusedNotStored = [](Op2* o) { o->reused = true, o->act_stored = false; };

    // Attention block.
    add(fork("AttnBlock_Fork", act, 2), full);
    reusedNotStored(add(layerNorm("AttnBlock_LayerNorm", act, h), full));
    if (none) {
        add(tpComm("AttnBlock_F", A, u.t, false), false, ag_attn);
        add(fork("AttnBlock_Multihead_Fork", A, 3), ag_attn)->act_stored = !ag_attn;
        const double kv = multiquery ? dh : q / t;
        reusedNotStored(add(linear("AttnBlock_Query", bs, h, q / t), full));
        reusedNotStored(add(linear("AttnBlock_Key", bs, h, kv), full));
        reusedNotStored(add(linear("AttnBlock_Value", bs, h, kv), full));
    } else if (!multiquery) {
        add(overlapped("AttnBlock_QKV_AG", bs, h, q * 3, u, false), full, ag_attn);
    } else {
        add(overlapped("AttnBlock_Query_AG", bs, h, q, u, false), full, ag_attn);
        add(fork("AttnBlock_KV_Fork", A, 2), ag_attn)->act_stored = !ag_attn;
        reusedNotStored(add(linear("AttnBlock_Key", bs, h, dh), full));
        reusedNotStored(add(linear("AttnBlock_Value", bs, h, dh), full));
    }
    add(bmm("AttnBlock_Multihead_Key_Query", b * heads, s, dh, s), attn)->out_stored = !attn;
    Op2 softmax = elementwise("AttnBlock_Multihead_SoftMax", heads * s * s * b, 5, 8);
    softmax.mem_like_fw = true;
    add(softmax, attn)->out_stored = !attn;
    add(dropout("AttnBlock_Multihead_DropOut", heads * s * s * b), attn)->act_stored = !attn;
    add(bmm("AttnBlock_Multihead_Attn", b * heads, s, s, dh), full);
    if (none) {
        add(linear("AttnBlock_MLP", bs, q / t, h), full);
        add(tpComm("AttnBlock_G", A, u.t, true), false, full)->act_stored = false;
    } else {
        add(overlapped("AttnBlock_MLP_RS", bs, q, h, u, true), full, full);
    }
    add(dropout("AttnBlock_DropOut", act), full);
    reusedNotStored(add(residual("AttnBlock_Residual", act), full));

    // MLP block.
    add(fork("MlpBlock_Fork", act, 2), full);
    reusedNotStored(add(layerNorm("MlpBlock_LayerNorm", act, h), full));
    if (none) {
        add(tpComm("MlpBlock_F", A, u.t, false), false, ag_mlp);
        add(linear("MlpBlock_Mlp1", bs, h, f / t), full)->act_stored = !ag_mlp;
    } else {
        add(overlapped("MlpBlock_Mlp1_AG", bs, h, f, u, false), full, ag_mlp);
    }
    Op2 gelu = elementwise("MlpBlock_GeLU", f * bs / t, 8, 13);
    gelu.mem_like_fw = true;
    if (plan.fused_activation) gelu.act_space = gelu.act_grads = 0;
    add(gelu, full);
    if (none) {
        add(linear("MlpBlock_Mlp2", bs, f / t, h), full);
        add(tpComm("MlpBlock_G", A, u.t, true), false, full)->act_stored = false;
    } else {
        add(overlapped("MlpBlock_Mlp2_RS", bs, f, h, u, true), full, full);
    }
    add(dropout("MlpBlock_DropOut", act), full);
    reusedNotStored(add(residual("MlpBlock_Residual", act), full));
    return ops;
}

// Per micro-batch, per block sums.
struct Block {
    double fw_flops_time = 0, fw_mem_time = 0, fw_time = 0;
    double fw_tp_exposed[2] = {0, 0};  // [base, edge]
    double re_flops_time = 0, re_mem_time = 0, re_time = 0;
    double recomm_link[2] = {0, 0}, recomm_exposed[2] = {0, 0};
    double agrad_flops_time = 0, agrad_mem_time = 0, agrad_time = 0;
    double agrad_tp_link[2] = {0, 0}, agrad_tp_exposed[2] = {0, 0};
    double wgrad_flops_time = 0, wgrad_mem_time = 0, wgrad_time = 0;
    double optim_flops_time = 0, optim_mem_time = 0, optim_time = 0;
    double weight = 0, act_working = 0, act_storage = 0, weight_grad = 0, weight_grad_full = 0, act_grad = 0,
           optimizer = 0;
};

Block blockStats(const std::vector<Op2>& ops, const Setup& u) {
    Block k;
    for (const Op2& o : ops) {
        double exposed_fw = 0, exposed_agrad = 0, ignore = 0;
        k.fw_flops_time += flopsTime(o, Stage::Fw, u);
        k.fw_mem_time += memTime(o, Stage::Fw, u);
        k.fw_time += processing(o, Stage::Fw, u, exposed_fw);
        for (int base = 0; base < 2; ++base)
            k.fw_tp_exposed[base] += o.kind == Kind::TpComm ? netTime(o, Stage::Fw, base == 0, u) : exposed_fw;
        if (o.recompute) {
            // Calculon adds the block's running forward totals here (not the op's own).
            k.re_flops_time += k.fw_flops_time;
            k.re_mem_time += k.fw_mem_time;
            k.re_time += processing(o, Stage::Fw, u, exposed_fw);
        }
        if (o.recomm) {
            for (int base = 0; base < 2; ++base) {
                const double link = netTime(o, Stage::Wgrad, base == 0, u);
                k.recomm_link[base] += link;
                // An overlapped GEMM reports the exposure of its last computed pass: the forward.
                k.recomm_exposed[base] += o.kind == Kind::Overlapped ? exposed_fw : link;
            }
        }
        k.agrad_flops_time += flopsTime(o, Stage::Agrad, u);
        k.agrad_mem_time += memTime(o, Stage::Agrad, u);
        k.agrad_time += processing(o, Stage::Agrad, u, exposed_agrad);
        for (int base = 0; base < 2; ++base) {
            const double link = netTime(o, Stage::Agrad, base == 0, u);
            k.agrad_tp_link[base] += link;
            k.agrad_tp_exposed[base] += o.kind == Kind::TpComm ? link : exposed_agrad;
        }
        k.wgrad_flops_time += flopsTime(o, Stage::Wgrad, u);
        k.wgrad_mem_time += memTime(o, Stage::Wgrad, u);
        k.wgrad_time += processing(o, Stage::Wgrad, u, ignore);
        k.optim_flops_time += flopsTime(o, Stage::Optim, u);
        k.optim_mem_time += memTime(o, Stage::Optim, u);
        k.optim_time += processing(o, Stage::Optim, u, ignore);

        const double a = activationBytes(o, u);
        k.weight += o.weights * u.e;
        if (!o.reused) k.act_working += a;
        k.act_storage += a;
        if (!o.out_stored) k.act_storage -= o.output * u.e;
        if (!o.act_stored) k.act_storage -= a;
        k.weight_grad += o.weight_grads * u.e / u.shard;
        k.weight_grad_full += o.weight_grads * 4;
        k.act_grad += activationGradBytes(o, u);
        k.optimizer += optimizerBytes(o, u);
    }
    return k;
}

Setup layerSetup(const Plan& plan) {
    Setup u;
    u.t = plan.tp;
    u.rs_ag = plan.sequence_parallel;
    u.p2p_rs_ag = !plan.sequence_parallel && plan.scatter_gather;
    u.overlap = plan.tp_overlap;
    u.shard = plan.shardsOptimizer() ? static_cast<double>(plan.dp) : 1;
    return u;
}

}  // namespace

double calculonLayerForwardFlops(const Transformer& m, const Plan& plan) {
    double sum = 0;
    for (const Op2& o : buildBlock(m, plan, layerSetup(plan))) sum += o.fw;
    return sum;
}

Evaluation calculonEvaluate(const Transformer& app, const Plan& plan, const Profile& profile) {
    if (app.kv_heads != app.heads && !(app.kv_heads == 1 && app.heads > 1))
        throw FieldError("model.kv_heads", "the Calculon model has multi-head or multi-query attention only");
    const Placement pl = placement(plan, profile);
    Setup u = layerSetup(plan);
    u.profile = &profile;
    u.dtype = plan.precision.value_or(profile.precision.param);
    u.e = dtypeBytes(u.dtype);
    u.tp_net = &profile.tiers[static_cast<size_t>(pl.tp)];
    const Tier& pp_net = profile.tiers[static_cast<size_t>(pl.pp)];
    const Tier& dp_net = profile.tiers[static_cast<size_t>(pl.dp)];
    const bool dp_tp_same = pl.dp == pl.tp, dp_pp_same = pl.dp == pl.pp;

    const std::int64_t p = plan.pp, v = plan.interleave, d = plan.dp;
    const double M = static_cast<double>(plan.microBatches());
    std::int64_t blocks = app.layers / p, short_blocks = 0;
    if (app.layers % p != 0) ++blocks, short_blocks = p - app.layers % p;
    const std::int64_t per_chunk = blocks / v;
    const double chunks = static_cast<double>(v), base_n = static_cast<double>(per_chunk - 1);
    const double nb = static_cast<double>(blocks);

    const Block k = blockStats(buildBlock(app, plan, u), u);
    const double bs = static_cast<double>(plan.micro_batch) * static_cast<double>(app.seq);
    const double A = bs * static_cast<double>(app.hidden);

    Evaluation ev;
    ev.model = ModelKind::Calculon;
    ev.micro_batches = plan.microBatches();
    ev.placement = pl;
    ev.capacity_bytes = profile.device.hbm_bytes;
    TimeTerms& T = ev.time;
    const double mult = nb * M;
    T.fwd = mult * k.fw_time;
    T.recompute = mult * k.re_time;
    T.bwd = mult * (k.agrad_time + k.wgrad_time);
    T.optimizer = nb * k.optim_time;
    auto perChunk = [&](const double (&x)[2]) { return M * chunks * (base_n * x[0] + x[1]); };
    T.tp_exposed = perChunk(k.fw_tp_exposed) + perChunk(k.agrad_tp_exposed);
    T.ag_redo = perChunk(k.recomm_exposed);

    // PP: one send each way per chunk per micro-batch; P/t with rs_ag or p2p_rs_ag.
    const double pp_bytes = p > 1 ? (u.rs_ag || u.p2p_rs_ag ? std::floor(bs / static_cast<double>(u.t)) *
                                                                   static_cast<double>(app.hidden) * u.e
                                                             : A * u.e)
                                  : 0;
    const double chunk_pp = pp_net.time(Op::P2p, pp_bytes, 2, false);
    T.pp_p2p = p > 1 ? 2 * M * chunks * chunk_pp : 0;

    // Offload: a layer's transfers to and from the host overlap its own compute.
    const bool full = plan.recompute == Recompute::Full;
    const double ckpt_block = full ? A * u.e : 0;
    const double storage = full ? 0 : k.act_storage;
    const double act_move = full ? ckpt_block : storage;
    const double fw_move = std::max(plan.offload_weights ? k.weight : 0.0, plan.offload_activations ? act_move : 0.0);
    const double bw_move = (plan.offload_weights ? k.weight : 0.0) + (plan.offload_activations ? act_move : 0.0) +
                           (plan.offload_optimizer ? k.optimizer : 0.0);
    auto hostTime = [&](double bytes) {
        if (bytes == 0) return 0.0;
        return bytes / (profile.device.host_Bps * profile.device.host_efficiency.at(bytes, 1e6));
    };
    const double fw_off = hostTime(fw_move), bw_off = hostTime(bw_move);

    // Bubble.
    const double base_fw = k.fw_time + k.fw_tp_exposed[0];
    const double edge_fw = k.fw_time + k.fw_tp_exposed[1] + chunk_pp;
    const double base_fw_ovh = std::max(0.0, fw_off + k.fw_mem_time - base_fw);
    const double edge_fw_ovh = std::max(0.0, fw_off + k.fw_mem_time - edge_fw);
    const double base_fw_t = base_fw + base_fw_ovh, edge_fw_t = edge_fw + edge_fw_ovh;
    const double base_bw = k.re_time + k.recomm_exposed[0] + k.agrad_time + k.wgrad_time + k.agrad_tp_exposed[0];
    const double edge_bw =
        k.re_time + k.recomm_exposed[1] + k.agrad_time + k.wgrad_time + k.agrad_tp_exposed[1] + chunk_pp;
    const double bw_mem = k.agrad_mem_time + k.wgrad_mem_time;
    const double base_bw_ovh = std::max(0.0, bw_off + bw_mem - base_bw);
    const double edge_bw_ovh = std::max(0.0, bw_off + bw_mem - edge_bw);
    const double base_bw_t = base_bw + base_bw_ovh, edge_bw_t = edge_bw + edge_bw_ovh;
    T.offload = perChunk({base_fw_ovh, edge_fw_ovh}) + perChunk({base_bw_ovh, edge_bw_ovh});
    const double chunk_fw = base_n * base_fw_t + edge_fw_t;
    const double chunk_bw = base_n * base_bw_t + edge_bw_t;
    const double chunk = chunk_fw + chunk_bw;
    const double reduction = per_chunk > 1
                                 ? static_cast<double>(short_blocks) * (base_fw_t + edge_fw_t + base_bw_t + edge_bw_t) / 2
                                 : static_cast<double>(short_blocks) * (edge_fw_t + edge_bw_t);
    const std::int64_t mbs = plan.microBatches();
    const double extra = mbs % p != 0 ? static_cast<double>((v - 1) * (p - mbs % p)) : 0;
    T.bubble = static_cast<double>(p - 1) * chunk + extra * chunk - reduction;

    // DP.
    const bool sharded = plan.shardsOptimizer();
    double block_dp = 0;
    if (d > 1) {
        block_dp = sharded ? dp_net.time(Op::ReduceScatter, k.weight, d, false) + dp_net.time(Op::AllGather, k.weight, d, false)
                           : dp_net.time(Op::AllReduce, k.weight, d, false);
    }
    if (d > 1 && plan.dpOverlap()) {
        const double usage = dp_net.compute_steal;
        const double re_mem = k.re_mem_time;
        double base_window = base_bw_t - (k.agrad_mem_time + k.wgrad_mem_time + re_mem);
        double edge_window = edge_bw_t - (k.agrad_mem_time + k.wgrad_mem_time + re_mem);
        double block_compute = k.agrad_flops_time + k.wgrad_flops_time + k.re_flops_time;
        if (!sharded) {
            base_window += k.optim_time - k.optim_mem_time;
            edge_window += k.optim_time - k.optim_mem_time;
            block_compute += k.optim_flops_time;
        }
        if (dp_tp_same) {
            base_window -= k.recomm_link[0] + k.agrad_tp_link[0];
            edge_window -= k.recomm_link[1] + k.agrad_tp_link[1];
        }
        const double chunk_window = base_n * base_window + edge_window;
        const double chunk_compute = static_cast<double>(per_chunk) * block_compute;
        const double overlappable = static_cast<double>(v - 1);
        const double last_size = static_cast<double>(per_chunk - 1);
        const double window = static_cast<double>(p) * chunk_window;
        const double compute = static_cast<double>(p) * chunk_compute;
        const double chunk_dp = static_cast<double>(per_chunk) * block_dp;
        double collided = 0;
        if (dp_pp_same) {
            const double cap = static_cast<double>(mbs % p != 0 ? mbs % p : p);
            collided = std::min(std::floor(chunk_dp / chunk_bw), cap);
        }
        const double inflection = chunk_dp - (window - collided * chunk_pp) + compute * usage;
        const double chunks_exposed = inflection > 0 ? overlappable * inflection : overlappable * chunk_dp * usage;
        double last_window = 0;
        if (per_chunk > 1) {
            last_window = chunk_window - chunk_pp - (base_bw_t + edge_bw_t) / 2;
            if (!sharded) last_window += k.optim_time - k.optim_mem_time;
        }
        const double last_inflection = last_size * block_dp + (block_compute * usage - last_window);
        const double last_exposed = last_inflection > 0 ? last_inflection : last_size * block_dp * usage;
        T.dp_exposed = block_dp + chunks_exposed + last_exposed;
    } else if (d > 1) {
        T.dp_exposed = nb * block_dp;
    }
    ev.iteration_s = T.total();

    // Memory of the first stage: HBM (tier 1) and, with offload, host memory (tier 2).
    StageMemory s;
    s.stage = 0;
    s.layers = blocks;
    s.params = k.weight / u.e * nb;
    const double in_flight_mb = static_cast<double>(std::min(mbs, p));
    const double factor = v > 1 ? in_flight_mb * (1 + static_cast<double>(p - 1) / static_cast<double>(v * p)) : in_flight_mb;
    const double act = full ? k.act_working : k.act_working + k.act_storage * (nb * factor - 1);
    const double ckpt = full ? nb * ckpt_block * factor : 0;
    const double wgrad = blocks == 1 ? k.weight_grad_full : k.weight_grad_full + k.weight_grad * (nb - 1);
    if (plan.offload_weights) s.weights = 2 * k.weight, s.host += k.weight * nb;
    else s.weights = k.weight * nb;
    if (plan.offload_activations) {
        s.activations = full ? k.act_working + 2 * ckpt_block : k.act_working + k.act_storage;
        s.host += full ? ckpt : act;
    } else {
        s.activations = act + ckpt;
    }
    if (plan.offload_optimizer) {
        s.grads = k.weight_grad_full + k.weight_grad;
        s.optimizer = 2 * k.optimizer;
        s.host += k.weight_grad * nb + k.optimizer * nb;
    } else {
        s.grads = wgrad;
        s.optimizer = k.optimizer * nb;
    }
    s.working = k.act_grad;
    ev.stages = {s};
    ev.stage_time_s = {chunk * chunks};
    ev.peak_stage = 0;
    ev.peak_bytes = s.total();
    ev.fits = ev.peak_bytes <= ev.capacity_bytes && s.host <= profile.device.host_bytes;
    if (!ev.fits)
        ev.cut = s.host > profile.device.host_bytes ? "host memory (Calculon model: offloaded state over the host tier)"
                                                     : "HBM (Calculon model: weights, activations and optimizer state)";

    ev.model_flops = iterationModelFlops(app, plan.global_batch);
    const double recompute_flops_layer =
        plan.recompute == Recompute::Full ? layerForwardMatrixFlops(app, plan.micro_batch)
        : plan.recompute == Recompute::Selective ? attentionCoreFlops(app, plan.micro_batch)
                                                 : 0;
    ev.hardware_flops = ev.model_flops + recompute_flops_layer * static_cast<double>(app.layers) * M * static_cast<double>(d);
    const double peak = profile.device.unit(true, u.dtype).peak_flops;
    const double gpus = static_cast<double>(plan.gpus());
    ev.mfu = ev.model_flops / (gpus * ev.iteration_s * peak);
    ev.hfu = ev.hardware_flops / (gpus * ev.iteration_s * peak);
    ev.tokens_per_s = static_cast<double>(plan.global_batch) * static_cast<double>(app.seq) / ev.iteration_s;
    ev.notes = profile.notes;
    ev.notes.push_back("Calculon model: blocks only (no embeddings or LM head), first stage shown");
    return ev;
}

}  // namespace partita::llm
