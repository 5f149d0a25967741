// partita-cli mpt: the model options of docs/methods/mpt.md#model-options-and-presets read from the command line, and how they are
// printed (text and JSON) wherever the command reports a model.
#include "app/cli/mpt_commands.h"
#include "app/cli/options.h"

namespace partita::cli {


// --preset, then the single options over it.
mpt::ModelOptions readMptOptions(const Options& a) {
    mpt::ModelOptions o = mpt::presetOptions(usage("preset", [&] { return mpt::parsePreset(a.get("preset", "default")); }));
    auto positive = [&](const char* name) { return static_cast<int>(a.integerIn(name, 1, 1, 1'000'000'000)); };
    if (a.has("vector-flops")) {
        o.vector_flops_per_cycle = a.numberIn("vector-flops", 64, ranges::kVectorFlopsPerCycle);
        o.transform_unit = mpt::TransformUnit::Vector;  // a rate only means something on the vector unit
    }
    if (a.has("transform-unit")) o.transform_unit = usage("transform-unit", [&] { return mpt::parseTransformUnit(a.get("transform-unit")); });
    if (a.has("overlap")) o.overlap = usage("overlap", [&] { return mpt::parseOverlap(a.get("overlap")); });
    if (a.has("passes")) o.passes = positive("passes");
    if (a.has("objective")) o.objective = usage("objective", [&] { return mpt::parseObjective(a.get("objective")); });
    if (a.has("array-dim")) o.array_dim = positive("array-dim");
    if (a.has("bytes-per-element")) {
        o.bytes_per_element = a.numberIn("bytes-per-element", 4, ranges::kBytesPerElement);
    }
    if (!(o.vector_flops_per_cycle > 0)) throw UsageError("--vector-flops must be positive");
    return o;
}

std::string mptModelText(const mpt::ModelOptions& o, bool layer_study) {
    return std::string(mpt::presetLabel(mpt::presetOf(o))) + ": " + mpt::optionsText(o, layer_study);
}

Json mptModelJson(const mpt::ModelOptions& o, bool layer_study) {
    return {{"preset", mpt::presetName(mpt::presetOf(o))}, {"label", mpt::presetLabel(presetOf(o))},
            {"transform_unit", mpt::transformUnitName(o.transform_unit)}, {"vector_flops_per_cycle", o.vector_flops_per_cycle},
            {"overlap", mpt::overlapName(o.overlap)}, {"passes", o.passes}, {"objective", mpt::objectiveName(o.objective)},
            {"array_dim", mpt::arrayDimFor(o, layer_study)}, {"bytes_per_element", mpt::wireBytesFor(o, layer_study)},
            {"wire_width_assumed", true}, {"text", mpt::optionsText(o, layer_study)}};
}

Json mptAveragesJson(const mpt::Averages& x) { return {{"total_time_ratio", x.total}, {"geomean", x.geomean}, {"mean", x.mean}}; }

}  // namespace partita::cli
