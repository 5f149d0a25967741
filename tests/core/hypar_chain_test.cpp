// HyPar plans chains only; a network that is not one is refused with the layer and the reason
// (what the Grid tab shows beside its offer of AccPar).
#include <gtest/gtest.h>

#include "core/search/methods.h"
#include "test_util.h"

namespace partita {
namespace {

std::string chainProblem(const Network& net) {
    return test::anyErrorOf([&] { requireChain(weightedLayers(net)); });
}

TEST(HyparChain, ABranchNamesWhatTheLayerReads) {
    // b branches off a, beside c: b reads a, not the layer before it.
    const Network net = test::network("branch", {4, 8, 8},
                                      {test::conv("a", {"input"}, 4, 3, 1, 1), test::conv("c", {"a"}, 4, 3, 1, 1),
                                       test::conv("b", {"a"}, 4, 1), test::join("sum", OpType::Add, {"c", "b"}),
                                       test::fc("f", {"sum"}, 10)});
    EXPECT_EQ(chainProblem(net), "HyPar needs a chain of weighted layers, but the graph branches: 'b' reads 'a', not the layer "
                                "before it ('c'); HyPar plans chains only: AccPar or MCMC plan any graph");
}

TEST(HyparChain, AJoinSaysHowManyItJoins) {
    const Network net = test::network("join", {4, 8, 8},
                                      {test::conv("a", {"input"}, 4, 3, 1, 1), test::conv("b", {"a"}, 4, 3, 1, 1),
                                       test::join("cat", OpType::Concat, {"a", "b"}), test::fc("f", {"cat"}, 10)});
    EXPECT_EQ(chainProblem(net), "HyPar needs a chain of weighted layers, but the graph branches: 'f' joins 2 weighted layers "
                                "('a', 'b'); HyPar plans chains only: AccPar or MCMC plan any graph");
}

TEST(HyparChain, AChainPasses) {
    const Network net = test::network("chain", {4, 8, 8}, {test::conv("a", {"input"}, 4, 3, 1, 1), test::fc("f", {"a"}, 10)});
    EXPECT_EQ(chainProblem(net), "(no error)");
}

}  // namespace
}  // namespace partita
