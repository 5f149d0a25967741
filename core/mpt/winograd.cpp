#include "core/mpt/winograd.h"

#include <cmath>
#include <random>
#include <stdexcept>

namespace partita::mpt {

namespace {

RMatrix zeros(size_t rows, size_t cols) { return RMatrix(rows, std::vector<Rational>(cols, Rational(0))); }

RMatrix fromInts(const std::vector<std::vector<Rational>>& rows) { return rows; }

RMatrix multiply(const RMatrix& a, const RMatrix& b) {
    RMatrix c = zeros(a.size(), b[0].size());
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t k = 0; k < b.size(); ++k) {
            if (a[i][k] == Rational(0)) continue;
            for (size_t j = 0; j < b[0].size(); ++j) c[i][j] += a[i][k] * b[k][j];
        }
    return c;
}

RMatrix transpose(const RMatrix& a) {
    RMatrix t = zeros(a[0].size(), a.size());
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < a[0].size(); ++j) t[j][i] = a[i][j];
    return t;
}

// Gauss-Jordan inverse; the Vandermonde-with-infinity matrix is always invertible for distinct points.
RMatrix inverse(RMatrix a) {
    const size_t n = a.size();
    RMatrix inv = zeros(n, n);
    for (size_t i = 0; i < n; ++i) inv[i][i] = Rational(1);
    for (size_t col = 0; col < n; ++col) {
        size_t piv = col;
        while (piv < n && a[piv][col] == Rational(0)) ++piv;
        if (piv == n) throw std::logic_error("Cook-Toom: singular interpolation matrix");
        std::swap(a[piv], a[col]);
        std::swap(inv[piv], inv[col]);
        const Rational d = a[col][col];
        for (size_t j = 0; j < n; ++j) {
            a[col][j] = a[col][j] / d;
            inv[col][j] = inv[col][j] / d;
        }
        for (size_t i = 0; i < n; ++i) {
            if (i == col || a[i][col] == Rational(0)) continue;
            const Rational f = a[i][col];
            for (size_t j = 0; j < n; ++j) {
                a[i][j] -= f * a[col][j];
                inv[i][j] -= f * inv[col][j];
            }
        }
    }
    return inv;
}

Rational power(Rational x, int k) {
    Rational r(1);
    for (int i = 0; i < k; ++i) r *= x;
    return r;
}

}  // namespace

std::string WinogradSize::name() const {
    return "F(" + std::to_string(m) + "x" + std::to_string(m) + "," + std::to_string(r) + "x" + std::to_string(r) + ")";
}

void checkSize(const WinogradSize& f) {
    if (f.m < 1 || f.r < 2 || f.tile() > 12)
        throw std::invalid_argument("Winograd " + f.name() + ": need m >= 1, r >= 2 and T = m + r - 1 <= 12");
}

WinogradCounts winogradCounts(const WinogradSize& f, double batch, double in_ch, double out_ch, double height,
                              double width) {
    checkSize(f);
    if (!(batch > 0 && in_ch > 0 && out_ch > 0 && height > 0 && width > 0))
        throw std::invalid_argument("Winograd counts: batch, channels and map sizes must be positive");
    WinogradCounts c;
    c.f = f;
    const double T2 = f.tileElements(), m = f.m, r = f.r;
    c.tiles = std::ceil(height / m) * std::ceil(width / m);
    c.input_tiles = batch * in_ch * c.tiles * T2;
    c.output_tiles = batch * out_ch * c.tiles * T2;
    c.weights = in_ch * out_ch * T2;
    c.spatial_weights = in_ch * out_ch * r * r;
    c.inflation = T2 / (r * r);
    c.data_expansion = T2 / (m * m);
    c.mac_reduction = m * m * r * r / T2;
    c.macs_per_phase = batch * c.tiles * T2 * in_ch * out_ch;
    return c;
}

