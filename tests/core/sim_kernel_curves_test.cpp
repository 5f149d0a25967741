// Compute priced with an LLM hardware profile's kernel curves, the attention core as an operator,
// transformers as SOAP networks with Megatron's strategy, and the simulator against the LLM planner
// on the same model and plan (docs/methods/flexflow.md#kernel-curves).
#include <gtest/gtest.h>

#include <cmath>

#include "core/io/network_io.h"
#include "core/llm/evaluate.h"
#include "core/llm/profile.h"
#include "core/sim/compute_cost.h"
#include "core/sim/rect.h"
#include "core/sim/simulator.h"
#include "core/sim/transformer_network.h"
#include "core/topology/generate.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

// Step curves, so every efficiency is read off by hand: GEMMs of 10 GFLOP or more at 50 %, smaller at
// 25 %; vector kernels at 100 %; HBM at 50 %; compute and memory added (Calculon's no_overlap).
llm::Profile stepProfile() {
    llm::Profile p;
    p.name = "step";
    p.device.matrix = {llm::Unit{llm::Dtype::Fp32, 100e12, llm::Curve{"op_gflop", llm::Interp::Step, {{{10, 0.5}}, {{0, 0.25}}}}}};
    p.device.vector = {llm::Unit{llm::Dtype::Fp32, 10e12, llm::Curve{"op_gflop", llm::Interp::Step, {{{0, 1.0}}}}}};
    p.device.hbm_Bps = 1e12;
    p.device.hbm_efficiency = llm::Curve{"op_mb", llm::Interp::Step, {{{0, 0.5}}}};
    p.device.compose = llm::Compose::Sum;
    return p;
}

Network curvesNet(std::int64_t features) {
    return test::network("fc", {features, 1, 1}, {test::fc("fc", {"input"}, features)});
}

Box wholeBox(const Operator& op, std::int64_t batch) {
    return Box{Interval{0, batch}, Interval{0, op.out_shape.c}, Interval{0, op.out_shape.h}, Interval{0, op.out_shape.w}};
}

TEST(SimKernelCurves, AGemmIsPricedAtItsSizesEfficiencyAndBackwardIsTwoPasses) {
    const KernelCurves k = kernelCurves(stepProfile(), llm::Dtype::Fp32);
    // fc 1,024 -> 1,024 on 8,192 samples: 17.18 GFLOP (>= 10: 50 % of 100 TFLOP/s); inputs, outputs and
    // weights 2 x 8,388,608 + 1,048,576 elements x 4 B at 50 % of 1 TB/s.
    const Network big = curvesNet(1024);
    const Work w = forwardWork(big, big.ops[0], wholeBox(big.ops[0], 8192), 4);
    EXPECT_EQ(w.matrix_flops, 2.0 * 8192 * 1024 * 1024);
    EXPECT_EQ(w.matrix_bytes, w.bytes);
    const double compute = 2.0 * 8192 * 1024 * 1024 / (100e12 * 0.5);
    const double memory = (2.0 * 8192 * 1024 + 1024.0 * 1024) * 4 / (1e12 * 0.5);
    EXPECT_DOUBLE_EQ(k.time(big.ops[0], w, false, 0), compute + memory);
    EXPECT_DOUBLE_EQ(k.time(big.ops[0], w, true, 1e-6), 1e-6 + 2 * (compute + memory));
    // 2,048 samples: 4.3 GFLOP, at 25 %. Backward is two passes of that size (input and weight
    // gradients), not one of 8.6 GFLOP priced at the larger size's efficiency.
    const Work small = forwardWork(big, big.ops[0], wholeBox(big.ops[0], 2048), 4);
    EXPECT_LT(small.matrix_flops, 10e9);
    const double small_time = small.matrix_flops / (100e12 * 0.25) + small.matrix_bytes / (1e12 * 0.5);
    EXPECT_DOUBLE_EQ(k.time(big.ops[0], small, true, 0), 2 * small_time);
    // Max instead of Sum: the slower of the two.
    llm::Profile roofline = stepProfile();
    roofline.device.compose = llm::Compose::Max;
    EXPECT_DOUBLE_EQ(kernelCurves(roofline, llm::Dtype::Fp32).time(big.ops[0], w, false, 0), std::max(compute, memory));
    // A dtype the profile has no unit for is an error, not a silent fallback.
    EXPECT_THROW(kernelCurves(stepProfile(), llm::Dtype::Bf16), std::invalid_argument);
}

const char* kAttentionJson = R"({
  "format": "partita-network/1", "name": "attention", "input": {"channels": 1024},
  "operators": [
    {"name": "qkv", "type": "fc", "out_features": 3072},
    {"name": "core", "type": "elementwise", "op": "Attention", "attention": {"sequence": 2048, "heads": 16}},
    {"name": "out", "type": "fc", "out_features": 1024}
  ]})";

