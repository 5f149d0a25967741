#pragma once
// Limits on every input-derived size (docs/formats/limits.md). They are far above any real model or
// machine and chosen so that the products the engine forms from them cannot overflow int64, and
// per-sample element and MAC counts stay exact in a double (below 2^53).
#include <cstdint>

namespace partita::limits {

// One axis of a tensor or window: channels, features, height, width, kernel, stride, padding.
inline constexpr std::int64_t kDimension = std::int64_t{1} << 24;  // 16,777,216
// Elements of one activation tensor per sample (c x h x w); 2^40 B = 1 TiB of fp8 per sample.
inline constexpr std::int64_t kTensorElements = std::int64_t{1} << 40;
// Weights of one layer and multiply-accumulates of one layer per sample (exact in a double).
inline constexpr std::int64_t kLayerWeights = std::int64_t{1} << 50;
inline constexpr std::int64_t kLayerMacs = std::int64_t{1} << 53;
// Operators of one network (searches are linear in this; 40,000-layer chains are benchmarked).
inline constexpr std::int64_t kOperators = 1'000'000;
// Inputs of one add / concat.
inline constexpr std::int64_t kOperatorInputs = 4096;
// Samples per step.
inline constexpr std::int64_t kBatch = std::int64_t{1} << 24;
// Hierarchy levels (2^16 accelerators).
inline constexpr std::int64_t kLevels = 16;
// Nesting of JSON arrays and objects in any input file.
inline constexpr int kJsonDepth = 256;
// Nesting of parentheses and unary operators in a topology template expression.
inline constexpr int kExpressionDepth = 256;
// Magnitude of a template value (variables, literals and every intermediate result).
inline constexpr std::int64_t kTemplateValue = std::int64_t{1} << 40;
// ONNX files: protobuf cannot parse more than 2 GiB; bigger models keep weights in external data,
// which the importer never needs.
inline constexpr std::int64_t kOnnxFileBytes = (std::int64_t{1} << 31) - 1;
// Axes of one ONNX tensor.
inline constexpr std::int64_t kOnnxRank = 32;
// Elements of one ONNX tensor, batch included (per-sample activations stay within kTensorElements
// for any batch up to 2^12; the product of two such counts is checked).
inline constexpr std::int64_t kOnnxTensorElements = std::int64_t{1} << 52;
// Elements of a tensor whose values the importer folds (shape subgraphs, Resize scales).
inline constexpr std::int64_t kOnnxFoldedValues = std::int64_t{1} << 16;

// Elements of one topology (files, the editor, code): compute devices (2^16, as many as 16 levels
// split), switches (2^20) and directed links (2^22). Routes search only the switches on some
// route between devices, so unlinked ones cost memory for their names, not time per message.
inline constexpr std::int64_t kTopologyDevices = std::int64_t{1} << 16;
inline constexpr std::int64_t kTopologySwitches = std::int64_t{1} << 20;
inline constexpr std::int64_t kTopologyLinks = std::int64_t{1} << 22;

// Model parameters (issue 26 item 3): each rate, efficiency, factor and energy a user sets has a
// range, so that every time, energy and ratio formed from them is a finite double (core/util/ranges.h
// holds them with their units; docs/formats/limits.md).
// Rates of a device, link or array level (FLOP/s, ops/s, B/s, b/s): from 1 per second to 10^21 (a
// thousand exaFLOP/s), so that a time formed from a byte or FLOP count stays a finite double.
inline constexpr double kRateMin = 1.0;
inline constexpr double kRateMax = 1e21;
// Latencies and per-task overheads of a simulated topology: up to a day, in seconds.
inline constexpr double kLatencyMax = 86'400.0;
// Memory capacity of a simulated device, bytes (2^60 = 1 EiB).
inline constexpr double kMemoryBytes = 1152921504606846976.0;
// Efficiency of a simulated device (the fraction of its peak it reaches): 10^-6 … 1.
inline constexpr double kEfficiencyMin = 1e-6;
// Bandwidth ratio between adjacent levels of a HyPar array (fat tree): 1/1024 … 1024.
inline constexpr double kLevelFactorMin = 1.0 / 1024, kLevelFactorMax = 1024;
// Energy of one operation, access, byte or bit: 0 … 10^6 pJ (a microjoule).
inline constexpr double kEnergyPjMax = 1e6;
// Bytes per element (in memory or on the wire): 1/8 (one bit) … 64.
inline constexpr double kBytesPerElementMin = 0.125, kBytesPerElementMax = 64;
// HyPar's intra-layer communication weight w_intra (cal = 2, lit = 1): 1/1024 … 1024.
inline constexpr double kCommWeightMin = 1.0 / 1024, kCommWeightMax = 1024;
// MCMC's beta (per ms of makespan, or per fraction with relative beta): 0 … 10^9.
inline constexpr double kMcmcBetaMax = 1e9;
// MPT's vector unit rate, FLOP per cycle: 1 … 10^6.
inline constexpr double kVectorFlopsPerCycleMin = 1, kVectorFlopsPerCycleMax = 1e6;
// Learn-to-Scale burst injection rate, flits per cycle per node: 1/1000 … 1000.
inline constexpr double kBurstRateMin = 1e-3, kBurstRateMax = 1e3;

// LLM training plans (core/llm, docs/formats/limits.md): far above any published run, and small enough
// that parameter counts stay exact in int64 and per-GPU FLOP and byte counts finite in a double.
inline constexpr std::int64_t kLlmGpus = std::int64_t{1} << 20;      // GPUs of one plan
inline constexpr std::int64_t kLlmLayers = 100'000;                  // transformer layers
inline constexpr std::int64_t kLlmHidden = std::int64_t{1} << 20;    // hidden width
inline constexpr std::int64_t kLlmFfn = std::int64_t{1} << 22;       // MLP width
inline constexpr std::int64_t kLlmSeq = std::int64_t{1} << 24;       // sequence length, tokens
inline constexpr std::int64_t kLlmVocab = std::int64_t{1} << 24;     // vocabulary
inline constexpr std::int64_t kLlmBatch = std::int64_t{1} << 24;     // global batch, sequences
inline constexpr std::int64_t kLlmRuns = 100'000;                    // runs in one partita-llm-runs/1 file
inline constexpr std::int64_t kLlmTiers = 16;                        // network tiers of one profile
inline constexpr std::int64_t kLlmCurvePoints = 1024;                // points of one efficiency curve

}  // namespace partita::limits
