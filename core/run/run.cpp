#include "core/run/run.h"

#include <chrono>
#include <ctime>
#include <stdexcept>

#include "core/util/error.h"

namespace partita {

const char* runKindName(RunKind kind) {
    switch (kind) {
        case RunKind::Search: return "search";
        case RunKind::Evaluate: return "evaluate";
        case RunKind::Edited: return "edited";
        case RunKind::Explore: return "explore";
    }
    return "?";
}

RunKind parseRunKind(const std::string& name) {
    for (RunKind k : {RunKind::Search, RunKind::Evaluate, RunKind::Edited, RunKind::Explore})
        if (name == runKindName(k)) return k;
    throw std::invalid_argument("unknown run kind '" + name + "'");
}

InputsPtr makeInputs(Network network, Array array, CostParams params, std::string network_origin,
                     std::string array_origin) {
    auto in = std::make_shared<RunInputs>();
    in->layers = weightedLayers(network);
    const std::string source = network_origin.empty() ? network.name : network_origin;
    if (in->layers.size() == 0) throw InputError(source, "", "the network has no conv or fc layer to partition");
    try {
        requireChain(in->layers);
    } catch (const std::invalid_argument& e) {
        throw InputError(source, "", e.what());
    }
    validate(array);
    if (!array.hyparCompatible())
        throw std::invalid_argument("the array '" + array.name + "' is not 2^H identical accelerators, which HyPar's "
                                    "model needs; plan it with AccPar (core/accpar/accpar.h)");
    if (!(params.batch > 0)) throw std::invalid_argument("batch must be positive");
    in->network = std::move(network);
    in->array = std::move(array);
    in->params = params;
    in->network_origin = std::move(network_origin);
    in->array_origin = std::move(array_origin);
    return in;
}

namespace {

Run assessed(const InputsPtr& inputs, const Grid& grid, RunKind kind, std::string method, const Grid& reference) {
    Run run;
    run.kind = kind;
    run.method = std::move(method);
    run.inputs = inputs;
    run.grid = grid;
    run.reference = reference;
    run.assessment = assess(inputs->layers, inputs->array, inputs->params, grid);
    run.reference_eval = reference == grid ? run.assessment.eval
                                           : evaluate(inputs->layers, inputs->array, reference, inputs->params);
    run.created_utc = nowUtc();
    run.app_version = PARTITA_VERSION;
    run.name = defaultRunName(run);
    return run;
}

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Run planRun(const InputsPtr& inputs, Method method) {
    const auto start = std::chrono::steady_clock::now();
    const Grid grid = planFor(method, inputs->layers, inputs->array.levels, inputs->params);
    Run run = assessed(inputs, grid, RunKind::Search, methodName(method), grid);
    run.job_ms = msSince(start);
    return run;
}

Run gridRun(const InputsPtr& inputs, const Grid& grid, RunKind kind, const std::string& method,
            const Grid* reference) {
    const auto start = std::chrono::steady_clock::now();
    if (grid.levels() != inputs->array.levels || grid.layers() != static_cast<int>(inputs->layers.size()))
        throw std::invalid_argument("grid is " + std::to_string(grid.levels()) + " x " + std::to_string(grid.layers()) +
                                    ", the inputs need " + std::to_string(inputs->array.levels) + " levels x " +
                                    std::to_string(inputs->layers.size()) + " layers");
    Run run = assessed(inputs, grid, kind, method, reference ? *reference : grid);
    run.job_ms = msSince(start);
    return run;
}

Run exploreRun(const InputsPtr& inputs, ExploreRequest request, const ProgressFn& progress, const CancelFn& cancel) {
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
    std::string what = run.method;
    for (Method m : kAllMethods)
        if (run.method == methodName(m)) what = methodLabel(m);
    if (run.kind == RunKind::Edited) what = "Edited";
    if (run.kind == RunKind::Explore) what = "Explore best";
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
