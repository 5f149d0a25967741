#include "core/mpt/prediction.h"

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace partita::mpt {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Interval {
    double value = 0, lo = 0, hi = 0;  // real in [value + lo, value + hi]
};
using IMatrix = std::vector<std::vector<Interval>>;

// a * [lo, hi] keeps its orientation for a >= 0 and swaps it for a < 0 (the paper's two-pass rule).
Interval scale(double a, const Interval& x) {
    if (a == 0) return {};
    return a > 0 ? Interval{a * x.value, a * x.lo, a * x.hi} : Interval{a * x.value, a * x.hi, a * x.lo};
}
void accumulate(Interval& acc, const Interval& x) {
    acc.value += x.value;
    acc.lo += x.lo;
    acc.hi += x.hi;
}

// out[i][v] = sum_u AT[i][u] in[u][v]
IMatrix leftPass(const DMatrix& AT, const IMatrix& in) {
    IMatrix out(AT.size(), std::vector<Interval>(in[0].size()));
    for (size_t i = 0; i < AT.size(); ++i)
        for (size_t u = 0; u < in.size(); ++u)
            for (size_t v = 0; v < in[0].size(); ++v) accumulate(out[i][v], scale(AT[i][u], in[u][v]));
    return out;
}
// out[u][j] = sum_v in[u][v] AT[j][v]
IMatrix rightPass(const DMatrix& AT, const IMatrix& in) {
    IMatrix out(in.size(), std::vector<Interval>(AT.size()));
    for (size_t u = 0; u < in.size(); ++u)
        for (size_t j = 0; j < AT.size(); ++j)
            for (size_t v = 0; v < in[0].size(); ++v) accumulate(out[u][j], scale(AT[j][v], in[u][v]));
    return out;
}

IMatrix quantiseAll(const DMatrix& values, const Quantiser& q) {
    IMatrix out(values.size(), std::vector<Interval>(values[0].size()));
    for (size_t i = 0; i < values.size(); ++i)
        for (size_t j = 0; j < values[i].size(); ++j) {
            const Quantised x = quantise(q, values[i][j]);
            out[i][j] = x.overflow ? Interval{0, -kInf, kInf} : Interval{x.value, x.err_lo, x.err_hi};
        }
    return out;
}

IMatrix exact(const DMatrix& values) {
    IMatrix out(values.size(), std::vector<Interval>(values[0].size()));
    for (size_t i = 0; i < values.size(); ++i)
        for (size_t j = 0; j < values[i].size(); ++j) out[i][j] = {values[i][j], 0, 0};
    return out;
}

TilePrediction decide(const IMatrix& y) {
    TilePrediction p;
    p.skip = true;
    for (size_t i = 0; i < y.size(); ++i) {
        p.estimate.emplace_back();
        p.max_pos_error.emplace_back();
        for (size_t j = 0; j < y[i].size(); ++j) {
            p.estimate.back().push_back(y[i][j].value);
            p.max_pos_error.back().push_back(y[i][j].hi);
            if (!(y[i][j].value + y[i][j].hi < 0)) {  // strict: a zero bound may still activate
                p.skip = false;
                p.uncertain.emplace_back(static_cast<int>(i), static_cast<int>(j));
            }
        }
    }
    return p;
}

void checkTile(const DMatrix& AT, const DMatrix& Y) {
    if (AT.empty() || Y.empty() || Y.size() != AT[0].size())
        throw std::invalid_argument("activation prediction: the tile must be T x T with T the columns of A^T");
    for (const auto& row : Y)
        if (row.size() != Y.size()) throw std::invalid_argument("activation prediction: the tile must be square");
}

}  // namespace

void checkFactors(const ReductionFactors& f) {
    for (double x : {f.gather_2d, f.scatter_2d, f.gather_1d, f.scatter_1d})
        if (!(x >= 0 && x <= 1)) throw std::invalid_argument("reduction factors must be fractions in [0, 1]");
    if (f.bits_2d < 1 || f.bits_2d > 32 || f.bits_1d < 1 || f.bits_1d > 32)
        throw std::invalid_argument("prediction bits must be in 1..32");
}

void checkQuantiser(const Quantiser& q) {
    if (!(q.delta > 0) || !std::isfinite(q.delta)) throw std::invalid_argument("quantiser: delta must be positive");
    if (q.regions < 1) throw std::invalid_argument("quantiser: regions must be at least 1");
    if (q.levels < 0 || (q.levels > 0 && q.levels % (2 * q.regions) != 0))
        throw std::invalid_argument("quantiser: levels must be 0 (unbounded) or a multiple of 2 x regions");
}

