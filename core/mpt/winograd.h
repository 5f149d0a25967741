#pragma once
// Winograd F(m x m, r x r) (docs/methods/mpt.md#the-winograd-transform): sizes of one layer's tensors in
// the Winograd domain, and the transform matrices A^T, G, B^T as exact rationals
// (Lavin-Gray for F(2,3) and F(4,3), Cook-Toom interpolation for any other F(m,r)).
#include <cstdint>
#include <string>
#include <vector>

#include "core/mpt/rational.h"

namespace partita::mpt {

using RMatrix = std::vector<std::vector<Rational>>;

struct WinogradSize {
    int m = 2, r = 3;
    int tile() const { return m + r - 1; }  // T
    int tileElements() const { return tile() * tile(); }  // T^2
    std::string name() const;  // "F(2x2,3x3)"
    bool operator==(const WinogradSize&) const = default;
};

// Throws std::invalid_argument unless 1 <= m, 2 <= r and T <= 12 (Cook-Toom points stay small).
void checkSize(const WinogradSize& f);

// Counts for a stride-1 'same' layer of I -> J channels on H x W maps, batch B (elements).
struct WinogradCounts {
    WinogradSize f;
    double tiles = 0;           // t = ceil(H/m) * ceil(W/m), per channel per image
    double input_tiles = 0;     // |X| = B I t T^2
    double output_tiles = 0;    // |Y| = B J t T^2
    double weights = 0;         // |W| = I J T^2
    double spatial_weights = 0; // |w| = I J r^2
    double inflation = 0;       // |W| / |w| = T^2 / r^2
    double data_expansion = 0;  // T^2 / m^2
    double mac_reduction = 0;   // m^2 r^2 / T^2
    double macs_per_phase = 0;  // B t T^2 I J (element-wise GEMMs, one phase)
};
WinogradCounts winogradCounts(const WinogradSize& f, double batch, double in_ch, double out_ch, double height,
                              double width);

struct WinogradMatrices {
    RMatrix AT;  // m x T
    RMatrix G;   // T x r
    RMatrix BT;  // T x T
};
// Lavin-Gray for F(2,3) and F(4,3); Cook-Toom for the rest.
WinogradMatrices winogradMatrices(const WinogradSize& f);
// Cook-Toom with points 0, 1, -1, 2, -2, 1/2, -1/2, ... and infinity.
WinogradMatrices cookToom(const WinogradSize& f);

// y = A^T [(G w G^T) . (B^T x B)] A for one T x T input tile and r x r weights (exact).
RMatrix winograd2D(const WinogradMatrices& mats, const RMatrix& x, const RMatrix& w);
// y[i][j] = sum_{a,b} x[i+a][j+b] w[a][b], the m x m direct correlation.
RMatrix directCorrelation2D(const RMatrix& x, const RMatrix& w, int m);

struct SelfTest {
    int trials = 0;
    int mismatches = 0;
    bool exact() const { return trials > 0 && mismatches == 0; }
};
// Random integer tiles and weights (fixed seed) compared exactly against direct correlation.
SelfTest selfTest(const WinogradSize& f, int trials = 20);

}  // namespace partita::mpt
