#include "core/mpt/layers.h"

#include <stdexcept>

namespace partita::mpt {

namespace {

MptLayer studyLayer(const std::string& name, double ch, double hw, int k) {
    MptLayer l;
    l.name = name;
    l.in_ch = l.out_ch = ch;
    l.height = l.width = hw;
    l.kernel = k;
    l.kernel_area = k * k;
    l.winograd = true;
    return l;
}

}  // namespace

std::vector<MptLayer> layerStudy(int kernel) {
    if (kernel != 3 && kernel != 5) throw std::invalid_argument("layer study: kernel must be 3 or 5");
    return {studyLayer("Early", 128, 56, kernel), studyLayer("Mid-1", 256, 14, kernel),
            studyLayer("Late-1", 512, 7, kernel), studyLayer("Mid-2", 320, 16, kernel),
            studyLayer("Late-2", 640, 8, kernel)};
}

std::vector<MptLayer> layersFromNetwork(const Network& net) {
    std::vector<bool> joined(net.ops.size(), false);
    for (const Operator& op : net.ops)
        if (op.type == OpType::Add)
            for (int id : op.input_ids)
                if (id >= 0) joined[static_cast<size_t>(id)] = true;
    std::vector<MptLayer> out;
    for (const Operator& op : net.ops) {
        // MPT's worker model (docs/methods/mpt.md) covers dense convolutions and fc layers only.
        if (op.type == OpType::ConvTranspose || (op.type == OpType::Conv && op.group != 1))
            throw std::invalid_argument("MPT models dense convolutions and fc layers; '" + op.name + "' is a " +
                                        (op.group != 1 ? "grouped" : "transposed") + " convolution");
        if (op.type != OpType::Conv && op.type != OpType::FullyConnected) continue;
        MptLayer l;
        l.name = op.name;
        l.join_input = joined[static_cast<size_t>(&op - net.ops.data())];
        l.in_ch = op.type == OpType::FullyConnected ? static_cast<double>(op.in_shape.elements())
                                                     : static_cast<double>(op.in_shape.c);
        l.out_ch = static_cast<double>(op.out_channels);
        if (op.type == OpType::FullyConnected) {
            l.fc = true;
        } else {
            const Window& w = op.window;
            l.height = static_cast<double>(op.pre_pool_shape.h);
            l.width = static_cast<double>(op.pre_pool_shape.w);
            l.kernel = w.kernel_h;
            l.kernel_area = static_cast<double>(w.kernel_h) * w.kernel_w;
            const bool same = w.stride_h == 1 && w.stride_w == 1 && w.dilation_h == 1 && w.dilation_w == 1 &&
                              w.symmetric() && w.pad_h == (w.kernel_h - 1) / 2 &&
                              w.pad_w == (w.kernel_w - 1) / 2 && op.pre_pool_shape.h == op.in_shape.h &&
                              op.pre_pool_shape.w == op.in_shape.w;
            l.winograd = w.kernel_h == w.kernel_w && (w.kernel_h == 3 || w.kernel_h == 5) && same;
        }
        out.push_back(l);
    }
    if (out.empty()) throw std::invalid_argument("network '" + net.name + "' has no conv or fc layers");
    return out;
}

void checkLayers(const std::vector<MptLayer>& layers) {
    if (layers.empty()) throw std::invalid_argument("no layers to evaluate");
    for (const MptLayer& l : layers)
        if (!(l.in_ch > 0 && l.out_ch > 0 && l.height > 0 && l.width > 0 && l.kernel_area > 0))
            throw std::invalid_argument("layer '" + l.name + "': channels, map and kernel sizes must be positive");
}

}  // namespace partita::mpt
