#pragma once
// Shared inputs of the LLM planner tests: docs/methods/llm.md#what-is-modelled's example and Calculon's A100 system.
#include "core/llm/evaluate.h"
#include "core/llm/profile.h"

namespace partita::llm::test {

inline constexpr double kGiB = 1073741824.0;
inline constexpr double kMiB = 1048576.0;

// Calculon's systems/a100_80g.json at caa4b11 (Apache-2.0), the profile of the parity targets.
inline const char* kCalculonA100 = R"({
  "matrix": {"float16": {"tflops": 312, "gflops_efficiency": [[128, 0.95], [16, 0.9], [1, 0.6], [0, 0.1]]}},
  "vector": {"float16": {"tflops": 78, "gflops_efficiency": [[16, 0.95], [1, 0.5], [0, 0.1]]}},
  "mem1": {"GiB": 80, "GBps": 2048, "MB_efficiency": [[100, 0.90], [10, 0.75], [1, 0.6], [0, 0.3]]},
  "mem2": {"GiB": 512, "GBps": 32, "MB_efficiency": [[100, 0.95], [10, 0.9], [1, 0.7], [0, 0.3]]},
  "processing_mode": "no_overlap",
  "networks": [
    {"bandwidth": 300, "efficiency": 0.65, "size": 8, "latency": 0.00001,
     "ops": {"p2p": [1.0, null], "reduce_scatter": [1.5, -1], "all_gather": [1.5, -1], "all_reduce": [2.0, -1]},
     "must_be_filled": true, "processor_usage": 0.15},
    {"bandwidth": 25, "efficiency": 0.9, "size": 65536, "latency": 0.00002,
     "ops": {"p2p": [1.0, null], "reduce_scatter": [1.0, 0], "all_gather": [1.0, 0], "all_reduce": [1.0, 0]},
     "must_be_filled": false, "processor_usage": 0.02}]})";

inline Profile calculonA100() { return readProfileJson(kCalculonA100, "a100_80g.json"); }

// docs/methods/llm.md#what-is-modelled: GPT-3 175B on 64 A100-80GB, t8 p8 d1, b1, B64, SP + selective recompute.
inline Plan example175b(std::int64_t interleave = 1) {
    Plan p;
    p.tp = 8;
    p.pp = 8;
    p.dp = 1;
    p.micro_batch = 1;
    p.global_batch = 64;
    p.sequence_parallel = true;
    p.recompute = Recompute::Selective;
    p.interleave = interleave;
    p.schedule = interleave > 1 ? Schedule::Interleaved : Schedule::OneF1B;
    return p;
}

// The same as Calculon's validation/seqsel/tab5/gpt3-175B_seqsel.json: fp16, rs_ag, AG redo on,
// TP on tier 0, PP and DP on tier 1, no overlap.
inline Plan calculon175b(std::int64_t interleave) {
    Plan p = example175b(interleave);
    p.precision = Dtype::Fp16;
    p.ag_redo = true;
    p.dp_overlap = false;
    p.tp_tier = 0;
    p.pp_tier = 1;
    p.dp_tier = 1;
    return p;
}

}  // namespace partita::llm::test
