// Learn-to-Scale bad input: every error is an exception naming the place.
#include <gtest/gtest.h>

#include "core/l2s/evaluate.h"
#include "core/l2s/presets.h"
#include "core/l2s/study.h"
#include "core/util/error.h"

namespace partita::l2s {
namespace {

template <class E, class F>
void expectThrowWith(F f, const std::string& needle) {
    try {
        f();
        ADD_FAILURE() << "no exception, expected one mentioning '" << needle << "'";
    } catch (const E& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

Evaluator lenet16() { return Evaluator(presetLayers(preset("lenet"), PARTITA_EXAMPLES_DIR), Mesh()); }

TEST(L2sErrors, MeshParameters) {
    MeshParams p;
    p.cores = 0;
    expectThrowWith<std::invalid_argument>([&] { Mesh m(p); }, "positive");
    p.cores = 16;
    p.width = 3;
    p.height = 3;
    expectThrowWith<std::invalid_argument>([&] { Mesh m(p); }, "3x3 does not hold 16");
    p = MeshParams{};
    p.flit_bytes = -1;
    expectThrowWith<std::invalid_argument>([&] { Mesh m(p); }, "flit bytes");
    expectThrowWith<std::invalid_argument>([] { parseMeshShape("4by4"); }, "4by4");
    expectThrowWith<std::invalid_argument>([] { parseMeshShape("0x4"); }, "0x4");
}

TEST(L2sErrors, Strategies) {
    const Evaluator ev = lenet16();
    expectThrowWith<std::invalid_argument>([&] { ev.evaluateLayer(1, {Scheme::Grouped, {}}); }, "conv1 has 20 channels");
    expectThrowWith<std::invalid_argument>([&] { ev.evaluateLayer(0, {Scheme::Grouped, {}}); }, "conv1");
    expectThrowWith<std::invalid_argument>([&] { ev.evaluateLayer(1, {Scheme::Sparse, fullMask(4)}); }, "16 x 16");
    expectThrowWith<std::invalid_argument>([&] { ev.evaluate(Strategy(2)); }, "2 entries");
    StrategySpec spec;
    spec.per_layer = {{"conv9", Scheme::Grouped}};
    expectThrowWith<std::invalid_argument>([&] { buildStrategy(ev.layers(), ev.mesh(), spec); }, "unknown layer 'conv9'");
    spec.per_layer = {{"conv2", Scheme::Grouped}};
    expectThrowWith<std::invalid_argument>([&] { buildStrategy(ev.layers(), ev.mesh(), spec); }, "cannot be grouped");
    spec.per_layer.clear();
    spec.scheme = Scheme::Grouped;  // a blanket choice applies only where valid
    for (const LayerChoice& c : buildStrategy(ev.layers(), ev.mesh(), spec)) EXPECT_EQ(c.scheme, Scheme::Traditional);
    spec.masks = {{"fc1", fullMask(4)}};
    expectThrowWith<std::invalid_argument>([&] { buildStrategy(ev.layers(), ev.mesh(), spec); }, "fc1 is not 16 x 16");
    expectThrowWith<std::invalid_argument>([] { parseScheme("dense"); }, "dense");
    expectThrowWith<std::invalid_argument>([] { parsePerLayer("conv2"); }, "LAYER=");
    expectThrowWith<std::invalid_argument>([] { preset("resnet"); }, "mlp");
}

TEST(L2sErrors, KeepAndMasks) {
    expectThrowWith<std::invalid_argument>([] { parseKeep("d0=1,d2=0"); }, "d1 is missing");
    expectThrowWith<std::invalid_argument>([] { parseKeep("d0=1.5"); }, "d0=1.5");
    expectThrowWith<std::invalid_argument>([] { parseKeep("x"); }, "'x'");
    expectThrowWith<std::invalid_argument>([] { thresholdMask({{1}}, -1); }, "tau");
    expectThrowWith<std::invalid_argument>([] { groupNorms({1, 2, 3}, {1, 1}, {1, 1}, 1); }, "3 weights");
    expectThrowWith<std::invalid_argument>([] { groupLassoPenalty({{1, 2}, {3, 4}}, {{1}}); }, "strength");
    expectThrowWith<InputError>([] { readMasksJson("{", "m.json"); }, "m.json");
    expectThrowWith<InputError>([] { readMasksJson(R"({"format": "partita-l2s-masks/1", "cores": 2, "layers": {}, "x": 1})", "m.json"); },
                                "x");
    expectThrowWith<InputError>(
        [] { readMasksJson(R"({"format": "partita-l2s-masks/1", "cores": 2, "layers": {"fc1": [[1, 0], [2, 1]]}})", "m.json"); },
        "/layers/fc1/1/0");
    expectThrowWith<InputError>(
        [] { readMasksJson(R"({"format": "partita-l2s-masks/1", "cores": 2, "layers": {"fc1": [[1, 0]]}})", "m.json"); },
        "/layers/fc1");
    const std::map<std::string, Mask> masks = {{"fc1", {{1, 0}, {0, 1}}}};
    EXPECT_EQ(readMasksJson(writeMasksJson(masks), "<round trip>"), masks);
}

}  // namespace
}  // namespace partita::l2s
