// Winograd calculator and transforms (docs/methods/mpt.md#the-winograd-transform): exact self-tests.
#include <gtest/gtest.h>

#include "core/mpt/rational.h"
#include "core/mpt/winograd.h"

namespace partita::mpt {
namespace {

TEST(MptRational, NormalisesAndIsExact) {
    EXPECT_EQ(Rational(2, -4), Rational(-1, 2));
    EXPECT_EQ(Rational(1, 6) + Rational(1, 3), Rational(1, 2));
    EXPECT_EQ(Rational(1, 24) * Rational(-24), Rational(-1));
    EXPECT_EQ(Rational(0, 7).den(), 1);
    EXPECT_THROW(Rational(1, 0), std::domain_error);
    EXPECT_THROW(Rational(1) / Rational(0), std::domain_error);
    EXPECT_THROW(Rational(INT64_MAX) * Rational(2), std::overflow_error);
}

TEST(MptWinograd, CountsForF2x3AndLate2) {
    const WinogradCounts c = winogradCounts({2, 3}, 256, 640, 640, 8, 8);
    EXPECT_EQ(c.f.tile(), 4);
    EXPECT_EQ(c.tiles, 16);
    EXPECT_EQ(c.weights, 6553600);
    EXPECT_EQ(c.spatial_weights, 3686400);
    EXPECT_EQ(c.input_tiles, 41943040);
    EXPECT_EQ(c.output_tiles, 41943040);
    EXPECT_EQ(c.data_expansion, 4);
    EXPECT_EQ(c.mac_reduction, 2.25);
    EXPECT_DOUBLE_EQ(c.inflation, 16.0 / 9.0);
}

TEST(MptWinograd, CountsForF4x3AndF2x5AndOddMaps) {
    const WinogradCounts f43 = winogradCounts({4, 3}, 1, 1, 1, 8, 8);
    EXPECT_EQ(f43.f.tileElements(), 36);
    EXPECT_EQ(f43.mac_reduction, 4);  // the paper's "4x"
    EXPECT_EQ(f43.inflation, 4);
    EXPECT_EQ(f43.data_expansion, 2.25);
    const WinogradCounts f25 = winogradCounts({2, 5}, 1, 1, 1, 8, 8);
    EXPECT_EQ(f25.data_expansion, 9);
    EXPECT_EQ(f25.inflation, 1.44);
    EXPECT_DOUBLE_EQ(f25.mac_reduction, 100.0 / 36.0);
    EXPECT_EQ(winogradCounts({2, 3}, 1, 1, 1, 7, 7).tiles, 16);  // Late-1: ceil(7/2)^2
    EXPECT_THROW(winogradCounts({2, 3}, 0, 1, 1, 7, 7), std::invalid_argument);
    EXPECT_THROW(winogradCounts({0, 3}, 1, 1, 1, 7, 7), std::invalid_argument);
}

TEST(MptWinograd, LavinGrayMatricesAreThePaperOnes) {
    const WinogradMatrices m = winogradMatrices({2, 3});
    EXPECT_EQ(m.AT.size(), 2u);
    EXPECT_EQ(m.G[1][0], Rational(1, 2));
    EXPECT_EQ(m.BT[3][3], Rational(-1));
    const WinogradMatrices m4 = winogradMatrices({4, 3});
    EXPECT_EQ(m4.G[3][0], Rational(1, 24));
    EXPECT_EQ(m4.BT[0][2], Rational(-5));
}

TEST(MptWinograd, SelfTestsAreExact) {
    for (const WinogradSize f : {WinogradSize{2, 3}, WinogradSize{4, 3}, WinogradSize{2, 5}, WinogradSize{3, 3},
                                 WinogradSize{6, 3}}) {
        const SelfTest t = selfTest(f, 10);
        EXPECT_TRUE(t.exact()) << f.name() << " mismatches " << t.mismatches;
        EXPECT_EQ(t.trials, 10);
    }
}

TEST(MptWinograd, CookToomAlsoReproducesF2x3AndF4x3) {
    // The generator is checked against direct correlation on the sizes the paper uses.
    for (const WinogradSize f : {WinogradSize{2, 3}, WinogradSize{4, 3}}) {
        const WinogradMatrices m = cookToom(f);
        RMatrix x(f.tile(), std::vector<Rational>(f.tile())), w(3, std::vector<Rational>(3));
        for (int i = 0; i < f.tile(); ++i)
            for (int j = 0; j < f.tile(); ++j) x[i][j] = Rational(i * 7 - j * 3 + 1);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) w[i][j] = Rational(j - 2 * i, 3);
        EXPECT_EQ(winograd2D(m, x, w), directCorrelation2D(x, w, f.m)) << f.name();
    }
}

TEST(MptWinograd, WrongMatricesFailTheSelfTest) {
    WinogradMatrices m = winogradMatrices({2, 3});
    m.G[1][0] = Rational(1, 3);
    RMatrix x(4, std::vector<Rational>(4, Rational(1))), w(3, std::vector<Rational>(3, Rational(1)));
    EXPECT_NE(winograd2D(m, x, w), directCorrelation2D(x, w, 2));
}

}  // namespace
}  // namespace partita::mpt
