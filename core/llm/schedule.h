#pragma once
// One iteration of a plan as timed blocks (docs/methods/llm.md#pipeline-timeline): per stage and virtual
// chunk, the forward, recompute and backward of every micro-batch in the schedule's order (GPipe,
// 1F1B, interleaved 1F1B), the exposed TP/SP collectives and PP sends beside them, and the DP
// reduction and optimizer step at the end. Times come from the Evaluation's terms; the bubble is
// the idle time between blocks. Blocks start as soon as their stage is free and their inputs exist.
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/llm/evaluate.h"

namespace partita::llm {

enum class BlockKind { Forward, Backward, Recompute, Collective, PpSend, DpReduce, Optimizer };
const char* blockKindName(BlockKind k);  // "forward", "backward", "recompute", "TP/SP collective", ...
inline constexpr int kBlockKinds = 7;

// Lanes: for each stage s, lane 2s is its compute, lane 2s+1 its communication (TP/SP, PP);
// the last lane holds the DP reduction and the optimizer step (of the slowest stage).
struct TimelineBlock {
    BlockKind kind = BlockKind::Forward;
    std::int64_t stage = 0, chunk = 0, micro_batch = -1;  // micro_batch -1: DP and optimizer
    int lane = 0;
    double start = 0, end = 0;  // seconds
    double flops = 0;           // per GPU
    double bytes = 0;           // per GPU sent
    double seconds() const { return end - start; }
};

struct PipelineTimeline {
    std::int64_t stages = 1, chunks = 1, micro_batches = 1;
    Schedule schedule = Schedule::OneF1B;
    std::vector<std::string> lane_names;
    std::vector<TimelineBlock> blocks;  // by lane, then start
    double pipeline_end = 0;            // the last backward's end
    double makespan = 0;                // with the DP reduction and optimizer step
    double bubble_s = 0;                // idle compute time on the slowest stage inside [0, pipeline_end]
    int dpLane() const { return static_cast<int>(lane_names.size()) - 1; }
};

// Per micro-batch, per stage and chunk, the seconds of each slot part (docs: "Pipeline timeline").
struct SlotTimes {
    double fwd = 0, bwd = 0, recompute = 0;       // compute
    double comm_fwd = 0, comm_bwd = 0;            // exposed TP/SP/CP collectives after the compute
    double send = 0;                              // one PP send (each direction)
    double flops_fwd = 0, flops_bwd = 0, flops_recompute = 0;
    double bytes_comm_fwd = 0, bytes_comm_bwd = 0, bytes_send = 0;
};
struct TimelineCosts {
    std::vector<SlotTimes> stage;  // one per stage, per chunk (the stage's time / v)
    double dp_s = 0, optimizer_s = 0, dp_bytes = 0;
};

// Costs from the Evaluation alone (times; FLOPs split by time from hardware_flops; no bytes).
TimelineCosts timelineCosts(const Plan& plan, const Evaluation& ev);
// The same with bytes from the model (tpLayerBytes, ppMessageBytes, dpIterationBytes).
TimelineCosts timelineCosts(const Transformer& m, const Plan& plan, const Profile& profile, const Evaluation& ev);

PipelineTimeline pipelineTimeline(const Plan& plan, const TimelineCosts& costs);

// The (stage, chunk, micro-batch, forward?) order each stage runs its slots in.
struct SlotOp {
    std::int64_t chunk = 0, micro_batch = 0;
    bool forward = true;
};
std::vector<SlotOp> stageOrder(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t micro_batches,
                               std::int64_t stage);

// Chrome trace event JSON (Perfetto): one thread per lane, "X" events with ts/dur in microseconds.
Json timelineChromeTrace(const PipelineTimeline& t);

}  // namespace partita::llm
