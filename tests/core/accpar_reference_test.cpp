// Oracle E (docs/methods/accpar.md#tests-that-pin-the-model): the reference-compatible mode reproduces the AccPar authors' program, row by row,
// for AlexNet and VGG-11 (their text files) and their built-in ResNet-18/50; Oracle A in the same mode.
#include <gtest/gtest.h>

#include "core/accpar/reference.h"
#include "core/search/methods.h"
#include "test_util.h"

namespace partita {
namespace {

using Rows = std::vector<std::string>;

LayerTable authorsFile(const std::string& name) {
    return weightedLayers(loadNetwork(std::string(PARTITA_TEST_DATA) + "/accpar/" + name));
}

double baselineCost(const LayerTable& t, Method m, ReferenceNetworkKind kind = ReferenceNetworkKind::Plain) {
    return referenceCosts(t, kind, baselineGrid(m, t, 1))[0];
}

TEST(OracleE, AlexNet) {
    const auto t = authorsFile("Alexnet.txt");
    const auto accpar = referencePlan(t, ReferenceNetworkKind::Plain);
    EXPECT_EQ(accpar.rows, (Rows{"00000121", "00000211", "00000121", "00000212", "00000121", "00021212", "00001121"}));
    EXPECT_EQ(accpar.level_cost[0], 10811424);
    EXPECT_EQ(accpar.level_cost[1], 9369632);
    const auto hypar = referencePlan(t, ReferenceNetworkKind::Plain, 7, 512, true);
    EXPECT_EQ(hypar.rows, (Rows{"00000111", "00000111", "00000111", "00000100", "00000111", "00001000", "00011111"}));
    EXPECT_EQ(hypar.level_cost[0], 12908576);
    EXPECT_EQ(baselineCost(t, Method::OneWeirdTrick), 12908576);
    EXPECT_EQ(baselineCost(t, Method::DataParallel), 62367776);
}

TEST(OracleE, AlexNetLevelZeroBreakdown) {
    // Sum of conv A(W) + fc1 intra + conv5 -> fc1 inter + fc2 + fc3.
    const auto t = authorsFile("Alexnet.txt");
    double conv_weights = 0;
    for (size_t l = 0; l < 5; ++l) conv_weights += t[l].weights();
    EXPECT_EQ(conv_weights, 3745824);
    EXPECT_EQ(conv_weights + 2097152 + 2359296 + 2097152 + 512000, 10811424);
}

TEST(OracleE, Vgg11) {
    const auto t = authorsFile("Vgg11.txt");
    const auto accpar = referencePlan(t, ReferenceNetworkKind::Plain);
    EXPECT_EQ(accpar.rows, (Rows{"00000000121", "00000000121", "00000000112", "00000000211", "00000001212",
                                "00000021121", "00002112121"}));
    EXPECT_EQ(accpar.level_cost[0], 20346560);
    EXPECT_EQ(referencePlan(t, ReferenceNetworkKind::Plain, 1, 512, true).level_cost[0], 22443712);
    EXPECT_EQ(baselineCost(t, Method::OneWeirdTrick), 22443712);
    EXPECT_EQ(baselineCost(t, Method::DataParallel), 132851392);
}

TEST(OracleE, ResNet18) {
    const auto t = referenceResNet(18);
    const auto accpar = referencePlan(t, ReferenceNetworkKind::ResNet18);
    EXPECT_EQ(accpar.rows, (Rows{"000000000000000001", "000000000000000001", "000000000000000002",
                                 "000000000000021211", "000000000000000000", "000000000000012122",
                                 "000000000212121211"}));
}

TEST(OracleE, ResNet50) {
    const auto t = referenceResNet(50);
    const auto accpar = referencePlan(t, ReferenceNetworkKind::ResNet50);
    const Rows tails{"0000000001", "0000000001", "0000000002", "0000000000",
                     "0120120121", "0200200202", "2121122121"};
    ASSERT_EQ(accpar.rows.size(), 7u);
    for (size_t h = 0; h < 7; ++h) {
        ASSERT_EQ(accpar.rows[h].size(), 50u);
        EXPECT_EQ(accpar.rows[h].substr(0, 40), std::string(40, '0')) << "H" << h + 1;
        EXPECT_EQ(accpar.rows[h].substr(40), tails[h]) << "H" << h + 1;
    }
}

TEST(OracleE, ResNetRowsNeedTheQuirk) {
    // Without the tt = I seeding quirk, ResNet-18 differs at levels 1-6 and ResNet-50 at 1, 2, 3 and 5.
    ReferenceOptions o;
    o.quirk = false;
    const auto with18 = referencePlan(referenceResNet(18), ReferenceNetworkKind::ResNet18);
    const auto without18 = referencePlan(referenceResNet(18), ReferenceNetworkKind::ResNet18, o);
    const auto with50 = referencePlan(referenceResNet(50), ReferenceNetworkKind::ResNet50);
    const auto without50 = referencePlan(referenceResNet(50), ReferenceNetworkKind::ResNet50, o);
    for (size_t h = 0; h < 7; ++h) {
        EXPECT_EQ(with18.rows[h] == without18.rows[h], h == 0) << "ResNet-18 H" << h + 1;
        EXPECT_EQ(with50.rows[h] == without50.rows[h], h == 0 || h == 4 || h == 6) << "ResNet-50 H" << h + 1;
    }
}

TEST(OracleE, LevelCostOfTheChosenRowIsTheDpValue) {
    const std::pair<LayerTable, ReferenceNetworkKind> nets[] = {
        {authorsFile("Alexnet.txt"), ReferenceNetworkKind::Plain},
        {authorsFile("Vgg11.txt"), ReferenceNetworkKind::Plain},
        {referenceResNet(18), ReferenceNetworkKind::ResNet18},
        {referenceResNet(34), ReferenceNetworkKind::ResNet34},
        {referenceResNet(50), ReferenceNetworkKind::ResNet50}};
    for (const auto& [t, kind] : nets) {
        const auto plan = referencePlan(t, kind);
        EXPECT_EQ(referenceCosts(t, kind, plan.grid), plan.level_cost) << t.network;
        // DP (all Type-I) pays no shortcut in any table: its cost is the summed weights.
        double w = 0;
        for (const auto& l : t.layers) w += l.weights();
        EXPECT_EQ(baselineCost(t, Method::DataParallel, kind), w) << t.network;
        EXPECT_LE(plan.level_cost[0], w) << t.network;
    }
}

TEST(ReferenceResNet, Shapes) {
    const struct {
        int depth;
        double weights;
    } nets[] = {{18, 14591168}, {34, 24691904}, {50, 19662016}};
    for (const auto& n : nets) {
        const auto t = referenceResNet(n.depth);
        ASSERT_EQ(t.size(), static_cast<size_t>(n.depth));
        EXPECT_TRUE(t.isChain());
        EXPECT_EQ(t[0].name, "conv1");
        EXPECT_EQ(t[0].kernel_area, 49);
        EXPECT_EQ(t[1].in_hw, 56 * 56);
        EXPECT_EQ(t.layers.back().c_in, 2048);
        EXPECT_EQ(t.layers.back().in_hw, 1);
        EXPECT_EQ(t[static_cast<size_t>(n.depth - 2)].in_hw, 7 * 7);
        double w = 0;
        for (const auto& l : t.layers) w += l.weights();
        EXPECT_EQ(w, n.weights) << n.depth;
    }
    EXPECT_THROW(referenceResNet(101), std::invalid_argument);
    EXPECT_TRUE(referenceShortcutEnters(ReferenceNetworkKind::ResNet18, 17));  // the last edge enters fc
    EXPECT_FALSE(referenceShortcutEnters(ReferenceNetworkKind::ResNet18, 2));
    EXPECT_TRUE(referenceShortcutEnters(ReferenceNetworkKind::ResNet50, 49));
    EXPECT_FALSE(referenceShortcutEnters(ReferenceNetworkKind::ResNet50, 3));
}

TEST(OracleA, ReferenceMode) {
    // fc1 (B = 100, 1000 -> 1000), fc2 (1000 -> 10), two levels.
    const auto t = weightedLayers(readNetworkJson(R"({"format": "partita-network/1", "name": "mlp",
        "input": {"channels": 1000}, "operators": [{"name": "fc1", "type": "fc", "out_features": 1000},
        {"name": "fc2", "type": "fc", "out_features": 10}]})", "mlp"));
    const auto accpar = referencePlan(t, ReferenceNetworkKind::Plain, 2, 100);
    EXPECT_EQ(accpar.rows, (Rows{"21", "11"}));
    EXPECT_EQ(accpar.level_cost, (std::vector<double>{101000, 76000}));
    const auto hypar = referencePlan(t, ReferenceNetworkKind::Plain, 1, 100, true);
    EXPECT_EQ(hypar.rows, (Rows{"11"}));
    EXPECT_EQ(hypar.level_cost[0], 151000);
    ReferenceOptions o;
    o.batch = 100;
    EXPECT_EQ(referenceCosts(t, ReferenceNetworkKind::Plain, baselineGrid(Method::DataParallel, t, 1), o)[0], 1010000);
}

}  // namespace
}  // namespace partita
