#pragma once
// An LLM training plan on the simulator (docs/methods/llm.md#on-the-simulator): the plan's iteration
// lowered to a task graph on a topology (ranks in Megatron's order, tp fastest, then cp, dp, pp, on
// devices 0..N-1) and list-scheduled. Compute and exposed-communication seconds come from the
// analytic model's slot times; the topology scales them (each device's speed, each group's
// collective time over its links with the concurrent groups' traffic) and PP sends cross its links.
#include <cstdint>
#include <string>
#include <vector>

#include "core/llm/evaluate.h"
#include "core/llm/schedule.h"
#include "core/sim/simulator.h"
#include "core/sim/task_graph.h"

namespace partita::sim {

struct LlmSimOptions {
    // FLOP/s (peak x efficiency) at which a device runs the analytic model's compute times;
    // 0: the fastest device the plan uses (the profile describes that GPU).
    double reference_flops = 0;
};

// The operators the graph's tasks name (TaskInfo::op = stage * kLlmKinds + kind).
enum class LlmTaskKind { Forward, Recompute, Backward, TpCollective, PpSend, DpReduce, Optimizer };
inline constexpr int kLlmKinds = 7;
const char* llmTaskKindName(LlmTaskKind k);  // "forward", ..., "TP/SP collective", "PP send", ...

struct LlmStageReport {
    std::int64_t stage = 0;
    int slowest_device = 0;         // the stage's slowest GPU (device id)
    double speed = 1;               // its speed relative to the reference
    double tp_ratio = 1, dp_ratio = 1;  // topology collective time / the profile tier's, worst group
    double compute_s = 0;           // busy compute seconds of its slowest GPU
    double analytic_compute_s = 0;  // the same in the analytic model
    double end_s = 0;               // its last backward (before DP and optimizer)
};

struct LlmSimulation {
    TaskGraph graph;
    SimResult result;
    llm::Evaluation analytic;
    llm::TimelineCosts costs;
    double simulated_s = 0, analytic_s = 0;
    std::vector<int> rank_device;  // device of each rank (Megatron order)
    std::vector<LlmStageReport> stages;
    double pp_send_s = 0, pp_send_analytic_s = 0;  // one PP message, unloaded (bottleneck hop)
    int busiest_link = -1;                          // the link whose tasks waited longest (-1: none)
    double busiest_link_wait_s = 0;
    std::vector<std::string> reasons;  // what makes the simulation differ, largest first
};

// Throws partita::Error (naming both numbers) when the topology has fewer devices than plan.gpus(),
// or when the graph would exceed GraphBuilder::kMaxTasks; FieldError from llm::validate.
LlmSimulation simulateLlmPlan(const llm::Transformer& model, const llm::Plan& plan, const llm::Profile& profile,
                              const Topology& topology, const LlmSimOptions& options = {});

// Tasks the lowering would create (compute, collective members and joins, message hops), to refuse early.
std::size_t llmTaskEstimate(const llm::Plan& plan, const Topology& topology);

}  // namespace partita::sim
