// Outputs: timeline records, Chrome trace JSON (parsed back), Graphviz DOT.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/io/network_io.h"
#include "core/model/layers.h"
#include "core/search/methods.h"
#include "core/sim/lowering.h"
#include "core/sim/trace.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

struct Fixture {
    Network net = test::inceptionLike();
    Topology topo = test::cluster(2, 2);
    TaskGraph graph;
    SimResult result;
    Fixture() {
        std::mt19937_64 rng(11);
        SoapStrategy s = dataParallel(net, 4, 4);
        for (size_t i = 0; i < net.ops.size(); i += 2) s.ops[i] = randomConfig(net.ops[i], 4, 4, rng);
        graph = buildTaskGraph(net, 4, s, topo);
        result = simulate(graph);
    }
};

TEST(SimTrace, TimelineCoversEveryTaskInDeviceOrder) {
    const Fixture f;
    const auto records = timeline(f.graph, f.result);
    ASSERT_EQ(records.size(), f.graph.taskCount());
    std::set<std::uint64_t> ids;
    for (size_t k = 0; k < records.size(); ++k) {
        ids.insert(records[k].task);
        EXPECT_LE(records[k].start, records[k].end);
        if (k > 0 && records[k].resource == records[k - 1].resource) {
            EXPECT_GE(records[k].start, records[k - 1].end);  // a device runs one task at a time
        }
    }
    EXPECT_EQ(ids.size(), records.size());
    double last = 0;
    for (const auto& r : records) last = std::max(last, r.end);
    EXPECT_EQ(last, f.result.makespan);
}

TEST(SimTrace, ChromeTraceParsesBackWithNamedTracks) {
    const Fixture f;
    const Json trace = Json::parse(chromeTraceJson(f.graph, f.result));
    ASSERT_TRUE(trace.contains("traceEvents"));
    const Json& events = trace["traceEvents"];
    ASSERT_TRUE(events.is_array());
    std::map<std::pair<int, int>, std::string> names;
    std::map<int, std::string> processes;
    size_t complete = 0;
    double busy_links = 0;
    for (const Json& e : events) {
        ASSERT_TRUE(e["ph"].is_string());
        const std::string ph = e["ph"];
        if (ph == "M" && e["name"] == "thread_name")
            names[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
        if (ph == "M" && e["name"] == "process_name") processes[e["pid"].get<int>()] = e["args"]["name"];
    }
    EXPECT_EQ(processes.size(), 3u);  // devices, links, collective streams
    EXPECT_EQ(processes.at(3), "collective streams");
    EXPECT_EQ(names.size(), static_cast<size_t>(f.graph.resourceCount()));
    EXPECT_EQ(names.at({1, 0}), "n0.g0");
    EXPECT_EQ(names.at({2, 0}), f.topo.links[0].name);
    EXPECT_EQ(names.at({3, 0}), "n0.g0 comm");
    for (const Json& e : events) {
        if (e["ph"] != "X") continue;
        ++complete;
        ASSERT_TRUE(e["ts"].is_number());
        ASSERT_TRUE(e["dur"].is_number());
        ASSERT_TRUE(e["name"].is_string());
        EXPECT_GE(e["dur"].get<double>(), 0);
        const int pid = e["pid"], tid = e["tid"];
        EXPECT_TRUE(names.count({pid, tid})) << pid << "/" << tid;
        EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(), f.result.makespan * 1e6 * (1 + 1e-12));
        EXPECT_TRUE(e["args"].contains("op"));
        if (pid == 2) {
            busy_links += e["dur"].get<double>();
            EXPECT_GT(e["args"]["bytes"].get<double>(), 0);
        }
    }
    EXPECT_EQ(complete, f.graph.taskCount());
    EXPECT_GT(busy_links, 0);
    EXPECT_EQ(trace["otherData"]["makespan_s"].get<double>(), f.result.makespan);
}

