#pragma once
// The intra-layer output-channel partitioner (docs/methods/l2s.md#splitting-layers-across-cores, feature L2):
// core c owns a contiguous, balanced block of a layer's kernels (fc: output
// neurons) and reads the whole input, or 1/n of it when the layer is grouped.
#include <string>
#include <vector>

#include "core/model/layers.h"

namespace partita::l2s {

// How a core's cycles follow from its share of a layer (docs/methods/l2s.md#l1-compute-per-core).
// LaneFilling (default): the 16x16 PEs are filled from output pixels and kernel taps too,
// cycles = ceil(MACs_core / 256). ChannelOnly (docs/methods/l2s.md#model-options, the old default): only channels fill
// the lanes, so a core with 2 of LeNet conv1's 20 kernels and its 1 input uses 2/256 of them.
enum class ComputeModel { LaneFilling, ChannelOnly };
const char* computeModelName(ComputeModel m);             // "lane-filling", "channel-only"
ComputeModel parseComputeModel(const std::string& name);  // throws std::invalid_argument

// DianNao-style core (Table II [P]); compute as 16 outputs x 16 inputs per cycle (B4 [A]).
struct CoreParams {
    ComputeModel compute = ComputeModel::LaneFilling;
    int pe_outputs = 16;
    int pe_inputs = 16;
    double weight_buffer_bytes = 128 * 1024;
    double data_buffer_bytes = 32 * 1024;  // each of the two data buffers
    double bytes_per_element = 2;          // 16-bit fixed point
    bool skip_zero_blocks = false;         // B8.5: off, the paper credits SS gains to communication
};

// Balanced contiguous blocks: the first (total mod n) cores get one more. Throws
// std::invalid_argument when total < 0 or n < 1.
std::vector<int> balancedBlocks(int total, int n);

struct CoreLoad {
    int first = 0, channels = 0;  // kernels (fc: neurons) [first, first + channels)
    double out_elements = 0;      // what the core produces after pooling
    double in_elements = 0;       // what it must read (all, or its group's share)
    double macs = 0, weights = 0;
    double compute_cycles = 0;
    bool weights_fit = true, data_fit = true;
};

// The loads of `layer` on n cores. `input_fraction[j]` is the fraction of the
// layer's input core j really multiplies: 1 normally, 1/n when grouped, the
// non-zero share when zero blocks are skipped. Cycles: ceil(MACs / 256) (lane-filling) or
// conv_hw * K^2 * ceil(C_out,core / 16) * ceil(C_in,eff / 16) (channel-only; fc: conv_hw = K^2 = 1).
std::vector<CoreLoad> coreLoads(const WeightedLayer& layer, int n, const std::vector<double>& input_fraction,
                                const CoreParams& params);

}  // namespace partita::l2s
