// Heterogeneous arrays (docs/methods/accpar.md#the-hierarchy-over-an-array): accelerator groups in partita-array/1,
// their round trip and malformed cases, and the bisection rules.
#include <gtest/gtest.h>

#include "core/io/array_io.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

std::string arrayErrorOf(const std::string& text) {
    return test::errorOf<InputError>([&] { readArrayJson(text, "groups.json"); });
}

std::string groupsText(const std::string& groups, const std::string& extra = "") {
    return R"({"format": "partita-array/1", "name": "g", "accelerators": [)" + groups + "]" + extra + "}";
}

const std::string kV3 = R"({"kind": "tpu-v3", "count": 2, "throughput_flops": 1.23e14, "bandwidth_Bps": 3e11})";

TEST(AcceleratorGroups, Presets) {
    const Array mixed = loadArray(test::example("arrays/tpu-mixed-128.json"));
    EXPECT_EQ(mixed.count(), 128);
    EXPECT_EQ(mixed.levels, 7);
    EXPECT_FALSE(mixed.hyparCompatible());
    EXPECT_EQ(mixed.groups[0], tpuV3(64));
    EXPECT_EQ(mixed.groups[1], tpuV2(64));
    const Array v3 = loadArray(test::example("arrays/tpu-v3-128.json"));
    EXPECT_EQ(v3.levels, 7);
    EXPECT_TRUE(v3.hyparCompatible());
    // HyPar's view of a single-kind array: per-level bandwidth = the groups' sum(b).
    EXPECT_EQ(v3.accelerator.throughput_ops, 123e12);
    EXPECT_EQ(v3.levelBandwidth(0), 8 * 64 * tpuV3(1).bandwidth_Bps);
    EXPECT_EQ(v3.levelBandwidth(6), 8 * tpuV3(1).bandwidth_Bps);
    // Existing HyPar arrays keep working, as one group.
    const Array hmc = loadArray(test::example("arrays/hmc-htree-16.json"));
    EXPECT_TRUE(hmc.groups.empty());
    EXPECT_EQ(acceleratorGroups(hmc).front().count, 16);
    EXPECT_EQ(groupLevelBandwidth(hmc), (std::vector<double>{1.6e9, 0.8e9, 0.4e9, 0.2e9}));
}

TEST(AcceleratorGroups, RoundTrip) {
    Array a;
    a.name = "three kinds";
    a.groups = {tpuV3(5), tpuV2(2), {"gpu", 1, 1.5e13, 3e10}};
    deriveFromGroups(a);
    a.level_bandwidth_Bps.assign(static_cast<size_t>(a.levels), 1e11);
    validate(a);
    const std::string text = writeArrayJson(a);
    const Array back = readArrayJson(text, "x");
    EXPECT_EQ(back.groups, a.groups);
    EXPECT_EQ(back.levels, a.levels);
    EXPECT_EQ(back.level_bandwidth_Bps, a.level_bandwidth_Bps);
    EXPECT_EQ(back.name, a.name);
    EXPECT_EQ(writeArrayJson(back), text);
}

