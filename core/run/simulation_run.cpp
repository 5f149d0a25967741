#include "core/run/simulation_run.h"

#include <chrono>

#include "core/sim/baselines.h"
#include "core/sim/lowering.h"
#include "core/util/error.h"

namespace partita {

namespace {

// HyPar's model prices grids of dp/mp cells only; other lowered grids get no analytic view.
bool hyparCanPrice(const InputsPtr& inputs, const Grid& grid) {
    if (grid.levels() == 0 || !inputs->hyparApplies() || grid.levels() != inputs->array.levels ||
        grid.layers() != static_cast<int>(inputs->layers.size()))
        return false;
    for (int h = 0; h < grid.levels(); ++h)
        for (int l = 0; l < grid.layers(); ++l) {
            const Cell& c = grid.at(h, l);
            if ((c.split != Split::Batch && c.split != Split::Input) || c.ratio != 0.5) return false;
        }
    return true;
}

sim::SoapStrategy namedStrategy(const InputsPtr& inputs, const SimulationSpec& spec, const Grid& grid) {
    const Network& net = inputs->network;
    const std::int64_t batch = sim::batchCount(inputs->params.batch);
    const int devices = spec.topology->deviceCount();
    const StrategyRequest request{net, batch, devices, [&]() -> InputsPtr { return inputs; }, {}};
    switch (spec.source) {
        case SimSource::DataParallel:
        case SimSource::OneWeirdTrick:
        case SimSource::ModelParallel: return methodStrategy(*strategyMethod(spec.source), request);
        case SimSource::Grid: {
            if (grid.levels() > 0) return sim::lowerGrid(net, inputs->layers, grid, batch, devices);
            if (!inputs->hyparApplies()) throw Error(inputs->hypar_problem);
            return methodStrategy(*strategyMethod(SimSource::Grid), request);  // HyPar's plan
        }
        case SimSource::File:
            if (spec.strategy_origin.empty()) throw Error("choose a strategy file (partita-soap/1) to simulate");
            return sim::loadSoap(spec.strategy_origin, net);
        case SimSource::Mcmc: break;
    }
    throw Error("an MCMC strategy comes from a search; use mcmcRun");
}

}  // namespace

sim::SoapStrategy methodStrategy(const MethodInfo& method, const StrategyRequest& request) {
    return method.strategy(request);
}

Run simulatedRun(const InputsPtr& inputs, const SimulationSpec& spec, sim::SoapStrategy strategy, const Grid& grid,
                 std::optional<McmcSummary> mcmc, const CancelFn& cancel) {
    const auto start = std::chrono::steady_clock::now();
    const bool search = spec.source == SimSource::Mcmc;
    const RunKind kind = search ? RunKind::Search : RunKind::Evaluate;
    const std::string method = search ? "mcmc" : "simulate";
    Run run;
    if (hyparCanPrice(inputs, grid)) {
        run = gridRun(inputs, grid, kind, method);
    } else {
        run.kind = kind;
        run.method = method;
        run.inputs = inputs;
        run.grid = grid.levels() > 0 ? grid : Grid(0, static_cast<int>(inputs->layers.size()));
        run.reference = run.grid;
        run.created_utc = nowUtc();
        run.app_version = PARTITA_VERSION;
    }
    run.simulation = std::make_shared<const SimulationResult>(
        simulateStrategy(inputs->network, inputs->params.batch, spec, std::move(strategy), std::move(mcmc), cancel));
    run.name = defaultRunName(run);
    run.job_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return run;
}

Run simulationRun(const InputsPtr& inputs, const SimulationSpec& spec, const Grid& given, const CancelFn& cancel) {
    if (!spec.topology) throw Error("choose a topology to simulate on");
    Grid grid;
    if (spec.source == SimSource::Grid)
        grid = given.levels() > 0 || !inputs->hyparApplies()
                   ? given
                   : planFor(Method::HyPar, inputs->layers, inputs->array.levels, inputs->params);
    return simulatedRun(inputs, spec, namedStrategy(inputs, spec, grid), grid, {}, cancel);
}

Run mcmcRun(const InputsPtr& inputs, const SimulationSpec& given, const sim::McmcProgressFn& progress,
            const CancelFn& cancel) {
    if (!given.topology) throw Error("choose a topology to search on");
    const auto start = std::chrono::steady_clock::now();
    SimulationSpec spec = given;
    spec.source = SimSource::Mcmc;
    const Network& net = inputs->network;
    const McmcPlan plan =
        mcmcPlan(net, sim::batchCount(inputs->params.batch), spec.topology->deviceCount(), spec.mcmc, spec.options);
    const sim::McmcResult r =
        sim::mcmcSearch(net, inputs->params.batch, *spec.topology, plan.starts, plan.options, progress, cancel);
    McmcSummary summary{r.starts, r.iterations, r.acceptance_rate, r.cancelled, r.restarts};
    Run run = simulatedRun(inputs, spec, r.best, Grid{}, std::move(summary));
    run.job_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return run;
}

}  // namespace partita
