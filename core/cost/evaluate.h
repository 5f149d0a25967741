#pragma once
// Evaluation of a hierarchical grid: per-level communication
// (docs/methods/hypar.md#communication-of-one-split), total traffic
// (docs/methods/hypar.md#r8-total-over-the-levels), and the performance and energy models
// (docs/methods/hypar.md#time-and-energy).
#include <vector>

#include "core/cost/comm_model.h"
#include "core/model/array.h"

namespace partita {

struct CostParams {
    double batch = 256;
    CommModel comm;
    double bytes_per_element = 4;      // fp32
    bool include_sram_energy = false;  // optional term: 2 SRAM reads per MAC (docs/methods/hypar.md#energy)
};

// Throws std::invalid_argument naming the field when a value is out of range (docs/formats/limits.md):
// batch an integer 1 .. 2^24, w_intra and bytes_per_element within theirs.
void validate(const CostParams& params);

struct Evaluation {
    int levels = 0, layers = 0;
    std::vector<double> level_comm;   // com_h: elements exchanged by one group pair at level h
    std::vector<double> layer_intra;  // [h * layers + l], elements (w_intra applied)
    std::vector<double> layer_inter;  // [h * layers + l], elements into layer l
    std::vector<double> level_time_s; // com_h * bits / BW_h
    double total_elements = 0;        // sum_h 2^h com_h
    double total_bytes = 0;
    double macs = 0;                  // forward MACs of the whole batch
    double time_compute_s = 0, time_comm_s = 0, time_step_s = 0;
    double energy_compute_j = 0, energy_comm_j = 0, energy_sram_j = 0, energy_j = 0;

    // Per-layer amounts exist only in an evaluation made with EvalDetail::PerLayer.
    double intra(int h, int l) const { return layer_intra.at(static_cast<size_t>(h * layers + l)); }
    double inter(int h, int l) const { return layer_inter.at(static_cast<size_t>(h * layers + l)); }
    double totalGB() const { return total_bytes / 1e9; }
};

// Totals skips the per-layer arrays (2 x levels x layers doubles): baselines that are only
// compared by their totals then cost no memory per layer.
enum class EvalDetail { PerLayer, Totals };

// The grid must have `array.levels` rows (levels = 0 means one accelerator).
Evaluation evaluate(const LayerTable& layers, const Array& array, const Grid& grid, const CostParams& params,
                    EvalDetail detail = EvalDetail::PerLayer);

// Forward MACs per sample, summed over weighted layers (conv sizes before pooling).
double macsPerSample(const LayerTable& layers);

// Only the two numbers an exploration needs, without allocation in the loop.
struct QuickCost {
    double total_elements = 0;
    double time_comm_s = 0;
};
QuickCost quickCost(const LayerTable& layers, const Grid& grid, const CostParams& params,
                    std::vector<LayerState>& scratch, const std::vector<double>& level_bandwidth);

// Step time and energy from compute and communication parts (one formula for all callers).
double stepTime(double time_compute_s, double time_comm_s);
double computeTime(const LayerTable& layers, const Array& array, const CostParams& params);
struct Energy {
    double compute_j = 0, comm_j = 0, sram_j = 0;
    double total() const { return compute_j + comm_j + sram_j; }
};
// docs/methods/hypar.md#energy: E = 3 sum MACs (E_MULT + E_ADD) + Total * e_word, e_word = 2 E_DRAM + bits * e_link.
Energy energy(const LayerTable& layers, const Array& array, const CostParams& params, double total_elements);

}  // namespace partita
