#include "widgets/topology/topology_layout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <queue>
#include <tuple>

namespace partita::view {

std::vector<TopologyEdge> topologyEdges(const sim::Topology& t) {
    // Links a->b waiting for their b->a of the same kind; each pair (or lone link) is one edge.
    std::map<std::tuple<int, int, std::string>, std::vector<size_t>> open;
    std::vector<TopologyEdge> out;
    for (size_t l = 0; l < t.links.size(); ++l) {
        const sim::Link& link = t.links[l];
        auto back = open.find({link.to, link.from, link.kind});
        if (back != open.end() && !back->second.empty()) {
            TopologyEdge& e = out[back->second.front()];
            back->second.erase(back->second.begin());
            (link.from == e.a ? e.forward : e.backward) = static_cast<int>(l);
            continue;
        }
        TopologyEdge e;
        e.a = std::min(link.from, link.to);
        e.b = std::max(link.from, link.to);
        (link.from == e.a ? e.forward : e.backward) = static_cast<int>(l);
        open[{link.from, link.to, link.kind}].push_back(out.size());
        out.push_back(e);
    }
    return out;
}

namespace {

// Does every edge step along exactly one dimension of `dims` (by one, or around)?
bool fitsGrid(const std::vector<int>& dims, const std::vector<TopologyEdge>& edges, bool* wrap) {
    std::vector<bool> used(dims.size(), false);
    bool wrapped = false;
    for (const TopologyEdge& e : edges) {
        int a = e.a, b = e.b, moved = -1;
        for (size_t k = 0; k < dims.size(); ++k) {
            const int ca = a % dims[k], cb = b % dims[k];
            a /= dims[k];
            b /= dims[k];
            if (ca == cb) continue;
            const int d = std::abs(ca - cb);
            if (moved >= 0 || (d != 1 && !(d == dims[k] - 1 && dims[k] > 2))) return false;
            moved = static_cast<int>(k);
            if (d != 1) wrapped = true;
        }
        if (moved < 0) return false;  // a loop or a parallel link across dimensions
        used[static_cast<size_t>(moved)] = true;
    }
    if (std::find(used.begin(), used.end(), false) != used.end()) return false;
    *wrap = wrapped;
    return true;
}

// One cycle through every device: the devices in cycle order, else empty.
std::vector<int> ringOrder(const sim::Topology& t, const std::vector<TopologyEdge>& edges) {
    const int n = t.deviceCount();
    if (n < 3 || !t.switches.empty() || static_cast<int>(edges.size()) != n) return {};
    std::vector<std::vector<int>> next(static_cast<size_t>(n));
    for (const TopologyEdge& e : edges) {
        next[static_cast<size_t>(e.a)].push_back(e.b);
        next[static_cast<size_t>(e.b)].push_back(e.a);
    }
    for (const auto& v : next)
        if (v.size() != 2) return {};
    std::vector<int> order{0};
    int prev = -1, at = 0;
    for (int k = 1; k < n; ++k) {
        const auto& v = next[static_cast<size_t>(at)];
        const int go = v[0] != prev ? v[0] : v[1];
        prev = at;
        at = go;
        if (at == 0) return {};  // a shorter cycle: not one ring
        order.push_back(at);
    }
    return order;
}

std::string layoutTimes(const std::vector<int>& dims) {
    std::string s;
    for (size_t k = 0; k < dims.size(); ++k) s += (k ? " \u00d7 " : "") + std::to_string(dims[k]);
    return s;
}

void placeGrid(TopologyPlacement& out, double box_w, double box_h) {
    const int nx = out.dims[0], ny = out.dims.size() > 1 ? out.dims[1] : 1;
    const int nz = out.dims.size() > 2 ? out.dims[2] : 1;
    // Planes of a 3-D grid sit diagonally offset inside each 2-D cell, so the third dimension's
    // edges are short diagonal steps that pass no other device.
    const double step_x = box_w + 22, step_y = box_h + 22;
    const double sx = nz * step_x + (out.wrap ? 50 : 40), sy = nz * step_y + (out.wrap ? 46 : 36);
    const size_t n = out.centre.size();
    for (size_t v = 0; v < n; ++v) {
        const int i = static_cast<int>(v) % nx, j = static_cast<int>(v) / nx % ny, k = static_cast<int>(v) / nx / ny;
        out.centre[v] = {box_w / 2 + 30 + i * sx + k * step_x, box_h / 2 + 30 + j * sy + k * step_y};
    }
    out.width = 60 + (nx - 1) * sx + (nz - 1) * step_x + box_w;
    out.height = 60 + (ny - 1) * sy + (nz - 1) * step_y + box_h;
    out.bulge_x = box_w / 2 + 0.45 * (sx - box_w);
    out.bulge_y = box_h / 2 + 0.45 * (sy - box_h);
    out.description = std::to_string(out.dims.size()) + "-D " + (out.wrap ? "torus " : "mesh ") + layoutTimes(out.dims);
}

void placeRing(TopologyPlacement& out, const std::vector<int>& order, double box_w, double box_h) {
    const double n = static_cast<double>(order.size());
    // Neighbours' boxes clear each other along the circle.
    const double r = std::max(80.0, (std::max(box_w, box_h) + 28) * n / (2 * std::numbers::pi));
    for (size_t k = 0; k < order.size(); ++k) {
        const double a = 2 * std::numbers::pi * static_cast<double>(k) / n - std::numbers::pi / 2;
        out.centre[static_cast<size_t>(order[k])] = {r + box_w / 2 + 20 + r * std::cos(a),
                                                     r + box_h / 2 + 20 + r * std::sin(a)};
    }
    out.width = 2 * r + box_w + 40;
    out.height = 2 * r + box_h + 40;
    out.description = "ring of " + std::to_string(order.size());
}

// Hops from `root` to every vertex (-1: unreachable).
std::vector<int> hops(int vertices, const std::vector<std::vector<int>>& next, int root) {
    std::vector<int> d(static_cast<size_t>(vertices), -1);
    std::queue<int> q;
    d[static_cast<size_t>(root)] = 0;
    q.push(root);
    while (!q.empty()) {
        const int v = q.front();
        q.pop();
        for (int w : next[static_cast<size_t>(v)])
            if (d[static_cast<size_t>(w)] < 0) {
                d[static_cast<size_t>(w)] = d[static_cast<size_t>(v)] + 1;
                q.push(w);
            }
    }
    return d;
}

void placeByGraphviz(TopologyPlacement& out, const sim::Topology& t, const std::vector<TopologyEdge>& edges,
                     double box_w, double box_h) {
    const int vertices = t.vertexCount();
    GraphSpec spec;
    for (int v = 0; v < vertices; ++v) spec.nodes.push_back({"v" + std::to_string(v), {}, box_w, box_h, {}});
    if (out.shape == TopologyShape::Tree) {
        // Ranked from the switch nearest to everything (the fewest hops to the farthest vertex);
        // dot gets one parent edge per vertex, the other edges are drawn without shaping the tree.
        std::vector<std::vector<int>> next(static_cast<size_t>(vertices));
        for (const TopologyEdge& e : edges) {
            next[static_cast<size_t>(e.a)].push_back(e.b);
            next[static_cast<size_t>(e.b)].push_back(e.a);
        }
        int root = t.deviceCount(), best = vertices + 1;
        for (int s = t.deviceCount(); s < vertices; ++s) {
            const auto d = hops(vertices, next, s);
            const int far = *std::max_element(d.begin(), d.end());
            if (std::find(d.begin(), d.end(), -1) == d.end() && far < best) {
                best = far;
                root = s;
            }
        }
        const auto depth = hops(vertices, next, root);
        std::vector<bool> placed(static_cast<size_t>(vertices), false);
        placed[static_cast<size_t>(root)] = true;
        const int deepest = *std::max_element(depth.begin(), depth.end());
        for (int level = 1; level <= deepest; ++level)
            for (const TopologyEdge& e : edges) {
                const int da = depth[static_cast<size_t>(e.a)], db = depth[static_cast<size_t>(e.b)];
                const int up = da < db ? e.a : e.b, down = da < db ? e.b : e.a;
                if (std::abs(da - db) != 1 || depth[static_cast<size_t>(down)] != level || placed[static_cast<size_t>(down)])
                    continue;
                placed[static_cast<size_t>(down)] = true;
                spec.edges.push_back({up, down});
            }
        spec.node_sep = 10;
        spec.rank_sep = 70;
        out.bulge_y = 0.45 * spec.rank_sep + box_h / 2;
        out.bulge_x = out.bulge_y;
        out.description = "tree from " + t.vertexName(root);
    } else {
        for (const TopologyEdge& e : edges) spec.edges.push_back({e.a, e.b});
        spec.engine = "neato";
        out.bulge_x = out.bulge_y = box_h;
        out.description = "general graph (neato)";
    }
    const GraphLayout layout = layoutGraph(spec);
    for (int v = 0; v < vertices; ++v) {
        const Box& b = layout.nodes[static_cast<size_t>(v)];
        out.centre[static_cast<size_t>(v)] = {b.x + b.w / 2 + 20, b.y + b.h / 2 + 20};
    }
    out.width = layout.width + 40;
    out.height = layout.height + 40;
}

}  // namespace

std::vector<int> gridDimensions(const sim::Topology& t, const std::vector<TopologyEdge>& edges, bool* wrap) {
    const int n = t.deviceCount();
    if (!t.switches.empty() || n < 4 || edges.empty()) return {};
    for (int a = 2; a <= n / 2; ++a)
        if (n % a == 0 && fitsGrid({a, n / a}, edges, wrap)) return {a, n / a};
    for (int a = 2; a <= n / 4; ++a)
        for (int b = 2; a * b <= n / 2; ++b)
            if (n % (a * b) == 0 && fitsGrid({a, b, n / (a * b)}, edges, wrap)) return {a, b, n / (a * b)};
    return {};
}

TopologyPlacement placeTopology(const sim::Topology& t, const std::vector<TopologyEdge>& edges, double box_w,
                                double box_h, double area_aspect) {
    TopologyPlacement out;
    out.centre.resize(static_cast<size_t>(t.vertexCount()));
    if (t.vertexCount() == 0) return out;
    if (const auto order = ringOrder(t, edges); !order.empty()) {
        out.shape = TopologyShape::Ring;
        placeRing(out, order, box_w, box_h);
        return out;
    }
    if (auto dims = gridDimensions(t, edges, &out.wrap); !dims.empty()) {
        out.shape = TopologyShape::Grid;
        out.dims = std::move(dims);
        placeGrid(out, box_w, box_h);
        return out;
    }
    if (placeMachines(out, t, edges, box_w, box_h, area_aspect)) return out;
    out.shape = t.switches.empty() ? TopologyShape::Spring : TopologyShape::Tree;
    placeByGraphviz(out, t, edges, box_w, box_h);
    return out;
}

TopologyLoad topologyLoad(const SimulationResult& r) {
    TopologyLoad out;
    const int devices = r.compute_devices, links = r.links;
    out.makespan_s = r.makespan_s;
    out.device_busy_s.assign(r.busy_s.begin(), r.busy_s.begin() + devices);
    out.device_utilisation.assign(r.utilisation.begin(), r.utilisation.begin() + devices);
    out.link_busy_s.assign(r.busy_s.begin() + devices, r.busy_s.begin() + devices + links);
    out.link_utilisation.assign(r.utilisation.begin() + devices, r.utilisation.begin() + devices + links);
    out.link_bytes = r.link_bytes;
    out.link_bytes.resize(static_cast<size_t>(links), 0.0);
    return out;
}

}  // namespace partita::view
