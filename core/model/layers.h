#pragma once
// The weighted-layer view of a network that the partition engines work on:
// one entry per conv / fc operator, with the tensor dimensions of spec
// docs/methods/hypar.md#tensors-of-a-layer / docs/methods/accpar.md#layers-as-matrices (D_i = C_in, D_o = C_out; spatial sizes are multipliers).
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
    double kernel_area = 1;  // K_h * K_w / groups (1 for fc): weights per (input, output) channel pair
    int groups = 1;          // channel groups of a grouped (depthwise: groups = C_in) conv
    bool transposed = false; // a transposed conv (its MACs follow its input positions)
    double in_hw = 1;        // H_in * W_in of the tensor this layer reads
    double conv_hw = 1;      // positions the kernel is applied at: output H * W before pooling (transposed: input)
    double out_hw = 1;       // output H * W after pooling (what the consumer reads)
    std::vector<int> preds;  // weighted layers feeding this one (through pools, adds, concats)
    // Multi-path view (docs/methods/accpar.md#multi-path-networks). The layer whose type prices this layer's input boundary: the only
    // weighted predecessor in a chain; after an add, the last layer of the residual (main) branch; for a
    // projection shortcut conv, the block's first layer, whose input it shares (`shares_input`). -1 for
    // the first layer. Other multi-predecessor layers (concat joins) fall back to the latest predecessor.
    // A projection conv listed before its block's first layer gets a dp_pred above its own index.
    int dp_pred = -1;
    bool shares_input = false;  // reads the same tensor as dp_pred (a projection shortcut conv)

    double weights() const { return kernel_area * c_in * c_out; }
    double macsPerSample() const { return kernel_area * c_in * c_out * conv_hw; }
};

// A residual edge of the weighted-layer view (docs/methods/accpar.md#multi-path-networks). Identity shortcut: `source` is the block's
// first layer and the shortcut carries that layer's input. Projection shortcut: `source` is the 1x1
// projection conv and the shortcut carries its output. Either way it is added to the input of
// `consumer`, the weighted layer after the add; its size there is the consumer's input tensor.
struct Shortcut {
    int source = -1;
    int consumer = -1;
    bool projection = false;
    bool operator==(const Shortcut&) const = default;
};

struct LayerTable {
    std::string network;
    std::vector<WeightedLayer> layers;
    std::vector<Shortcut> shortcuts;  // in consumer order; empty for chains

    size_t size() const { return layers.size(); }
    const WeightedLayer& operator[](size_t i) const { return layers[i]; }
    // True when layer l's only weighted predecessor is l-1 for every l >= 1.
    bool isChain() const;
};

// Extracts the weighted layers in topological order. Pools between weighted
// layers fold into the producer's out_hw (docs/methods/hypar.md#r1-output-sizes-after-pooling, post-pool). Two-way
// adds become residual edges (`shortcuts`, `dp_pred`, `shares_input`).
LayerTable weightedLayers(const Network& net);

}  // namespace partita
