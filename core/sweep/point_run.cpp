#include "core/sweep/point_run.h"

#include "core/sweep/axes.h"

#include <filesystem>

#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "core/run/simulation_run.h"
#include "core/search/methods.h"
#include "core/sim/compute_cost.h"
#include "core/topology/topology.h"
#include "core/store/method_rows.h"
#include "core/store/results_db.h"
#include "core/sweep/dimensions.h"
#include "core/sweep/axes.h"
#include "core/util/bytes.h"

namespace partita::sweep {

namespace fs = std::filesystem;

namespace {

std::string absolute(const std::string& path) {
    std::error_code ec;
    const auto p = fs::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

template <class T, class F>
void load(T& slot, F read) {
    try {
        read();
    } catch (const std::exception& e) {
        slot.value.reset();
        slot.error = e.what();
    }
}

const Json* axis(const Point& p, const std::string& name) {
    for (const auto& [n, v] : p.axes)
        if (n == name) return &v;
    return nullptr;
}

// The point's values of the axes applied at `stage` (levels excepted: prepare() resizes the array).
void applyAxes(const Point& point, AxisStage stage, Prepared& p) {
    for (const auto& [name, v] : point.axes)
        if (const AxisDef* a = findAxis(name); a && a->stage == stage && a->apply) a->apply(p, v);
}

}  // namespace

PointInputs::PointInputs(const Spec& spec) : spec_(spec) {
    for (const Source& s : spec.networks) {
        auto& n = networks_.emplace_back();
        if (s.path.empty()) continue;  // the placeholder of a sweep of settings methods alone
        n.origin = absolute(s.path);
        load(n, [&] {
            auto net = std::make_shared<const Network>(loadNetwork(s.path));
            n.hash = contentHash(writeNetworkJson(*net));
            n.value = std::move(net);
        });
    }
    for (const Source& s : spec.arrays) {
        auto& a = arrays_.emplace_back();
        a.origin = s.path.empty() ? "" : absolute(s.path);
        load(a, [&] {
            a.value = std::make_shared<const Array>(s.path.empty() ? defaultArray(s.levels, s.topology) : loadArray(s.path));
            a.hash = contentHash(writeArrayJson(*a.value));  // the key's, for points no array axis changes
        });
    }
    for (const Source& s : spec.topologies) {
        auto& t = topologies_.emplace_back();
        t.origin = s.built_in ? "built-in:" + s.label : absolute(s.path);
        load(t, [&] {
            sim::Topology topology = s.built_in ? sim::builtinTopology(s.label) : sim::loadTopology(s.path);
            if (!topology.finalized()) topology.finalize();
            t.hash = contentHash(sim::writeTopologyJson(topology));
            t.value = std::make_shared<const sim::Topology>(std::move(topology));
        });
    }
}

Prepared PointInputs::prepare(const Point& point) const {
    Prepared p;
    p.method = &spec_.methods[static_cast<size_t>(point.method)];
    const MethodEntry& m = *p.method;
    if (m.settingsSweep()) {  // its settings were read with the spec; the axes apply when it runs
        p.axes = point.axes;
        p.key = pointKey(p);
        return p;
    }
    const auto& net = networks_[static_cast<size_t>(point.network)];
    const auto& arr = arrays_[static_cast<size_t>(point.array)];
    p.network = net.value;
    p.network_origin = net.origin;
    p.network_hash = net.hash;
    p.array_origin = arr.origin;
    try {
        if (!net.error.empty()) throw Error(net.error);
        if (!arr.error.empty()) throw Error(arr.error);
        p.array = *arr.value;
        if (const Json* v = axis(point, "levels")) {
            if (!p.array.groups.empty())
                throw Error("array '" + p.array.name + "': the levels axis cannot resize an array given as "
                            "accelerator groups");
            // A generated array is generated again, named by its new size as the CLI's --levels does.
            const Source& source = spec_.arrays[static_cast<size_t>(point.array)];
            if (source.path.empty()) p.array = defaultArray(v->get<int>(), source.topology);
            else p.array.levels = v->get<int>();
        }
        applyAxes(point, AxisStage::Array, p);
        // The entry's hash and the array axes' values determine the array (writing it as JSON per point
        // took most of a 10^6-point dry run).
        ByteWriter array_key;
        bool array_axis = false;
        array_key.str(arr.hash);
        for (const auto& [name, v] : point.axes)
            if (const AxisDef* a = findAxis(name); a && a->stage == AxisStage::Array) {
                array_key.str(name).f64(v.get<double>());
                array_axis = true;
            }
        p.array_hash = array_axis ? contentHash(array_key.bytes()) : arr.hash;
        try {
            validate(p.array);
        } catch (const std::invalid_argument& e) {
            throw Error("array '" + p.array.name + "': " + e.what());
        }
        applyAxes(point, AxisStage::Params, p);
        p.accpar.balanced_baselines = m.balanced_baselines;
        if (m.comm_only) p.accpar.objective = Objective::Elements;
        p.accpar.batch = p.params.batch;  // as makeInputs sets it
        try {
            validate(p.params);  // an axis value beyond its limit fails this point alone
        } catch (const std::invalid_argument& e) {
            throw Error(std::string("parameters: ") + e.what());
        }
        if (m.simulated()) {
            const auto& top = topologies_[static_cast<size_t>(point.topology)];
            if (!top.error.empty()) throw Error(top.error);
            p.sim.topology = top.value;
            p.sim.topology_origin = top.origin;
            p.topology_hash = top.hash;
            p.sim.source = m.info->sweep().fixed_source.value_or(m.source);
            p.sim.options.element_bytes = p.params.bytes_per_element;
            p.sim.options.sync = m.sync;
            p.sim.options.collectives = m.collectives;
            p.sim.options.training = m.training;
            if (m.kernels_profile)  // after element_bytes: the precision sets it, as `simulate --profile` does
                sim::useKernelCurves(p.sim.options, *m.kernels_profile, m.kernels_precision, m.kernels_label);
            p.sim.mcmc = m.mcmc;
            applyAxes(point, AxisStage::Mcmc, p);
        }
    } catch (const std::exception& e) {
        p.error = e.what();
        p.key = contentHash(Json{{"format", "partita-sweep-point/1"},
                                 {"app_version", PARTITA_VERSION},
                                 {"unprepared", point.describe(spec_)},
                                 {"network", net.origin},
                                 {"array", arr.origin}}
                                .dump(-1, ' ', false, Json::error_handler_t::replace));  // paths may hold any byte
        return p;
    }
    p.key = pointKey(p);
    return p;
}

std::string pointKey(const Prepared& p) {
    // A length-prefixed byte form, not JSON: a 10^6-point dry run keys every point, and building and
    // writing JSON took most of its time. The fields are the ones the run stores (paramsToJson,
    // accparParamsToJson, store::simOptionsToJson): a setting added there belongs here too.
    const MethodEntry& m = *p.method;
    ByteWriter w;
    w.str("partita-sweep-point/2").str(PARTITA_VERSION).str(m.method);
    if (m.settingsSweep()) {
        w.str(m.settings.dump());
        for (const auto& [name, v] : p.axes) w.str(name).str(detail::valueKey(v));
        return contentHash(w.bytes());
    }
    const SweepTraits& traits = m.info->sweep();
    if (traits.accpar_options) w.u64(m.balanced_baselines).u64(m.comm_only);
    if (traits.strategy_option) w.str(simSourceName(m.source));
    w.str(p.network_hash).str(p.array_hash);
    const CostParams& c = p.params;
    w.f64(c.batch).f64(c.comm.w_intra).u64(static_cast<std::uint64_t>(c.comm.out_size)).f64(c.bytes_per_element)
        .u64(c.include_sram_energy);
    const AccParParams& a = p.accpar;
    w.u64(static_cast<std::uint64_t>(a.ratio_model)).f64(a.bytes_per_element).u64(a.balanced_baselines)
        .u64(static_cast<std::uint64_t>(a.objective));
    if (m.simulated()) {
        const sim::SimOptions& o = p.sim.options;
        w.str(p.topology_hash).u64(o.training).u64(static_cast<std::uint64_t>(o.sync)).f64(o.element_bytes)
            .u64(o.allow_shared_devices).u64(static_cast<std::uint64_t>(o.collectives));
        if (m.kernels_profile) w.str(m.kernels_key);
        if (traits.mcmc_options) {
            const McmcSettings& s = p.sim.mcmc;
            w.f64(s.budget_s).i64(s.iterations).u64(s.seed).f64(s.beta).u64(s.starts.size());
            for (const std::string& start : s.starts) w.str(start);
        }
    }
    return contentHash(w.bytes());
}

Run runPoint(const Prepared& p) {
    if (!p.error.empty()) throw Error(p.error);
    const InputsPtr inputs =
        makeInputs(*p.network, p.array, p.params, p.network_origin, p.array_origin, p.accpar);
    return p.method->info->runPoint(inputs, p.sim);
}

store::RunRows pointRows(const Prepared& p) {
    if (!p.error.empty()) throw Error(p.error);
    if (const SettingsSweep* settings = p.method->settingsSweep())
        return store::methodRunRows(settings->run(p.method->settings, p.axes));
    return store::runRows(runPoint(p));
}

}  // namespace partita::sweep
