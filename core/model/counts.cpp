#include "core/model/counts.h"

namespace partita {

OperatorCount countOperator(const Operator& op) {
    const double k = double(op.window.kernel_h) * op.window.kernel_w;
    const double c_in = static_cast<double>(op.in_shape.c), c_out = static_cast<double>(op.out_channels);
    switch (op.type) {
    case OpType::Conv: {
        const double w = k * c_in / op.group * c_out;
        return {w, w * static_cast<double>(op.pre_pool_shape.spatial())};
    }
    case OpType::ConvTranspose: {
        const double w = k * c_in * c_out / op.group;
        return {w, w * static_cast<double>(op.in_shape.spatial())};
    }
    case OpType::FullyConnected: return {c_in * c_out, c_in * c_out};  // in_shape is the flattened input
    case OpType::MatMul:
        return {0, static_cast<double>(op.out_shape.elements()) * static_cast<double>(op.in_shape.w)};
    case OpType::Pool:
    case OpType::Add:
    case OpType::Concat:
    case OpType::Elementwise:
    case OpType::Layout: return {};
    }
    return {};
}

bool isImportView(const Operator& op) { return op.type == OpType::Layout && op.source_op == "view"; }

NetworkCounts countNetwork(const Network& net) {
    NetworkCounts n;
    for (const Operator& op : net.ops) {
        if (isImportView(op)) continue;
        ++n.operators;
        n.weighted_layers += hasWeights(op.type);
        const OperatorCount c = countOperator(op);
        n.weights += c.weights;
        n.macs_per_sample += c.macs_per_sample;
    }
    return n;
}

}  // namespace partita
