#include "core/model/layers.h"

#include <algorithm>

namespace partita {

bool LayerTable::isChain() const {
    for (size_t l = 0; l < layers.size(); ++l) {
        const auto& p = layers[l].preds;
        if (l == 0 ? !p.empty() : (p.size() != 1 || p[0] != static_cast<int>(l) - 1)) return false;
    }
    return true;
}

LayerTable weightedLayers(const Network& net) {
    LayerTable table;
    table.network = net.name;
    std::vector<int> layer_of(net.ops.size(), -1);
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const auto& op = net.ops[i];
        if (op.type != OpType::Conv && op.type != OpType::FullyConnected) continue;
        layer_of[i] = static_cast<int>(table.layers.size());
        WeightedLayer layer;
        layer.name = op.name;
        layer.is_fc = op.type == OpType::FullyConnected;
        layer.op_id = static_cast<int>(i);
        layer.c_in = static_cast<double>(op.in_shape.c);
        layer.c_out = static_cast<double>(op.out_shape.c);
        layer.kernel_area = layer.is_fc ? 1.0 : static_cast<double>(op.window.kernel_h) * op.window.kernel_w;
        layer.in_hw = static_cast<double>(op.in_shape.spatial());
        layer.conv_hw = static_cast<double>(op.pre_pool_shape.spatial());
        layer.out_hw = static_cast<double>(op.out_shape.spatial());
        table.layers.push_back(layer);
    }
    // Consumers of each operator, to follow a weighted layer's output through pools.
    std::vector<std::vector<int>> consumers(net.ops.size());
    for (size_t i = 0; i < net.ops.size(); ++i)
        for (int p : net.ops[i].input_ids)
            if (p >= 0) consumers[static_cast<size_t>(p)].push_back(static_cast<int>(i));
    for (auto& layer : table.layers) {
        int cur = layer.op_id;
        while (consumers[static_cast<size_t>(cur)].size() == 1 &&
               net.ops[static_cast<size_t>(consumers[static_cast<size_t>(cur)][0])].type == OpType::Pool) {
            cur = consumers[static_cast<size_t>(cur)][0];
            layer.out_hw = static_cast<double>(net.ops[static_cast<size_t>(cur)].out_shape.spatial());
        }
    }
    // Weighted predecessors: walk back through non-weighted operators.
    for (auto& layer : table.layers) {
        std::vector<int> stack(net.ops[static_cast<size_t>(layer.op_id)].input_ids);
        std::vector<bool> visited(net.ops.size(), false);
        while (!stack.empty()) {
            const int id = stack.back();
            stack.pop_back();
            if (id < 0 || visited[static_cast<size_t>(id)]) continue;
            visited[static_cast<size_t>(id)] = true;
            if (layer_of[static_cast<size_t>(id)] >= 0) {
                layer.preds.push_back(layer_of[static_cast<size_t>(id)]);
                continue;
            }
            for (int p : net.ops[static_cast<size_t>(id)].input_ids) stack.push_back(p);
        }
        std::sort(layer.preds.begin(), layer.preds.end());
    }
    return table;
}

}  // namespace partita
