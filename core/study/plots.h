#pragma once
// The data behind the study plots (HyPar Figs. 11 and 12, per-layer
// communication), computed without Qt so a worker can run them with
// progress and cancel and the widgets only draw what they are given.
#include <string>
#include <vector>

#include "core/accpar/hierarchy.h"
#include "core/cost/evaluate.h"
#include "core/util/progress.h"

namespace partita {

struct Run;

// One array size of the scalability sweep (Fig. 11).
struct ScaleRow {
    int levels = 0;
    int accelerators = 1;
    double dp_gain = 1, hypar_gain = 1, accpar_gain = 1;  // speed over one accelerator (x)
    double dp_total_gb = 0, hypar_total_gb = 0, accpar_total_gb = 0;  // 10^9 B per step
};
struct ScaleStudy {
    std::string network;
    double batch = 0;
    std::vector<ScaleRow> rows;  // levels 0..max
};

// DP and HyPar are scaleSweep()'s numbers on `array` resized to H = 0..max_levels.
// AccPar is runAccPar() on the same array under its own model (`accpar`), its
// gain normalised to its own one-accelerator time and its bytes at
// accpar.bytes_per_element. Throws Cancelled when `cancel` returns true.
ScaleStudy scaleStudy(const LayerTable& layers, const Array& array, const CostParams& params,
                      const AccParParams& accpar, int max_levels = 6, const ProgressFn& progress = {},
                      const CancelFn& cancel = {});

// One network of the H-tree versus torus comparison (Fig. 12): step-time
// ratios against DP on the H-tree of the same size; the partitions are the
// H-tree's on both topologies (docs/methods/hypar.md#h-tree-against-torus).
struct TopologyRow {
    std::string network;
    double hypar_htree = 0, hypar_torus = 0, dp_torus = 0;  // T(DP, H-tree) / T(x)
};
struct TopologyStudy {
    int levels = 0;
    std::vector<TopologyRow> rows;
    TopologyRow geomean;  // network "geomean": geometric means of the rows
};

TopologyStudy topologyStudy(const std::vector<LayerTable>& networks, const Array& array, const CostParams& params,
                            const ProgressFn& progress = {}, const CancelFn& cancel = {});

// Bytes each weighted layer moves at each level, all group pairs of the level
// together (2^h pairs at level h), so everything sums to Evaluation::total_bytes.
struct LayerComm {
    std::string title;                // network, array and method of the run
    std::vector<std::string> layers;  // model names
    int levels = 0;
    std::vector<double> intra_bytes, inter_bytes;  // [h * layers + l]

    double bytes(int h, int l) const;  // intra + inter
    double layerTotal(int l) const;
};

LayerComm layerComm(const Evaluation& eval, const std::vector<std::string>& names, const std::string& title = {});
LayerComm layerComm(const Run& run);  // the run's shown() evaluation

}  // namespace partita
