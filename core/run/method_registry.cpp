// The registry and the methods that answer with a grid or a simulated strategy (the settings
// methods are in settings_methods.cpp).
#include "core/run/method_registry.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>

#include "core/run/simulation_run.h"
#include "core/sim/baselines.h"
#include "core/sim/lowering.h"
#include "core/util/format.h"

namespace partita {

std::unique_ptr<MethodInfo> mptMethod();  // settings_methods.cpp
std::unique_ptr<MethodInfo> l2sMethod();
std::unique_ptr<MethodInfo> llmMethod();

namespace {

// HyPar's search or one of its baselines, on HyPar's analytic model.
class PlanMethod final : public MethodInfo {
public:
    PlanMethod(Method m, std::string tip) : method_(m), tip_(std::move(tip)) {
        sweep_.in_sweeps = true;
        sweep_.axis_reader = axis_readers::kGridPlans;
    }
    std::string key() const override { return methodName(method_); }
    std::string label() const override { return methodLabel(method_); }
    std::string toolTip() const override { return tip_; }
    MethodFamily family() const override { return MethodFamily::GridPlan; }
    Run runPoint(const InputsPtr& inputs, const SimulationSpec&, const CancelFn& cancel) const override {
        return planRun(inputs, method_, cancel);
    }
    std::optional<SimSource> strategySource() const override {
        switch (method_) {
            case Method::DataParallel: return SimSource::DataParallel;
            case Method::OneWeirdTrick: return SimSource::OneWeirdTrick;
            case Method::ModelParallel: return SimSource::ModelParallel;
            case Method::HyPar: break;
        }
        return SimSource::Grid;
    }
    // The baselines as the simulator's own SOAP patterns over every device; HyPar's plan lowered.
    sim::SoapStrategy strategy(const StrategyRequest& r) const override {
        switch (method_) {
            case Method::DataParallel: return sim::dataParallelStrategy(r.network, r.batch, r.devices);
            case Method::OneWeirdTrick: return sim::oneWeirdTrickStrategy(r.network, r.batch, r.devices);
            case Method::ModelParallel: return sim::modelParallelStrategy(r.network, r.batch, r.devices);
            case Method::HyPar: break;
        }
        const InputsPtr in = r.inputs();
        requireChain(in->layers);
        const Grid grid = planFor(method_, in->layers, in->array.levels, in->params, r.cancel);
        return sim::lowerGrid(r.network, in->layers, grid, r.batch, r.devices);
    }

private:
    Method method_;
    std::string tip_;
};

class AccParMethod final : public MethodInfo {
public:
    AccParMethod() {
        sweep_.in_sweeps = true;
        sweep_.accpar_options = true;
        sweep_.axis_reader = axis_readers::kAccPar;
    }
    std::string key() const override { return "accpar"; }
    std::string label() const override { return "AccPar"; }
    std::string toolTip() const override { return "Types I, II and III with balanced ratios, on any array (AccPar)"; }
    MethodFamily family() const override { return MethodFamily::AccPar; }
    Run runPoint(const InputsPtr& inputs, const SimulationSpec&, const CancelFn& cancel) const override {
        return accparRun(inputs, nullptr, RunKind::Search, nullptr, cancel);
    }
    std::optional<SimSource> strategySource() const override { return SimSource::Grid; }
    sim::SoapStrategy strategy(const StrategyRequest& r) const override {
        const InputsPtr in = r.inputs();
        const AccParResult plans = runAccPar(in->layers, in->array, in->accpar, nullptr, RatioPolicy::Balanced, r.cancel);
        return sim::lowerPlan(r.network, in->layers, plans.accpar, r.batch, r.devices);
    }
};

class SimulateMethod final : public MethodInfo {
public:
    SimulateMethod() {
        sweep_.in_sweeps = true;
        sweep_.sim_options = true;
        sweep_.strategy_option = true;
        sweep_.axis_reader = axis_readers::kSimulate;
    }
    std::string key() const override { return "simulate"; }
    std::string label() const override { return "Simulate"; }
    std::string toolTip() const override {
        return "Time a strategy with FlexFlow's execution simulator on a device topology";
    }
    MethodFamily family() const override { return MethodFamily::Simulated; }
    Run runPoint(const InputsPtr& inputs, const SimulationSpec& sim, const CancelFn& cancel) const override {
        return simulationRun(inputs, sim, {}, cancel);
    }
    std::string runTitle(const Run& run) const override {
        return run.simulation ? "Simulate " + std::string(simSourceLabel(run.simulation->spec.source)) : label();
    }
};

class McmcMethod final : public MethodInfo {
public:
    McmcMethod() {
        sweep_.in_sweeps = true;
        sweep_.needs_options = "mcmc needs its options: {\"method\": \"mcmc\", \"iterations\": N}";
        sweep_.sim_options = true;
        sweep_.mcmc_options = true;
        sweep_.fixed_source = SimSource::Mcmc;
        sweep_.axis_reader = axis_readers::kMcmc;
    }
    std::string key() const override { return "mcmc"; }
    std::string label() const override { return "MCMC"; }
    std::string toolTip() const override {
        return "FlexFlow's MCMC search for the fastest simulated strategy (progress and Cancel in the status bar)";
    }
    MethodFamily family() const override { return MethodFamily::Simulated; }
    Run runPoint(const InputsPtr& inputs, const SimulationSpec& sim, const CancelFn& cancel) const override {
        return mcmcRun(inputs, sim, {}, cancel);
    }
};

struct Registry {
    std::shared_mutex mutex;
    std::vector<std::unique_ptr<MethodInfo>> methods;

