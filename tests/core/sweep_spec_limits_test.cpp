// Issue 26 item 7: an over-large spec is refused before its lists are walked, and checking a spec is
// linear in its lists' lengths (repeats and exclude rules by hashing); points stream one at a time.
// Hangs are guarded by a harness time limit (errorWithin10s), never a timing assertion.
#include <gtest/gtest.h>

#include "core/sweep/spec.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

using test::errorOf;
using test::errorWithin10s;

TEST(SweepSpecLimits, AnOverLargeSpecIsRefusedBeforeItsListsAreWalked) {
    std::string values;
    for (int i = 0; i < 100'000; ++i) values += (i ? "," : "") + std::to_string(i + 1);
    const std::string text = R"({"format": "partita-sweep/1", "networks": ["lenet-c"], "methods": ["dp"],
        "axes": {"batch": [)" + values + R"(], "levels": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}})";
    const std::string two = R"({"format": "partita-sweep/1", "networks": ["lenet-c"], "methods": ["dp"],
        "axes": {"batch": [)" + values + R"(], "bytes_per_element": [)" + values + "]}}";
    for (const std::string& spec : {text, two})
        EXPECT_EQ(errorWithin10s([&] { sweep::readSpec(spec, "s.json", "", PARTITA_EXAMPLES_DIR); }),
                  "s.json: the sweep expands to more than 1,000,000 combinations (the limit); split it into several "
                  "sweeps");
    // Zipped, two such lists are 100,001 points; a repeat is found by hashing, not by a search per value.
    const std::string zipped = R"({"format": "partita-sweep/1", "networks": ["lenet-c"], "methods": ["dp"],
        "zip": [["batch", "link_bps"]], "axes": {"batch": [)" + values + R"(, 100001], "link_bps": [)" + values +
                               ", 7.0]}}";
    EXPECT_EQ(errorWithin10s([&] { sweep::readSpec(zipped, "s.json", "", PARTITA_EXAMPLES_DIR); }),
              "s.json: /axes/link_bps/100000: 7.0 repeats an earlier value of axis 'link_bps'");
    // A rule listing 100,000 values against a 100,000-value axis is matched by hashing too.
    const std::string excluded = R"({"format": "partita-sweep/1", "networks": ["lenet-c"], "methods": ["dp"],
        "zip": [["batch", "link_bps"]], "axes": {"batch": [)" + values + R"(], "link_bps": [)" + values +
                                 R"(]}, "exclude": [{"batch": [)" + values + "]}]}";
    EXPECT_EQ(errorWithin10s([&] {
                  const sweep::Spec s = sweep::readSpec(excluded, "s.json", "", PARTITA_EXAMPLES_DIR);
                  if (!sweep::expand(s).empty()) throw Error("points left");
              }),
              "(no error)");
    std::string rules;
    for (int i = 0; i < 257; ++i) rules += std::string(i ? "," : "") + R"({"batch": 1})";
    EXPECT_EQ(errorWithin10s([&] {
                  sweep::readSpec(R"({"format": "partita-sweep/1", "networks": ["lenet-c"], "methods": ["dp"],
                      "axes": {"batch": [1, 2]}, "exclude": [)" + rules + "]}",
                                  "s.json", "", PARTITA_EXAMPLES_DIR);
              }),
              "s.json: /exclude: 257 rules exceed the limit of 256; a rule's values may be a list");
}

TEST(SweepSpecLimits, PointsStreamInTheOrderExpandGives) {
    const sweep::Spec s = sweep::readSpec(R"({"format": "partita-sweep/1", "networks": ["lenet-c", "vgg-a"],
        "topologies": ["p100-16"], "methods": ["hypar", {"method": "mcmc", "iterations": 5}],
        "axes": {"levels": [2, 3], "seed": [1, 2]}, "exclude": [{"seed": 2, "network": "vgg-a"}]})",
                                          "s.json", "", PARTITA_EXAMPLES_DIR);
    std::vector<std::string> streamed;
    sweep::forEachPoint(s, [&](const sweep::Point& p) {
        streamed.push_back(std::to_string(p.index) + " " + p.describe(s).dump());
        return true;
    });
    std::vector<std::string> expanded;
    for (const auto& p : sweep::expand(s)) expanded.push_back(std::to_string(p.index) + " " + p.describe(s).dump());
    EXPECT_EQ(streamed, expanded);
    // hypar ignores seed (2 x 2 levels x 2 networks = 4 points), mcmc ignores levels (2 seeds on lenet-c, 1 on vgg-a).
    ASSERT_EQ(expanded.size(), 4u + 3u);
    EXPECT_EQ(sweep::combinations(s), 2 * 2 * 2 * 2);
}

}  // namespace
}  // namespace partita
