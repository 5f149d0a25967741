#pragma once
// The weighted-layer view of a network that the partition engines work on:
// one entry per conv / fc operator, with the tensor dimensions of spec
// hypar §1 / accpar §1 (D_i = C_in, D_o = C_out; spatial sizes are multipliers).
#include <string>
#include <vector>

#include "core/model/network.h"

namespace partita {

struct WeightedLayer {
    std::string name;
    bool is_fc = false;
    int op_id = -1;          // index into Network::ops
    double c_in = 0;         // D_i (fc: flattened input features)
    double c_out = 0;        // D_o
    double kernel_area = 1;  // K_h * K_w (1 for fc)
    double in_hw = 1;        // H_in * W_in of the tensor this layer reads
    double conv_hw = 1;      // output H * W before pooling (drives MACs)
    double out_hw = 1;       // output H * W after pooling (what the consumer reads)
    std::vector<int> preds;  // weighted layers feeding this one (through pools, adds, concats)

    double weights() const { return kernel_area * c_in * c_out; }
    double macsPerSample() const { return kernel_area * c_in * c_out * conv_hw; }
};

struct LayerTable {
    std::string network;
    std::vector<WeightedLayer> layers;

    size_t size() const { return layers.size(); }
    const WeightedLayer& operator[](size_t i) const { return layers[i]; }
    // True when layer l's only weighted predecessor is l-1 for every l >= 1.
    bool isChain() const;
};

// Extracts the weighted layers in topological order. Pools between weighted
// layers fold into the producer's out_hw (spec hypar R1, post-pool).
LayerTable weightedLayers(const Network& net);

}  // namespace partita
