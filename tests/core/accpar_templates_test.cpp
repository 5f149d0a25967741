// AccPar plans every network the editor's templates build (issue 26, item 1): the Transformer
// encoder (one block and three), and each template of the catalogue, alone and chained, to a
// valid finite plan. The Transformer's Q, K and V projections all read the block input, so the
// weighted-layer view has several layers without a weighted predecessor.
#include <gtest/gtest.h>

#include <cmath>

#include "core/accpar/accpar.h"
#include "core/edit/templates.h"
#include "core/io/array_io.h"
#include "core/run/run.h"

namespace partita {
namespace {

// `blocks` copies of the template, each after the previous one's exit, on the network input `input`.
Network fromTemplate(const edit::TemplateParams& params, Shape input, int blocks) {
    edit::Document doc;
    doc.apply(edit::setHeader(doc, {"template", "", input}));
    edit::Placement where;
    for (int b = 0; b < blocks; ++b) {
        doc.apply(edit::insertTemplate(doc, params, where));
        where.after = doc.ids().back();
    }
    EXPECT_TRUE(doc.valid()) << (doc.problems().empty() ? "" : doc.problems().front().reason);
    return doc.toNetwork();
}

// A finite plan: every layer has a type at every level, every time is finite and positive.
void expectValidPlan(const PlanTree& tree, const LayerTable& layers, int levels, const std::string& what) {
    EXPECT_EQ(tree.grid.levels(), levels) << what;
    EXPECT_EQ(tree.grid.layers(), static_cast<int>(layers.size())) << what;
    EXPECT_TRUE(std::isfinite(tree.step_time_s) && tree.step_time_s > 0) << what << ": " << tree.step_time_s;
    for (const PlanNode& n : tree.nodes) {
        if (n.leaf) continue;
        EXPECT_TRUE(std::isfinite(n.objective)) << what;
        for (const Cell& c : n.row) EXPECT_TRUE(c.ratio > 0 && c.ratio < 1) << what;
    }
}

// AccPar on `net` to a valid plan, whose root split costs no more than all-Type-I (data parallel)
// under the same ratios: the level solver is exact, so its optimum is at most any fixed row.
void expectPlans(const Network& net, const std::string& what) {
    const LayerTable layers = weightedLayers(net);
    ASSERT_GT(layers.size(), 0u) << what;
    AccParParams params;
    params.balanced_baselines = true;  // DP priced with the same ratios as AccPar's search
    const Array array = defaultArray(3);
    AccParResult r;
    ASSERT_NO_THROW(r = runAccPar(layers, array, params)) << what;
    expectValidPlan(r.accpar, layers, 3, what + " (AccPar)");
    expectValidPlan(r.dp, layers, 3, what + " (DP)");
    const bool shortcuts = !layers.shortcuts.empty();  // priced at one ratio in the search, another after
    if (!shortcuts) {
        EXPECT_LE(r.accpar.root().objective, r.dp.root().objective * (1 + 1e-12)) << what;
    }
    for (const auto& l : layers.layers) EXPECT_TRUE(l.dp_pred < static_cast<int>(layers.size())) << what;
}

TEST(AccParTemplates, TransformerOneBlockPlans) {
    const Network net = fromTemplate(edit::TransformerEncoderParams{}, {64, 8, 8}, 1);
    const LayerTable layers = weightedLayers(net);
    // q, k, v, proj, fc1, fc2: k and v read the layer norm of the input, like q.
    ASSERT_EQ(layers.size(), 6u);
    EXPECT_EQ(layers[1].dp_pred, -1);
    EXPECT_EQ(layers[2].dp_pred, -1);
    expectPlans(net, "transformer x1");
}

TEST(AccParTemplates, TransformerThreeBlocksPlan) {
    for (Shape input : {Shape{64, 8, 8}, Shape{512, 1, 128}})
        expectPlans(fromTemplate(edit::TransformerEncoderParams{}, input, 3),
                    "transformer x3 on " + std::to_string(input.c));
}

TEST(AccParTemplates, TransformerPlansThroughTheRun) {
    // The path the editor and the CLI take: the network's inputs, then accparRun.
    const Network net = fromTemplate(edit::TransformerEncoderParams{}, {64, 8, 8}, 3);
    const auto inputs = makeInputs(net, defaultArray(4), CostParams{});
    const partita::Run run = accparRun(inputs);
    EXPECT_TRUE(std::isfinite(run.stepTime()) && run.stepTime() > 0);
}

TEST(AccParTemplates, EveryTemplatePlansAloneAndChained) {
    for (const edit::TemplateParams& params : edit::templateCatalog()) {
        const std::string label = edit::templateLabel(params);
        // The MLP flattens its input; every other block keeps a 64 x 8 x 8 input valid.
        for (int blocks : {1, 3}) {
            const Shape input = std::holds_alternative<edit::MlpParams>(params) && blocks > 1 ? Shape{64, 1, 1}
                                                                                            : Shape{64, 8, 8};
            expectPlans(fromTemplate(params, input, blocks), label + " x" + std::to_string(blocks));
        }
    }
}

TEST(AccParTemplates, TooManyOpenBranchesNamesTheLayer) {
    // Fourteen layers reading the input, each a shortcut into the last layer: every one of them stays
    // needed until the end, beyond the 12 open layers the exact search keeps with three types.
    LayerTable t;
    t.network = "wide";
    for (int i = 0; i < 15; ++i) {
        WeightedLayer w;
        w.name = "branch" + std::to_string(i);
        w.is_fc = true;
        w.c_in = w.c_out = 64;
        w.dp_pred = i == 14 ? 13 : -1;
        if (i == 14) w.preds = {13};
        t.layers.push_back(w);
    }
    t.layers.back().name = "join";
    for (int i = 0; i < 13; ++i) t.shortcuts.push_back({i, 14, false});
    try {
        planHierarchy(t, defaultArray(2), AccParParams{}, Scheme::AccPar);
        FAIL() << "planned";
    } catch (const std::invalid_argument& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find("solveLevel"), std::string::npos) << m;
        EXPECT_NE(m.find("AccPar cannot plan this network exactly: when it reaches layer 'branch"), std::string::npos) << m;
        EXPECT_NE(m.find("at most 12 open at once"), std::string::npos) << m;
    }
}

}  // namespace
}  // namespace partita