TEST(SimTrace, VggAUnderHyParOnTheHtreeLoadsAsPerfettoTrace) {
    // The acceptance case: HyPar's grid for VGG-A (its fc layers are
    // model parallel, i.e. Type-II reductions) lowered onto the 16-cube H-tree.
    const Network net = loadNetwork(test::example("networks/vgg-a.json"));
    const LayerTable layers = weightedLayers(net);
    CostParams params;
    params.batch = 256;
    const Grid grid = hyparSearch(layers, 4, params);
    const Topology topo = builtinTopology("hmc-htree-16");
    const SoapStrategy s = lowerGrid(net, layers, grid, 256, topo.deviceCount());
    EXPECT_TRUE(std::any_of(s.ops.begin(), s.ops.end(), [](const OpConfig& c) { return c.reduce > 1; }));
    const TaskGraph graph = buildTaskGraph(net, 256, s, topo);
    const SimResult result = simulate(graph);
    const Json trace = Json::parse(chromeTraceJson(graph, result));
    std::map<std::pair<int, int>, size_t> events;  // (pid, tid) -> "X" events
    size_t complete = 0;
    for (const Json& e : trace.at("traceEvents")) {
        if (e.at("ph") != "X") continue;
        ++complete;
        ASSERT_TRUE(e.at("ts").is_number() && e.at("dur").is_number() && e.at("name").is_string());
        ++events[{e.at("pid").get<int>(), e.at("tid").get<int>()}];
    }
    EXPECT_EQ(complete, graph.taskCount());
    for (int d = 0; d < topo.deviceCount(); ++d) EXPECT_GT(events[std::make_pair(1, d)], 0u) << "device " << d;
    size_t links = 0;
    for (const auto& [track, n] : events) links += track.first == 2 && n > 0;
    EXPECT_GT(links, 0u);
}

TEST(SimTrace, DotListsEveryTaskAndEdge) {
    const Fixture f;
    const std::string dot = taskGraphDot(f.graph, &f.result);
    EXPECT_EQ(dot.rfind("digraph tasks {\n", 0), 0u);
    EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
    size_t nodes = 0, edges = 0;
    for (size_t p = 0; (p = dot.find("[label=", p)) != std::string::npos; ++p) ++nodes;
    for (size_t p = 0; (p = dot.find(" -> ", p)) != std::string::npos; ++p) ++edges;
    EXPECT_EQ(nodes, f.graph.taskCount());
    EXPECT_EQ(edges, f.graph.edgeCount());
    EXPECT_NE(dot.find(" ms\"];\n"), std::string::npos);
    EXPECT_NE(dot.find("stem forward #0\\n"), std::string::npos);
}

TEST(SimTrace, TrafficAndUtilisationAddUp) {
    const Fixture f;
    const auto m = trafficMatrix(f.graph);
    double total = 0, messages = 0;
    for (const auto& row : m)
        for (double b : row) total += b;
    for (size_t t = 0; t < f.graph.slotCount(); ++t)
        if (f.graph.alive(static_cast<int>(t)) && f.graph.info(static_cast<int>(t)).first_hop)
            messages += f.graph.info(static_cast<int>(t)).bytes;
    // Collectives are not messages: their algorithms' transfers count instead.
    double collectives = 0;
    for (size_t g = 0; g < f.graph.groupCount(); ++g)
        for (const CollectiveTraffic& c : f.graph.group(static_cast<int>(g)).collectives)
            for (const Transfer& t : *c.per_byte) collectives += t.bytes * c.bytes;
    EXPECT_GT(collectives, 0);
    EXPECT_NEAR(total, messages + collectives, 1e-9 * total);
    EXPECT_GT(total, 0);
    const Utilisation u = utilisation(f.graph, f.result);
    for (double x : u.fraction) {
        EXPECT_GE(x, 0);
        EXPECT_LE(x, 1 + 1e-12);
    }
}

}  // namespace
}  // namespace partita::sim
