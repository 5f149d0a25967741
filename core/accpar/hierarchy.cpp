#include "core/accpar/hierarchy.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

#include "core/util/enum_names.h"

namespace partita {

namespace {
constexpr EnumName<Scheme> kSchemes[] = {
    {Scheme::AccPar, "accpar", "AccPar"}, {Scheme::HyPar, "hypar", "HyPar"}, {Scheme::DataParallel, "dp", "DP"},
    {Scheme::OneWeirdTrick, "owt", "OWT"}, {Scheme::Given, "given", "Given"}};
}  // namespace

const char* schemeName(Scheme s) { return enumName(kSchemes, s); }
const char* schemeLabel(Scheme s) { return enumLabel(kSchemes, s); }

SplitOptions splitOptions(const AccParParams& params, Scheme scheme) {
    SplitOptions o;
    o.objective = params.objective;
    o.ratio_model = params.ratio_model;
    o.bytes_per_element = params.bytes_per_element;
    o.allowed = params.allowed;
    // Baselines ignore heterogeneity unless asked (docs/methods/accpar.md#baselines-under-accpars-model).
    if (scheme != Scheme::AccPar && scheme != Scheme::Given)
        o.ratios = params.balanced_baselines ? RatioPolicy::Balanced : RatioPolicy::Half;
    return o;
}

namespace {

struct Builder {
    const LayerTable& layers;
    const AccParParams& params;
    Scheme scheme;
    const Grid* given;
    RatioPolicy given_ratios;
    std::vector<AcceleratorGroup> groups;
    std::vector<double> level_bw;  // empty: b_G = sum b
    std::vector<PlanNode> nodes;

    LevelSolution plan(int depth, const SplitInputs& in, const GroupPair& pair) const {
        SplitOptions o = splitOptions(params, scheme);
        const auto& terms = in.terms;
        std::vector<Split> types(terms.size(), Split::Batch);
        std::vector<double> ratios;
        switch (scheme) {
        case Scheme::AccPar: return solveSplit(makeLevelProblem(in, pair, o));
        case Scheme::HyPar: {
            // HyPar's own search picks the types; the shared model prices them.
            SplitOptions search = o;
            search.allowed = {Split::Batch, Split::Input};
            search.objective = Objective::Elements;
            types = solveSplit(makeLevelProblem(in, pair, search)).choice;
            break;
        }
        case Scheme::DataParallel: break;
        case Scheme::OneWeirdTrick:
            for (size_t l = 0; l < terms.size(); ++l)
                if (layers[l].is_fc) types[l] = Split::Input;
            break;
        case Scheme::Given:
            o.ratios = given_ratios;
            for (size_t l = 0; l < terms.size(); ++l) {
                types[l] = given->split(depth, static_cast<int>(l));
                ratios.push_back(given->at(depth, static_cast<int>(l)).ratio);
            }
            break;
        }
        return evaluateRow(in, types, pair, o, ratios);
    }

    int build(const Members& members, std::vector<LayerState> state, int depth) {
        const int id = static_cast<int>(nodes.size());
        nodes.emplace_back();
        PlanNode node;
        node.depth = depth;
        node.members = members;
        node.label = membersLabel(groups, members);
        node.state = state;
        const size_t L = layers.size();
        if (memberCount(members) == 1) {
            node.leaf = true;
            const double c = groupThroughput(groups, members);
            for (size_t l = 0; l < L; ++l) node.layer_time_s.push_back(6.0 * layerMacs(layers[l], state[l]) / c);
            nodes[static_cast<size_t>(id)] = std::move(node);
            return id;
        }
        const Bisection halves = bisect(groups, members);
        GroupPair& pair = node.pair;
        pair.c_i = groupThroughput(groups, halves.i);
        pair.c_j = groupThroughput(groups, halves.j);
        const bool override_bw = depth < static_cast<int>(level_bw.size());
        pair.b_i = override_bw ? level_bw[static_cast<size_t>(depth)] : groupBandwidth(groups, halves.i);
        pair.b_j = override_bw ? level_bw[static_cast<size_t>(depth)] : groupBandwidth(groups, halves.j);
        const SplitInputs in = splitInputs(layers, state, params.comm);
        const LevelSolution sol = plan(depth, in, pair);
        node.objective = sol.cost;
        std::vector<Cell> row_j(L);
        for (size_t l = 0; l < L; ++l) {
            node.row.push_back({sol.choice[l], sol.ratio[l]});
            row_j[l] = {sol.choice[l], 1.0 - sol.ratio[l]};
            const int pred = in.predecessor[l];
            const Prev tt = pred < 0 ? Prev{} : Prev{sol.choice[static_cast<size_t>(pred)]};
            const GroupTimes g =
                groupTimes(in.terms[l], tt, sol.choice[l], pair, sol.ratio[l], params.bytes_per_element);
            node.elements_i.push_back(g.elements_i);
            node.elements_j.push_back(g.elements_j);
        }
        // Shortcuts arrive with the consumer's input (docs/methods/accpar.md#multi-path-networks), at the consumer's ratio.
        for (const auto& e : in.residuals) {
            const auto c = static_cast<size_t>(e.consumer);
            const Split a = sol.choice[static_cast<size_t>(e.source)];
            const EdgeElements q = edgeElements(e, a, sol.choice[c], sol.ratio[c]);
            node.elements_i[c] += q.i;
            node.elements_j[c] += q.j;
        }
        const double bytes = params.bytes_per_element;
        for (size_t l = 0; l < L; ++l)
            node.comm_s.push_back(
                std::max(bytes * node.elements_i[l] / pair.b_i, bytes * node.elements_j[l] / pair.b_j));
        // Each child solves its own sub-problem, shrunk on the split dimension by its ratio.
        std::vector<LayerState> state_i = state, state_j = state;
        shrink(state_i, node.row);
        shrink(state_j, row_j);
        auto same = [](const std::vector<LayerState>& a, const std::vector<LayerState>& b) {
            return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const LayerState& x, const LayerState& y) {
                return x.b == y.b && x.d_in == y.d_in && x.d_out == y.d_out;
            });
        };
        node.child_i = build(halves.i, std::move(state_i), depth + 1);
        const bool twin = halves.i == halves.j && same(nodes[static_cast<size_t>(node.child_i)].state, state_j);
        node.child_j = twin ? node.child_i : build(halves.j, std::move(state_j), depth + 1);
        const auto& ti = nodes[static_cast<size_t>(node.child_i)].layer_time_s;
        const auto& tj = nodes[static_cast<size_t>(node.child_j)].layer_time_s;
        for (size_t l = 0; l < L; ++l) node.layer_time_s.push_back(node.comm_s[l] + std::max(ti[l], tj[l]));
        nodes[static_cast<size_t>(id)] = std::move(node);
        return id;
    }
};

