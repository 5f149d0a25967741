#pragma once
// Limits on every input-derived size (README "Limits"). They are far above any real model or
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

// Rates of a simulated device or link (FLOP/s, B/s): from 1 per second to 10^21 (a thousand
// exaFLOP/s), so that a time formed from a byte or FLOP count stays a finite double.
inline constexpr double kRateMin = 1.0;
inline constexpr double kRateMax = 1e21;
// Latencies and per-task overheads of a simulated topology: up to a day, in seconds.
inline constexpr double kLatencyMax = 86'400.0;
// Memory capacity of a simulated device, bytes (2^60 = 1 EiB).
inline constexpr double kMemoryBytes = 1152921504606846976.0;

}  // namespace partita::limits