WinogradMatrices cookToom(const WinogradSize& f) {
    checkSize(f);
    const int n = f.tile();
    // n-1 finite points plus the point at infinity.
    std::vector<Rational> pts{Rational(0)};
    for (int k = 1; static_cast<int>(pts.size()) < n - 1; ++k) {
        pts.push_back(Rational(k));
        if (static_cast<int>(pts.size()) < n - 1) pts.push_back(Rational(-k));
        if (static_cast<int>(pts.size()) < n - 1 && k > 1) pts.push_back(Rational(1, k));
        if (static_cast<int>(pts.size()) < n - 1 && k > 1) pts.push_back(Rational(-1, k));
    }
    // Linear convolution s = h * g is V^{-1} [(E_h h) . (E_g g)]; correlation is its transpose,
    // so A^T = E_h^T, G = E_g and B^T = V^{-T}.
    auto evaluation = [&](int cols) {
        RMatrix e = zeros(n, cols);
        for (int j = 0; j < n - 1; ++j)
            for (int k = 0; k < cols; ++k) e[j][k] = power(pts[j], k);
        e[n - 1][cols - 1] = Rational(1);
        return e;
    };
    WinogradMatrices mats;
    mats.AT = transpose(evaluation(f.m));
    mats.G = evaluation(f.r);
    mats.BT = transpose(inverse(evaluation(n)));
    return mats;
}

WinogradMatrices winogradMatrices(const WinogradSize& f) {
    using R = Rational;
    if (f == WinogradSize{2, 3}) {
        return {fromInts({{1, 1, 1, 0}, {0, 1, -1, -1}}),
                fromInts({{1, 0, 0}, {R(1, 2), R(1, 2), R(1, 2)}, {R(1, 2), R(-1, 2), R(1, 2)}, {0, 0, 1}}),
                fromInts({{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}})};
    }
    if (f == WinogradSize{4, 3}) {
        return {fromInts({{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}}),
                fromInts({{R(1, 4), 0, 0},
                          {R(-1, 6), R(-1, 6), R(-1, 6)},
                          {R(-1, 6), R(1, 6), R(-1, 6)},
                          {R(1, 24), R(1, 12), R(1, 6)},
                          {R(1, 24), R(-1, 12), R(1, 6)},
                          {0, 0, 1}}),
                fromInts({{4, 0, -5, 0, 1, 0},
                          {0, -4, -4, 1, 1, 0},
                          {0, 4, -4, -1, 1, 0},
                          {0, -2, -1, 2, 1, 0},
                          {0, 2, -1, -2, 1, 0},
                          {0, 4, 0, -5, 0, 1}})};
    }
    return cookToom(f);
}

RMatrix winograd2D(const WinogradMatrices& mats, const RMatrix& x, const RMatrix& w) {
    const RMatrix U = multiply(multiply(mats.G, w), transpose(mats.G));
    const RMatrix V = multiply(multiply(mats.BT, x), transpose(mats.BT));
    RMatrix M = U;
    for (size_t i = 0; i < M.size(); ++i)
        for (size_t j = 0; j < M[i].size(); ++j) M[i][j] = U[i][j] * V[i][j];
    return multiply(multiply(mats.AT, M), transpose(mats.AT));
}

RMatrix directCorrelation2D(const RMatrix& x, const RMatrix& w, int m) {
    RMatrix y = zeros(m, m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j)
            for (size_t a = 0; a < w.size(); ++a)
                for (size_t b = 0; b < w.size(); ++b) y[i][j] += x[i + a][j + b] * w[a][b];
    return y;
}

SelfTest selfTest(const WinogradSize& f, int trials) {
    const WinogradMatrices mats = winogradMatrices(f);
    std::mt19937 rng(2018);
    std::uniform_int_distribution<int> val(-9, 9);
    const int n = f.tile();
    SelfTest result;
    for (int k = 0; k < trials; ++k) {
        RMatrix x = zeros(n, n), w = zeros(f.r, f.r);
        for (auto& row : x)
            for (auto& v : row) v = Rational(val(rng));
        for (auto& row : w)
            for (auto& v : row) v = Rational(val(rng));
        ++result.trials;
        if (winograd2D(mats, x, w) != directCorrelation2D(x, w, f.m)) ++result.mismatches;
    }
    return result;
}

}  // namespace partita::mpt
