// Oracles O1-O12 of docs/methods/hypar.md#tests-that-pin-the-model, exactly.
#include <gtest/gtest.h>

#include "core/cost/evaluate.h"
#include "core/search/explore.h"
#include "core/search/methods.h"
#include "test_util.h"

namespace partita {
namespace {

CostParams cal(double batch) {
    CostParams p;
    p.batch = batch;
    return p;
}
CostParams lit(double batch) {
    CostParams p = cal(batch);
    p.comm.w_intra = 1;
    return p;
}

Network singleFc(double batch_unused, int in, int out) {
    (void)batch_unused;
    return test::network("fc", {in, 1, 1}, {test::fc("fc", {"input"}, out)});
}

struct Planned {
    Grid grid;
    Evaluation eval;
};
Planned hypar(const LayerTable& t, int levels, const CostParams& p) {
    Grid g = hyparSearch(t, levels, p);
    return {g, evaluate(t, defaultArray(levels), g, p)};
}
double totalOf(Method m, const LayerTable& t, int levels, const CostParams& p) {
    return evaluate(t, defaultArray(levels), baselineGrid(m, t, levels), p).total_elements;
}
std::vector<std::string> rows(const Grid& g) { return g.toStrings(); }

TEST(HyparOracle, O1_FcExample) {
    const auto t = weightedLayers(singleFc(32, 70, 100));
    const auto c = hypar(t, 1, cal(32));
    EXPECT_EQ(rows(c.grid), std::vector<std::string>{"1"});
    EXPECT_EQ(c.eval.total_elements, 6400);
    EXPECT_EQ(hypar(t, 1, lit(32)).eval.total_elements, 3200);
    // Pair bytes of Sec. 3.4: dp 56,000 B, mp 25,600 B.
    const auto dp = evaluate(t, defaultArray(1), baselineGrid(Method::DataParallel, t, 1), cal(32));
    EXPECT_EQ(dp.total_bytes, 56000);
    EXPECT_EQ(c.eval.total_bytes, 25600);
}

TEST(HyparOracle, O2_ConvExample) {
    Network n;
    n.input = {20, 12, 12};
    Operator op;
    op.name = "conv";
    op.out_channels = 50;
    op.window.kernel_h = op.window.kernel_w = 5;
    n.ops.push_back(op);
    propagate(n, "test");
    const auto t = weightedLayers(n);
    const auto c = hypar(t, 1, cal(32));
    EXPECT_EQ(rows(c.grid), std::vector<std::string>{"0"});
    EXPECT_EQ(c.eval.total_elements, 50000);
    EXPECT_EQ(c.eval.total_bytes, 200000);
    EXPECT_EQ(hypar(t, 1, lit(32)).eval.total_elements, 25000);
    const auto mp = evaluate(t, defaultArray(1), baselineGrid(Method::ModelParallel, t, 1), cal(32));
    EXPECT_EQ(mp.total_bytes, 819200);
}

TEST(HyparOracle, O3_TrickLayers) {
    const auto conv5 = test::builtin("trick-vgge-conv5");
    const auto fc3 = test::builtin("trick-vgge-fc3");
    EXPECT_EQ(conv5[0].weights(), 2359296);
    const auto s32 = initialState(conv5, 32);
    EXPECT_EQ(amounts(conv5[0], s32[0], OutSize::PostPool).output, 3211264);
    EXPECT_EQ(fc3[0].weights(), 4096000);

    const auto c = hypar(conv5, 4, cal(32));
    EXPECT_EQ(c.eval.level_comm, (std::vector<double>{4718592, 3211264, 2359296, 1605632}));
    EXPECT_EQ(rows(c.grid), (std::vector<std::string>{"0", "1", "0", "1"}));
    EXPECT_EQ(c.eval.total_elements, 33423360);

    const auto f = hypar(fc3, 4, cal(4096));
    EXPECT_EQ(f.eval.level_comm, (std::vector<double>{8192000, 4096000, 4096000, 2048000}));
    EXPECT_EQ(rows(f.grid), (std::vector<std::string>{"0", "1", "0", "1"}));  // ties at H1 and H3 go to dp
    EXPECT_EQ(f.eval.total_elements, 49152000);
}

LayerTable twoFc() {
    return weightedLayers(
        test::network("two-fc", {4, 1, 1}, {test::fc("fc1", {"input"}, 16), test::fc("fc2", {"fc1"}, 32)}));
}

TEST(HyparOracle, O4_TwoFcLevelCosts) {
    const auto t = twoFc();
    const auto state = initialState(t, 8);
    const std::pair<const char*, std::pair<double, double>> expected[] = {
        {"00", {576, 1152}}, {"01", {384, 704}}, {"10", {704, 1344}}, {"11", {448, 832}}};
    for (const auto& [p, costs] : expected) {
        const Grid g = Grid::fromStrings({p}, 2);
        CommModel lit_model{1.0, OutSize::PostPool}, cal_model;
        EXPECT_EQ(levelComm(t, state, g.row(0), lit_model), costs.first) << p;
        EXPECT_EQ(levelComm(t, state, g.row(0), cal_model), costs.second) << p;
    }
    EXPECT_EQ(rows(hypar(t, 1, cal(8)).grid), std::vector<std::string>{"01"});
    EXPECT_EQ(rows(hypar(t, 1, lit(8)).grid), std::vector<std::string>{"01"});
}

TEST(HyparOracle, O4_TwoFcTwoLevels) {
    const auto t = twoFc();
    const auto l = hypar(t, 2, lit(8));
    EXPECT_EQ(rows(l.grid), (std::vector<std::string>{"01", "00"}));
    EXPECT_EQ(l.eval.level_comm, (std::vector<double>{384, 320}));
    EXPECT_EQ(l.eval.total_elements, 1024);
    const auto c = hypar(t, 2, cal(8));
    EXPECT_EQ(rows(c.grid), (std::vector<std::string>{"01", "00"}));
    EXPECT_EQ(c.eval.total_elements, 1984);
    EXPECT_EQ(totalOf(Method::DataParallel, t, 2, lit(8)), 1728);
    EXPECT_EQ(totalOf(Method::DataParallel, t, 2, cal(8)), 3456);
    EXPECT_EQ(totalOf(Method::ModelParallel, t, 2, lit(8)), 1280);
    EXPECT_EQ(totalOf(Method::ModelParallel, t, 2, cal(8)), 2432);
    EXPECT_EQ(totalOf(Method::OneWeirdTrick, t, 2, cal(8)), 2432);
}

LayerTable convPoolFc() {
    Network n;
    n.name = "conv-pool-fc";
    n.input = {2, 6, 6};
    Operator conv;
    conv.name = "conv";
    conv.out_channels = 4;
    conv.window.kernel_h = conv.window.kernel_w = 3;
    conv.pool = Window{2, 2, 2, 2, 0, 0, Rounding::Exact};
    Operator fc;
    fc.name = "fc";
    fc.type = OpType::FullyConnected;
    fc.out_channels = 10;
    n.ops = {conv, fc};
    propagate(n, "test");
    return weightedLayers(n);
}

TEST(HyparOracle, O5_ConvPoolFc) {
    const auto t = convPoolFc();
    const auto s = initialState(t, 4);
    EXPECT_EQ(amounts(t[0], s[0], OutSize::PostPool).output, 64);
    EXPECT_EQ(amounts(t[0], s[0], OutSize::PrePool).output, 256);
    struct Case {
        double w;
        OutSize out;
        double costs[4];
        const char* best;
    } cases[] = {{2, OutSize::PostPool, {464, 256, 480, 240}, "11"},
                 {2, OutSize::PrePool, {464, 256, 864, 624}, "01"},
                 {1, OutSize::PostPool, {232, 144, 256, 136}, "11"},
                 {1, OutSize::PrePool, {232, 144, 448, 328}, "01"}};
    const char* patterns[] = {"00", "01", "10", "11"};
    for (const auto& c : cases) {
        const CommModel model{c.w, c.out};
        for (int i = 0; i < 4; ++i)
            EXPECT_EQ(levelComm(t, s, Grid::fromStrings({patterns[i]}, 2).row(0), model), c.costs[i]) << patterns[i];
        CostParams p = cal(4);
        p.comm = model;
        EXPECT_EQ(rows(hyparSearch(t, 1, p)), std::vector<std::string>{c.best});
    }
    const auto two = hypar(t, 2, cal(4));
    EXPECT_EQ(rows(two.grid), (std::vector<std::string>{"11", "01"}));
    EXPECT_EQ(two.eval.level_comm, (std::vector<double>{240, 168}));
    EXPECT_EQ(two.eval.total_elements, 576);
    const auto two_lit = hypar(t, 2, lit(4));
    EXPECT_EQ(two_lit.eval.level_comm, (std::vector<double>{136, 92}));
    EXPECT_EQ(two_lit.eval.total_elements, 320);
    CostParams pre = cal(4);
    pre.comm.out_size = OutSize::PrePool;
    const auto two_pre = hypar(t, 2, pre);
    EXPECT_EQ(rows(two_pre.grid), (std::vector<std::string>{"01", "01"}));
    EXPECT_EQ(two_pre.eval.level_comm, (std::vector<double>{256, 240}));
    EXPECT_EQ(two_pre.eval.total_elements, 736);
}

TEST(HyparOracle, O6_LenetOneLevel) {
    const auto t = test::builtin("lenet-c");
    const auto c = hypar(t, 1, cal(256));
    EXPECT_EQ(rows(c.grid), std::vector<std::string>{"0011"});
    EXPECT_EQ(c.eval.total_elements, 478520);
    EXPECT_EQ(hypar(t, 1, lit(256)).eval.total_elements, 322460);
    EXPECT_EQ(rows(hypar(t, 1, lit(256)).grid), std::vector<std::string>{"0011"});
    // Intra and inter amounts of the trace.
    const auto e = evaluate(t, defaultArray(1), Grid::fromStrings({"1111"}, 4), cal(256));
    EXPECT_EQ(e.intra(0, 0), 1474560);
    EXPECT_EQ(e.inter(0, 1), 368640);
    EXPECT_EQ(e.inter(0, 2), 102400);
    EXPECT_EQ(e.inter(0, 3), 64000);
}

TEST(HyparOracle, O7_LenetFourLevels) {
    const auto t = test::builtin("lenet-c");
    const auto c = hypar(t, 4, cal(256));
    EXPECT_EQ(rows(c.grid), (std::vector<std::string>{"0011", "0010", "0000", "0011"}));
    EXPECT_EQ(c.eval.level_comm, (std::vector<double>{478520, 395200, 256000, 201080}));
    EXPECT_EQ(c.eval.total_elements, 3901560);
    EXPECT_EQ(totalOf(Method::DataParallel, t, 4, cal(256)), 12915000);
    EXPECT_EQ(totalOf(Method::ModelParallel, t, 4, cal(256)), 34319360);
    EXPECT_EQ(totalOf(Method::OneWeirdTrick, t, 4, cal(256)), 5347400);
    const auto l = hypar(t, 4, lit(256));
    EXPECT_EQ(rows(l.grid), (std::vector<std::string>{"0011", "0000", "0011", "0010"}));
    EXPECT_EQ(l.eval.level_comm, (std::vector<double>{322460, 228000, 132380, 111550}));
    EXPECT_EQ(l.eval.total_elements, 2200380);
}

TEST(HyparOracle, O8_Sfc) {
    const auto t = test::builtin("sfc");
    const auto c = hypar(t, 4, cal(256));
    EXPECT_EQ(rows(c.grid), (std::vector<std::string>{"1111", "1111", "0111", "1111"}));
    EXPECT_EQ(c.eval.level_comm, (std::vector<double>{15733760, 14160896, 12391424, 10884096}));
    EXPECT_EQ(c.eval.total_elements, 180694016);
    const auto mp = evaluate(t, defaultArray(4), baselineGrid(Method::ModelParallel, t, 4), cal(256));
    EXPECT_EQ(mp.level_comm, (std::vector<double>{15733760, 14160896, 13374464, 12981248}));
    EXPECT_EQ(mp.total_elements, 201403392);
    EXPECT_EQ(totalOf(Method::DataParallel, t, 4, cal(256)), 4221665280);
    EXPECT_EQ(hypar(t, 4, lit(256)).eval.total_elements, 96638464);
    EXPECT_EQ(totalOf(Method::ModelParallel, t, 4, lit(256)), 106993152);
    EXPECT_EQ(totalOf(Method::DataParallel, t, 4, lit(256)), 2110832640);
}

TEST(HyparOracle, O9_Sconv) {
    const auto t = test::builtin("sconv");
    const auto c = hypar(t, 4, cal(256));
    EXPECT_EQ(rows(c.grid), (std::vector<std::string>{"0000", "0000", "0000", "0000"}));
    EXPECT_EQ(c.eval.total_elements, 3015000);
    EXPECT_EQ(totalOf(Method::ModelParallel, t, 4, cal(256)), 150154240);
}

TEST(HyparOracle, O10_VggATie) {
    const auto t = test::builtin("vgg-a");
    const auto c = hypar(t, 4, cal(256));
    EXPECT_EQ(c.eval.level_comm, (std::vector<double>{27401600, 25271680, 24206720, 22166912}));
    EXPECT_EQ(c.eval.total_elements, 352107136);
    const int conv5_2 = 7, fc1 = 8;
    ASSERT_EQ(t[conv5_2].name, "conv5_2");
    for (int h = 0; h < 4; ++h) {
        EXPECT_EQ(c.grid.split(h, conv5_2), h == 3 ? Split::Input : Split::Batch);
        EXPECT_EQ(c.grid.split(h, fc1), Split::Input);
    }
    Grid alt = c.grid;
    for (int h = 0; h < 4; ++h) alt.at(h, conv5_2).split = h == 0 ? Split::Input : Split::Batch;
    const auto e = evaluate(t, defaultArray(4), alt, cal(256));
    EXPECT_EQ(e.level_comm, (std::vector<double>{48373120, 22912384, 21847424, 21314944}));
    EXPECT_EQ(e.total_elements, 352107136);
    EXPECT_EQ(totalOf(Method::DataParallel, t, 4, cal(256)), 3985541760);
    EXPECT_EQ(totalOf(Method::ModelParallel, t, 4, cal(256)), 23298650112);
    EXPECT_EQ(totalOf(Method::OneWeirdTrick, t, 4, cal(256)), 364165760);
}

TEST(HyparOracle, O11_TorusLoads) {
    EXPECT_EQ(torusLoads(4), (std::vector<int>{2, 1, 2, 1}));
    EXPECT_EQ(torusLoads(3), (std::vector<int>{2, 1, 1}));
    EXPECT_EQ(torusLoads(2), (std::vector<int>{1, 1}));
    EXPECT_EQ(torusLoads(1), (std::vector<int>{1}));
    EXPECT_EQ(torusLoads(5), (std::vector<int>{4, 2, 1, 2, 1}));
    EXPECT_EQ(torusLoads(6), (std::vector<int>{4, 2, 1, 4, 2, 1}));
}

TEST(HyparOracle, O12_LenetSpace) {
    const auto t = test::builtin("lenet-c");
    const CostParams p = cal(256);
    ExploreRequest req;
    req.base = hyparSearch(t, 4, p);
    req.cells = levelCells({0, 3}, 4);
    const auto r = explore(t, defaultArray(4), p, req);
    ASSERT_EQ(r.size(), 256u);
    EXPECT_EQ(digits(r.best_comm_code, 2, 8, 0, 4), "0011");
    EXPECT_EQ(digits(r.best_comm_code, 2, 8, 4, 4), "0011");
    EXPECT_EQ(r.total_elements[r.best_comm_code], 3901560);
    int at_min = 0;
    for (double v : r.total_elements) at_min += v == 3901560;
    EXPECT_EQ(at_min, 1);  // unique
    EXPECT_EQ(r.best_time_code, r.best_comm_code);
    // The next points of docs/methods/hypar.md#exploration.
    const std::uint64_t c_0010_0011 = 0b00100011, c_0011_0010 = 0b00110010;
    EXPECT_EQ(r.total_elements[c_0010_0011], 3931320);
    EXPECT_EQ(r.total_elements[c_0011_0010], 3931320);
}

TEST(HyparOracle, VggASpaceFourWayTie) {
    const auto t = test::builtin("vgg-a");
    const CostParams p = cal(256);
    ExploreRequest req;
    req.base = hyparSearch(t, 4, p);
    req.cells = layerCells({7, 8}, 4);  // conv5_2, fc1 at H1..H4
    const auto r = explore(t, defaultArray(4), p, req);
    ASSERT_EQ(r.size(), 256u);
    const double least = r.total_elements[r.best_comm_code];
    EXPECT_EQ(least, 352107136);
    int ties = 0;
    for (std::uint64_t c = 0; c < r.size(); ++c)
        if (r.total_elements[c] == least) {
            ++ties;
            EXPECT_EQ(digits(c, 2, 8, 4, 4), "1111");
        }
    EXPECT_EQ(ties, 4);
    EXPECT_EQ(r.total_elements[0b00001111], 364165760);
}

}  // namespace
}  // namespace partita
