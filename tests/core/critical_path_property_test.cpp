// criticalPath() (issue 27 item 8) against its definition, step by step, on simulated training steps
// and on random task graphs with many ties; on small random graphs, as long as a brute-force longest
// path through data and resource order ending at the last task.
#include <algorithm>
#include <functional>
#include <random>
#include <unordered_map>

#include "core/io/network_io.h"
#include "core/sim/critical_path.h"
#include "tests/core/sim_test_util.h"

namespace partita::sim {
namespace {

// Checks `path` against criticalPath's definition (critical_path.h), with each step's alternatives
// read off the schedule: the tasks in simulation order, each with its data predecessors and the task
// before it on its resource.
void expectDefinition(const TaskGraph& g, const SimResult& r, const std::vector<std::uint64_t>& path, const std::string& what) {
    std::unordered_map<std::uint64_t, int> slot_of_id;
    std::vector<int> previous(g.slotCount(), -1), last(static_cast<size_t>(g.resourceCount()), -1);
    int tail = -1;
    for (int t : r.order) {
        slot_of_id[g.id(t)] = t;
        int& prev = last[static_cast<size_t>(g.resource(t))];
        previous[static_cast<size_t>(t)] = prev;
        prev = t;
        if (tail < 0 || r.end[static_cast<size_t>(t)] > r.end[static_cast<size_t>(tail)] ||
            (r.end[static_cast<size_t>(t)] == r.end[static_cast<size_t>(tail)] && g.id(t) > g.id(tail)))
            tail = t;
    }
    ASSERT_FALSE(path.empty()) << what;
    EXPECT_EQ(slot_of_id.at(path.back()), tail) << what;
    for (size_t k = path.size(); k-- > 0;) {
        const int t = slot_of_id.at(path[k]);
        const double start = r.start[static_cast<size_t>(t)];
        int expected = -1;  // the tight data predecessor with the smallest id, else the tight resource one
        g.forEachPredecessor(t, [&](int p) {
            if (r.end[static_cast<size_t>(p)] == start && (expected < 0 || g.id(p) < g.id(expected))) expected = p;
        });
        const int prev = previous[static_cast<size_t>(t)];
        if (expected < 0 && prev >= 0 && r.end[static_cast<size_t>(prev)] == start) expected = prev;
        if (k == 0) {
            EXPECT_EQ(expected, -1) << what;
            EXPECT_EQ(start, 0) << what;
        } else {
            EXPECT_EQ(slot_of_id.at(path[k - 1]), expected) << what << " step " << k;
        }
    }
}

// `n` tasks with ids in slot order, random resources and durations (small integers when `ties`),
// edges from a smaller to a larger id.
TaskGraph randomGraph(std::mt19937& rng, int n, int resources, bool ties) {
    TaskGraph g;
    std::vector<std::string> names;
    for (int r = 0; r < resources; ++r) names.push_back("r" + std::to_string(r));
    g.setResources(resources, 0, names);
    g.setGroupCount(1);
    for (int t = 0; t < n; ++t) {
        const double exe = ties ? static_cast<double>(rng() % 4) : std::uniform_real_distribution<double>(0, 1e-3)(rng);
        g.addTask(0, static_cast<int>(rng() % static_cast<unsigned>(resources)), exe, static_cast<std::uint64_t>(t), TaskInfo{});
    }
    for (int t = 1; t < n; ++t)
        for (int k = static_cast<int>(rng() % 3); k > 0; --k) g.addEdge(0, static_cast<int>(rng() % static_cast<unsigned>(t)), t);
    return g;
}

TEST(CriticalPathProperty, SimulatedTrainingStepsFollowTheDefinition) {
    for (const char* name : {"lenet-c", "alexnet", "resnet-18", "inception-v3"})
        for (const int devices : {2, 4}) {
            const Network net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + name + ".json");
            const std::int64_t batch = 16 * devices;
            const TaskGraph g = buildTaskGraph(net, static_cast<double>(batch), dataParallel(net, batch, devices),
                                               test::cluster(1, devices));
            const SimResult r = simulate(g);
            const auto path = criticalPath(g, r);
            EXPECT_GE(path.size(), 2u) << name;
            expectDefinition(g, r, path, std::string(name) + " on " + std::to_string(devices));
        }
}

TEST(CriticalPathProperty, RandomTaskGraphsFollowTheDefinition) {
    std::mt19937 rng(27);
    for (int trial = 0; trial < 2000; ++trial) {
        const TaskGraph g = randomGraph(rng, 1 + static_cast<int>(rng() % 60), 1 + static_cast<int>(rng() % 4), trial % 3 != 0);
        const SimResult r = simulate(g);
        expectDefinition(g, r, criticalPath(g, r), "trial " + std::to_string(trial));
    }
}

TEST(CriticalPathProperty, SmallRandomGraphsMatchABruteForceLongestPath) {
    std::mt19937 rng(8);
    for (int trial = 0; trial < 500; ++trial) {
        const int n = 1 + static_cast<int>(rng() % 9);
        const TaskGraph g = randomGraph(rng, n, 1 + static_cast<int>(rng() % 3), true);
        const SimResult r = simulate(g);
        // The schedule's edges: data edges and each resource's order.
        std::vector<std::vector<int>> before(static_cast<size_t>(n));
        std::vector<int> last(static_cast<size_t>(g.resourceCount()), -1);
        for (int t : r.order) {
            g.forEachPredecessor(t, [&](int p) { before[static_cast<size_t>(t)].push_back(p); });
            int& prev = last[static_cast<size_t>(g.resource(t))];
            if (prev >= 0) before[static_cast<size_t>(t)].push_back(prev);
            prev = t;
        }
        // Every path ending at t, enumerated: the longest duration (integers: exact sums).
        std::function<double(int)> longest = [&](int t) {
            double best = 0;
            for (int p : before[static_cast<size_t>(t)]) best = std::max(best, longest(p));
            return best + g.exe(t);
        };
        const auto path = criticalPath(g, r);
        ASSERT_FALSE(path.empty());
        const int tail = static_cast<int>(path.back());  // ids are slots here
        EXPECT_EQ(r.end[static_cast<size_t>(tail)], r.makespan) << trial;
        double length = 0;
        for (size_t k = 0; k < path.size(); ++k) {
            const int t = static_cast<int>(path[k]);
            length += g.exe(t);
            if (k == 0) continue;
            const auto& b = before[static_cast<size_t>(t)];
            EXPECT_NE(std::find(b.begin(), b.end(), static_cast<int>(path[k - 1])), b.end()) << trial;
        }
        EXPECT_EQ(r.start[static_cast<size_t>(path.front())], 0) << trial;
        EXPECT_EQ(length, longest(tail)) << trial;
        EXPECT_EQ(length, r.makespan) << trial;
    }
}

}  // namespace
}  // namespace partita::sim
