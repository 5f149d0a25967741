#include "core/l2s/evaluate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/util/enum_names.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace partita::l2s {

namespace {
constexpr EnumName<Scheme> kEvaluateSchemes[] = {
    {Scheme::Traditional, "traditional"}, {Scheme::Grouped, "grouped"}, {Scheme::Sparse, "sparse"}};
}  // namespace

const char* schemeName(Scheme s) { return enumName(kEvaluateSchemes, s); }

Scheme parseScheme(const std::string& name) {
    if (auto s = parseEnum(kEvaluateSchemes, name)) return *s;
    throw std::invalid_argument("strategy '" + name + "': expected traditional, grouped or sparse");
}

Strategy traditionalStrategy(const LayerTable& layers) { return Strategy(layers.size()); }

std::string groupingProblem(const LayerTable& layers, size_t l, int n) {
    const WeightedLayer& w = layers[l];
    if (l == 0) return w.name + " reads the input image, so it cannot be grouped";
    auto divides = [n](double v) { return std::fmod(v, n) == 0; };
    if (!divides(layers[l - 1].c_out))
        return layers[l - 1].name + " has " + std::to_string(static_cast<long long>(layers[l - 1].c_out)) +
               " channels, not divisible by " + std::to_string(n) + " cores";
    if (!divides(w.c_in) || !divides(w.c_out))
        return w.name + ": C_in = " + std::to_string(static_cast<long long>(w.c_in)) + " and C_out = " +
               std::to_string(static_cast<long long>(w.c_out)) + " must both be divisible by " + std::to_string(n);
    return {};
}

Evaluator::Evaluator(LayerTable layers, Mesh mesh, CoreParams core)
    : layers_(std::move(layers)), mesh_(std::move(mesh)), core_(core) {
    if (layers_.size() == 0) throw Error("network " + layers_.network + ": no conv or fc layers");
    if (!layers_.isChain())
        throw Error("network " + layers_.network + ": Learn-to-Scale needs a chain of layers (no branches)");
    // Sizes that wrapped around in 64-bit arithmetic upstream arrive negative; channels are counted in int.
    for (const WeightedLayer& w : layers_.layers) {
        const std::pair<const char*, double> sizes[] = {{"C_in", w.c_in},     {"C_out", w.c_out},
                                                        {"input size", w.in_hw}, {"output size", w.out_hw},
                                                        {"conv size", w.conv_hw}, {"kernel area", w.kernel_area}};
        for (const auto& [what, v] : sizes)
            if (!(v >= 1) || !std::isfinite(v))
                throw Error("network " + layers_.network + ": layer " + w.name + " has " + what + " = " +
                            formatNumber(v) + "; sizes must be positive (the network's sizes overflow)");
        if (w.c_out > std::numeric_limits<int>::max())
            throw Error("network " + layers_.network + ": layer " + w.name + " has " +
                        withCommas(w.c_out) + " output channels, more than the " +
                        withCommas(std::numeric_limits<int>::max()) + " Learn-to-Scale partitions");
    }
}

double Evaluator::allGatherBytes(size_t l) const {
    if (l == 0 || l >= layers_.size()) return 0;
    const WeightedLayer& prev = layers_[l - 1];
    return prev.c_out * prev.out_hw * core_.bytes_per_element * (mesh_.cores() - 1);
}

