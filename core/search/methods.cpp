#include "core/search/methods.h"

#include <stdexcept>

#include "core/accpar/level.h"
#include "core/util/enum_names.h"
#include "core/util/error.h"

namespace partita {

namespace {
constexpr EnumName<Method> kMethods[] = {{Method::HyPar, "hypar", "HyPar"}, {Method::DataParallel, "dp", "DP"},
                                         {Method::ModelParallel, "mp", "MP"}, {Method::OneWeirdTrick, "owt", "OWT"}};
}  // namespace

const char* methodName(Method m) { return enumName(kMethods, m); }
const char* methodLabel(Method m) { return enumLabel(kMethods, m); }

Method parseMethod(const std::string& name) {
    if (auto m = parseEnum(kMethods, name)) return *m;
    throw std::invalid_argument("unknown method '" + name + "' (use hypar, dp, mp or owt)");
}

void requireChain(const LayerTable& layers) {
    if (layers.size() == 0) throw std::invalid_argument("the network has no weighted (conv or fc) layers");
    // The first weighted layer in topological order that breaks the chain names where the graph branches.
    const std::string advice = "; HyPar plans chains only: AccPar or MCMC plan any graph";
    for (size_t l = 1; l < layers.size(); ++l) {
        const auto& p = layers[l].preds;
        const std::string head = "HyPar needs a chain of weighted layers, but the graph branches: '" + layers[l].name + "' ";
        if (p.empty()) throw std::invalid_argument(head + "reads the input, not a weighted layer" + advice);
        if (p.size() > 1) {
            std::string names;
            for (size_t k = 0; k < p.size() && k < 4; ++k)
                names += (k ? ", '" : "'") + layers[static_cast<size_t>(p[k])].name + "'";
            if (p.size() > 4) names += ", ...";
            throw std::invalid_argument(head + "joins " + std::to_string(p.size()) + " weighted layers (" + names + ")" +
                                        advice);
        }
        if (p[0] != static_cast<int>(l) - 1)  // a branch: it reads an earlier layer, not the one before it
            throw std::invalid_argument(head + "reads '" + layers[static_cast<size_t>(p[0])].name +
                                        "', not the layer before it ('" + layers[l - 1].name + "')" + advice);
    }
}

ChainSolution hyparLevel(const LayerTable& layers, std::span<const LayerState> state, const CommModel& model) {
    // HyPar is AccPar's split restricted to {I, II}, ratio 1/2, communication only (docs/contributing/architecture.md#one-partition-vocabulary).
    const SplitInputs inputs = splitInputs(layers, state, model);
    SplitOptions options;
    options.allowed = {Split::Batch, Split::Input};
    options.objective = Objective::Elements;
    const LevelSolution sol = solveSplit(makeLevelProblem(inputs, GroupPair{}, options));
    return {sol.choice, sol.cost};
}

Grid hyparSearch(const LayerTable& layers, int levels, const CostParams& params, const CancelFn& cancel) {
    requireChain(layers);
    Grid grid(levels, static_cast<int>(layers.size()));
    auto state = initialState(layers, params.batch);
    for (int h = 0; h < levels; ++h) {
        if (cancel && cancel()) throw Cancelled();
        const auto sol = hyparLevel(layers, state, params.comm);
        for (size_t l = 0; l < layers.size(); ++l) grid.at(h, static_cast<int>(l)).split = sol.choice[l];
        shrink(state, grid.row(h));
    }
    return grid;
}

Grid baselineGrid(Method m, const LayerTable& layers, int levels) {
    Grid grid(levels, static_cast<int>(layers.size()));
    for (int h = 0; h < levels; ++h)
        for (size_t l = 0; l < layers.size(); ++l) {
            Split s = Split::Batch;
            if (m == Method::ModelParallel || (m == Method::OneWeirdTrick && layers[l].is_fc)) s = Split::Input;
            grid.at(h, static_cast<int>(l)).split = s;
        }
    return grid;
}

Grid planFor(Method m, const LayerTable& layers, int levels, const CostParams& params, const CancelFn& cancel) {
    if (m == Method::HyPar) return hyparSearch(layers, levels, params, cancel);
    return baselineGrid(m, layers, levels);
}

}  // namespace partita