TEST(SimKernelCurves, TheAttentionCoreCountsItsProductsSoftmaxAndDropout) {
    const Network net = readNetworkJson(kAttentionJson, "attention.json");
    const Operator& core = net.ops[1];
    ASSERT_TRUE(core.attention);
    EXPECT_EQ(core.out_shape.c, 1024);  // a fused q, k, v input: a third of its channels
    // 4,096 tokens (two sequences), all 1,024 channels = 16 heads of 64.
    const Work w = forwardWork(net, core, wholeBox(core, 4096), 2);
    const double n = 4096, c = 1024, s = 2048, scores = n * 16 * s;
    EXPECT_EQ(w.matrix_flops, 4 * n * c * s);                       // QK^T and AV
    EXPECT_EQ(w.matrix_bytes, (3 * n * c + n * c + 2 * scores) * 2);  // q, k, v in, out, scores written and read
    EXPECT_EQ(w.flops - w.matrix_flops, 6 * scores);                 // softmax 5, dropout 1 per score
    EXPECT_EQ(w.bytes - w.matrix_bytes, 4 * scores * 2 + scores);    // both read and write scores; a 1-byte mask
    // Backward: both products twice (each operand's gradient), softmax and dropout once.
    const Work b = backwardWork(core, w);
    EXPECT_EQ(b.matrix_flops, 2 * w.matrix_flops);
    EXPECT_EQ(b.flops - b.matrix_flops, w.flops - w.matrix_flops);
    // Heads 4..7 (channels 256..511) read their own q, k and v: fused channels 768..1535.
    const Box heads{Interval{0, 4096}, Interval{256, 512}, Interval{0, 1}, Interval{0, 1}};
    EXPECT_EQ(inputBox(net, core, 0, heads)[1], (Interval{768, 1536}));
    // Tokens 1,024..3,071 straddle both sequences: keys and values come from all 4,096 tokens.
    const Box straddle{Interval{1024, 3072}, Interval{0, 1024}, Interval{0, 1}, Interval{0, 1}};
    EXPECT_EQ(inputBox(net, core, 0, straddle)[0], (Interval{0, 4096}));
    const Box inside{Interval{2048, 3072}, Interval{0, 1024}, Interval{0, 1}, Interval{0, 1}};
    EXPECT_EQ(inputBox(net, core, 0, inside)[0], (Interval{2048, 4096}));
    // A batch of 1.5 sequences is refused by name.
    SoapStrategy whole = singleDevice(net);
    EXPECT_THROW(validateStrategy(net, 3072, whole, 1), Error);
    EXPECT_NO_THROW(validateStrategy(net, 4096, whole, 1));
    // The network file keeps the attribute.
    EXPECT_EQ(readNetworkJson(writeNetworkJson(net), "again.json").ops[1].attention, core.attention);
}

// Separate q, k and v: a piece reads its own queries but its sequences' keys and values.
TEST(SimKernelCurves, SeparateQueriesKeysAndValuesReadTheirRanges) {
    const Network net = test::network(
        "qkv", {64, 1, 1},
        {test::fc("q", {"input"}, 64), test::fc("k", {"input"}, 64), test::fc("v", {"input"}, 64),
         [] {
             Operator o = test::join("core", OpType::Elementwise, {"q", "k", "v"});
             o.attention = AttentionCore{16, 4};
             return o;
         }()});
    const Operator& core = net.ops[static_cast<size_t>(net.find("core"))];
    EXPECT_EQ(core.out_shape.c, 64);
    const Box piece{Interval{20, 28}, Interval{16, 32}, Interval{0, 1}, Interval{0, 1}};
    EXPECT_EQ(inputBox(net, core, 0, piece)[0], (Interval{20, 28}));  // q: its tokens
    EXPECT_EQ(inputBox(net, core, 1, piece)[0], (Interval{16, 32}));  // k: the whole second sequence
    EXPECT_EQ(inputBox(net, core, 2, piece)[1], (Interval{16, 32}));  // v: the piece's channels
}

TEST(SimKernelCurves, AttentionErrorsNameTheOperator) {
    auto error = [](const std::string& attention, const std::string& inputs) {
        const std::string text = R"({"format": "partita-network/1", "name": "a", "input": {"channels": 96},
            "operators": [{"name": "core", "type": "elementwise", "inputs": )" + inputs + R"(, "attention": )" + attention + "}]}";
        try {
            readNetworkJson(text, "bad.json");
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(error(R"({"sequence": 8, "heads": 5})", R"(["input"])").find("5 heads do not divide 32 channels"), std::string::npos);
    EXPECT_NE(error(R"({"sequence": 0, "heads": 2})", R"(["input"])").find("sequence"), std::string::npos);
    EXPECT_NE(error(R"({"sequence": 8, "heads": 2, "causal": true})", R"(["input"])").find("causal"), std::string::npos);
    const std::string odd = error(R"({"sequence": 8, "heads": 2})", R"(["input", "input", "input"])");
    EXPECT_EQ(odd, "no error");  // q, k and v as separate inputs: the broadcast shape
    EXPECT_NE(error(R"({"sequence": 8, "heads": 5})", R"(["input"])").find("bad.json"), std::string::npos);
    EXPECT_NE(error(R"({"sequence": 8, "heads": 5})", R"(["input"])").find("core"), std::string::npos);
}