BoundaryRow Evaluator::evaluateLayer(size_t l, const LayerChoice& choice) const {
    if (l >= layers_.size()) throw std::out_of_range("layer index " + std::to_string(l) + " out of range");
    const WeightedLayer& w = layers_[l];
    const int n = mesh_.cores();
    const auto un = static_cast<size_t>(n);
    const MeshParams& mp = mesh_.params();
    BoundaryRow r;
    r.layer = w.name;
    r.scheme = choice.scheme;
    r.traffic.assign(un, std::vector<double>(un, 0.0));
    r.link_load = r.traffic;

    if (l == 0 && choice.scheme != Scheme::Traditional)
        throw std::invalid_argument("layer " + w.name + ": the first layer reads the image; only traditional applies");
    if (choice.scheme == Scheme::Grouped) {
        const std::string why = groupingProblem(layers_, l, n);
        if (!why.empty()) throw std::invalid_argument("layer " + w.name + " cannot be grouped: " + why);
    }
    if (choice.scheme == Scheme::Sparse) {
        bool ok = choice.nz.size() == un;
        for (const auto& row : choice.nz) ok = ok && row.size() == un;
        if (!ok) throw std::invalid_argument("layer " + w.name + ": the sparse mask must be " + std::to_string(n) + " x " +
                                             std::to_string(n));
    }

    // Producer slices |out_i| of the previous layer (nothing before layer 0).
    std::vector<double> out(un, 0.0);
    double out_total = 0;
    if (l > 0) {
        const std::vector<int> blocks = balancedBlocks(static_cast<int>(layers_[l - 1].c_out), n);
        for (size_t i = 0; i < un; ++i) out_total += out[i] = blocks[i] * layers_[l - 1].out_hw;
        r.traditional_B = allGatherBytes(l);
    }

    std::vector<double> fraction(un, 1.0);
    if (choice.scheme == Scheme::Grouped) fraction.assign(un, 1.0 / n);
    if (choice.scheme == Scheme::Sparse && core_.skip_zero_blocks && out_total > 0)
        for (size_t j = 0; j < un; ++j) {
            double kept = 0;
            for (size_t i = 0; i < un; ++i) kept += choice.nz[i][j] ? out[i] : 0;
            fraction[j] = kept / out_total;
        }
    r.cores = coreLoads(w, n, fraction, core_);
    for (const CoreLoad& c : r.cores) {
        r.compute_cycles = std::max(r.compute_cycles, c.compute_cycles);
        r.macs += c.macs;
        r.weights += c.weights;
    }

    // XY link loads by difference arrays: a message adds its bytes to a run of links along its
    // source row and then along its destination column, O(1) per message instead of O(hops).
    // Index: the core where a run starts (+) or stops (-); prefix sums along rows and columns.
    const int width = mesh_.width();
    struct Runs {
        std::vector<double> east, west, south, north;
    };
    Runs run_B{std::vector<double>(un, 0.0), std::vector<double>(un, 0.0), std::vector<double>(un, 0.0),
               std::vector<double>(un, 0.0)};
    Runs run_flits = run_B;
    auto addRuns = [&](Runs& runs, size_t i, size_t j, double v) {
        const int xi = mesh_.xOf(static_cast<int>(i)), yi = mesh_.yOf(static_cast<int>(i));
        const int xj = mesh_.xOf(static_cast<int>(j)), yj = mesh_.yOf(static_cast<int>(j));
        auto at = [width](int x, int y) { return static_cast<size_t>(y * width + x); };
        if (xj > xi) {
            runs.east[at(xi, yi)] += v;
            runs.east[at(xj, yi)] -= v;
        } else if (xj < xi) {
            runs.west[at(xj, yi)] += v;
            runs.west[at(xi, yi)] -= v;
        }
        if (yj > yi) {
            runs.south[at(xj, yi)] += v;
            runs.south[at(xj, yj)] -= v;
        } else if (yj < yi) {
            runs.north[at(xj, yj)] += v;
            runs.north[at(xj, yi)] -= v;
        }
    };
    std::vector<double> inject(un, 0.0), eject(un, 0.0);
    for (size_t i = 0; i < un; ++i)
        for (size_t j = 0; j < un; ++j) {
            if (i == j || l == 0 || choice.scheme == Scheme::Grouped) continue;
            if (choice.scheme == Scheme::Sparse && !choice.nz[i][j]) continue;
            const double bytes = out[i] * core_.bytes_per_element;
            if (bytes <= 0) continue;
            r.traffic[i][j] = bytes;
            const int hops = mesh_.distance(static_cast<int>(i), static_cast<int>(j));
            const double flits = std::ceil(bytes / mp.flit_bytes);
            r.volume_B += bytes;
            r.byte_hops += bytes * hops;
            r.flits += flits;
            r.packets += std::ceil(flits / mp.packet_flits);
            r.energy_J += flits * (hops * mp.e_link_j + (hops + 1) * mp.e_router_j);
            r.longest_hops = std::max(r.longest_hops, hops);
            inject[i] += flits;
            eject[j] += flits;
            addRuns(run_B, i, j, bytes);
            addRuns(run_flits, i, j, flits);
        }
    std::vector<double> link_B(mesh_.topology().links.size(), 0.0), link_flits(link_B.size(), 0.0);
    auto settle = [&](const Runs& runs, std::vector<double>& per_link) {
        const int height = mesh_.height();
        for (int y = 0; y < height; ++y) {
            double east = 0, west = 0;
            for (int x = 0; x + 1 < width; ++x) {
                const int c = y * width + x;
                east += runs.east[static_cast<size_t>(c)];
                west += runs.west[static_cast<size_t>(c)];
                per_link[static_cast<size_t>(mesh_.linkId(c, c + 1))] = east;
                per_link[static_cast<size_t>(mesh_.linkId(c + 1, c))] = west;
            }
        }
        for (int x = 0; x < width; ++x) {
            double south = 0, north = 0;
            for (int y = 0; y + 1 < height; ++y) {
                const int c = y * width + x;
                south += runs.south[static_cast<size_t>(c)];
                north += runs.north[static_cast<size_t>(c)];
                per_link[static_cast<size_t>(mesh_.linkId(c, c + width))] = south;
                per_link[static_cast<size_t>(mesh_.linkId(c + width, c))] = north;
            }
        }
    };
    settle(run_B, link_B);
    settle(run_flits, link_flits);
    // Busiest link by flits; the lowest link id wins a tie.
    for (size_t k = 0; k < link_B.size(); ++k) {
        const sim::Link& link = mesh_.topology().links[k];
        r.link_load[static_cast<size_t>(link.from)][static_cast<size_t>(link.to)] = link_B[k];
        r.max_link_B = std::max(r.max_link_B, link_B[k]);
        if (link_flits[k] > r.max_link_flits) {
            r.max_link_flits = link_flits[k];
            r.bottleneck_from = link.from;
            r.bottleneck_to = link.to;
        }
    }
    for (size_t c = 0; c < un; ++c) r.max_port_flits = std::max({r.max_port_flits, inject[c], eject[c]});
    const bool burst = mp.comm == CommModel::Burst;
    const double serial = burst || mp.count_ports ? std::max(r.max_link_flits, r.max_port_flits) : r.max_link_flits;
    if (serial > 0)
        r.comm_cycles = std::ceil(serial / (burst ? mp.burst_rate : mp.channels)) +
                        r.longest_hops * (mp.router_cycles + mp.link_cycles);
    return r;
}

