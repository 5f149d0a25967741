// Communication volumes (ring bytes one GPU sends) and the bubble shares of the pipeline
// (docs/methods/llm.md#derivation): the quantities the worked example W17-W21 pins, shared by the evaluation and its reports.
#include "core/llm/evaluate.h"
#include "core/llm/numbers.h"

namespace partita::llm {

namespace {
// P = b·s·h·e of one micro-batch, the tokens of this GPU's context-parallel shard.
double activation(const Transformer& m, const Plan& p) {
    const double e = p.precision.value_or(Dtype::Bf16) == Dtype::Fp32 ? 4 : 2;
    return d(p.micro_batch) * d(m.seq) / d(p.cp) * d(m.hidden) * e;
}
}  // namespace

double ringBytes(Op op, double bytes, std::int64_t peers) {
    if (op == Op::P2p) return bytes;
    if (peers <= 1) return 0;
    const double share = d(peers - 1) / d(peers);
    return op == Op::AllReduce ? 2 * share * bytes : share * bytes;
}

TpVolume tpLayerBytes(const Transformer& m, const Plan& p) {
    TpVolume v;
    if (p.tp <= 1) return v;
    const double P = activation(m, p);
    const bool sp = p.sequence_parallel;
    // Without SP two all-reduces a pass; with SP two all-gathers and two reduce-scatters.
    const double pass = sp ? 2 * ringBytes(Op::AllGather, P, p.tp) + 2 * ringBytes(Op::ReduceScatter, P, p.tp)
                           : 2 * ringBytes(Op::AllReduce, P, p.tp);
    v.fwd = pass;
    v.bwd = pass;
    if (p.recompute == Recompute::Full) v.recompute = pass;
    else if (sp && p.agRedo()) v.bwd += 2 * ringBytes(Op::AllGather, P, p.tp);
    return v;
}

double ppMessageBytes(const Transformer& m, const Plan& p) {
    if (p.pp <= 1) return 0;
    const double P = activation(m, p);
    return p.tp > 1 && (p.sequence_parallel || p.scatter_gather) ? P / d(p.tp) : P;
}

double ppIterationBytes(const Transformer& m, const Plan& p) {
    return 2 * d(p.interleave) * d(p.microBatches()) * ppMessageBytes(m, p);
}

DpVolume dpIterationBytes(const Transformer& m, const Plan& p, const Precision& pr, std::int64_t stage) {
    DpVolume v;
    const std::int64_t n = p.gradientGroup();
    if (n <= 1) return v;
    const double psi = stageParams(m, p, stage);
    const Dtype plan = p.precision.value_or(pr.param);
    const Dtype param = plan == Dtype::Fp8 ? Dtype::Bf16 : plan;
    const double pb = dtypeBytes(param);
    const double G = psi * (p.zero > 0 || param == Dtype::Fp16 ? pb : dtypeBytes(pr.grad_reduce));
    if (p.zero >= 3) {  // per micro-batch: gathers for forward and backward, gradients reduce-scattered
        v.reduce = ringBytes(Op::ReduceScatter, G, n) * d(p.microBatches());
        v.gather = ringBytes(Op::AllGather, psi * pb, n) * 2 * d(p.microBatches());
    } else if (p.shardsOptimizer()) {
        v.reduce = ringBytes(Op::ReduceScatter, G, n);
        v.gather = ringBytes(Op::AllGather, psi * pb, n);
    } else {
        v.reduce = ringBytes(Op::AllReduce, G, n);
    }
    return v;
}

double bubbleShare(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t micro_batches) {
    const double v = schedule == Schedule::Interleaved ? d(interleave) : 1;
    return d(pp - 1) / (v * d(micro_batches) + d(pp - 1));
}

double bubbleOverIdeal(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t micro_batches) {
    const double v = schedule == Schedule::Interleaved ? d(interleave) : 1;
    return d(pp - 1) / (v * d(micro_batches));
}

}  // namespace partita::llm
