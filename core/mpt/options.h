#pragma once
// The MPT model options a user picks (docs/methods/mpt.md#model-options-and-presets), one struct shared by the CLI, the
// MPT tab and the results database, and the named presets over them. The defaults follow what
// the paper describes (M1-M3); "a9" is the spec's first model (kept for stored runs and the
// oracles); "fit" is a calibration against the paper's figures and is never a reproduction.
#include <string>

#include "core/mpt/scenario.h"

namespace partita::mpt {

struct ModelOptions {
    TransformUnit transform_unit = TransformUnit::Dedicated;  // M1
    double vector_flops_per_cycle = 64;  // the vector unit's rate, used when transform_unit = Vector
    Overlap overlap = Overlap::Max;      // M3: double-buffered inputs
    int passes = 2;                      // weight collective: reduce + broadcast; 1 = the paper's formula
    Objective objective = Objective::CommTime;
    // 0 = the study's own (M2): 64x64 FP32 and 4 B on the wire for the Table II layer study,
    // 96x96 FP16 and 2 B on the wire for whole networks (the wire width is an assumption [A]).
    int array_dim = 0;
    double bytes_per_element = 0;
    bool operator==(const ModelOptions&) const = default;
};

enum class Preset { Default, Fit, A9, Custom };
const char* presetName(Preset p);   // "default", "fit", "a9", "custom"
const char* presetLabel(Preset p);  // "fit (not a reproduction)", ...
Preset parsePreset(const std::string& name);  // default | fit | a9; throws std::invalid_argument
// The options of a named preset (Custom: the defaults).
ModelOptions presetOptions(Preset p);
// The preset whose options these are, Custom when none.
Preset presetOf(const ModelOptions& o);

int arrayDimFor(const ModelOptions& o, bool layer_study);
double wireBytesFor(const ModelOptions& o, bool layer_study);
// `params` with the options applied (the worker, the wire, passes, objective).
void applyOptions(const ModelOptions& o, bool layer_study, ScenarioParams& params);
// "dedicated transforms, overlap max, 96x96 array, 2 B per element on the wire (assumed), 2 passes, comm_time"
std::string optionsText(const ModelOptions& o, bool layer_study);

}  // namespace partita::mpt