Evaluation Evaluator::total(std::vector<BoundaryRow> rows) const {
    Evaluation e;
    e.network = layers_.network;
    e.cores = mesh_.cores();
    e.rows = std::move(rows);
    for (const BoundaryRow& r : e.rows) {
        e.volume_B += r.volume_B;
        e.traditional_B += r.traditional_B;
        e.byte_hops += r.byte_hops;
        e.flits += r.flits;
        e.packets += r.packets;
        e.comm_cycles += r.comm_cycles;
        e.compute_cycles += r.compute_cycles;
        e.energy_J += r.energy_J;
        e.macs += r.macs;
    }
    e.total_cycles = e.comm_cycles + e.compute_cycles;
    e.time_s = e.total_cycles / mesh_.params().clock_hz;
    return e;
}

Evaluation Evaluator::evaluate(const Strategy& strategy) const {
    if (strategy.size() != layers_.size())
        throw std::invalid_argument("strategy has " + std::to_string(strategy.size()) + " entries, network " +
                                    layers_.network + " has " + std::to_string(layers_.size()) + " layers");
    std::vector<BoundaryRow> rows;
    for (size_t l = 0; l < layers_.size(); ++l) rows.push_back(evaluateLayer(l, strategy[l]));
    return total(std::move(rows));
}

Evaluation Evaluator::update(const Evaluation& previous, size_t l, const LayerChoice& choice) const {
    if (previous.rows.size() != layers_.size()) throw std::invalid_argument("update: evaluation of another network");
    std::vector<BoundaryRow> rows = previous.rows;
    rows.at(l) = evaluateLayer(l, choice);
    return total(std::move(rows));
}

Versus versus(const Evaluation& base, const Evaluation& x) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    Versus v;
    v.speedup = x.total_cycles > 0 ? base.total_cycles / x.total_cycles : inf;
    v.comm_speedup = x.comm_cycles > 0 ? base.comm_cycles / x.comm_cycles : (base.comm_cycles > 0 ? inf : 1);
    v.traffic_rate = base.volume_B > 0 ? x.volume_B / base.volume_B : 0;
    v.energy_reduction = base.energy_J > 0 ? 1 - x.energy_J / base.energy_J : 0;
    return v;
}

namespace {
std::vector<std::string> evaluateNames(size_t n) {
    std::vector<std::string> v;
    for (size_t c = 0; c < n; ++c) v.push_back(coreName(static_cast<int>(c)));
    return v;
}
}  // namespace

CommMatrix trafficCommMatrix(const BoundaryRow& row) { return deviceCommMatrix(row.traffic, evaluateNames(row.traffic.size())); }
CommMatrix linkLoadCommMatrix(const BoundaryRow& row) {
    return deviceCommMatrix(row.link_load, evaluateNames(row.link_load.size()));
}

}  // namespace partita::l2s
