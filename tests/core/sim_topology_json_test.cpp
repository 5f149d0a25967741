// partita-topology/1: templates ("for", "where", "{expression}") and every malformed
// input giving an InputError that names the file and the JSON pointer.
#include <gtest/gtest.h>

#include "core/topology/topology.h"
#include "core/topology/template.h"
#include "core/util/error.h"

namespace partita::sim {
namespace {

// Two GPUs in one node plus a switch; `links` and `extra` splice into the document.
std::string doc(const std::string& links, const std::string& extra = "") {
    return R"({"format": "partita-topology/1", "name": "pair",
      "devices": [{"for": [["g", 2]], "name": "gpu{g}", "kind": "gpu", "peak_flops": 1e13,
                   "mem_bandwidth_Bps": 7e11)" +
           extra + R"(}],
      "switches": ["sw"],
      "links": [)" +
           links + "]}";
}
const std::string kStar = R"({"for": [["g", 2]], "from": "gpu{g}", "to": "sw", "bandwidth_Bps": 1e10, "duplex": true})";

// "file: place: message" of the InputError the text raises.
std::string error(const std::string& text) {
    try {
        readTopologyJson(text, "t.json");
    } catch (const InputError& e) {
        EXPECT_EQ(e.source(), "t.json");
        return e.place() + ": " + (std::string(e.what()).substr(e.source().size() + e.place().size() + 4));
    }
    return "no error";
}

TEST(TopologyTemplate, Expressions) {
    const tmpl::Bindings v{{"n", 3}, {"g", 2}};
    EXPECT_EQ(tmpl::evaluate("1 + 2 * 3", v), 7);
    EXPECT_EQ(tmpl::evaluate("(1 + 2) * 3", v), 9);
    EXPECT_EQ(tmpl::evaluate("n * 4 + g", v), 14);
    EXPECT_EQ(tmpl::evaluate("(n + 1) % 4", v), 0);
    EXPECT_EQ(tmpl::evaluate("7 / 2 - -1", v), 4);
    EXPECT_EQ(tmpl::evaluate("g < n", v), 1);
    EXPECT_EQ(tmpl::evaluate("g >= n", v), 0);
    EXPECT_EQ(tmpl::evaluate("g != 2", v), 0);
    EXPECT_EQ(tmpl::expand("n{n}.gpu{g / 2}", v), "n3.gpu1");
    EXPECT_EQ(tmpl::expand("plain", {}), "plain");
    EXPECT_THROW(tmpl::evaluate("n / (g - 2)", v), std::invalid_argument);
    EXPECT_THROW(tmpl::evaluate("x + 1", v), std::invalid_argument);
    EXPECT_THROW(tmpl::evaluate("(n", v), std::invalid_argument);
    EXPECT_THROW(tmpl::evaluate("n n", v), std::invalid_argument);
    EXPECT_THROW(tmpl::expand("gpu{n", v), std::invalid_argument);
    EXPECT_THROW(tmpl::expand("gpu}", v), std::invalid_argument);
    EXPECT_EQ(tmpl::describe(v), "n=3, g=2");
}

TEST(TopologyJson, ReadsTemplatesInOrder) {
    const Topology t = readTopologyJson(
        doc(kStar + R"(, {"for": [["a", 2], ["b", 2]], "where": "a != b", "kind": "nvlink",
                          "from": "gpu{a}", "to": "gpu{b}", "bandwidth_Bps": 2e10, "latency_s": 1e-6})",
            R"(, "node": "{g + 1}", "efficiency": 0.5)"),
        "t.json");
    ASSERT_EQ(t.deviceCount(), 2);
    EXPECT_EQ(t.devices[1].name, "gpu1");
    EXPECT_EQ(t.devices[1].node, 2);
    EXPECT_EQ(t.devices[1].efficiency, 0.5);
    EXPECT_EQ(t.devices[0].mem_capacity_B, 0);
    ASSERT_EQ(t.links.size(), 6u);
    EXPECT_EQ(t.links[1].name, "link sw->gpu0");  // the duplex reverse follows its forward link
    EXPECT_EQ(t.links[4].name, "nvlink gpu0->gpu1");
    EXPECT_EQ(t.links[5].name, "nvlink gpu1->gpu0");
    EXPECT_EQ(t.links[0].latency_s, 0);
    EXPECT_EQ(t.route(0, 1), std::vector<int>{4});
    // A list of values instead of a count; a one-way link with its own name.
    const Topology u = readTopologyJson(
        doc(kStar + R"(, {"for": [["g", [1]]], "name": "spare {g}", "from": "gpu{g}", "to": "gpu0",
                          "bandwidth_Bps": 1e9})"),
        "u.json");
    EXPECT_EQ(u.links.back().name, "spare 1");
}

TEST(TopologyJson, DocsExampleParses) {
    // The first JSON block of the format's page (docs/formats/topology.md#example).
    const std::string page = readTextFile(std::string(PARTITA_EXAMPLES_DIR) + "/../docs/formats/topology.md");
    const size_t heading = page.find("## Example");
    ASSERT_NE(heading, std::string::npos);
    const size_t open = page.find("```json\n", heading) + 8, close = page.find("```", open);
    const Topology t = readTopologyJson(page.substr(open, close - open), "topology.md");
    EXPECT_EQ(t.deviceCount(), 4);
    EXPECT_EQ(t.links.size(), 2u * (2 + 4 + 2));
    EXPECT_EQ(t.route(0, 1).size(), 1u);
    EXPECT_EQ(t.route(0, 3).size(), 4u);
    EXPECT_EQ(t.devices[3].node, 1);
}