TEST(AcceleratorGroups, Errors) {
    EXPECT_EQ(arrayErrorOf(groupsText(R"({"kind": "a", "count": 2, "throughput_flops": 1e12, "bandwidth_Bps": 0})")),
              "groups.json: /accelerators/0/bandwidth_Bps: must be positive, got 0");
    EXPECT_EQ(arrayErrorOf(groupsText(kV3 + R"(, {"kind": "b", "count": 2, "throughput_flops": -1, "bandwidth_Bps": 1})")),
              "groups.json: /accelerators/1/throughput_flops: must be positive, got -1");
    EXPECT_EQ(
        arrayErrorOf(groupsText(R"({"kind": "a", "count": 2, "throughput_flops": 1, "bandwidth_Bps": 1, "speed": 2})")),
              "groups.json: /accelerators/0/speed: unknown key 'speed'");
    EXPECT_EQ(arrayErrorOf(groupsText(kV3, R"(, "colour": "red")")), "groups.json: /colour: unknown key 'colour'");
    EXPECT_EQ(arrayErrorOf(groupsText(R"({"kind": "a", "count": 0, "throughput_flops": 1, "bandwidth_Bps": 1})")),
              "groups.json: /accelerators/0/count: must be between 1 and 4096, got 0");
    EXPECT_EQ(arrayErrorOf(groupsText(R"({"kind": "a", "count": 1, "throughput_flops": 1, "bandwidth_Bps": 1})")),
              "groups.json: /accelerators: an array needs at least 2 accelerators");
    EXPECT_EQ(arrayErrorOf(groupsText(kV3 + ", " + kV3)),
              "groups.json: /accelerators/1/kind: kind 'tpu-v3' is listed twice; merge the groups");
    EXPECT_EQ(arrayErrorOf(groupsText(kV3, R"(, "levels": 3)")),
              "groups.json: /levels: the accelerator groups form 1 levels, not 3 (leave 'levels' out to derive it)");
    EXPECT_EQ(arrayErrorOf(groupsText(kV3, R"(, "link_bps": 1e9)")),
              "groups.json: /link_bps: 'link_bps' cannot be combined with 'accelerators'");
    EXPECT_EQ(arrayErrorOf(groupsText(kV3, R"(, "level_bandwidth_Bps": [1, 2])")),
              "groups.json: /level_bandwidth_Bps: has 2 entries, the array has 1 levels");
    EXPECT_EQ(arrayErrorOf(groupsText(kV3, R"(, "level_bandwidth_Bps": [0])")),
              "groups.json: /level_bandwidth_Bps/0: must be a positive number, got 0");
    EXPECT_EQ(arrayErrorOf(R"({"format": "partita-array/1", "name": "g", "accelerators": []})"),
              "groups.json: /accelerators: expected a non-empty list of accelerator groups");
    EXPECT_EQ(arrayErrorOf(groupsText(R"({"kind": "a", "count": 2, "throughput_flops": "fast", "bandwidth_Bps": 1})")),
              "groups.json: /accelerators/0/throughput_flops: expected a number, found string");
}

TEST(AcceleratorGroups, Bisection) {
    const std::vector<AcceleratorGroup> g{tpuV2(3), tpuV3(2), {"gpu", 4, 1.5e13, 3e10}};
    // Kinds sorted fastest first: v3 (246 T), v2 (135 T), gpu (60 T); the cut after v3
    // leaves 246 | 195 (gap 51) against 381 | 60 after v2.
    const Bisection top = bisect(g, {3, 2, 4});
    EXPECT_EQ(top.i, (Members{0, 2, 0}));
    EXPECT_EQ(top.j, (Members{3, 0, 4}));
    const Bisection two = bisect(g, {3, 0, 4});
    EXPECT_EQ(two.i, (Members{3, 0, 0}));  // two kinds split by kind, the faster as i
    const Bisection odd = bisect(g, {3, 0, 0});
    EXPECT_EQ(odd.i, (Members{2, 0, 0}));  // ceil(n/2) | floor(n/2)
    EXPECT_EQ(odd.j, (Members{1, 0, 0}));
    EXPECT_EQ(treeHeight({tpuV3(128)}), 7);
    EXPECT_EQ(treeHeight({tpuV3(64), tpuV2(64)}), 7);
    EXPECT_EQ(treeHeight({tpuV3(96), tpuV2(32)}), 8);  // 96 -> 48 -> 24 -> 12 -> 6 -> 3 -> 2 -> 1
    EXPECT_EQ(treeHeight({tpuV3(3)}), 2);
    EXPECT_EQ(membersLabel(g, {3, 0, 4}), "3 x tpu-v2 + 4 x gpu");
    EXPECT_EQ(groupThroughput(g, {3, 2, 0}), 3 * 45e12 + 2 * 123e12);
}

}  // namespace
}  // namespace partita