Quantised quantise(const Quantiser& q, double real) {
    checkQuantiser(q);
    const double mag = std::fabs(real);
    // Find the region holding |real|: region k spans steps of delta * 2^k.
    double step = q.delta, base = 0;
    if (q.levels > 0) {
        const int per_region = q.levels / (2 * q.regions);
        int k = 0;
        while (k < q.regions && mag >= base + per_region * step) {
            base += per_region * step;
            step *= 2;
            ++k;
        }
        // Floor needs one step below the range for negatives; both roundings overflow past it.
        if (k == q.regions) return {0, 0, 0, true};
    }
    Quantised out;
    if (q.rounding == Quantiser::Rounding::SignMagnitude || q.levels > 0) {
        const double trunc = base + std::floor((mag - base) / step) * step;
        if (q.rounding == Quantiser::Rounding::SignMagnitude) {
            out.value = real < 0 ? -trunc : trunc;
            out.err_lo = real < 0 ? -step : 0;
            out.err_hi = real < 0 ? 0 : step;
            return out;
        }
        // Floor with regions: round toward -inf with the step of |real|'s region.
        out.value = real < 0 ? -(trunc == mag ? trunc : trunc + step) : trunc;
        out.err_hi = step;
        return out;
    }
    out.value = std::floor(real / step) * step;
    out.err_hi = step;
    return out;
}

TilePrediction predict2D(const DMatrix& AT, const DMatrix& Y, const Quantiser& q) {
    checkTile(AT, Y);
    return decide(rightPass(AT, leftPass(AT, quantiseAll(Y, q))));
}

TilePrediction predict1D(const DMatrix& AT, const DMatrix& Y, const Quantiser& q) {
    checkTile(AT, Y);
    const IMatrix P = rightPass(AT, exact(Y));  // T x m, exact at the source
    DMatrix Pv(P.size(), std::vector<double>(P[0].size()));
    for (size_t u = 0; u < P.size(); ++u)
        for (size_t l = 0; l < P[u].size(); ++l) Pv[u][l] = P[u][l].value;
    return decide(leftPass(AT, quantiseAll(Pv, q)));
}

FunctionalResult functionalPrediction(const DMatrix& AT, const Quantiser& q, double mean, double sigma, int tiles,
                                      unsigned seed) {
    if (tiles < 1 || !(sigma > 0)) throw std::invalid_argument("functional prediction: tiles >= 1 and sigma > 0");
    checkQuantiser(q);
    std::mt19937 rng(seed);
    std::normal_distribution<double> dist(mean, sigma);
    const size_t T = AT[0].size();
    FunctionalResult r;
    r.tiles = tiles;
    int inactive = 0, s2 = 0, s1 = 0;
    for (int k = 0; k < tiles; ++k) {
        DMatrix Y(T, std::vector<double>(T));
        for (auto& row : Y)
            for (auto& v : row) v = dist(rng);
        const IMatrix y = rightPass(AT, leftPass(AT, exact(Y)));
        bool all_off = true;
        for (const auto& row : y)
            for (const auto& v : row) all_off = all_off && v.value <= 0;
        inactive += all_off;
        const bool k2 = predict2D(AT, Y, q).skip, k1 = predict1D(AT, Y, q).skip;
        s2 += k2;
        s1 += k1;
        if ((k2 || k1) && !all_off) ++r.false_negatives;
    }
    r.truly_inactive = static_cast<double>(inactive) / tiles;
    r.skipped_2d = static_cast<double>(s2) / tiles;
    r.skipped_1d = static_cast<double>(s1) / tiles;
    return r;
}

Quantiser sigmaQuantiser(int bits, int regions, double sigma, double range_sigmas) {
    if (bits < 2 || bits > 24 || regions < 1 || !(sigma > 0) || !(range_sigmas > 0))
        throw std::invalid_argument("sigma quantiser: bits in 2..24, regions >= 1, sigma and range positive");
    Quantiser q;
    q.levels = 1 << bits;
    q.regions = regions;
    if (q.levels % (2 * regions) != 0) throw std::invalid_argument("sigma quantiser: 2^bits must split into 2 x regions");
    const double per_region = q.levels / (2.0 * regions);
    q.delta = range_sigmas * sigma / (per_region * ((1 << regions) - 1));  // steps double per region
    return q;
}

ReductionFactors functionalFactors(const ReductionFactors& base, double mean, double sigma, int tiles, unsigned seed) {
    const DMatrix AT = {{1, 1, 1, 0}, {0, 1, -1, -1}};
    ReductionFactors f = base;
    f.gather_2d = functionalPrediction(AT, sigmaQuantiser(base.bits_2d, 4, sigma), mean, sigma, tiles, seed).skipped_2d;
    // 1D predict quantises P = Y A, whose rows sum three Y values: sigma grows by sqrt(3).
    f.gather_1d =
        functionalPrediction(AT, sigmaQuantiser(base.bits_1d, 4, sigma * std::sqrt(3.0)), mean, sigma, tiles, seed)
            .skipped_1d;
    f.paper_reported = false;
    return f;
}

}  // namespace partita::mpt
