#include "core/store/method_codec.h"

#include <stdexcept>

#include "core/run/method_registry.h"
#include "core/store/results_db.h"
#include "core/util/error.h"
#include "core/util/ranges.h"

namespace partita::store {

namespace {

// A name read through `parse`, whose std::invalid_argument becomes an error at the key.
template <class Parse>
auto parsed(Fields& f, const std::string& key, Parse parse) {
    const std::string name = f.string(key);
    try {
        return parse(name);
    } catch (const std::invalid_argument& e) {
        f.fail(key, e.what());
    }
}

const Json& list(Fields& f, const std::string& key) {
    const Json& j = f.raw(key);
    if (!j.is_array()) f.fail(key, "expected a list");
    return j;
}

}  // namespace

Json mptSettingsToJson(const MptSettings& s) {
    Json overrides = Json::array();
    for (const auto& o : s.overrides) overrides.push_back(o ? Json{o->n_g, o->n_c} : Json());
    return {{"workload", s.workload},
            {"scenario", mpt::scenarioName(s.scenario)},
            {"objective", mpt::objectiveName(s.model.objective)},
            {"passes", s.model.passes},
            {"array_dim", s.model.array_dim},
            {"vector_flops_per_cycle", s.model.vector_flops_per_cycle},
            {"transform_unit", mpt::transformUnitName(s.model.transform_unit)},
            {"overlap", mpt::overlapName(s.model.overlap)},
            {"bytes_per_element", s.model.bytes_per_element},
            {"overrides", overrides}};
}

MptSettings readMptSettingsJson(const Json& json, const std::string& source) {
    Fields f(json, "", source);
    MptSettings s;
    s.workload = f.string("workload");
    s.scenario = parsed(f, "scenario", mpt::parseScenario);
    mpt::ModelOptions& m = s.model;
    m.objective = parsed(f, "objective", mpt::parseObjective);
    m.passes = static_cast<int>(f.integerIn("passes", 1, 2));
    // Absent in runs stored before these were settable: the values they were evaluated with
    // (docs/methods/mpt.md#model-options-and-presets: the vector unit at 64 FLOP/cycle, sum overlap, a 64x64 array, 4 B per element).
    m.array_dim = static_cast<int>(f.integerIn("array_dim", 0, 4096, 64));
    m.vector_flops_per_cycle = f.inRange("vector_flops_per_cycle", ranges::kVectorFlopsPerCycle, 64);
    m.transform_unit = f.has("transform_unit") ? parsed(f, "transform_unit", mpt::parseTransformUnit)
                                               : mpt::TransformUnit::Vector;
    m.overlap = f.has("overlap") ? parsed(f, "overlap", mpt::parseOverlap) : mpt::Overlap::Sum;
    m.bytes_per_element = f.nonNegative("bytes_per_element", 4);  // 0 = the study's own
    if (m.bytes_per_element != 0 && f.has("bytes_per_element")) m.bytes_per_element = f.inRange("bytes_per_element", ranges::kBytesPerElement);
    const Json& overrides = list(f, "overrides");
    for (size_t i = 0; i < overrides.size(); ++i) {
        const Json& o = overrides[i];
        if (o.is_null()) {
            s.overrides.emplace_back();
            continue;
        }
        const bool pair = o.is_array() && o.size() == 2 && o[0].is_number_integer() && o[1].is_number_integer() &&
                          o[0].get<std::int64_t>() > 0 && o[1].get<std::int64_t>() > 0;
        if (!pair)
            throw InputError(source, f.pointer("overrides") + "/" + std::to_string(i),
                             "expected null or [N_g, N_c] (positive integers), found " + excerpt(o));
        s.overrides.push_back(mpt::GridConfig{o[0].get<int>(), o[1].get<int>()});
    }
    f.finish();
    return s;
}

Json l2sSettingsToJson(const L2sSettings& s) {
    Json schemes = Json::array();
    for (l2s::Scheme x : s.schemes) schemes.push_back(l2s::schemeName(x));
    return {{"preset", s.preset},
            {"cores", s.cores},
            {"scenario", l2sScenarioName(s.scenario)},
            {"schemes", schemes},
            {"compute", l2s::computeModelName(s.compute)},
            {"comm", l2s::commModelName(s.comm)},
            {"burst_rate", s.burst_rate},
            {"hop_keep", l2sHopKeep(s)}};
}

L2sSettings readL2sSettingsJson(const Json& json, const std::string& source) {
    Fields f(json, "", source);
    L2sSettings s;
    s.preset = f.string("preset");
    s.cores = static_cast<int>(f.positiveInt("cores"));
    s.scenario = parsed(f, "scenario", parseL2sScenario);
    const Json& schemes = list(f, "schemes");
    for (size_t i = 0; i < schemes.size(); ++i) {
        const std::string place = f.pointer("schemes") + "/" + std::to_string(i);
        if (!schemes[i].is_string())
            throw InputError(source, place, "expected a scheme name, found " + excerpt(schemes[i]));
        try {
            s.schemes.push_back(l2s::parseScheme(schemes[i].get<std::string>()));
        } catch (const std::invalid_argument& e) {
            throw InputError(source, place, e.what());
        }
    }
    // Runs stored before the model options (docs/methods/l2s.md#stored-runs-keep-their-model) lack the model fields: they were computed with the
    // channel-only compute, the ideal link-load NoC and SS_Mask keeping the neighbours only.
    s.compute = f.has("compute") ? parsed(f, "compute", l2s::parseComputeModel) : l2s::ComputeModel::ChannelOnly;
    s.comm = f.has("comm") ? parsed(f, "comm", l2s::parseCommModel) : l2s::CommModel::Ideal;
    s.burst_rate = f.inRange("burst_rate", ranges::kBurstRate, 0.4);
    s.hop_keep = {1, 0, 0};
    if (f.has("hop_keep")) {
        const Json& hop = list(f, "hop_keep");
        s.hop_keep.clear();
        for (const Json& p : hop) {
            if (!p.is_number() || !(p.get<double>() >= 0 && p.get<double>() <= 1))
                throw InputError(source, f.pointer("hop_keep"), "expected probabilities in [0, 1], found " + excerpt(p));
            s.hop_keep.push_back(p.get<double>());
        }
        if (s.hop_keep.size() != 3)
            throw InputError(source, f.pointer("hop_keep"), "expected 3 probabilities (1, 2, 3 hops)");
    }
    f.finish();
    return s;
}

std::string methodRunKey(const MethodRun& run) {
    return settingsCodec(run.method).key(run);
}

}  // namespace partita::store
