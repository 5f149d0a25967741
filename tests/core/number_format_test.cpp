// formatNumber: one rule for every CSV and report number (shortest text that reads back exactly,
// plain decimals for table magnitudes), checked by hand values and a round trip of random doubles.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include "core/util/format.h"

namespace partita {
namespace {

TEST(NumberFormat, PlainDecimalsForTableMagnitudes) {
    EXPECT_EQ(formatNumber(1045440), "1045440");
    EXPECT_EQ(formatNumber(0.4768792), "0.4768792");
    EXPECT_EQ(formatNumber(0.47687920000000006), "0.47687920000000006");
    EXPECT_EQ(formatNumber(3901560), "3901560");
    EXPECT_EQ(formatNumber(2.5e14), "250000000000000");
    EXPECT_EQ(formatNumber(0), "0");
    EXPECT_EQ(formatNumber(-0.5), "-0.5");
    EXPECT_EQ(formatNumber(1e-4), "0.0001");
}

TEST(NumberFormat, ExponentsOnlyForTheVerySmallAndLarge) {
    EXPECT_EQ(formatNumber(1e-9), "1e-09");
    EXPECT_EQ(formatNumber(3.7e-12), "3.7e-12");
    EXPECT_EQ(formatNumber(1e15), "1e+15");
    EXPECT_EQ(formatNumber(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
}

TEST(NumberFormat, CompactPicksTheShorterForm) {
    EXPECT_EQ(compactNumber(3.2e9), "3.2e+09");
    EXPECT_EQ(compactNumber(256), "256");
    EXPECT_EQ(compactNumber(0.5), "0.5");
    EXPECT_EQ(compactNumber(1.23e14), "1.23e+14");
}

TEST(NumberFormat, EveryDoubleReadsBackExactly) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 100000; ++i) {
        std::uint64_t bits = rng();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) continue;
        const std::string text = formatNumber(v);
        EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
        EXPECT_EQ(std::strtod(compactNumber(v).c_str(), nullptr), v) << compactNumber(v);
    }
}

}  // namespace
}  // namespace partita