// Grid rows from the first internal node of each depth, breadth-first, i before j.
void gridFromTree(PlanTree& tree, int levels, int layers) {
    tree.grid = Grid(levels, layers);
    tree.grid_nodes.assign(static_cast<size_t>(levels), -1);
    std::deque<int> queue{0};
    while (!queue.empty()) {
        const PlanNode& n = tree.nodes[static_cast<size_t>(queue.front())];
        const int id = queue.front();
        queue.pop_front();
        if (n.leaf) continue;
        auto& slot = tree.grid_nodes[static_cast<size_t>(n.depth)];
        if (slot < 0) {
            slot = id;
            for (int l = 0; l < layers; ++l) tree.grid.at(n.depth, l) = n.row[static_cast<size_t>(l)];
        } else if (!(n.row == tree.nodes[static_cast<size_t>(slot)].row)) {
            tree.uniform = false;
        }
        queue.push_back(n.child_i);
        if (n.child_j != n.child_i) queue.push_back(n.child_j);
    }
}

}  // namespace

GroupTimes cellTimes(const LayerTable& layers, const PlanTree& tree, int node, int layer, const AccParParams& params) {
    const PlanNode& n = tree.nodes.at(static_cast<size_t>(node));
    if (n.leaf) throw std::invalid_argument("a leaf has no split");
    const auto l = static_cast<size_t>(layer);
    const double flop = 6.0 * layerMacs(layers[l], n.state[l]), alpha = n.row[l].ratio;
    GroupTimes g;
    g.compute_i = alpha * flop / n.pair.c_i;
    g.compute_j = (1.0 - alpha) * flop / n.pair.c_j;
    g.elements_i = n.elements_i[l];
    g.elements_j = n.elements_j[l];
    g.comm_i = params.bytes_per_element * g.elements_i / n.pair.b_i;
    g.comm_j = params.bytes_per_element * g.elements_j / n.pair.b_j;
    return g;
}

PlanTree planHierarchy(const LayerTable& layers, const Array& array, const AccParParams& params, Scheme scheme,
                       const Grid* given, RatioPolicy given_ratios) {
    if (layers.size() == 0) throw std::invalid_argument("the network has no weighted (conv or fc) layers");
    if (!(params.batch > 0)) throw std::invalid_argument("batch must be positive");
    if (!(params.bytes_per_element > 0)) throw std::invalid_argument("bytes per element must be positive");
    validate(array);
    if (scheme == Scheme::Given) {
        if (!given) throw std::invalid_argument("the Given scheme needs a grid");
        if (given->levels() != array.levels || given->layers() != static_cast<int>(layers.size()))
            throw std::invalid_argument("the grid has " + std::to_string(given->levels()) + " levels and " +
                                        std::to_string(given->layers()) + " layers; the array has " +
                                        std::to_string(array.levels) + " levels and the network " +
                                        std::to_string(layers.size()) + " weighted layers");
    }
    Builder b{layers, params, scheme, given, given_ratios, acceleratorGroups(array), groupLevelBandwidth(array), {}};
    Members all;
    for (const auto& g : b.groups) all.push_back(g.count);
    try {
        b.build(all, initialState(layers, params.batch), 0);
    } catch (const TooManyBranches& e) {
        // Said with the layer's name, as the user drew or imported it.
        throw std::invalid_argument(
            "AccPar cannot plan this network exactly: when it reaches layer '" +
            layers[static_cast<size_t>(e.layer)].name + "', the choices of " + std::to_string(e.open) +
            " weighted layers before it are still needed by layers after it (parallel branches or shortcuts that "
            "join later); its search keeps at most " + std::to_string(e.limit) +
            " open at once. Join the branches sooner, or plan the branches as separate networks.");
    }
    PlanTree tree;
    tree.scheme = scheme;
    tree.nodes = std::move(b.nodes);
    gridFromTree(tree, array.levels, static_cast<int>(layers.size()));
    tree.layer_time_s = tree.root().layer_time_s;
    for (double t : tree.layer_time_s) tree.step_time_s += t;
    return tree;
}

}  // namespace partita
