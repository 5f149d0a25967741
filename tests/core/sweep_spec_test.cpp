// partita-sweep/1 specs: expansion (cartesian order, zip groups, exclusions, axes a method ignores,
// the point limit) and the exact text of every validation error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sweep/spec.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita::sweep {
namespace {

Spec spec(const std::string& body) {
    return readSpec(R"({"format": "partita-sweep/1", )" + body + "}", "s.json", "", PARTITA_EXAMPLES_DIR);
}

std::string error(const std::string& body) {
    return test::errorOf<InputError>([&] { spec(body); });
}

std::vector<std::string> described(const std::string& body) {
    const Spec s = spec(body);
    std::vector<std::string> out;
    for (const Point& p : expand(s)) out.push_back(p.describe(s).dump());
    return out;
}

constexpr const char* kTwoByTwo =
    R"("networks": ["lenet-c", "vgg-a"], "methods": ["hypar", "dp"], "axes": {"levels": [2, 3], "batch": [64, 128]})";

TEST(SweepSpec, CartesianProductNestsNetworkArrayMethodThenAxesInCanonicalOrder) {
    const auto points = described(kTwoByTwo);
    ASSERT_EQ(points.size(), 16u);
    // batch comes before levels in the axes (core/sweep/axes.h), so levels varies fastest; the network slowest.
    EXPECT_EQ(points[0], R"({"array":"levels=4","batch":64,"levels":2,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(points[1], R"({"array":"levels=4","batch":64,"levels":3,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(points[2], R"({"array":"levels=4","batch":128,"levels":2,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(points[4], R"({"array":"levels=4","batch":64,"levels":2,"method":"dp","network":"lenet-c"})");
    EXPECT_EQ(points[8], R"({"array":"levels=4","batch":64,"levels":2,"method":"hypar","network":"vgg-a"})");
    EXPECT_EQ(points[15], R"({"array":"levels=4","batch":128,"levels":3,"method":"dp","network":"vgg-a"})");
    const Spec s = spec(kTwoByTwo);
    const auto expanded = expand(s);
    for (size_t i = 0; i < expanded.size(); ++i) EXPECT_EQ(expanded[i].index, i);
    EXPECT_EQ(s.name, "s");
}

TEST(SweepSpec, ZipGroupsVaryTogetherAtTheirFirstMember) {
    const auto points = described(std::string(kTwoByTwo).insert(0, R"("zip": [["levels", "batch"]], )"));
    ASSERT_EQ(points.size(), 8u);
    EXPECT_EQ(points[0], R"({"array":"levels=4","batch":64,"levels":2,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(points[1], R"({"array":"levels=4","batch":128,"levels":3,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(points[2], R"({"array":"levels=4","batch":64,"levels":2,"method":"dp","network":"lenet-c"})");
    // A zip over the network and a method: they advance as one.
    const auto paired = described(R"("networks": ["lenet-c", "vgg-a"], "methods": ["hypar", "dp"],
                                     "zip": [["network", "method"]], "axes": {"levels": [2, 3]})");
    ASSERT_EQ(paired.size(), 4u);
    EXPECT_EQ(paired[0], R"({"array":"levels=4","levels":2,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(paired[2], R"({"array":"levels=4","levels":2,"method":"dp","network":"vgg-a"})");
}

TEST(SweepSpec, ExcludeRulesDropEveryMatchingCombination) {
    // Every key of a rule must match; a list matches any of its values.
    const auto points = described(std::string(kTwoByTwo).insert(
        0, R"("exclude": [{"method": "dp", "levels": 3}, {"network": "vgg-a", "batch": [64, 128], "levels": [2]}], )"));
    ASSERT_EQ(points.size(), 8u);  // 16 - 4 (dp at H3) - 4 (vgg-a at H2)
    for (const auto& p : points) {
        EXPECT_EQ(p.find(R"("levels":3,"method":"dp")"), std::string::npos) << p;
        EXPECT_EQ(p.find(R"("levels":2,"method":"hypar","network":"vgg-a")"), std::string::npos) << p;
    }
    EXPECT_EQ(points[7], R"({"array":"levels=4","batch":128,"levels":3,"method":"hypar","network":"vgg-a"})");
}

TEST(SweepSpec, AxesAMethodIgnoresCollapseIntoOnePoint) {
    // HyPar ignores the ratio model; the topologies are for simulate and mcmc only.
    const auto points = described(R"("networks": ["lenet-c"], "topologies": ["p100-16", "hmc-htree-16"],
        "methods": ["hypar", "accpar", {"method": "mcmc", "iterations": 10}],
        "axes": {"ratio_model": ["E", "P"], "seed": [1, 2], "levels": [2, 3]})");
    ASSERT_EQ(points.size(), 2u + 4u + 4u);
    EXPECT_EQ(points[0], R"({"array":"levels=4","levels":2,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(points[1], R"({"array":"levels=4","levels":3,"method":"hypar","network":"lenet-c"})");
    EXPECT_EQ(points[2], R"({"array":"levels=4","levels":2,"method":"accpar","network":"lenet-c","ratio_model":"E"})");
    EXPECT_EQ(points[6], R"({"array":"levels=4","method":"mcmc","network":"lenet-c","seed":1,"topology":"p100-16"})");
    EXPECT_EQ(points[9], R"({"array":"levels=4","method":"mcmc","network":"lenet-c","seed":2,"topology":"hmc-htree-16"})");
}

TEST(SweepSpec, MethodOptionsAndSources) {
    const Spec s = spec(R"("name": "n", "networks": ["lenet-c", "../x/net.json"], "arrays": ["hmc-htree-16",
        {"levels": 3, "topology": "torus"}], "topologies": ["p100-16"], "methods": [
        {"method": "accpar", "label": "accpar-balanced", "balanced_baselines": true, "comm_only": true},
        {"method": "simulate", "strategy": "grid", "sync": "ps", "inference": true},
        {"method": "mcmc", "iterations": 50, "budget_s": 2, "seed": 7, "beta": 0.5, "starts": ["dp", "random"]}])");
    EXPECT_EQ(s.name, "n");
    EXPECT_TRUE(s.networks[0].built_in);
    EXPECT_EQ(s.networks[0].path, std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json");
    EXPECT_EQ(s.networks[1].path, "../x/net.json");
    EXPECT_EQ(s.arrays[1].label, "levels=3,torus");
    EXPECT_EQ(s.arrays[1].levels, 3);
    EXPECT_EQ(s.methods[0].label, "accpar-balanced");
    EXPECT_TRUE(s.methods[0].balanced_baselines && s.methods[0].comm_only);
    EXPECT_EQ(s.methods[1].source, SimSource::Grid);
    EXPECT_EQ(s.methods[1].sync, sim::SyncMode::ParameterServer);
    EXPECT_FALSE(s.methods[1].training);
    EXPECT_EQ(s.methods[2].mcmc, (McmcSettings{2, 50, 7, 0.5, {"dp", "random"}}));
    const Spec relative = readSpec(R"({"format": "partita-sweep/1", "networks": ["nets/a.json", "/abs/b.json"],
        "methods": ["dp"]})", "dir/s.json", "dir", PARTITA_EXAMPLES_DIR);
    EXPECT_EQ(relative.networks[0].path, "dir/nets/a.json");
    EXPECT_EQ(relative.networks[1].path, "/abs/b.json");
}

TEST(SweepSpec, KernelsNameAProfileAndAPrecision) {
    const std::string sim = R"("networks": ["lenet-c"], "topologies": ["p100-16"], "methods": [)";
    const Spec s = spec(sim + R"({"method": "mcmc", "iterations": 5, "kernels": {"profile": "h100-sxm5-80gb",
        "precision": "fp8"}}])");
    ASSERT_NE(s.methods[0].kernels_profile, nullptr);
    EXPECT_EQ(s.methods[0].kernels_label, "h100-sxm5-80gb");
    EXPECT_EQ(s.methods[0].kernels_precision, llm::Dtype::Fp8);
    // A file is taken from the spec's folder and named by that path.
    EXPECT_EQ(test::errorOf<InputError>([&] {
                  readSpec(R"({"format": "partita-sweep/1", )" + sim +
                               R"({"method": "simulate", "kernels": {"profile": "hw/missing.json"}}]})",
                           "dir/s.json", "dir", PARTITA_EXAMPLES_DIR);
              }),
              "dir/hw/missing.json: cannot open the file");
    EXPECT_EQ(error(sim + R"({"method": "simulate", "kernels": {"precision": "bf16"}}])"),
              "s.json: /methods/0/kernels: missing key 'profile'");
    EXPECT_EQ(error(sim + R"({"method": "simulate", "kernels": {"profile": "a100-sxm4-80gb", "precision": "fp4"}}])")
                  .rfind("s.json: /methods/0/kernels/precision: ", 0),
              0u);
    EXPECT_EQ(error(sim + R"({"method": "simulate", "kernels": {"profile": "a100-sxm4-80gb", "tier": 1}}])"),
              "s.json: /methods/0/kernels/tier: unknown key 'tier'");
    EXPECT_EQ(error(sim + R"({"method": "simulate", "kernels": "a100-sxm4-80gb"}])").rfind("s.json: /methods/0/kernels", 0),
              0u);
}

TEST(SweepSpec, ThePointLimitIsCheckedBeforeEnumerating) {
    std::string batch, bpe;
    for (int i = 1; i <= 1000; ++i) batch += (i > 1 ? "," : "") + std::to_string(i);
    for (int i = 1; i <= 1001; ++i) bpe += (i > 1 ? "," : "") + std::to_string(i / 16.0);
    // Counted from the lists' lengths before any value is read (issue 26 item 7): reading refuses it.
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": ["dp"], "axes": {"batch": [)" + batch +
                    R"(], "bytes_per_element": [)" + bpe + "]}"),
              "s.json: the sweep expands to more than 1,000,000 combinations (the limit); split it into several sweeps");
    // A spec made in memory past the reader is refused by the expansion, with the same words.
    Spec s = spec(R"("networks": ["lenet-c"], "methods": ["dp"], "axes": {"batch": [1]})");
    s.axes[0].values.clear();
    for (int i = 1; i <= 1001; ++i) s.axes[0].values.push_back(i);
    s.networks.resize(1000, s.networks[0]);
    EXPECT_EQ(test::errorOf<InputError>([&] { expand(s); }),
              "s.json: the sweep expands to more than 1,000,000 combinations (the limit); split it into several sweeps");
}

TEST(SweepSpec, EveryValidationErrorNamesTheFileAndTheEntry) {
    const std::string ok = R"("networks": ["lenet-c"], "methods": ["hypar"])";
    auto with = [&](const std::string& more) { return ok + ", " + more; };
    EXPECT_EQ(test::errorOf<InputError>([] {
                  readSpec(R"({"format": "partita-network/1"})", "s.json", "", PARTITA_EXAMPLES_DIR);
              }),
              "s.json: /format: expected 'partita-sweep/1', found 'partita-network/1'");
    EXPECT_EQ(test::errorOf<InputError>([] {
                  readSpec(R"({"format": "partita-sweep/2"})", "s.json", "", PARTITA_EXAMPLES_DIR);
              }),
              "s.json: /format: unsupported version 'partita-sweep/2' (this build reads 'partita-sweep/1')");
    EXPECT_EQ(error(R"("methods": ["hypar"])"), "s.json: /: missing key 'networks'");
    EXPECT_EQ(error(R"("networks": [], "methods": ["hypar"])"), "s.json: /networks: expected a non-empty list, found []");
    EXPECT_EQ(error(R"("networks": ["lenet-c", "nope"], "methods": ["hypar"])"),
              "s.json: /networks/1: no built-in network 'nope' (examples/networks)");
    EXPECT_EQ(error(R"("networks": [3], "methods": ["hypar"])"), "s.json: /networks/0: expected a string, found 3");
    EXPECT_EQ(error(R"("networks": ["lenet-c", "lenet-c"], "methods": ["hypar"])"),
              "s.json: /networks/1: 'lenet-c' is listed twice");
    EXPECT_EQ(error(with(R"("arrays": [{"levels": 13}])")), "s.json: /arrays/0/levels: must be between 1 and 12, got 13");
    EXPECT_EQ(error(with(R"("arrays": [{"levels": 2, "topology": "ring"}])")),
              "s.json: /arrays/0/topology: expected \"htree\" or \"torus\", found 'ring'");
    EXPECT_EQ(error(with(R"("arrays": [{"levels": 2, "links": 1}])")), "s.json: /arrays/0/links: unknown key 'links'");
    EXPECT_EQ(error(with(R"("arrays": ["tpu"])")), "s.json: /arrays/0: no built-in array 'tpu' (examples/arrays)");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": ["simulate"], "topologies": ["dgx"])"),
              "s.json: /topologies/0: no built-in topology 'dgx' (p100-16, k80-64, hmc-htree-16, hmc-torus-16)");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": ["hypar", "gpipe"])"),
              "s.json: /methods/1: unknown method 'gpipe' (hypar, dp, mp, owt, accpar, simulate, mcmc or llm)");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"method": "gpipe"}])"),
              "s.json: /methods/0/method: unknown method 'gpipe' (hypar, dp, mp, owt, accpar, simulate, mcmc or llm)");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"label": "x"}])"), "s.json: /methods/0: missing key 'method'");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"method": "accpar", "ratio": "P"}])"),
              "s.json: /methods/0/ratio: unknown key 'ratio'");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"method": "hypar", "seed": 1}])"),
              "s.json: /methods/0/seed: unknown key 'seed'");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": ["accpar", {"method": "accpar", "comm_only": true}])"),
              "s.json: /methods/1: the label 'accpar' is used twice; give each entry its own \"label\"");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"method": "simulate", "strategy": "hypar"}], "topologies": ["p100-16"])"),
              "s.json: /methods/0/strategy: expected \"dp\", \"owt\", \"mp\" or \"grid\", found 'hypar'");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": ["simulate"])"),
              "s.json: /methods/0: simulate needs \"topologies\" to run on");
    EXPECT_EQ(error(with(R"("topologies": ["p100-16"])")), "s.json: /topologies: no simulate or mcmc method uses them");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": ["mcmc"], "topologies": ["p100-16"])"),
              "s.json: /methods/0: mcmc needs its options: {\"method\": \"mcmc\", \"iterations\": N}");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"method": "mcmc"}], "topologies": ["p100-16"])"),
              "s.json: /methods/0: mcmc needs \"iterations\" (here or as an axis) or \"budget_s\"");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"method": "mcmc", "iterations": 5, "seed": 2}],
                       "topologies": ["p100-16"], "axes": {"seed": [1, 2]})"),
              "s.json: /methods/0/seed: 'seed' is also an axis; give it in one place");
    EXPECT_EQ(error(R"("networks": ["lenet-c"], "methods": [{"method": "mcmc", "iterations": 5, "starts": ["dp", "best"]}],
                       "topologies": ["p100-16"])"),
              "s.json: /methods/0/starts/1: expected \"dp\", \"owt\", \"mp\" or \"random\", found 'best'");
    EXPECT_EQ(error(with(R"("axes": {"batchsize": [1]})")),
              "s.json: /axes/batchsize: unknown axis 'batchsize' (batch, out_size, bytes_per_element, mode, levels, "
              "link_bps, level_bw_factor, throughput_ops, ratio_model, iterations, seed, beta, tp, pp, dp, "
              "micro_batch, global_batch, interleave, schedule, recompute, sequence_parallel, zero, "
              "distributed_optimizer, gpus, seq)");
    EXPECT_EQ(error(with(R"("axes": {"batch": 256})")), "s.json: /axes/batch: expected a non-empty list of values, found 256");
    EXPECT_EQ(error(with(R"("axes": {"levels": [2, 13]})")),
              "s.json: /axes/levels/1: axis 'levels' takes integers from 1 to 12, found 13");
    EXPECT_EQ(error(with(R"("axes": {"batch": [2.5]})")),
              "s.json: /axes/batch/0: axis 'batch' takes integers from 1 to 16777216, found 2.5");
    EXPECT_EQ(error(with(R"("axes": {"bytes_per_element": [0]})")),
              "s.json: /axes/bytes_per_element/0: axis 'bytes_per_element' takes numbers from 0.125 to 64, found 0");
    EXPECT_EQ(error(with(R"("axes": {"link_bps": ["fast"]})")),
              "s.json: /axes/link_bps/0: axis 'link_bps' takes numbers above 0 to 1e+300, found \"fast\"");
    EXPECT_EQ(error(with(R"("axes": {"mode": ["cal", "fast"]})")),
              "s.json: /axes/mode/1: axis 'mode' takes \"cal\" or \"lit\", found \"fast\"");
    EXPECT_EQ(error(with(R"("axes": {"batch": [64, 64]})")), "s.json: /axes/batch/1: 64 repeats an earlier value of axis 'batch'");
    EXPECT_EQ(error(with(R"("axes": {"batch": [64, 128]}, "zip": [["batch", "seed"]])")),
              "s.json: /zip/0/1: 'seed' is not a dimension of this sweep");
    EXPECT_EQ(error(with(R"("axes": {"batch": [64, 128], "levels": [1, 2, 3]}, "zip": [["batch", "levels"]])")),
              "s.json: /zip/0/1: 'levels' has 3 values, 'batch' 2: zipped dimensions need as many values each");
    EXPECT_EQ(error(with(R"("axes": {"batch": [64, 128], "levels": [1, 2]}, "zip": [["batch", "levels"], ["batch", "network"]])")),
              "s.json: /zip/1/0: 'batch' is already in zip group 0");
    EXPECT_EQ(error(with(R"("axes": {"batch": [64]}, "zip": [["batch"]])")),
              "s.json: /zip/0: a zip group lists two or more dimensions, found [\"batch\"]");
    EXPECT_EQ(error(with(R"("exclude": [{"seed": 1}])")), "s.json: /exclude/0/seed: 'seed' is not a dimension of this sweep");
    EXPECT_EQ(error(with(R"("axes": {"levels": [2, 3]}, "exclude": [{"levels": 7}])")),
              "s.json: /exclude/0/levels: 7 is not a value of 'levels'");
    EXPECT_EQ(error(with(R"("axes": {"levels": [2, 3]}, "exclude": [{"method": "hypar"}, {"levels": [2, 7]}])")),
              "s.json: /exclude/1/levels/1: 7 is not a value of 'levels'");
    EXPECT_EQ(error(with(R"("exclude": [{}])")),
              "s.json: /exclude/0: a rule is a non-empty object of dimension: value(s), found {}");
    EXPECT_EQ(error(with(R"("sweeps": 2)")), "s.json: /sweeps: unknown key 'sweeps'");
}

}  // namespace
}  // namespace partita::sweep
