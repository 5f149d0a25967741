#include "core/mpt/options.h"

#include <stdexcept>

#include "core/util/enum_names.h"
#include "core/util/format.h"

namespace partita::mpt {

namespace {
constexpr EnumName<Preset> kPresets[] = {{Preset::Default, "default", "default (spec Part D2)"},
                                         {Preset::Fit, "fit", "fit (not a reproduction)"},
                                         {Preset::A9, "a9", "a9 (the first model, spec A9)"},
                                         {Preset::Custom, "custom", "custom"}};
}  // namespace

const char* presetName(Preset p) { return enumName(kPresets, p); }
const char* presetLabel(Preset p) { return enumLabel(kPresets, p); }

Preset parsePreset(const std::string& name) {
    if (auto p = parseEnum(kPresets, name); p && *p != Preset::Custom) return *p;
    throw std::invalid_argument("unknown MPT preset '" + name + "' (use default, fit or a9)");
}

ModelOptions presetOptions(Preset p) {
    ModelOptions o;
    if (p == Preset::Fit) {
        // docs/methods/mpt.md#model-options-and-presets: the vector unit at 192 FLOP/cycle, one pass, max overlap, objective total_time,
        // on the layer study's 64x64 array and 4 B wire for every workload; it gives 2.91x on the
        // layer study and 187x over one worker on the networks (paper 2.74x, 191x).
        o.transform_unit = TransformUnit::Vector;
        o.vector_flops_per_cycle = 192;
        o.passes = 1;
        o.objective = Objective::TotalTime;
        o.array_dim = 64;
        o.bytes_per_element = 4;
    } else if (p == Preset::A9) {
        // What runs stored before the model options existed were evaluated with
        // (docs/methods/mpt.md#stored-runs-keep-their-model).
        o.transform_unit = TransformUnit::Vector;
        o.overlap = Overlap::Sum;
        o.array_dim = 64;
        o.bytes_per_element = 4;
    }
    return o;
}

Preset presetOf(const ModelOptions& o) {
    for (Preset p : {Preset::Default, Preset::Fit, Preset::A9})
        if (presetOptions(p) == o) return p;
    return Preset::Custom;
}

int arrayDimFor(const ModelOptions& o, bool layer_study) { return o.array_dim > 0 ? o.array_dim : layer_study ? 64 : 96; }
double wireBytesFor(const ModelOptions& o, bool layer_study) {
    return o.bytes_per_element > 0 ? o.bytes_per_element : layer_study ? 4 : 2;
}

void applyOptions(const ModelOptions& o, bool layer_study, ScenarioParams& params) {
    params.objective = o.objective;
    params.model.collective_passes = o.passes;
    params.model.bytes_per_element = wireBytesFor(o, layer_study);
    WorkerParams& w = params.model.worker;
    w.array_dim = arrayDimFor(o, layer_study);
    w.transform_unit = o.transform_unit;
    w.vector_flops_per_cycle = o.vector_flops_per_cycle;
    w.overlap = o.overlap;
}

std::string optionsText(const ModelOptions& o, bool layer_study) {
    const int s = arrayDimFor(o, layer_study);
    const std::string unit = o.transform_unit == TransformUnit::Dedicated
                                 ? "dedicated transform unit"
                                 : "transforms on the vector unit at " + formatNumber(o.vector_flops_per_cycle) + " FLOP/cycle";
    return unit + ", overlap " + overlapName(o.overlap) + ", " + std::to_string(s) + "x" + std::to_string(s) + " array, " +
           formatNumber(wireBytesFor(o, layer_study)) + " B per element on the wire (assumed), " +
           std::to_string(o.passes) + (o.passes == 1 ? " pass" : " passes") + ", objective " + objectiveName(o.objective);
}

}  // namespace partita::mpt
