#include "core/model/layers.h"

#include <algorithm>
#include <unordered_map>

namespace partita {

namespace {

bool isWeighted(const Operator& op) { return hasWeights(op.type); }

const Operator& opAt(const Network& net, int id) { return net.ops[static_cast<size_t>(id)]; }

// The operator whose tensor `id` forwards once pools are skipped (-1 = the network input).
int throughPools(const Network& net, int id) {
    while (id >= 0 && opAt(net, id).type == OpType::Pool) id = opAt(net, id).input_ids[0];
    return id;
}

// Tensor producers from `id` back along single-input weighted layers, ending at the first
// non-weighted one (add, concat or the input): [id, producer of id's input, ...].
std::vector<int> backPath(const Network& net, int id) {
    std::vector<int> path;
    for (id = throughPools(net, id);; id = throughPools(net, opAt(net, id).input_ids[0])) {
        path.push_back(id);
        if (id < 0 || !isWeighted(opAt(net, id))) break;
    }
    return path;
}

// A two-way add seen as a residual block: the branches from the fork tensor X to the add.
struct LayersBlock {
    int add = -1;
    std::vector<int> main;  // weighted ops, last one first; main.back() reads X
    int projection = -1;    // the single conv on the short branch, or -1 for an identity shortcut
};

// Recognises add(main branch, X) and add(main branch, projection(X)); other joins stay plain DAG joins.
bool asBlock(const Network& net, int add, LayersBlock& block) {
    const auto& in = opAt(net, add).input_ids;
    if (in.size() != 2) return false;
    const auto pu = backPath(net, in[0]), pv = backPath(net, in[1]);
    std::unordered_map<int, size_t> on_v;  // node -> its place on pv, so long branches stay linear
    for (size_t iv = 0; iv < pv.size(); ++iv) on_v.emplace(pv[iv], iv);
    for (size_t iu = 0; iu < pu.size(); ++iu) {
        const auto found = on_v.find(pu[iu]);
        if (found == on_v.end()) continue;  // the first shared node is the fork X
        const auto it = pv.begin() + static_cast<std::ptrdiff_t>(found->second);
        std::vector<int> bu(pu.begin(), pu.begin() + static_cast<std::ptrdiff_t>(iu)), bv(pv.begin(), it);
        if (bv.size() > bu.size()) std::swap(bu, bv);
        if (bu.empty() || bv.size() > 1) return false;
        block = {add, bu, bv.empty() ? -1 : bv[0]};
        return true;
    }
    return false;
}

// Fills dp_pred, shares_input and the residual edges (docs/methods/accpar.md#multi-path-networks, "recommended tool behaviour").
void findShortcuts(const Network& net, const std::vector<int>& layer_of, LayerTable& table) {
    for (auto& layer : table.layers) layer.dp_pred = layer.preds.empty() ? -1 : layer.preds.back();
    std::vector<LayersBlock> blocks;
    for (size_t i = 0; i < net.ops.size(); ++i) {
        LayersBlock b;
        if (net.ops[i].type == OpType::Add && asBlock(net, static_cast<int>(i), b)) blocks.push_back(b);
    }
    for (const LayersBlock& b : blocks) {
        if (b.projection < 0) continue;
        auto& proj = table.layers[static_cast<size_t>(layer_of[static_cast<size_t>(b.projection)])];
        proj.dp_pred = layer_of[static_cast<size_t>(b.main.back())];
        proj.shares_input = true;
    }
    // The non-projection weighted layers reading each add (through pools), found in one pass.
    std::unordered_map<int, std::vector<int>> readers;
    for (const LayersBlock& b : blocks) readers[b.add];
    for (size_t l = 0; l < table.layers.size(); ++l) {
        if (table.layers[l].shares_input) continue;
        const auto it = readers.find(throughPools(net, opAt(net, table.layers[l].op_id).input_ids[0]));
        if (it != readers.end()) it->second.push_back(static_cast<int>(l));
    }
    for (const LayersBlock& b : blocks) {
        // The consumer: the one non-projection weighted layer reading the add.
        const auto& read_by = readers[b.add];
        const int consumer = read_by.empty() ? -1 : read_by.back();
        const auto count = read_by.size();
        if (count != 1) continue;  // the sum feeds a join or the output: no edge to price
        table.layers[static_cast<size_t>(consumer)].dp_pred = layer_of[static_cast<size_t>(b.main.front())];
        const bool projection = b.projection >= 0;
        const int source = layer_of[static_cast<size_t>(projection ? b.projection : b.main.back())];
        table.shortcuts.push_back({source, consumer, projection});
    }
    std::sort(table.shortcuts.begin(), table.shortcuts.end(),
              [](const Shortcut& a, const Shortcut& b) { return a.consumer < b.consumer; });
}

}  // namespace

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
    table.layers.reserve(net.ops.size());
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const auto& op = net.ops[i];
        if (!isWeighted(op)) continue;
        layer_of[i] = static_cast<int>(table.layers.size());
        WeightedLayer layer;
        layer.name = op.name;
        layer.is_fc = op.type == OpType::FullyConnected;
        layer.op_id = static_cast<int>(i);
        layer.c_in = static_cast<double>(op.in_shape.c);
        layer.c_out = static_cast<double>(op.out_shape.c);
        layer.groups = layer.is_fc ? 1 : op.group;
        layer.transposed = op.type == OpType::ConvTranspose;
        // A grouped conv's output channel reads C_in / g inputs: k^2 / g per (input, output) channel pair.
        layer.kernel_area =
            layer.is_fc ? 1.0 : static_cast<double>(op.window.kernel_h) * op.window.kernel_w / static_cast<double>(op.group);
        layer.in_hw = static_cast<double>(op.in_shape.spatial());
        // A transposed conv multiplies each input position with the whole kernel: its MACs follow the input.
        layer.conv_hw = static_cast<double>(layer.transposed ? op.in_shape.spatial() : op.pre_pool_shape.spatial());
        layer.out_hw = static_cast<double>(op.out_shape.spatial());
        table.layers.push_back(layer);
    }
    // How many operators read each one, and one of them: enough to follow an output through pools.
    std::vector<int> readers(net.ops.size(), 0), reader(net.ops.size(), -1);
    for (size_t i = 0; i < net.ops.size(); ++i)
        for (int p : net.ops[i].input_ids)
            if (p >= 0) {
                ++readers[static_cast<size_t>(p)];
                reader[static_cast<size_t>(p)] = static_cast<int>(i);
            }
    for (auto& layer : table.layers) {
        int cur = layer.op_id;
        while (readers[static_cast<size_t>(cur)] == 1 &&
               net.ops[static_cast<size_t>(reader[static_cast<size_t>(cur)])].type == OpType::Pool) {
            cur = reader[static_cast<size_t>(cur)];
            layer.out_hw = static_cast<double>(net.ops[static_cast<size_t>(cur)].out_shape.spatial());
        }
    }
    // Weighted predecessors: walk back through non-weighted operators.
    // visited_by[op] = the last layer whose walk reached op (one array for all walks, not one per layer).
    std::vector<int> visited_by(net.ops.size(), -1), stack;
    for (size_t l = 0; l < table.layers.size(); ++l) {
        auto& layer = table.layers[l];
        const auto& inputs = net.ops[static_cast<size_t>(layer.op_id)].input_ids;
        stack.assign(inputs.begin(), inputs.end());
        while (!stack.empty()) {
            const int id = stack.back();
            stack.pop_back();
            if (id < 0 || visited_by[static_cast<size_t>(id)] == static_cast<int>(l)) continue;
            visited_by[static_cast<size_t>(id)] = static_cast<int>(l);
            if (layer_of[static_cast<size_t>(id)] >= 0) {
                layer.preds.push_back(layer_of[static_cast<size_t>(id)]);
                continue;
            }
            for (int p : net.ops[static_cast<size_t>(id)].input_ids) stack.push_back(p);
        }
        std::sort(layer.preds.begin(), layer.preds.end());
    }
    findShortcuts(net, layer_of, table);
    return table;
}

}  // namespace partita
