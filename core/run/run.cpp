#include "core/run/run.h"

#include <chrono>
#include <ctime>
#include <stdexcept>

#include "core/run/method_registry.h"
#include "core/run/simulation.h"
#include "core/util/enum_names.h"
#include "core/util/error.h"
#include "core/util/ranges.h"

namespace partita {

namespace {
constexpr EnumName<RunKind> kRunKinds[] = {{RunKind::Search, "search"}, {RunKind::Evaluate, "evaluate"},
                                           {RunKind::Edited, "edited"}, {RunKind::Explore, "explore"}};
}  // namespace

const char* runKindName(RunKind kind) { return enumName(kRunKinds, kind); }

RunKind parseRunKind(const std::string& name) {
    if (auto k = parseEnum(kRunKinds, name)) return *k;
    throw std::invalid_argument("unknown run kind '" + name + "'");
}

InputsPtr makeInputs(Network network, Array array, CostParams params, std::string network_origin,
                     std::string array_origin, AccParParams accpar) {
    auto in = std::make_shared<RunInputs>();
    in->layers = weightedLayers(network);
    const std::string source = network_origin.empty() ? network.name : network_origin;
    if (in->layers.size() == 0) throw InputError(source, "", "the network has no conv or fc layer to partition");
    try {
        validate(array);
    } catch (const std::invalid_argument& e) {
        throw InputError(array_origin.empty() ? "array '" + array.name + "'" : array_origin, "", e.what());
    }
    try {
        validate(params);
        if (const std::string why = rangeProblem(accpar.bytes_per_element, ranges::kBytesPerElement); !why.empty())
            throw std::invalid_argument("AccPar's bytes_per_element " + why);
    } catch (const std::invalid_argument& e) {
        throw Error(std::string("parameters: ") + e.what());
    }
    try {
        requireChain(in->layers);
    } catch (const std::invalid_argument& e) {
        in->hypar_problem = source + ": " + e.what();
    }
    if (!array.hyparCompatible())
        in->hypar_problem = "the array '" + array.name + "' is not 2^H identical accelerators, which HyPar's model "
                            "needs; plan it with AccPar";
    accpar.batch = params.batch;
    in->network = std::move(network);
    in->array = std::move(array);
    in->params = params;
    in->accpar = accpar;
    in->network_origin = std::move(network_origin);
    in->array_origin = std::move(array_origin);
    return in;
}

double Run::stepTime() const {
    if (simulation) return simulation->makespan_s;
    return accpar ? accpar->accpar.step_time_s : eval().time_step_s;
}

double Run::perfVsDp() const {
    if (simulation) return simulation->speedupVsDp();
    return accpar ? accpar->speedupVsDp() : assessment.perfVs(assessment.dp);
}

namespace {

Run assessed(const InputsPtr& inputs, const Grid& grid, RunKind kind, std::string method, const Grid& reference) {
    Run run;
    run.kind = kind;
    run.method = std::move(method);
    run.inputs = inputs;
    run.grid = grid;
    run.reference = reference;
    if (inputs->hyparApplies()) {
        run.assessment = assess(inputs->layers, inputs->array, inputs->params, grid);
        run.reference_eval = reference == grid ? run.assessment.eval
                                               : evaluate(inputs->layers, inputs->array, reference, inputs->params);
    }
    run.created_utc = nowUtc();
    run.app_version = PARTITA_VERSION;
    run.name = defaultRunName(run);
    return run;
}

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void requireHypar(const InputsPtr& inputs) {
    if (!inputs->hyparApplies()) throw std::invalid_argument(inputs->hypar_problem);
}

}  // namespace

Run planRun(const InputsPtr& inputs, Method method, const CancelFn& cancel) {
    requireHypar(inputs);
    const auto start = std::chrono::steady_clock::now();
    const Grid grid = planFor(method, inputs->layers, inputs->array.levels, inputs->params, cancel);
    if (cancel && cancel()) throw Cancelled();
    Run run = assessed(inputs, grid, RunKind::Search, methodName(method), grid);
    run.job_ms = msSince(start);
    return run;
}

Run gridRun(const InputsPtr& inputs, const Grid& grid, RunKind kind, const std::string& method,
            const Grid* reference) {
    if (const MethodInfo* m = findMethod(method); m && m->family() == MethodFamily::AccPar)
        return accparRun(inputs, &grid, kind, reference);
    requireHypar(inputs);
    const auto start = std::chrono::steady_clock::now();
    if (grid.levels() != inputs->array.levels || grid.layers() != static_cast<int>(inputs->layers.size()))
        throw std::invalid_argument("grid is " + std::to_string(grid.levels()) + " x " + std::to_string(grid.layers()) +
                                    ", the inputs need " + std::to_string(inputs->array.levels) + " levels x " +
                                    std::to_string(inputs->layers.size()) + " layers");
    Run run = assessed(inputs, grid, kind, method, reference ? *reference : grid);
    run.job_ms = msSince(start);
    return run;
}

Run accparRun(const InputsPtr& inputs, const Grid* given, RunKind kind, const Grid* reference,
              const CancelFn& cancel) {
    const auto start = std::chrono::steady_clock::now();
    auto result = std::make_shared<const AccParResult>(
        runAccPar(inputs->layers, inputs->array, inputs->accpar, given, RatioPolicy::Balanced, cancel));
    if (cancel && cancel()) throw Cancelled();
    const Grid& grid = result->accpar.grid;
    Run run = assessed(inputs, grid, kind, "accpar", reference ? *reference : grid);
    run.reference_step_s = run.edited() ? planHierarchy(inputs->layers, inputs->array, inputs->accpar, Scheme::Given,
                                                        &run.reference, RatioPolicy::Balanced)
                                              .step_time_s
                                        : result->accpar.step_time_s;
    run.accpar_eval = accparEvaluation(result->accpar, inputs->accpar.bytes_per_element);
    run.accpar = std::move(result);
    run.name = defaultRunName(run);
    run.job_ms = msSince(start);
    return run;
}

Evaluation accparEvaluation(const PlanTree& plan, double bytes_per_element) {
    Evaluation e;
    e.levels = plan.levels();
    e.layers = plan.grid.layers();
    const auto cells = static_cast<size_t>(e.levels * e.layers);
    e.layer_intra.assign(cells, 0.0);
    e.layer_inter.assign(cells, 0.0);
    for (int h = 0; h < e.levels; ++h) {
        const PlanNode& node = plan.nodes[static_cast<size_t>(plan.grid_nodes[static_cast<size_t>(h)])];
        double com = 0, time = 0;
        for (int l = 0; l < e.layers; ++l) {
            const double received = node.elements_i[static_cast<size_t>(l)];
            e.layer_intra[static_cast<size_t>(h * e.layers + l)] = received;
            com += received;
            time += node.comm_s[static_cast<size_t>(l)];
        }
        e.level_comm.push_back(com);
        e.level_time_s.push_back(time);
        e.total_elements += static_cast<double>(std::int64_t{1} << h) * com;
        e.time_comm_s += time;
    }
    e.total_bytes = e.total_elements * bytes_per_element;
    e.time_step_s = plan.step_time_s;
    e.time_compute_s = plan.step_time_s - e.time_comm_s;
    return e;
}

Run accparBaselineRun(const Run& accpar_run, Scheme scheme) {
    const AccParResult& r = *accpar_run.accpar;
    const PlanTree& tree = scheme == Scheme::DataParallel    ? r.dp
                           : scheme == Scheme::OneWeirdTrick ? r.owt
                           : scheme == Scheme::HyPar         ? r.hypar
                                                             : r.accpar;
    auto result = std::make_shared<AccParResult>(r);
    result->accpar = tree;
    Run run = assessed(accpar_run.inputs, tree.grid, RunKind::Search, schemeName(scheme), tree.grid);
    run.reference_step_s = tree.step_time_s;
    run.accpar_eval = accparEvaluation(tree, accpar_run.inputs->accpar.bytes_per_element);
    run.accpar = std::move(result);
    run.name = std::string(schemeLabel(scheme)) + " (AccPar model) · " + accpar_run.inputs->network.name;
    return run;
}

Run exploreRun(const InputsPtr& inputs, ExploreRequest request, const ProgressFn& progress, const CancelFn& cancel) {
    requireHypar(inputs);
    const auto start = std::chrono::steady_clock::now();
    const Grid hypar = planFor(Method::HyPar, inputs->layers, inputs->array.levels, inputs->params);
    if (request.base.levels() == 0) request.base = hypar;
    auto result = std::make_shared<ExploreResult>(
        explore(inputs->layers, inputs->array, inputs->params, request, progress, cancel));
    const Grid best = result->grid(request.base, result->best_time_code);
    Run run = assessed(inputs, best, RunKind::Explore, "explore", hypar);
    run.exploration = std::move(result);
    run.job_ms = msSince(start);
    return run;
}

std::string defaultRunName(const Run& run) {
    const MethodInfo* method = findMethod(run.method);
    std::string what = method ? method->runTitle(run) : run.method;
    if (run.kind == RunKind::Edited) what = "Edited";
    if (run.kind == RunKind::Explore) what = "Explore best";
    if (const auto& sim = run.simulation) {  // "Simulate DP · VGG-A · p100-16", "MCMC · ..."
        what = method ? method->runTitle(run) : run.method;
        if (sim->cancelled()) what += " (cancelled)";
        if (run.inputs) what += " · " + run.inputs->network.name;
        return what + " · " + sim->topology().name;
    }
    if (!run.inputs) return what;
    return what + " · " + run.inputs->network.name + " · " + std::to_string(run.inputs->array.count()) + " acc";
}

std::string nowUtc() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

}  // namespace partita
