#pragma once
// Per-layer MPT cost for one grid configuration (docs/methods/mpt.md#communication-volumes): per-worker
// volumes (elements), time split compute / weight comm / tile comm, and energy.
#include <string>
#include <vector>

#include "core/mpt/grid.h"
#include "core/mpt/hybrid.h"
#include "core/mpt/layers.h"
#include "core/mpt/prediction.h"
#include "core/mpt/winograd.h"

namespace partita::mpt {

enum class WeightDomain { Spatial, Winograd };
enum class Overlap { Sum, Max };
// Where the Winograd transforms run (docs/methods/mpt.md#model-options-and-presets): a dedicated transformation unit in the
// P2P logic that never limits throughput (the default), or the vector unit at a set rate.
enum class TransformUnit { Dedicated, Vector };
const char* overlapName(Overlap o);          // "sum", "max"
Overlap parseOverlap(const std::string& name);  // throws std::invalid_argument
const char* transformUnitName(TransformUnit t);  // "dedicated", "vector"
TransformUnit parseTransformUnit(const std::string& name);

struct WorkerParams {
    int array_dim = 64;                // S x S systolic array [P]; 96 for the network study
    double freq_hz = 1e9;              // [P]
    double utilisation = 1.0;          // fraction of peak MACs reached [A]
    // The paper's §VI-C "contains transformation unit" [P] (docs/methods/mpt.md#model-options-and-presets).
    TransformUnit transform_unit = TransformUnit::Dedicated;
    double vector_flops_per_cycle = 64;  // the vector unit's rate when transform_unit = Vector [A]
    // Compute and comm per phase: max (double-buffered inputs, the paper's §VI-B [P]) or the old sum
    // (docs/methods/mpt.md#model-options-and-presets).
    Overlap overlap = Overlap::Max;
    bool transforms_concurrent = true; // vector-unit transforms overlap the array's GEMMs (max) [A]
    double e_mul_pj = 3.7, e_add_pj = 0.9;  // Horowitz [P]
    double e_sram_pj_per_B = 1.0;      // [A]
    double e_dram_pj_per_B = 30.0;     // about 3.7 pJ/bit for HMC [A]
    double e_link_pj_per_bit = 2.0;    // [A]
    double idle_link_W = 0.0;          // SerDes idle power per worker [A]
};

struct MptParams {
    int p = 256;
    double batch = 256;
    int collective_passes = 2;         // 1 = the paper's formula (oracles), 2 = reduce + broadcast [A]
    double bytes_per_element = 4;
    WeightDomain single_group_weight_domain = WeightDomain::Spatial;  // [R]
    bool source_side_1d = false;       // gather m of T values per line when line-predictable [R]
    // Joins run in the Winograd domain (FractalNet's mean join moved before ReLU): a layer feeding a
    // join skips its fprop gather of Y and its bprop scatter of dY [R].
    bool winograd_domain_join = false;
    ReductionFactors factors;
    NetworkParams network;
    WorkerParams worker;
};
// Throws std::invalid_argument naming the bad parameter.
void checkParams(const MptParams& params);

// Per-worker elements per iteration; `weight` already includes the collective passes.
struct Volumes {
    double weight = 0;
    double scatter_x = 0, gather_y = 0;    // fprop
    double scatter_dy = 0, gather_dx = 0;  // bprop
    double tiles() const { return scatter_x + gather_y + scatter_dy + gather_dx; }
    double total() const { return weight + tiles(); }
};

struct Energy {
    double compute_J = 0, sram_J = 0, dram_J = 0, link_J = 0;
    double total() const { return compute_J + sram_J + dram_J + link_J; }
};

struct LayerCost {
    GridConfig grid;
    bool data_parallel = false;  // d_dp / w_dp style (spatial weights over all p)
    bool winograd = false;       // false: direct convolution
    WinogradSize f;
    bool buildable = true;       // the paper's hardware can build the grid
    bool line_predictable = false;
    bool reduced = false;        // prediction / zero-skip applied
    Volumes volume;              // elements per worker
    double macs = 0;             // per worker, three phases
    double compute_s = 0, weight_comm_s = 0, tile_comm_s = 0, total_s = 0;
    Energy energy;
    std::vector<std::string> warnings;
    double commTime() const { return weight_comm_s + tile_comm_s; }
    double commBytes(double bytes_per_element) const { return volume.total() * bytes_per_element; }
};

// The transform MPT uses: F(2,r) when N_g > 1; F(4,3) (r = 3) or F(2,r) when N_g = 1.
WinogradSize multiGroupTransform(int r);
WinogradSize singleGroupTransform(int r);

// MPT at grid g with transform f. cluster_bw_Bps: the cluster all-to-all bandwidth (0 lets the
// function derive it). Throws std::invalid_argument naming the layer for an invalid grid.
LayerCost mptCost(const MptLayer& layer, const GridConfig& g, const WinogradSize& f, bool reduction,
                  const MptParams& params, double cluster_bw_Bps = 0);
// Data parallelism over all p workers: Winograd (w_dp, transform f, update w) or direct (d_dp).
LayerCost dataParallelCost(const MptLayer& layer, bool winograd, const WinogradSize& f, const MptParams& params);

}  // namespace partita::mpt