// The simulator and the planner on the same model and plan (docs/methods/flexflow.md#megatron-tensor-parallelism-on-gpt-blocks):
// GPT-3 XL (1.3B), TP 8 x DP 8 with sequence parallelism, micro-batch 8, global batch 64, on eight DGX
// A100 nodes whose links carry the a100 profile's effective tier rates.
double plannerSeconds(const llm::Transformer& m, const llm::Profile& p, llm::Dtype dtype) {
    llm::Plan plan;
    plan.tp = 8;
    plan.dp = 8;
    plan.micro_batch = 8;
    plan.global_batch = 64;
    plan.sequence_parallel = true;
    plan.precision = dtype;
    return llm::evaluate(m, plan, p).iteration_s;
}

TEST(SimKernelCurves, MegatronOnGpt13bAgreesWithThePlannerWithinTenPercent) {
    const llm::Transformer& m = llm::modelPreset("gpt3-1.3b");
    const llm::Profile profile = llm::profilePreset("a100-sxm4-80gb");
    ClusterSpec spec = dgxClusterSpec("a100");
    spec.nodes = 8;
    const Topology topo = clusterTopology(spec);
    const TransformerNetwork transformer = transformerNetwork(m);
    const Network& net = transformer.network;
    const std::int64_t tokens = 64 * m.seq;
    const SoapStrategy megatron = megatronStrategy(transformer, tokens, 8, 8);
    for (const llm::Dtype dtype : {llm::Dtype::Fp32, llm::Dtype::Bf16}) {
        SimOptions o;
        o.kernels = std::make_shared<const KernelCurves>(kernelCurves(profile, dtype));
        o.element_bytes = llm::dtypeBytes(dtype);
        o.gradient_bytes = llm::dtypeBytes(profile.precision.grad_reduce);
        const TaskGraph g = buildTaskGraph(net, static_cast<double>(tokens), megatron, topo, o);
        const SimResult r = simulate(g);
        const double planned = plannerSeconds(m, profile, dtype);
        EXPECT_NEAR(r.makespan / planned, 1.0, 0.10) << llm::dtypeName(dtype) << ": simulated " << r.makespan
                                                    << " s, planned " << planned << " s";
        // Compute alone agrees closely: the same kernels at the same efficiencies (device 0's busy time
        // against the planner's forward + backward, which is 24 layers plus the head).
        const Utilisation use = utilisation(g, r, &topo);
        llm::Plan plan;
        plan.tp = 8, plan.dp = 8, plan.micro_batch = 8, plan.global_batch = 64, plan.sequence_parallel = true;
        plan.precision = dtype;
        const llm::Evaluation e = llm::evaluate(m, plan, profile);
        EXPECT_NEAR(use.busy_s[0] / (e.time.fwd + e.time.bwd), 1.0, 0.03) << llm::dtypeName(dtype);
    }
}

TEST(SimKernelCurves, MegatronStrategyPlacesATensorParallelGroupOnConsecutiveDevices) {
    llm::Transformer m = llm::modelPreset("gpt3-1.3b");
    const TransformerNetwork transformer = transformerNetwork(m, 1);
    const Network& net = transformer.network;
    EXPECT_EQ(net.ops.size(), 10u + 3u);  // one layer, then the head
    const SoapStrategy s = megatronStrategy(transformer, 4 * m.seq, 2, 2);
    const auto config = [&](const std::string& name) { return s.ops[static_cast<size_t>(net.find(name))]; };
    // Column-parallel QKV: task (sample s, channel j) = s + 2j on device 2s + j.
    EXPECT_EQ(config("l0.qkv").degree, (Degrees{2, 2, 1, 1}));
    EXPECT_EQ(config("l0.qkv").devices, (std::vector<int>{0, 2, 1, 3}));
    // Row-parallel projection on the same devices, norms and residuals over all four by tokens.
    EXPECT_EQ(config("l0.proj").reduce, 2);
    EXPECT_EQ(config("l0.proj").devices, config("l0.qkv").devices);
    EXPECT_EQ(config("l0.norm1").degree, (Degrees{4, 1, 1, 1}));
    EXPECT_EQ(config("lm_head").degree, (Degrees{2, 2, 1, 1}));
    EXPECT_EQ(net.ops[static_cast<size_t>(net.find("lm_head"))].out_shape.c, 51200);  // the preset's vocabulary
    m.vocab = 50257;  // padded to a multiple of 128, as Megatron pads it
    EXPECT_EQ(transformerNetwork(m, 1).network.ops.back().out_shape.c, 50304);
    EXPECT_THROW(megatronStrategy(transformer, 4 * m.seq + 1, 2, 2), std::invalid_argument);
    EXPECT_THROW(megatronStrategy(transformer, 4 * m.seq, 65536, 2), std::invalid_argument);  // beyond the device limit
    EXPECT_THROW(transformerNetwork(m, 100000), std::invalid_argument);                        // beyond the operator limit
    m.kv_heads = 8;  // grouped-query attention has no head-by-head fused QKV here
    EXPECT_THROW(transformerNetwork(m), std::invalid_argument);
}

}  // namespace
}  // namespace partita::sim