TEST(TopologyJson, TaskOverheadIsOptionalAndRoundTrips) {
    EXPECT_EQ(readTopologyJson(doc(kStar), "t.json").devices[0].task_overhead_s, 0);  // the spec's formula
    const Topology t = readTopologyJson(doc(kStar, R"(, "task_overhead_s": 5e-6)"), "t.json");
    EXPECT_EQ(t.devices[1].task_overhead_s, 5e-6);
    EXPECT_EQ(readTopologyJson(writeTopologyJson(t), "again.json"), t);
    EXPECT_EQ(writeTopologyJson(readTopologyJson(doc(kStar), "t.json")).find("task_overhead_s"), std::string::npos);
    EXPECT_EQ(error(doc(kStar, R"(, "task_overhead_s": -1e-6)")), "/devices/0/task_overhead_s: must not be negative, got -1e-06");
}

TEST(TopologyJson, MalformedInputsNameFileAndPointer) {
    EXPECT_EQ(error(doc(R"({"from": "gpu0", "to": "sw", "bandwidth_Bps": 0})")),
              "/links/0/bandwidth_Bps: must be positive, got 0");
    EXPECT_EQ(error(doc(R"({"for": [["g", 3]], "from": "gpu{g}", "to": "sw", "bandwidth_Bps": 1e9})")),
              "/links/0/from: unknown device or switch 'gpu2' (for g=2)");
    EXPECT_EQ(error(doc(R"({"from": "gpu0", "to": "sw", "bandwidth_Bps": 1e9, "duplex": true})")),
              "/devices/0: device 'gpu1' is not connected: it has no links (for g=1)");
    // Every device has links both ways, but two islands: gpu0 <-> sw and gpu1 <-> sw2.
    std::string islands = doc(R"({"for": [["g", 2]], "from": "gpu{g}", "to": "sw{g}", "bandwidth_Bps": 1e9,
                                  "duplex": true})");
    islands.replace(islands.find(R"(["sw"])"), 6, R"(["sw0", "sw1"])");
    EXPECT_EQ(error(islands),
              "/devices/0: no route between the group of device 'gpu1' (1 device) and the group of device 'gpu0' (1 device): "
              "no link joins them (for g=1)");
    EXPECT_EQ(error(doc(kStar, R"(, "colour": "red")")), "/devices/0/colour: unknown key 'colour'");
    EXPECT_EQ(error(doc(R"({"from": "gpu0", "to": "sw", "bandwith_Bps": 1e9})")),
              "/links/0: missing key 'bandwidth_Bps' (found 'bandwith_Bps': a misspelling?)");
    EXPECT_EQ(error(doc(kStar, R"(, "efficiency": 1.5)")), "/devices/0/efficiency: must be in (0, 1], got 1.5");
    EXPECT_EQ(error(doc(R"({"from": "gpu0", "to": "sw", "bandwidth_Bps": 1e9, "latency_s": -1})")),
              "/links/0/latency_s: must not be negative, got -1");
    EXPECT_EQ(error(doc(R"({"from": "gpu0", "to": "gpu0", "bandwidth_Bps": 1e9})")),
              "/links/0/to: a link from 'gpu0' to itself");
    EXPECT_EQ(error(doc(R"({"name": "x", "from": "gpu0", "to": "sw", "bandwidth_Bps": 1e9, "duplex": true})")),
              "/links/0/name: a duplex entry makes two links; leave 'name' out (they are named '<kind> "
              "<from>-><to>')");
    EXPECT_EQ(error(doc(R"({"for": [["g", 2]], "from": "gpu{h}", "to": "sw", "bandwidth_Bps": 1e9})")),
              "/links/0/from: in 'h': unknown variable 'h' (for g=0)");
    EXPECT_EQ(error(doc(R"({"for": [["g", 0]], "from": "gpu{g}", "to": "sw", "bandwidth_Bps": 1e9})")),
              "/links/0/for/0: expected a positive count or a non-empty list of integers, found 0");
    EXPECT_EQ(error(doc(R"({"for": {"g": 2}, "from": "gpu{g}", "to": "sw", "bandwidth_Bps": 1e9})")),
              "/links/0/for: expected a list of [variable, count or values], e.g. [[\"n\", 4]]");
    EXPECT_EQ(error(doc(R"({"for": [["g", 2]], "where": "g <", "from": "gpu{g}", "to": "sw", "bandwidth_Bps": 1e9})")),
              "/links/0/where: in 'g <': missing a value");
    EXPECT_EQ(error(doc(kStar, R"(, "node": "n{g}")")), "/devices/0/node: must be an integer, got 'n0' (for g=0)");
    // Names are unique across devices and switches.
    std::string twice = doc(kStar);
    twice.replace(twice.find(R"(["sw"])"), 6, R"(["sw", "gpu1"])");
    EXPECT_EQ(error(twice), "/switches/1: 'gpu1' is already declared at /devices/0/name");
    // Top-level problems.
    std::string version = doc(kStar);
    version.replace(version.find("/1"), 2, "/2");
    EXPECT_EQ(error(version),
              "/format: unsupported version 'partita-topology/2' (this build reads 'partita-topology/1')");
    EXPECT_EQ(error(R"({"format": "partita-topology/1", "name": "x", "devices": []})"),
              "/devices: expected at least one compute device");
    EXPECT_EQ(error(doc(kStar) + " "), error(doc(kStar) + " "));  // whitespace is fine
    std::string extra = doc(kStar);
    extra.insert(1, R"("comment": "hi", )");
    EXPECT_EQ(error(extra), "/comment: unknown key 'comment'");
    EXPECT_EQ(error(R"({"format": "partita-topology/1",)").substr(0, 33), "line 1, column 33: malformed JSON");
    EXPECT_THROW(loadTopology("/nonexistent/topology.json"), InputError);
}

}  // namespace
}  // namespace partita::sim
