#pragma once
// Activation prediction and zero-skipping (docs/methods/mpt.md#activation-prediction-and-zero-skipping): the paper's
// reduction factors (factor mode) and a functional model (quantiser + interval
// propagation through the inverse transform) that decides tile skips exactly.
#include <string>
#include <vector>

namespace partita::mpt {

using DMatrix = std::vector<std::vector<double>>;

// Factor mode: fractions of a transfer removed. Defaults are paper-reported (docs/methods/mpt.md#activation-prediction-and-zero-skipping table,
// 2D predict at N_g = 16 with 6 bits, 1D predict at N_g = 4 with 5 bits).
struct ReductionFactors {
    double gather_2d = 0.340, scatter_2d = 0.393;
    double gather_1d = 0.781, scatter_1d = 0.647;
    int bits_2d = 6, bits_1d = 5;
    bool charge_prediction_bits = false;  // add bits/32 of the pre-skip gather volume
    bool paper_reported = true;           // false once a user or the functional model changes them
};
void checkFactors(const ReductionFactors& f);  // each fraction in [0, 1], bits in 1..32

// Quantiser (docs/methods/mpt.md#activation-prediction-and-zero-skipping): `regions` regions of equal step count per sign, the step doubling from one
// region to the next (delta, 2 delta, 4 delta, ...). levels == 0 means unbounded uniform steps
// of delta. Values beyond the range are overflow (unbounded error: never skipped).
struct Quantiser {
    enum class Rounding { Floor, SignMagnitude };
    double delta = 0.25;
    int levels = 0;   // total levels over both signs; 0 = unbounded
    int regions = 1;
    Rounding rounding = Rounding::Floor;
};
void checkQuantiser(const Quantiser& q);

// One quantised value: the real value lies in [value + err_lo, value + err_hi].
struct Quantised {
    double value = 0;
    double err_lo = 0, err_hi = 0;
    bool overflow = false;
};
Quantised quantise(const Quantiser& q, double real);

struct TilePrediction {
    DMatrix estimate;  // m x m
    DMatrix max_pos_error;  // E+ (infinite when an input overflowed)
    bool skip = false;      // every neuron has estimate + E+ < 0
    std::vector<std::pair<int, int>> uncertain;  // neurons that may be active
};

// 2D predict: every Y element is quantised, both passes of A^T Y A run on intervals.
TilePrediction predict2D(const DMatrix& AT, const DMatrix& Y, const Quantiser& q);
// 1D predict: each row's first pass P = Y A is exact at the source, then quantised; the
// destination runs the second pass A^T P on intervals.
TilePrediction predict1D(const DMatrix& AT, const DMatrix& Y, const Quantiser& q);

// Functional mode on a synthetic tile population: Winograd-domain output tiles whose
// elements are normal(mean, sigma), deterministic for `seed`.
struct FunctionalResult {
    int tiles = 0;
    double truly_inactive = 0;  // fraction of tiles with every neuron <= 0
    double skipped_2d = 0;      // fraction skipped by 2D predict
    double skipped_1d = 0;
    int false_negatives = 0;    // an active neuron predicted inactive (must stay 0)
};
FunctionalResult functionalPrediction(const DMatrix& AT, const Quantiser& q, double mean, double sigma, int tiles,
                                      unsigned seed = 1);

// Quantiser whose range is +-range_sigmas * sigma with `regions` doubling regions (Delta from sigma).
Quantiser sigmaQuantiser(int bits, int regions, double sigma, double range_sigmas = 4);
// Factors with the gather fractions replaced by functional skip fractions for F(2x2,3x3) tiles
// (2D: `bits_2d`-bit, 1D: `bits_1d`-bit, 4 regions); scatter fractions stay as given.
ReductionFactors functionalFactors(const ReductionFactors& base, double mean, double sigma, int tiles = 4000,
                                   unsigned seed = 1);

}  // namespace partita::mpt