    Registry() {
        const char* const tips[] = {
            "HyPar's search: data or model parallel per layer and level, by dynamic programming",
            "Data parallelism in every layer and level (baseline)",
            "Model parallelism in every layer and level (baseline)",
            "One weird trick: data parallel convolutions, model parallel fully connected layers"};
        for (Method m : kAllMethods) methods.push_back(std::make_unique<PlanMethod>(m, tips[static_cast<int>(m)]));
        methods.push_back(std::make_unique<AccParMethod>());
        methods.push_back(std::make_unique<SimulateMethod>());
        methods.push_back(std::make_unique<McmcMethod>());
        methods.push_back(mptMethod());
        methods.push_back(l2sMethod());
        methods.push_back(llmMethod());
    }
};

Registry& registry() {
    static Registry r;
    return r;
}

// "a, b or c"
std::string listed(const std::vector<std::string>& keys) {
    std::string out;
    for (size_t i = 0; i < keys.size(); ++i)
        out += (i == 0 ? "" : i + 1 == keys.size() ? " or " : ", ") + keys[i];
    return out;
}

}  // namespace

Run MethodInfo::runPoint(const InputsPtr&, const SimulationSpec&, const CancelFn&) const {
    throw std::invalid_argument("method '" + key() + "' does not run in a sweep");
}

sim::SoapStrategy MethodInfo::strategy(const StrategyRequest&) const {
    throw std::invalid_argument("method '" + key() + "' has no strategy to simulate (" + strategyMethodList() + ")");
}

const MethodInfo* findMethod(const std::string& key) {
    Registry& r = registry();
    std::shared_lock lock(r.mutex);
    for (const auto& m : r.methods)
        if (m->key() == key) return m.get();
    return nullptr;
}

const MethodInfo& method(const std::string& key) {
    if (const MethodInfo* m = findMethod(key)) return *m;
    std::vector<std::string> keys;
    for (const MethodInfo* m : allMethods()) keys.push_back(m->key());
    throw std::invalid_argument("unknown method '" + key + "' (" + listed(keys) + ")");
}

std::vector<const MethodInfo*> allMethods() {
    Registry& r = registry();
    std::shared_lock lock(r.mutex);
    std::vector<const MethodInfo*> out;
    for (const auto& m : r.methods) out.push_back(m.get());
    return out;
}

std::string sweepMethodList() {
    std::vector<std::string> keys;
    for (const MethodInfo* m : allMethods())
        if (m->sweep().in_sweeps) keys.push_back(m->key());
    return listed(keys);
}

std::string strategyMethodList() {
    std::vector<std::string> keys;
    for (const MethodInfo* m : allMethods())
        if (m->strategySource()) keys.push_back(m->key());
    return listed(keys);
}

const MethodInfo* strategyMethod(SimSource source) {
    for (const MethodInfo* m : allMethods())
        if (m->strategySource() == source) return m;
    return nullptr;
}

std::string SummaryFigure::value(double stored) const {
    if (!used()) return {};
    const double v = stored * scale;
    if (si_prefix) return withPrefix(v, unit.c_str());
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf + (unit.empty() ? "" : " " + unit);
}

std::string SummaryFigure::text(double stored) const { return used() ? label + " " + value(stored) : std::string(); }

std::string SummaryLabels::text(double t, double s, double b, double e) const {
    std::string out;
    for (const std::string& part : {time.text(t), speedup.text(s), traffic.text(b), energy.text(e)})
        if (!part.empty()) out += (out.empty() ? "" : ", ") + part;
    return out;
}

std::string settingsMethodList() {
    std::vector<std::string> keys;
    for (const MethodInfo* m : allMethods())
        if (m->settings()) keys.push_back(m->key());
    return listed(keys);
}

const SettingsCodec& settingsCodec(const std::string& key) {
    const MethodInfo* m = findMethod(key);
    if (m && m->settings()) return *m->settings();
    throw std::invalid_argument("'" + key + "' is not a method kept as settings (" + settingsMethodList() + ")");
}

MethodRegistration::MethodRegistration(std::unique_ptr<MethodInfo> m) : key_(m->key()) {
    if (findMethod(key_)) throw std::invalid_argument("method '" + key_ + "' is registered already");
    Registry& r = registry();
    std::unique_lock lock(r.mutex);
    r.methods.push_back(std::move(m));
}

MethodRegistration::~MethodRegistration() {
    Registry& r = registry();
    std::unique_lock lock(r.mutex);
    std::erase_if(r.methods, [&](const auto& m) { return m->key() == key_; });
}

}  // namespace partita
