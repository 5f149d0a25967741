// LLM plans on the simulator (core/sim/llm_lowering.h, docs/methods/llm.md#on-the-simulator): exact task
// counts for a tiny plan, agreement with the analytic model where their assumptions coincide, and
// the stated reasons where they do not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/llm/numbers.h"
#include "core/sim/llm_lowering.h"
#include "core/util/error.h"

namespace partita::llm {
namespace {

// `nodes` x `gpus`: each GPU joins its node's NVSwitch (300 GB/s) and its node's NIC leaf (25 GB/s);
// the leaves join one spine through uplinks of gpus x 25 GB/s / oversubscription. `slow_node`'s
// GPUs run at `slow_share` of the others' speed.
sim::Topology cluster(int nodes, int gpus, double oversubscription = 1, int slow_node = -1, double slow_share = 1) {
    sim::Topology t;
    t.name = "test-cluster";
    for (int n = 0; n < nodes; ++n)
        for (int g = 0; g < gpus; ++g) {
            sim::ComputeDevice dev;
            dev.name = "n" + std::to_string(n) + ".gpu" + std::to_string(g);
            dev.kind = n == slow_node ? "slow-gpu" : "gpu";
            dev.peak_flops = 312e12 * (n == slow_node ? slow_share : 1);
            dev.mem_bandwidth_Bps = 2e12;
            dev.node = n;
            t.devices.push_back(dev);
        }
    const int D = nodes * gpus;
    for (int n = 0; n < nodes; ++n) t.switches.push_back("n" + std::to_string(n) + ".nvswitch");
    for (int n = 0; n < nodes; ++n) t.switches.push_back("n" + std::to_string(n) + ".leaf");
    t.switches.push_back("spine");
    auto duplex = [&](int a, int b, double bw, const std::string& kind) {
        t.links.push_back({kind + " " + t.vertexName(a) + "->" + t.vertexName(b), a, b, bw, 1e-6, kind});
        t.links.push_back({kind + " " + t.vertexName(b) + "->" + t.vertexName(a), b, a, bw, 1e-6, kind});
    };
    for (int n = 0; n < nodes; ++n) {
        for (int g = 0; g < gpus; ++g) {
            duplex(n * gpus + g, D + n, 300e9, "nvlink");
            duplex(n * gpus + g, D + nodes + n, 25e9, "infiniband");
        }
        duplex(D + nodes + n, D + 2 * nodes, gpus * 25e9 / oversubscription, "infiniband");
    }
    t.finalize();
    return t;
}

Plan plan(std::int64_t tp, std::int64_t pp, std::int64_t dp, std::int64_t micro, std::int64_t global) {
    Plan p;
    p.tp = tp, p.pp = pp, p.dp = dp, p.micro_batch = micro, p.global_batch = global;
    p.sequence_parallel = tp > 1;
    return p;
}

TEST(LlmSim, TinyPlanHasTheHandCountedTasks) {
    // tp 2, pp 2, dp 1 on 4 GPUs of one node, 2 micro-batches, 1F1B, no recompute, SP.
    const Transformer& m = modelPreset("gpt3-1.3b");
    const sim::Topology topo = cluster(1, 4);
    const Profile prof = profileFromTopology(profilePreset("a100-sxm4-80gb"), topo);
    const Plan p = plan(2, 2, 1, 1, 2);
    const auto s = sim::simulateLlmPlan(m, p, prof, topo);
    // Per stage 4 slots (2 forward, 2 backward); per slot per GPU a compute task and a TP member,
    // one TP join per slot: 2 stages x 4 slots x (2 x 2 + 1) = 40. PP messages: stage 0's forwards
    // and stage 1's backwards, 2 each, per GPU: 8 messages of 2 hops (GPU -> NVSwitch -> GPU) = 16
    // hops, and 8 zero-time waits of the blocking sender. Optimizer: one per GPU = 4. No DP (dp 1).
    EXPECT_EQ(s.graph.taskCount(), 40u + 16u + 8u + 4u);
    EXPECT_GT(s.simulated_s, 0);
}

TEST(LlmSim, RefusesATopologyWithTooFewDevices) {
    const sim::Topology topo = cluster(1, 4);
    const Profile prof = profileFromTopology(profilePreset("a100-sxm4-80gb"), topo);
    try {
        sim::simulateLlmPlan(modelPreset("gpt3-1.3b"), plan(2, 2, 2, 1, 4), prof, topo);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("needs 8 GPUs"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("has 4 devices"), std::string::npos) << e.what();
    }
}

struct Case {
    const char* model;
    Plan plan;
};

TEST(LlmSim, AgreesWithTheAnalyticModelOnAUniformCluster) {
    const sim::Topology topo = cluster(8, 8);
    const Profile prof = profileFromTopology(profilePreset("a100-sxm4-80gb"), topo);
    std::vector<Case> cases;
    {
        Plan p = plan(8, 8, 1, 1, 64);  // Korthikanti et al.'s 175B plan, selective recompute
        p.recompute = Recompute::Selective;
        cases.push_back({"gpt3-175b", p});
        p.schedule = Schedule::Interleaved, p.interleave = 3;
        cases.push_back({"gpt3-175b", p});
    }
    {
        Plan p = plan(8, 4, 2, 1, 64);  // two replicas, full recompute, distributed optimizer
        p.recompute = Recompute::Full;
        p.distributed_optimizer = true;
        cases.push_back({"gpt3-175b", p});
    }
    {
        Plan p = plan(4, 4, 4, 2, 128);  // 13B, ZeRO-1, interleaved x 2
        p.zero = 1;
        p.schedule = Schedule::Interleaved, p.interleave = 2;
        cases.push_back({"gpt3-13b", p});
    }
    {
        Plan p = plan(2, 2, 16, 4, 512);  // 6.7B, mostly data parallel, DP overlap off
        p.recompute = Recompute::Selective;
        cases.push_back({"gpt3-6.7b", p});
    }
    for (const Case& c : cases) {
        const auto s = sim::simulateLlmPlan(modelPreset(c.model), c.plan, prof, topo);
        const double ratio = s.simulated_s / s.analytic_s;
        std::printf("%s tp %lld pp %lld dp %lld %s v %lld: simulated %.4f s, analytic %.4f s, ratio %.4f, %zu tasks\n",
                    c.model, static_cast<long long>(c.plan.tp), static_cast<long long>(c.plan.pp),
                    static_cast<long long>(c.plan.dp), scheduleName(c.plan.schedule),
                    static_cast<long long>(c.plan.interleave), s.simulated_s, s.analytic_s, ratio, s.graph.taskCount());
        for (const auto& r : s.reasons) std::printf("  %s\n", r.c_str());
        EXPECT_NEAR(ratio, 1.0, 0.03) << c.model;
    }
}

TEST(LlmSim, OversubscribedFabricSlowsTheDataParallelReduction) {
    // The analytic model is told the fabric has full bisection (tiers of the uniform cluster); the
    // simulator runs on one whose leaf uplinks are 4:1 oversubscribed.
    const Profile prof = profileFromTopology(profilePreset("a100-sxm4-80gb"), cluster(4, 8));
    const sim::Topology over = cluster(4, 8, 4.0);
    const Plan p = plan(8, 1, 4, 1, 32);  // DP across the nodes: 8 concurrent groups share each uplink
    const auto s = sim::simulateLlmPlan(modelPreset("gpt3-6.7b"), p, prof, over);
    std::printf("oversubscribed: simulated %.4f s, analytic %.4f s\n", s.simulated_s, s.analytic_s);
    for (const auto& r : s.reasons) std::printf("  %s\n", r.c_str());
    EXPECT_GT(s.simulated_s, 1.03 * s.analytic_s);
    ASSERT_FALSE(s.reasons.empty());
    EXPECT_NE(s.reasons[0].find("the DP reduction takes up to 4.00x"), std::string::npos) << s.reasons[0];
    EXPECT_NEAR(s.stages[0].dp_ratio, 4.0, 0.2);
}

TEST(LlmSim, MixedGpusMakeTheirStageTheSlowOne) {
    // Stage 2 of 4 (node 2) runs on GPUs at half speed: it sets the pace.
    const Profile prof = profileFromTopology(profilePreset("a100-sxm4-80gb"), cluster(4, 8));
    const sim::Topology mixed = cluster(4, 8, 1.0, 2, 0.5);
    const Plan p = plan(8, 4, 1, 1, 32);
    const auto s = sim::simulateLlmPlan(modelPreset("gpt3-13b"), p, prof, mixed);
    std::printf("mixed: simulated %.4f s, analytic %.4f s\n", s.simulated_s, s.analytic_s);
    for (const auto& r : s.reasons) std::printf("  %s\n", r.c_str());
    EXPECT_GT(s.simulated_s, 1.3 * s.analytic_s);
    ASSERT_FALSE(s.reasons.empty());
    EXPECT_NE(s.reasons[0].find("stage 2 runs on n2."), std::string::npos) << s.reasons[0];
    EXPECT_DOUBLE_EQ(s.stages[2].speed, 0.5);
    EXPECT_EQ(s.stages[2].slowest_device / 8, 2);
}

}  // namespace
}  // namespace partita::llm
