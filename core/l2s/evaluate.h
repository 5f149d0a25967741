#pragma once
// Learn-to-Scale evaluation (docs/methods/l2s.md#boundary-strategies, features L3-L6): per layer
// boundary a traffic matrix, XY link loads, communication and compute cycles,
// NoC energy; totals and speedups against the traditional all-gather. The
// strategy is a plain per-layer vector, so a view can change one entry and
// call evaluateLayer() for that row only.
#include <string>
#include <vector>

#include "core/l2s/masks.h"
#include "core/l2s/mesh.h"
#include "core/l2s/partition.h"
#include "core/model/layers.h"
#include "core/run/comm_matrix.h"

namespace partita::l2s {

enum class Scheme { Traditional, Grouped, Sparse };
const char* schemeName(Scheme s);                // "traditional", "grouped", "sparse"
Scheme parseScheme(const std::string& name);     // throws std::invalid_argument

// How layer l reads the output of layer l-1 (layer 0 reads the image from memory: traditional only).
struct LayerChoice {
    Scheme scheme = Scheme::Traditional;
    Mask nz;  // Sparse only: n x n block mask, producer rows, consumer columns
};
using Strategy = std::vector<LayerChoice>;  // one per weighted layer

Strategy traditionalStrategy(const LayerTable& layers);
// Empty when layer l may be grouped on n cores, else the reason (B3: n | C_in and n | C_out, and n | the producer's channels).
std::string groupingProblem(const LayerTable& layers, size_t l, int n);

struct BoundaryRow {
    std::string layer;           // the consumer layer; the boundary is (previous layer -> layer)
    Scheme scheme = Scheme::Traditional;
    Matrix traffic;              // bytes, [producer][consumer]
    Matrix link_load;            // bytes on directed link i->j (neighbours only), [from][to]
    double volume_B = 0, traditional_B = 0, byte_hops = 0, flits = 0, packets = 0;
    double max_link_B = 0, max_link_flits = 0;
    double max_port_flits = 0;   // the busiest injection or ejection port
    int bottleneck_from = -1, bottleneck_to = -1;  // the busiest link, -1 without traffic
    int longest_hops = 0;
    // Burst: ceil(max(busiest port, busiest link) flits / burst_rate) + longest hops x (router + link).
    // Ideal: ceil(max link flits / channels) + the same latency; with MeshParams::count_ports the
    // busiest port counts when it exceeds the busiest link.
    double comm_cycles = 0;
    double compute_cycles = 0;   // the slowest core
    double macs = 0, weights = 0;
    double energy_J = 0;         // sum over flits of hops E_link + (hops + 1) E_router
    std::vector<CoreLoad> cores;
    double cycles() const { return compute_cycles + comm_cycles; }
};

struct Evaluation {
    std::string network;
    int cores = 0;
    std::vector<BoundaryRow> rows;
    double volume_B = 0, traditional_B = 0, byte_hops = 0, flits = 0, packets = 0;
    double comm_cycles = 0, compute_cycles = 0, total_cycles = 0, time_s = 0, energy_J = 0, macs = 0;
    double trafficRate() const { return traditional_B > 0 ? volume_B / traditional_B : 0; }
};

class Evaluator {
public:
    // Throws Error when the network is not a chain of weighted layers.
    Evaluator(LayerTable layers, Mesh mesh, CoreParams core = {});
    const LayerTable& layers() const { return layers_; }
    const Mesh& mesh() const { return mesh_; }
    const CoreParams& core() const { return core_; }

    // Throws std::invalid_argument naming the layer when a choice is invalid.
    BoundaryRow evaluateLayer(size_t l, const LayerChoice& choice) const;
    Evaluation evaluate(const Strategy& strategy) const;
    // The same as evaluate() with strategy[l] replaced, recomputing one row.
    Evaluation update(const Evaluation& previous, size_t l, const LayerChoice& choice) const;
    // Bytes one traditional all-gather of layer l-1's output sends: sum_i |out_i| bpe (n - 1).
    double allGatherBytes(size_t l) const;

private:
    Evaluation total(std::vector<BoundaryRow> rows) const;
    LayerTable layers_;
    Mesh mesh_;
    CoreParams core_;
};

struct Versus {
    double speedup = 1, comm_speedup = 1, traffic_rate = 1, energy_reduction = 0;
};
// `x` against `baseline` (normally the all-traditional evaluation).
Versus versus(const Evaluation& baseline, const Evaluation& x);

// Heatmap data: a boundary's traffic or link loads as device x device CommMatrix ("c0".."c{n-1}").
CommMatrix trafficCommMatrix(const BoundaryRow& row);
CommMatrix linkLoadCommMatrix(const BoundaryRow& row);

}  // namespace partita::l2s
