#pragma once
// AccPar over a whole accelerator array (docs/methods/accpar.md#the-hierarchy-over-an-array): recursive bisection of
// the array, one split problem per tree node, each child shrunk by its ratio,
// and the layer-synchronous step-time estimate. The baselines (docs/methods/accpar.md#baselines-under-accpars-model) run
// through the same tree, so every scheme is priced by one model.
#include <string>
#include <vector>

#include "core/accpar/level.h"
#include "core/model/array.h"

namespace partita {

struct AccParParams {
    double batch = 512;                             // the authors' code and the paper's studies
    double bytes_per_element = 2;                   // e, bf16 (docs/methods/accpar.md#time-of-one-layer)
    CommModel comm{1.0, OutSize::PostPool};         // AccPar amounts: A(W), A(F_l+1), A(E_l) once
    RatioModel ratio_model = RatioModel::E;
    Objective objective = Objective::Time;          // Elements: communication only at ratio 1/2
    std::vector<Split> allowed{Split::Batch, Split::Input, Split::Output};  // AccPar's search space
    bool balanced_baselines = false;                // DP, OWT, HyPar with balanced ratios instead of 1/2
};

enum class Scheme { AccPar, HyPar, DataParallel, OneWeirdTrick, Given };
const char* schemeName(Scheme s);   // "accpar", "hypar", "dp", "owt", "given"
const char* schemeLabel(Scheme s);  // "AccPar", "HyPar", "DP", "OWT", "Given"

// One node of the bisection tree. Internal nodes split their sub-problem
// between children i and j; leaves are single accelerators.
struct PlanNode {
    int depth = 0;                  // 0 = H1 (the root's split)
    Members members;                // accelerators per group of the array
    std::string label;              // "64 x tpu-v3 + 64 x tpu-v2"
    std::vector<LayerState> state;  // this node's sub-problem
    bool leaf = false;
    int child_i = -1, child_j = -1; // equal when identical siblings share one result
    GroupPair pair;                 // children's aggregates c_G, b_G
    std::vector<Cell> row;          // per layer: type and child i's ratio alpha
    double objective = 0;           // the split's summed step costs (s, or elements)
    std::vector<double> elements_i, elements_j;  // per layer A_intra + s_x A_bnd received
    std::vector<double> comm_s;     // per layer max_x e Q_x / b_x at this split
    std::vector<double> layer_time_s;  // t_l(node) of docs/methods/accpar.md#step-time (leaf: FLOP_l / c)
};

struct PlanTree {
    Scheme scheme = Scheme::AccPar;
    std::vector<PlanNode> nodes;    // nodes[0] is the root
    // One row per level, H1 first: the row of the first internal node of that
    // depth in breadth-first order (child i before j). For 2^H identical
    // accelerators every node of a depth has that row (`uniform` is true).
    Grid grid;
    std::vector<int> grid_nodes;    // node index behind each grid row
    bool uniform = true;
    std::vector<double> layer_time_s;  // t_l(root)
    double step_time_s = 0;            // T = sum_l t_l(root)

    const PlanNode& root() const { return nodes.front(); }
    int levels() const { return grid.levels(); }
};

// The plan of `scheme` on `array`. Scheme::Given applies grid row h to every
// node of depth h, with ratios per `given_ratios` (Balanced uses the ratio model).
// Multi-path networks use the residual edges of the layer table (docs/methods/accpar.md#multi-path-networks).
// Throws std::invalid_argument for a grid of the wrong shape.
PlanTree planHierarchy(const LayerTable& layers, const Array& array, const AccParParams& params, Scheme scheme,
                       const Grid* given = nullptr, RatioPolicy given_ratios = RatioPolicy::Balanced);

// Both child groups' compute and communication time for one layer of an internal
// node at its chosen type and ratio, shortcuts included (GUI tooltips, reports).
GroupTimes cellTimes(const LayerTable& layers, const PlanTree& tree, int node, int layer, const AccParParams& params);

// The split options a scheme uses at every node.
SplitOptions splitOptions(const AccParParams& params, Scheme scheme);

}  // namespace partita
