// Properties of docs/methods/hypar.md#tests-that-pin-the-model: Algorithm 1 == brute force at every level of
// every built-in network in both modes; the stated invariants.
#include <gtest/gtest.h>

#include "core/cost/evaluate.h"
#include "core/search/methods.h"
#include "test_util.h"

namespace partita {
namespace {

// Least level cost over all 2^L dp/mp rows (lowest code wins ties, i.e. dp first
// at the earliest layer — the same order as the tie rule).
std::pair<double, std::vector<Cell>> bruteForceLevel(const LayerTable& t, std::span<const LayerState> state,
                                                     const CommModel& model) {
    const size_t L = t.size();
    std::vector<Cell> row(L), best;
    double least = 0;
    for (std::uint64_t code = 0; code < (std::uint64_t{1} << L); ++code) {
        for (size_t l = 0; l < L; ++l) row[l].split = (code >> (L - 1 - l)) & 1 ? Split::Input : Split::Batch;
        const double c = levelComm(t, state, row, model);
        if (best.empty() || c < least) {
            least = c;
            best = row;
        }
    }
    return {least, best};
}

class EveryNetwork : public testing::TestWithParam<const char*> {};

TEST_P(EveryNetwork, AlgorithmOneEqualsBruteForceAtEveryLevel) {
    const auto t = test::builtin(GetParam());
    for (double w : {2.0, 1.0}) {
        CostParams p;
        p.comm.w_intra = w;
        const Grid g = hyparSearch(t, 4, p);
        auto state = initialState(t, p.batch);
        for (int h = 0; h < 4; ++h) {
            const auto [least, row] = bruteForceLevel(t, state, p.comm);
            const auto sol = hyparLevel(t, state, p.comm);
            EXPECT_EQ(sol.cost, least) << GetParam() << " H" << h + 1 << " w=" << w;
            EXPECT_EQ(levelComm(t, state, g.row(h), p.comm), least);
            shrink(state, g.row(h));
        }
    }
}

TEST_P(EveryNetwork, Invariants) {
    const auto t = test::builtin(GetParam());
    const CostParams p;
    const Array array = defaultArray(4);
    const auto hy = evaluate(t, array, hyparSearch(t, 4, p), p);
    double sum_w = 0;
    for (const auto& l : t.layers) sum_w += l.weights();
    for (Method m : {Method::DataParallel, Method::ModelParallel, Method::OneWeirdTrick}) {
        const auto base = evaluate(t, array, baselineGrid(m, t, 4), p);
        EXPECT_LE(hy.level_comm[0], base.level_comm[0]) << methodName(m);  // H1 is solved exactly
        EXPECT_LE(hy.total_elements, base.total_elements) << methodName(m);
    }
    const auto dp = evaluate(t, array, baselineGrid(Method::DataParallel, t, 4), p);
    EXPECT_EQ(dp.total_elements, 2.0 * 15 * sum_w);  // 2 (2^H - 1) sum A(W)
    for (double batch : {128.0, 512.0}) {
        CostParams q = p;
        q.batch = batch;
        EXPECT_EQ(evaluate(t, array, baselineGrid(Method::DataParallel, t, 4), q).total_elements, dp.total_elements);
    }
}

INSTANTIATE_TEST_SUITE_P(Builtin, EveryNetwork, testing::ValuesIn(test::kTenNetworks),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (auto& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

TEST(HyparPartitions, ModelOutputTableOfSpec63) {
    const std::pair<const char*, std::vector<std::string>> expected[] = {
        {"cifar-c", {"00000", "00010", "00010", "00111"}},
        {"alexnet", {"00000111", "00000111", "00000111", "00001111"}},
        {"vgg-b", {"0000000000111", "0000000000111", "0000000000111", "0000000001111"}},
        {"vgg-c", {"0000000000000111", "0000000000000111", "0000000000000111", "0000000000000111"}},
        {"vgg-d", {"0000000000000111", "0000000000000111", "0000000000000111", "0000000000001111"}},
        {"vgg-e", {"0000000000000000111", "0000000000000000111", "0000000000000000111", "0000000000000001111"}}};
    for (const auto& [name, rows] : expected)
        EXPECT_EQ(hyparSearch(test::builtin(name), 4, CostParams{}).toStrings(), rows) << name;
    CostParams lit;
    lit.comm.w_intra = 1;
    EXPECT_EQ(hyparSearch(test::builtin("sfc"), 4, lit).toStrings(),
              (std::vector<std::string>{"1111", "1111", "0111", "1111"}));
}

TEST(HyparPerformance, TrickStudyRatios) {
    // docs/methods/hypar.md#the-trick-study: HyPar vs the Trick for the single-layer cases.
    struct Case { const char* net; double batch; int levels; double perf, energy; } cases[] = {
        {"trick-vgge-conv5", 32, 2, 1.184, 1.026}, {"trick-vgge-conv5", 32, 4, 1.965, 1.267},
        {"trick-vgge-fc3", 4096, 2, 1.366, 1.060}, {"trick-vgge-fc3", 4096, 4, 2.337, 1.434}};
    for (const auto& c : cases) {
        const auto t = test::builtin(c.net);
        CostParams p;
        p.batch = c.batch;
        const Array a = defaultArray(c.levels);
        const auto hy = evaluate(t, a, hyparSearch(t, c.levels, p), p);
        const auto owt = evaluate(t, a, baselineGrid(Method::OneWeirdTrick, t, c.levels), p);
        EXPECT_NEAR(owt.time_step_s / hy.time_step_s, c.perf, 5e-4) << c.net << " H" << c.levels;
        EXPECT_NEAR(owt.energy_j / hy.energy_j, c.energy, 5e-4) << c.net << " H" << c.levels;
    }
}

}  // namespace
}  // namespace partita
