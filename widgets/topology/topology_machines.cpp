// The Nodes placement (topology_layout.h): a multi-node machine as one box per node in a grid,
// each holding its devices and its own switches, with the switches between nodes above. A flat
// tree of 128 nodes x 8 GPUs is a strip thousands of boxes wide; a grid of node boxes reads at a
// glance and keeps each node's links inside its box.
#include <algorithm>
#include <cmath>
#include <map>
#include <queue>

#include "widgets/topology/topology_layout.h"

namespace partita::view {

namespace {

constexpr double kGapX = 22, kGapY = 26;    // between vertex boxes inside a node
constexpr double kMachinesPadX = 14, kPadTop = 12;  // inside a node's box
constexpr double kLabel = 20;               // the node's name, under its devices
constexpr double kBoxGapX = 34, kBoxGapY = 34;  // between node boxes
constexpr double kFan = 70;                 // above the grid: room for the links up to the switches
constexpr double kMachinesMargin = 20;

// Columns of a node's devices: one row up to 4, two up to 16, then about twice as wide as tall.
int deviceColumns(int n) {
    if (n <= 4) return std::max(n, 1);
    if (n <= 16) return (n + 1) / 2;
    return static_cast<int>(std::ceil(std::sqrt(2.0 * n)));
}

// Hops from the nearest device to every vertex (-1: no link leads to a device).
std::vector<int> levels(const sim::Topology& t, const std::vector<std::vector<int>>& next) {
    std::vector<int> level(next.size(), -1);
    std::queue<int> q;
    for (int d = 0; d < t.deviceCount(); ++d) {
        level[static_cast<size_t>(d)] = 0;
        q.push(d);
    }
    while (!q.empty()) {
        const int v = q.front();
        q.pop();
        for (int w : next[static_cast<size_t>(v)])
            if (level[static_cast<size_t>(w)] < 0) {
                level[static_cast<size_t>(w)] = level[static_cast<size_t>(v)] + 1;
                q.push(w);
            }
    }
    return level;
}

// Vertices in rows centred on `centre_x` from `top`, at most `per_row` to a row; returns the y below.
double placeRows(std::vector<Point>& centre, const std::vector<int>& vertices, int per_row, double centre_x, double top,
                 double box_w, double box_h) {
    const double step_x = box_w + kGapX, step_y = box_h + kGapY;
    const int n = static_cast<int>(vertices.size());
    for (int k = 0; k < n; ++k) {
        const int row = k / per_row, in_row = std::min(per_row, n - row * per_row);
        const double left = centre_x - (in_row * step_x - kGapX) / 2;
        centre[static_cast<size_t>(vertices[static_cast<size_t>(k)])] = {left + (k % per_row) * step_x + box_w / 2,
                                                                         top + row * step_y + box_h / 2};
    }
    const int rows = (n + per_row - 1) / per_row;
    return top + rows * step_y;
}

}  // namespace

bool placeMachines(TopologyPlacement& out, const sim::Topology& t, const std::vector<TopologyEdge>& edges, double box_w,
                   double box_h, double area_aspect) {
    const int d = t.deviceCount(), n = t.vertexCount();
    std::map<int, int> machine_index;  // node -> machine
    for (const auto& dev : t.devices) machine_index.emplace(dev.node, 0);
    if (machine_index.size() < 2) return false;
    std::vector<MachineBox> machines;
    for (auto& [node, index] : machine_index) {
        index = static_cast<int>(machines.size());
        machines.push_back({node, 0, 0, 0, 0, 0, 0, 0});
    }
    std::vector<std::vector<int>> next(static_cast<size_t>(n));
    for (const TopologyEdge& e : edges) {
        next[static_cast<size_t>(e.a)].push_back(e.b);
        next[static_cast<size_t>(e.b)].push_back(e.a);
    }
    // A switch belongs to a machine when everything one level below it (nearer the devices) does.
    const std::vector<int> level = levels(t, next);
    std::vector<int> machine_of(static_cast<size_t>(n), -1);
    for (int v = 0; v < d; ++v) machine_of[static_cast<size_t>(v)] = machine_index[t.devices[static_cast<size_t>(v)].node];
    std::vector<int> by_level;
    for (int v = d; v < n; ++v)
        if (level[static_cast<size_t>(v)] > 0) by_level.push_back(v);
    std::stable_sort(by_level.begin(), by_level.end(),
                     [&](int a, int b) { return level[static_cast<size_t>(a)] < level[static_cast<size_t>(b)]; });
    for (int s : by_level) {
        int m = -2;
        for (int w : next[static_cast<size_t>(s)]) {
            if (level[static_cast<size_t>(w)] != level[static_cast<size_t>(s)] - 1) continue;
            const int mw = machine_of[static_cast<size_t>(w)];
            m = m == -2 || m == mw ? mw : -1;
            if (m < 0) break;
        }
        machine_of[static_cast<size_t>(s)] = std::max(m, -1);
    }
    // Nodes joined directly (device to device, or through one node's own switch) are not drawn apart.
    for (const TopologyEdge& e : edges) {
        const int ma = machine_of[static_cast<size_t>(e.a)], mb = machine_of[static_cast<size_t>(e.b)];
        if (ma >= 0 && mb >= 0 && ma != mb) return false;
    }

    // Each machine's content: its switches by level (highest on top), then its devices.
    std::vector<std::map<int, std::vector<int>, std::greater<>>> switch_rows(machines.size());
    std::vector<std::vector<int>> devices(machines.size());
    std::map<int, std::vector<int>, std::greater<>> between;  // switches between machines, by level (-1 last)
    for (int v = 0; v < n; ++v) {
        const int m = machine_of[static_cast<size_t>(v)];
        if (v < d) devices[static_cast<size_t>(m)].push_back(v);
        else if (m >= 0) switch_rows[static_cast<size_t>(m)][level[static_cast<size_t>(v)]].push_back(v);
        else between[level[static_cast<size_t>(v)] < 0 ? -1 : level[static_cast<size_t>(v)]].push_back(v);
    }
    const double step_x = box_w + kGapX, step_y = box_h + kGapY;
    double inner_w = 0, inner_h = 0;
    for (size_t m = 0; m < machines.size(); ++m) {
        const int count = static_cast<int>(devices[m].size()), cols = deviceColumns(count);
        double w = cols * step_x - kGapX, h = ((count + cols - 1) / cols) * step_y - kGapY;
        for (const auto& [lv, row] : switch_rows[m]) {
            w = std::max(w, static_cast<double>(std::min<size_t>(row.size(), static_cast<size_t>(std::max(cols, 4)))) * step_x - kGapX);
            h += std::ceil(static_cast<double>(row.size()) / std::max(cols, 4)) * step_y;
        }
        inner_w = std::max(inner_w, w);
        inner_h = std::max(inner_h, h);
        machines[m].devices = count;
    }
    const double cell_w = inner_w + 2 * kMachinesPadX, cell_h = inner_h + kPadTop + kLabel;
    const int count = static_cast<int>(machines.size());
    // The columns that draw the machine largest in an area of the given aspect (the switch rows
    // above counted at the width they would get).
    size_t switches_between = 0;
    for (const auto& [lv, row] : between)
        if (lv >= 0) switches_between += row.size();
    const auto scaleFor = [&](int c) {
        const int r = (count + c - 1) / c;
        const double w = c * (cell_w + kBoxGapX) - kBoxGapX;
        const auto per = static_cast<size_t>(std::max(1.0, (w + kGapX) / (2 * step_x)));
        const double band = switches_between ? static_cast<double>((switches_between + per - 1) / per) * step_y + kFan : 0;
        const double h = band + r * (cell_h + kBoxGapY) - kBoxGapY;
        return std::min(area_aspect / (w + 2 * kMachinesMargin), 1.0 / (h + 2 * kMachinesMargin));
    };
    int cols = 1;
    for (int c = 2; c <= count; ++c)
        if (scaleFor(c) > scaleFor(cols) * 1.0001) cols = c;
    const int rows = (count + cols - 1) / cols;
    cols = (count + rows - 1) / rows;  // no emptier last row than needed
    const double grid_w = cols * (cell_w + kBoxGapX) - kBoxGapX;

    TopologyPlacement p;
    p.shape = TopologyShape::Nodes;
    p.centre.assign(static_cast<size_t>(n), {});
    // The switches between machines, highest level on top, spread over the grid's width.
    const int per_row = std::max(1, static_cast<int>((grid_w + kGapX) / (2 * step_x)));
    double y = kMachinesMargin, widest = grid_w;
    for (const auto& [lv, row] : between) {
        if (lv < 0) continue;  // unlinked: below the grid
        const int in_row = std::min(per_row, static_cast<int>(row.size()));
        for (size_t k = 0; k < row.size(); ++k) {
            const int r = static_cast<int>(k) / per_row, c = static_cast<int>(k) % per_row;
            const int here = std::min(in_row, static_cast<int>(row.size()) - r * per_row);
            p.centre[static_cast<size_t>(row[k])] = {kMachinesMargin + grid_w * (c + 0.5) / here, y + r * step_y + box_h / 2};
        }
        y += std::ceil(static_cast<double>(row.size()) / per_row) * step_y;
    }
    const double grid_top = between.empty() || (between.size() == 1 && between.begin()->first < 0) ? kMachinesMargin : y - kGapY + kFan;
    for (int m = 0; m < count; ++m) {
        MachineBox& b = machines[static_cast<size_t>(m)];
        b.row = m / cols;
        b.column = m % cols;
        b.x = kMachinesMargin + b.column * (cell_w + kBoxGapX);
        b.y = grid_top + b.row * (cell_h + kBoxGapY);
        b.w = cell_w;
        b.h = cell_h;
        const double cx = b.x + cell_w / 2;
        const int dcols = deviceColumns(b.devices);
        double top = b.y + kPadTop;
        for (const auto& [lv, row] : switch_rows[static_cast<size_t>(m)])
            top = placeRows(p.centre, row, std::max(dcols, 4), cx, top, box_w, box_h);
        placeRows(p.centre, devices[static_cast<size_t>(m)], dcols, cx, top, box_w, box_h);
    }
    double bottom = grid_top + rows * (cell_h + kBoxGapY) - kBoxGapY;
    if (const auto it = between.find(-1); it != between.end())
        bottom = placeRows(p.centre, it->second, std::max(1, static_cast<int>((grid_w + kGapX) / step_x)),
                           kMachinesMargin + grid_w / 2, bottom + kBoxGapY, box_w, box_h) - kGapY;
    p.width = widest + 2 * kMachinesMargin;
    p.height = bottom + kMachinesMargin;
    p.bulge_x = box_w / 2 + 0.45 * kGapX;
    p.bulge_y = box_h / 2 + 0.45 * kGapY;
    p.description = std::to_string(count) + " nodes in a " + std::to_string(cols) + " \u00d7 " + std::to_string(rows) + " grid";
    p.machines = std::move(machines);
    p.machine_of = std::move(machine_of);
    out = std::move(p);
    return true;
}

}  // namespace partita::view
