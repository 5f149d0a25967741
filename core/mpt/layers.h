#pragma once
// The layers MPT works on (docs/methods/mpt.md#what-mpt-models): 3x3/5x5 stride-1 'same'
// convolutions are Winograd-eligible; every other conv and every FC layer is
// trained data parallel with direct convolution [R].
#include <string>
#include <vector>

#include "core/model/network.h"

namespace partita::mpt {

struct MptLayer {
    std::string name;
    double in_ch = 0, out_ch = 0;  // I, J (FC: in/out features)
    double height = 1, width = 1;  // output map (equals the input map for eligible layers)
    int kernel = 1;                // r (square kernels only are eligible)
    double kernel_area = 1;        // kh * kw for direct MACs and spatial weights
    bool winograd = false;         // eligible for Winograd / MPT
    bool fc = false;
    bool join_input = false;       // its output feeds an add/mean join (M11)

    double spatialWeights() const { return in_ch * out_ch * kernel_area; }
    double directMacsPerImage() const { return height * width * in_ch * out_ch * kernel_area; }
};

// Table II (all r = `kernel`, 3 by default; 5 gives the paper's 5x5 variant).
std::vector<MptLayer> layerStudy(int kernel = 3);
// One entry per conv / fc operator of a propagated network, in topological order.
std::vector<MptLayer> layersFromNetwork(const Network& net);
// Throws std::invalid_argument naming the layer when a size is not positive.
void checkLayers(const std::vector<MptLayer>& layers);

}  // namespace partita::mpt
