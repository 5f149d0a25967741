#include "core/mpt/cost.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include "core/util/enum_names.h"
#include "core/util/limits.h"
#include "core/util/ranges.h"

namespace partita::mpt {

namespace {

// Additions plus non-unit multiplications of y = M x for one vector: a sparse transform.
double ops(const RMatrix& m, bool by_columns) {
    double n = 0;
    const size_t rows = by_columns ? m[0].size() : m.size(), cols = by_columns ? m.size() : m[0].size();
    for (size_t i = 0; i < rows; ++i) {
        int nnz = 0;
        for (size_t j = 0; j < cols; ++j) {
            const Rational v = by_columns ? m[j][i] : m[i][j];
            if (v == Rational(0)) continue;
            ++nnz;
            n += (v == Rational(1) || v == Rational(-1)) ? 0 : 1;
        }
        n += nnz > 0 ? nnz - 1 : 0;
    }
    return n;
}

// Per-tile transform FLOPs for one channel (or one weight pair), counted on the actual matrices [A].
struct TileOps {
    double input = 0, output = 0, grad_out = 0, grad_in = 0, weight_back = 0;
};
TileOps tileOps(const WinogradSize& f) {
    static std::mutex lock;
    static std::map<std::pair<int, int>, TileOps> cache;
    const std::lock_guard<std::mutex> hold(lock);
    const auto key = std::make_pair(f.m, f.r);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    const WinogradMatrices w = winogradMatrices(f);
    const double T = f.tile(), m = f.m, r = f.r;
    TileOps t;
    t.input = 2 * T * ops(w.BT, false);            // B^T x B
    t.output = (T + m) * ops(w.AT, false);         // A^T Y A
    t.grad_out = (m + T) * ops(w.AT, true);        // A dy A^T into the Winograd domain
    t.grad_in = 2 * T * ops(w.BT, true);           // B dX B^T back to the spatial domain
    t.weight_back = (r + T) * ops(w.G, true);      // G^T dW G
    return cache[key] = t;
}

// Vector-unit FLOPs of the transforms per phase for `images` images.
struct TransformFlops {
    double fprop = 0, bprop = 0, update = 0;
};
TransformFlops transformFlops(const MptLayer& l, const WinogradSize& f, double images, double tiles,
                              bool spatial_update) {
    const TileOps o = tileOps(f);
    TransformFlops t;
    t.fprop = images * tiles * (l.in_ch * o.input + l.out_ch * o.output);
    t.bprop = images * tiles * (l.out_ch * o.grad_out + l.in_ch * o.grad_in);
    // Updating spatial w needs G^T dW G for every weight; a Winograd layer updates W directly.
    if (spatial_update) t.update = l.in_ch * l.out_ch * o.weight_back;
    return t;
}

double phaseTime(double compute, double comm, Overlap o) { return o == Overlap::Sum ? compute + comm : std::max(compute, comm); }

void finish(LayerCost& c, double macs_per_phase, const TransformFlops& tf, double dram_bytes, const MptLayer& l,
            const MptParams& p, double weight_s, const double tile_s[4]) {
    const WorkerParams& w = p.worker;
    const double mac_rate = static_cast<double>(w.array_dim) * w.array_dim * w.freq_hz * w.utilisation;
    const double vec_rate = w.vector_flops_per_cycle * w.freq_hz;
    // The vector unit and the array work on different tiles concurrently unless told otherwise [A].
    auto busy = [&](double vec_flops) {
        const double a = macs_per_phase / mac_rate;
        if (w.transform_unit == TransformUnit::Dedicated) return a;  // never the bottleneck (M1)
        const double v = vec_flops / vec_rate;
        return w.transforms_concurrent ? std::max(a, v) : a + v;
    };
    const double fprop = busy(tf.fprop), bprop = busy(tf.bprop), update = busy(tf.update);
    c.macs = 3 * macs_per_phase;
    c.compute_s = fprop + bprop + update;
    c.weight_comm_s = weight_s;
    c.tile_comm_s = tile_s[0] + tile_s[1] + tile_s[2] + tile_s[3];
    c.total_s = phaseTime(fprop, tile_s[0] + tile_s[1], w.overlap) + phaseTime(bprop, tile_s[2] + tile_s[3], w.overlap) +
                phaseTime(update, weight_s, w.overlap);
    const double flops_vec = tf.fprop + tf.bprop + tf.update;
    c.energy.compute_J = (c.macs + flops_vec / 2) * (w.e_mul_pj + w.e_add_pj) * 1e-12;
    // Each operand enters the S x S array once per row or column it feeds [A].
    c.energy.sram_J = 2 * c.macs / w.array_dim * p.bytes_per_element * w.e_sram_pj_per_B * 1e-12;
    c.energy.dram_J = dram_bytes * w.e_dram_pj_per_B * 1e-12;
    c.energy.link_J = c.volume.total() * p.bytes_per_element * 8 * w.e_link_pj_per_bit * 1e-12 +
                      w.idle_link_W * c.total_s;
    (void)l;
}

}  // namespace

namespace {
constexpr EnumName<Overlap> kCostOverlaps[] = {{Overlap::Sum, "sum"}, {Overlap::Max, "max"}};
constexpr EnumName<TransformUnit> kUnits[] = {{TransformUnit::Dedicated, "dedicated"}, {TransformUnit::Vector, "vector"}};
}  // namespace

const char* overlapName(Overlap o) { return enumName(kCostOverlaps, o); }
Overlap parseOverlap(const std::string& name) {
    if (auto o = parseEnum(kCostOverlaps, name)) return *o;
    throw std::invalid_argument("unknown overlap '" + name + "' (use max or sum)");
}
const char* transformUnitName(TransformUnit t) { return enumName(kUnits, t); }
TransformUnit parseTransformUnit(const std::string& name) {
    if (auto t = parseEnum(kUnits, name)) return *t;
    throw std::invalid_argument("unknown transform unit '" + name + "' (use dedicated or vector)");
}

void checkParams(const MptParams& p) {
    if (p.p < 1) throw std::invalid_argument("p must be a positive number of workers");
    if (!(p.batch >= 1) || p.batch != std::floor(p.batch)) throw std::invalid_argument("batch must be a positive integer");
    if (p.batch > static_cast<double>(limits::kBatch))
        throw std::invalid_argument("batch must be at most " + std::to_string(limits::kBatch));
    if (p.collective_passes < 1) throw std::invalid_argument("collective_passes must be at least 1");
    if (!(p.bytes_per_element > 0)) throw std::invalid_argument("bytes_per_element must be positive");
    if (p.worker.array_dim < 1 || !(p.worker.freq_hz > 0) || !(p.worker.utilisation > 0 && p.worker.utilisation <= 1) ||
        !(p.worker.vector_flops_per_cycle > 0))
        throw std::invalid_argument("worker: array size, clock, utilisation (0, 1] and vector rate must be positive");
    // The limits (docs/formats/limits.md), so that every time and energy formed from them is finite.
    const auto check = [](double v, const Range& r, const std::string& what) {
        if (const std::string why = rangeProblem(v, r); !why.empty()) throw std::invalid_argument(what + " " + why);
    };
    check(p.bytes_per_element, ranges::kBytesPerElement, "bytes_per_element");
    check(p.collective_passes, {1, 64, ""}, "collective_passes");
    const WorkerParams& w = p.worker;
    check(w.array_dim, {1, static_cast<double>(limits::kDimension), ""}, "worker: array_dim");
    check(w.freq_hz, {limits::kRateMin, limits::kRateMax, " Hz"}, "worker: freq_hz");
    check(w.utilisation, ranges::kEfficiency, "worker: utilisation");
    check(w.vector_flops_per_cycle, ranges::kVectorFlopsPerCycle, "worker: vector_flops_per_cycle");
    check(w.e_mul_pj, ranges::kEnergyPj, "worker: e_mul_pj");
    check(w.e_add_pj, ranges::kEnergyPj, "worker: e_add_pj");
    check(w.e_sram_pj_per_B, ranges::kEnergyPj, "worker: e_sram_pj_per_B");
    check(w.e_dram_pj_per_B, ranges::kEnergyPj, "worker: e_dram_pj_per_B");
    check(w.e_link_pj_per_bit, ranges::kEnergyPj, "worker: e_link_pj_per_bit");
    check(w.idle_link_W, {0, 1e6, " W"}, "worker: idle_link_W");
    checkFactors(p.factors);
    checkNetwork(p.network);
}

WinogradSize multiGroupTransform(int r) { return {2, r}; }
WinogradSize singleGroupTransform(int r) { return r == 3 ? WinogradSize{4, 3} : WinogradSize{2, r}; }

LayerCost mptCost(const MptLayer& l, const GridConfig& g, const WinogradSize& f, bool reduction, const MptParams& p,
                  double cluster_bw) {
    checkParams(p);
    if (!l.winograd) throw std::invalid_argument("layer '" + l.name + "' is not Winograd-eligible (3x3/5x5, stride 1, same)");
    if (f.r != l.kernel) throw std::invalid_argument("layer '" + l.name + "': transform " + f.name() + " does not match its kernel");
    const int T = f.tile(), T2 = f.tileElements();
    const GridCheck check = checkGrid(g, p.p, T2, p.batch);
    if (!check.valid()) throw std::invalid_argument("layer '" + l.name + "': " + check.errors.front());
    const WinogradCounts wc = winogradCounts(f, p.batch, l.in_ch, l.out_ch, l.height, l.width);
    LayerCost c;
    c.grid = g;
    c.winograd = true;
    c.f = f;
    c.buildable = paperBuildable(g);
    c.line_predictable = linePredictable(T, g.n_g);
    c.warnings = check.warnings;
    const double ng = g.n_g, nc = g.n_c;
    const bool spatial = g.n_g == 1 && p.single_group_weight_domain == WeightDomain::Spatial;
    const double weights = spatial ? wc.spatial_weights : wc.weights / ng;
    c.volume.weight = p.collective_passes * weights * (nc - 1) / nc;
    auto tile = [&](double tensor) { return tensor / (ng * nc) * (ng - 1) / ng; };
    double gx = tile(wc.output_tiles), gdx = tile(wc.input_tiles);
    if (p.source_side_1d && c.line_predictable && g.n_g > 1) {
        gx *= static_cast<double>(f.m) / T;
        gdx *= static_cast<double>(f.m) / T;
    }
    c.volume.scatter_x = tile(wc.input_tiles);
    c.volume.scatter_dy = tile(wc.output_tiles);
    c.volume.gather_y = gx;
    c.volume.gather_dx = gdx;
    if (p.winograd_domain_join && l.join_input && g.n_g > 1) {
        c.volume.gather_y = gx = 0;
        c.volume.scatter_dy = 0;
    }
    if (reduction && g.n_g > 1) {
        const ReductionFactors& rf = p.factors;
        const bool one_d = c.line_predictable;
        const double keep_s = 1 - (one_d ? rf.scatter_1d : rf.scatter_2d);
        const double keep_g = 1 - (one_d ? rf.gather_1d : rf.gather_2d);
        const double bits = rf.charge_prediction_bits ? (one_d ? rf.bits_1d : rf.bits_2d) / 32.0 : 0.0;
        c.volume.scatter_x *= keep_s;
        c.volume.scatter_dy *= keep_s;
        c.volume.gather_y = gx * keep_g + gx * bits;
        c.volume.gather_dx = gdx * keep_g + gdx * bits;
        c.reduced = true;
    }
    const double B = p.bytes_per_element;
    const double bw_ring = ringBandwidth(g.n_g, false, p.network);
    const double weight_s = ringTime(weights * (nc - 1) / nc * B, g.n_c, p.collective_passes, bw_ring, p.network);
    if (g.n_g > 1 && cluster_bw <= 0) cluster_bw = clusterBandwidth(g.n_g, p.network);
    const double tile_s[4] = {clusterTime(c.volume.scatter_x * B, g.n_g, cluster_bw, p.network),
                              clusterTime(c.volume.gather_y * B, g.n_g, cluster_bw, p.network),
                              clusterTime(c.volume.scatter_dy * B, g.n_g, cluster_bw, p.network),
                              clusterTime(c.volume.gather_dx * B, g.n_g, cluster_bw, p.network)};
    const double macs = (p.batch / nc) * wc.tiles * maxElementsPerGroup(T, g.n_g) * l.in_ch * l.out_ch;
    const double images = p.batch / p.p;  // each worker owns B/p whole images [R]
    const TransformFlops tf = transformFlops(l, f, images, wc.tiles, spatial);
    // DRAM [A]: the held weights once per phase, plus the worker's tile slices in and out.
    const double dram = (3 * (spatial ? wc.spatial_weights : wc.weights / ng) +
                         2 * (wc.input_tiles + wc.output_tiles) / p.p) * B;
    finish(c, macs, tf, dram, l, p, weight_s, tile_s);
    return c;
}

LayerCost dataParallelCost(const MptLayer& l, bool winograd, const WinogradSize& f, const MptParams& p) {
    checkParams(p);
    LayerCost c;
    c.grid = {1, p.p};
    c.data_parallel = true;
    c.winograd = winograd && l.winograd;
    c.f = f;
    const double n = p.p, B = p.bytes_per_element;
    c.volume.weight = p.collective_passes * l.spatialWeights() * (n - 1) / n;
    const double weight_s = ringTime(l.spatialWeights() * (n - 1) / n * B, p.p, p.collective_passes,
                                     ringBandwidth(1, true, p.network), p.network);
    const double tile_s[4] = {0, 0, 0, 0};
    const double images = p.batch / n;
    if (c.winograd) {
        if (f.r != l.kernel) throw std::invalid_argument("layer '" + l.name + "': transform " + f.name() + " does not match its kernel");
        const WinogradCounts wc = winogradCounts(f, p.batch, l.in_ch, l.out_ch, l.height, l.width);
        const double macs = images * wc.tiles * f.tileElements() * l.in_ch * l.out_ch;
        const double dram = (3 * wc.spatial_weights + 2 * (wc.input_tiles + wc.output_tiles) / n) * B;
        finish(c, macs, transformFlops(l, f, images, wc.tiles, true), dram, l, p, weight_s, tile_s);
    } else {
        const double macs = images * l.directMacsPerImage();
        const double dram = (3 * l.spatialWeights() + 2 * images * l.height * l.width * (l.in_ch + l.out_ch)) * B;
        finish(c, macs, TransformFlops{}, dram, l, p, weight_s, tile_s);
    }
    return c;
}

}  // namespace partita::mpt
