#include "core/sim/lowering.h"

#include "core/sim/baselines.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

// The configuration of one weighted layer: one piece per leaf group of the bisection.
OpConfig lowerLayer(const Grid& grid, int layer, const std::string& name) {
    const int levels = grid.levels();
    OpConfig c;
    for (int h = 0; h < levels; ++h) {
        const Cell& cell = grid.at(h, layer);
        const std::string where = "layer '" + name + "' at level H" + std::to_string(h + 1);
        if (cell.ratio != 0.5)
            throw Error(where + " has ratio " + std::to_string(cell.ratio) + "; SOAP lowering needs equal halves (1/2)");
        if (cell.split == Split::Input) c.reduce *= 2;
        else c.degree[cell.split == Split::Batch ? 0 : 1] *= 2;
    }
    c.devices.assign(static_cast<size_t>(c.parts()), 0);
    // Walk every leaf: its level bits give both the device and the piece coordinates.
    for (int leaf = 0; leaf < (1 << levels); ++leaf) {
        Degrees coord{0, 0, 0, 0};
        int slice = 0;  // input-channel slice (Type-II levels)
        for (int h = 0; h < levels; ++h) {
            const int bit = (leaf >> (levels - 1 - h)) & 1;
            const Split split = grid.split(h, layer);
            int& x = split == Split::Input ? slice : coord[split == Split::Batch ? 0 : 1];
            x = 2 * x + bit;  // earlier levels are the more significant halves
        }
        c.devices[static_cast<size_t>(c.index(coord) + slice * c.pieces())] = leaf;
    }
    return c;
}

}  // namespace

SoapStrategy lowerGrid(const Network& net, const LayerTable& layers, const Grid& grid, std::int64_t batch,
                       int devices) {
    if (grid.layers() != static_cast<int>(layers.size()))
        throw Error("the grid has " + std::to_string(grid.layers()) + " layers but network '" + net.name + "' has " +
                    std::to_string(layers.size()) + " weighted layers");
    if (grid.levels() < 0 || grid.levels() > 20 || (1 << grid.levels()) > devices)
        throw Error("a grid of " + std::to_string(grid.levels()) + " levels needs 2^" + std::to_string(grid.levels()) +
                    " devices; the topology has " + std::to_string(devices));
    const int used = 1 << grid.levels();
    SoapStrategy s = dataParallelStrategy(net, batch, used);  // the fallback for operators without weights
    std::vector<bool> weighted(net.ops.size(), false);
    for (size_t l = 0; l < layers.size(); ++l) {
        const auto op = static_cast<size_t>(layers[l].op_id);
        s.ops[op] = lowerLayer(grid, static_cast<int>(l), layers[l].name);
        weighted[op] = true;
        validateConfig(net, static_cast<int>(op), batch, s.ops[op], devices);
    }
    // Operators are in topological order, so a producer is configured before its consumers.
    for (size_t i = 0; i < net.ops.size(); ++i) {
        if (weighted[i] || net.ops[i].input_ids.empty() || net.ops[i].input_ids.front() < 0) continue;
        OpConfig producer = s.ops[static_cast<size_t>(net.ops[i].input_ids.front())];
        // After a reduction the summed pieces live on each piece's first device.
        producer.devices.resize(static_cast<size_t>(producer.pieces()));
        producer.reduce = 1;
        try {
            validateConfig(net, static_cast<int>(i), batch, producer, devices);
            s.ops[i] = producer;
        } catch (const Error&) {
            // e.g. a concat whose channel count the producer's split does not divide: keep data parallelism.
        }
    }
    return s;
}

SoapStrategy lowerPlan(const Network& net, const LayerTable& layers, const PlanTree& plan, std::int64_t batch,
                       int devices) {
    if (!plan.uniform)
        throw Error("the " + std::string(schemeLabel(plan.scheme)) +
                    " plan differs between nodes of one level (unequal accelerators); a SOAP strategy gives each "
                    "operator one configuration, so only plans whose levels are uniform can be simulated");
    return lowerGrid(net, layers, plan.grid, batch, devices);
}

}  // namespace partita::sim
