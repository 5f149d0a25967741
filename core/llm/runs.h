#pragma once
// `partita-llm-runs/1` (docs/formats/llm-runs.md): measured or planned training runs, the input of
// validate and calibrate. Absent or null keys take the documented defaults; errors name the file
// and the JSON pointer.
#include <optional>
#include <string>
#include <vector>

#include "core/llm/onnx_transformer.h"
#include "core/llm/plan.h"
#include "core/llm/profile.h"
#include "core/llm/transformer.h"

namespace partita::llm {

struct Measured {
    std::optional<double> iteration_s, tokens_per_s_per_gpu, tflops_per_gpu, memory_gib;
    bool tflops_hardware = false;  // "tflops_counts": "hardware" (recompute counted) or "model"
};

struct Run {
    std::string name, provenance;
    std::string source;  // the group the run's error is averaged in: "source" if given, else the file
    std::string pointer;  // "/runs/3"
    Transformer model;
    std::string profile;  // preset name or file (relative paths resolved against the runs file)
    std::int64_t gpus = 0;
    ClusterOverrides cluster;
    Plan plan;
    std::optional<Dtype> precision;
    Measured measured;
};

// A transformer object as in a runs file's "model" (or a model file): preset and/or dimensions.
Transformer readTransformer(Fields f);
Json transformerToJson(const Transformer& m);
// Where a loaded transformer came from, for reports (`llm evaluate --json`'s "model_source").
struct ModelSource {
    std::string kind;  // "preset", "file" (a model JSON), "calculon" (an application file) or "onnx"
    std::string name;  // the preset, or the file
    std::optional<OnnxTransformer> onnx;  // what was recognised, and from which nodes
};
Json modelSourceJson(const ModelSource& s);

// A preset, or a model file: the runs "model" object, a Calculon application JSON (recognised by its
// keys) or an ONNX model (onnx_transformer.h; `seq` is the sequence length for one that leaves it
// dynamic). `source`, when given, says which.
Transformer loadTransformer(const std::string& preset_or_path, std::int64_t seq = 0, ModelSource* source = nullptr);

std::vector<Run> readRuns(const std::string& text, const std::string& source);
std::vector<Run> loadRuns(const std::string& path);
Json runsToJson(const std::vector<Run>& runs);

// The measured iteration time in seconds from whichever figure the run gives (iteration time,
// tokens/s per GPU or TFLOP/s per GPU); nullopt when it gives none.
std::optional<double> measuredIterationSeconds(const Run& run);

}  // namespace partita::llm
