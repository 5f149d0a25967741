// The operator orders after the move to Boost.Graph (issue 27 item 8) are the orders of the Kahn
// loops they replaced, kept here as the oracle: propagate() on every example network, the ONNX
// import on every test model and the editor's toNetwork(), each with the operators listed in
// shuffled orders; the cycle a network names; and graph::smallestFirstOrder / cycleOutside on
// random graphs.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <unordered_map>

#include "core/edit/document.h"
#include "core/io/network_io.h"
#include "core/onnx/import.h"
#include "core/util/graph.h"
#include "tests/core/onnx_builder.h"
#include "tests/core/test_util.h"

namespace partita {
namespace {

namespace fs = std::filesystem;

// The loop propagate() and the ONNX import used: Kahn's algorithm taking the smallest ready index,
// an input counted once per occurrence; shorter than n on a cycle.
std::vector<int> oldOrder(const std::vector<std::vector<int>>& inputs) {
    const size_t n = inputs.size();
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> consumers(n);
    for (size_t i = 0; i < n; ++i)
        for (int p : inputs[i])
            if (p >= 0) {
                ++pending[i];
                consumers[static_cast<size_t>(p)].push_back(static_cast<int>(i));
            }
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (size_t i = 0; i < n; ++i)
        if (pending[i] == 0) ready.push(static_cast<int>(i));
    std::vector<int> order;
    while (!ready.empty()) {
        const int pick = ready.top();
        ready.pop();
        order.push_back(pick);
        for (int c : consumers[static_cast<size_t>(pick)])
            if (--pending[static_cast<size_t>(c)] == 0) ready.push(c);
    }
    return order;
}

// propagate()'s old cycle walk: from the first operator left out, back through the first input left
// out until one repeats; producer -> consumer, the repeated one at both ends.
std::vector<int> oldCycle(const std::vector<std::vector<int>>& inputs, const std::vector<int>& order) {
    const size_t n = inputs.size();
    std::vector<bool> done(n, false);
    for (int v : order) done[static_cast<size_t>(v)] = true;
    int cur = 0;
    while (done[static_cast<size_t>(cur)]) ++cur;
    std::vector<int> path, seen_at(n, -1);
    while (seen_at[static_cast<size_t>(cur)] < 0) {
        seen_at[static_cast<size_t>(cur)] = static_cast<int>(path.size());
        path.push_back(cur);
        for (int p : inputs[static_cast<size_t>(cur)])
            if (p >= 0 && !done[static_cast<size_t>(p)]) { cur = p; break; }
    }
    std::vector<int> cycle{cur};
    for (size_t k = path.size(); k-- > static_cast<size_t>(seen_at[static_cast<size_t>(cur)]);) cycle.push_back(path[k]);
    return cycle;
}

std::vector<fs::path> filesIn(const fs::path& dir, const std::string& extension) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == extension) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// The identity, last first, and three seeded shuffles of 0..n-1.
std::vector<std::vector<int>> permutations(size_t n) {
    std::vector<int> p(n);
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<int>(i);
    std::vector<std::vector<int>> out{p, std::vector<int>(p.rbegin(), p.rend())};
    std::mt19937 rng(27);
    for (int k = 0; k < 3; ++k) {
        std::shuffle(p.begin(), p.end(), rng);
        out.push_back(p);
    }
    return out;
}

std::vector<std::vector<int>> inputIndices(const std::vector<Operator>& ops) {
    std::unordered_map<std::string, int> index;
    for (size_t i = 0; i < ops.size(); ++i) index[ops[i].name] = static_cast<int>(i);
    std::vector<std::vector<int>> inputs(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        for (const std::string& in : ops[i].inputs) inputs[i].push_back(in == "input" ? -1 : index.at(in));
    return inputs;
}

std::vector<std::string> names(const std::vector<Operator>& ops) {
    std::vector<std::string> out;
    for (const Operator& op : ops) out.push_back(op.name);
    return out;
}

TEST(GraphOrder, ExampleNetworksKeepTheOldOrderInAnyFileOrder) {
    const auto files = filesIn(fs::path(PARTITA_EXAMPLES_DIR) / "networks", ".json");
    ASSERT_GE(files.size(), 20u);
    for (const fs::path& file : files) {
        const Network net = loadNetwork(file.string());
        for (const auto& perm : permutations(net.ops.size())) {
            Network shuffled = net;
            shuffled.ops.clear();
            for (int k : perm) {
                Operator op = net.ops[static_cast<size_t>(k)];
                op.input_ids.clear();
                shuffled.ops.push_back(std::move(op));
            }
            const auto inputs = inputIndices(shuffled.ops);
            const std::vector<int> expected = oldOrder(inputs);
            ASSERT_EQ(expected.size(), inputs.size()) << file;
            EXPECT_EQ(graph::smallestFirstOrder(graph::fromInputs(inputs)), expected) << file;
            EXPECT_EQ(graph::smallestFirstOrder(inputs), expected) << file;
            std::vector<std::string> expected_names;
            for (int k : expected) expected_names.push_back(shuffled.ops[static_cast<size_t>(k)].name);
            propagate(shuffled, file.filename().string());
            EXPECT_EQ(names(shuffled.ops), expected_names) << file;
        }
    }
}

TEST(GraphOrder, CycleErrorNamesTheOperatorOnIt) {
    // c feeds a, a feeds b, b feeds c; x is fine and d only reads the cycle. The walk starts at d, the
    // first operator left out, and names the first operator on the cycle it reaches.
    Network net;
    net.input = {4, 1, 1};
    auto fc = [](const std::string& name, std::vector<std::string> in) {
        Operator o;
        o.name = name;
        o.type = in.size() > 1 ? OpType::Add : OpType::FullyConnected;
        o.out_channels = 4;
        o.inputs = std::move(in);
        return o;
    };
    net.ops = {fc("x", {"input"}), fc("d", {"b"}), fc("c", {"b"}), fc("a", {"x", "c"}), fc("b", {"a"})};
    EXPECT_EQ(test::anyErrorOf([&] { propagate(net, "net.json"); }),
              "net.json: operator 'b': the operators form a cycle: b -> c -> a -> b");
}

TEST(GraphOrder, RandomGraphsMatchTheOldOrderAndCycle) {
    std::mt19937 rng(8);
    int cyclic = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = 1 + static_cast<int>(rng() % 30);
        const bool dag = trial % 2 == 0;
        std::vector<std::vector<int>> inputs(static_cast<size_t>(n));
        for (int v = 0; v < n; ++v) {
            const int count = static_cast<int>(rng() % 4);
            for (int k = 0; k < count; ++k) {
                if (dag && v == 0) break;
                const int p = dag ? static_cast<int>(rng() % static_cast<unsigned>(v)) : static_cast<int>(rng() % (static_cast<unsigned>(n) + 1)) - 1;
                inputs[static_cast<size_t>(v)].push_back(p);
            }
        }
        if (dag) {  // relabel, so that the order is not the identity
            std::vector<int> label(static_cast<size_t>(n));
            for (int v = 0; v < n; ++v) label[static_cast<size_t>(v)] = v;
            std::shuffle(label.begin(), label.end(), rng);
            std::vector<std::vector<int>> relabelled(static_cast<size_t>(n));
            for (int v = 0; v < n; ++v)
                for (int p : inputs[static_cast<size_t>(v)])
                    relabelled[static_cast<size_t>(label[static_cast<size_t>(v)])].push_back(p < 0 ? p : label[static_cast<size_t>(p)]);
            inputs = std::move(relabelled);
        }
        const graph::Digraph g = graph::fromInputs(inputs);
        const std::vector<int> expected = oldOrder(inputs);
        const std::vector<int> order = graph::smallestFirstOrder(g);
        ASSERT_EQ(order, expected) << trial;
        ASSERT_EQ(graph::smallestFirstOrder(inputs), expected) << trial;  // the form that skips an ordered file
        if (dag) {
            ASSERT_EQ(order.size(), inputs.size());
        }
        if (order.size() == inputs.size()) {
            EXPECT_TRUE(graph::cycleOutside(g, order).empty());
            continue;
        }
        ++cyclic;
        ASSERT_EQ(graph::cycleOutside(g, order), oldCycle(inputs, order)) << trial;
    }
    EXPECT_GT(cyclic, 1000);
}

// Reachability and components against a transitive closure on random graphs (self-loops, parallel
// edges and isolated vertices included); components are numbered by their smallest vertex.
TEST(GraphSearch, ReachabilityAndComponentsMatchTheClosure) {
    std::mt19937 rng(17);
    for (int trial = 0; trial < 500; ++trial) {
        const int n = 1 + static_cast<int>(rng() % 12);
        std::vector<std::vector<int>> inputs(static_cast<size_t>(n));
        for (int e = static_cast<int>(rng() % static_cast<unsigned>(2 * n)); e > 0; --e)
            inputs[rng() % static_cast<unsigned>(n)].push_back(static_cast<int>(rng() % static_cast<unsigned>(n)));
        const graph::Digraph g = graph::fromInputs(inputs);
        const auto un = static_cast<size_t>(n);
        std::vector<std::vector<bool>> path(un, std::vector<bool>(un, false)), joined(path);  // u reaches v
        for (size_t v = 0; v < un; ++v) {
            path[v][v] = joined[v][v] = true;
            for (int p : inputs[v]) path[static_cast<size_t>(p)][v] = joined[static_cast<size_t>(p)][v] = joined[v][static_cast<size_t>(p)] = true;
        }
        for (size_t k = 0; k < un; ++k)
            for (size_t i = 0; i < un; ++i)
                for (size_t j = 0; j < un; ++j) {
                    if (path[i][k] && path[k][j]) path[i][j] = true;
                    if (joined[i][k] && joined[k][j]) joined[i][j] = true;
                }
        std::vector<int> sources;
        for (int v = 0; v < n; ++v)
            if (rng() % 3 == 0) sources.push_back(v);
        for (const bool forward : {true, false}) {
            std::vector<bool> expected(un, false);
            for (int s : sources)
                for (size_t v = 0; v < un; ++v)
                    if (forward ? path[static_cast<size_t>(s)][v] : path[v][static_cast<size_t>(s)]) expected[v] = true;
            EXPECT_EQ(graph::reachable(g, sources, forward), expected) << trial;
        }
        // Numbered by the smallest vertex: the first vertex of each class, in order, gets 0, 1, 2...
        const auto numbered = [&](const std::function<bool(size_t, size_t)>& same) {
            std::vector<int> out(un, -1);
            int next = 0;
            for (size_t v = 0; v < un; ++v) {
                if (out[v] >= 0) continue;
                for (size_t w = v; w < un; ++w)
                    if (same(v, w)) out[w] = next;
                ++next;
            }
            return out;
        };
        EXPECT_EQ(graph::weakComponents(g), numbered([&](size_t a, size_t b) { return joined[a][b]; })) << trial;
        EXPECT_EQ(graph::strongComponents(g), numbered([&](size_t a, size_t b) { return path[a][b] && path[b][a]; })) << trial;
    }
}

// The ONNX import's old order on a model: the nodes' indices.
std::vector<int> oldOnnxOrder(const ::onnx::ModelProto& m) {
    const auto& g = m.graph();
    std::set<std::string> defined;
    for (const auto& i : g.input()) defined.insert(i.name());
    for (const auto& t : g.initializer()) defined.insert(t.name());
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < g.node_size(); ++i)
        for (const std::string& o : g.node(i).output()) producer.emplace(o, i);
    std::vector<std::vector<int>> inputs(static_cast<size_t>(g.node_size()));
    for (int i = 0; i < g.node_size(); ++i)
        for (const std::string& in : g.node(i).input())
            if (!in.empty() && !defined.count(in)) inputs[static_cast<size_t>(i)].push_back(producer.at(in));
    return oldOrder(inputs);
}

// A DAG of Adds on [1, 4] tensors, each reading two earlier tensors.
std::string randomAddModel(int nodes, unsigned seed) {
    test::OnnxBuilder b;
    b.input("x", {std::int64_t{1}, std::int64_t{4}});
    std::vector<std::string> tensors{"x"};
    std::mt19937 rng(seed);
    for (int k = 0; k < nodes; ++k) {
        const std::string a = tensors[rng() % tensors.size()], c = tensors[rng() % tensors.size()];
        const std::string out = "t" + std::to_string(k);
        b.node("Add", {a, c}, {out}, out);
        tensors.push_back(out);
    }
    b.output(tensors.back());
    return b.bytes();
}

TEST(GraphOrder, OnnxModelsKeepTheOldOrderInAnyNodeOrder) {
    std::vector<std::pair<std::string, std::string>> models;
    for (const fs::path& file : filesIn(fs::path(PARTITA_TEST_DATA) / "fuzz" / "onnx", ".onnx")) {
        std::ifstream in(file, std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        models.emplace_back(file.filename().string(), bytes.str());
    }
    for (unsigned seed = 1; seed <= 4; ++seed) models.emplace_back("random-" + std::to_string(seed), randomAddModel(40, seed));
    int compared = 0;
    for (const auto& [name, bytes] : models) {
        ::onnx::ModelProto model;
        ASSERT_TRUE(model.ParseFromString(bytes)) << name;
        const onnx::InputDims dims = onnx::withDefaults(onnx::graphInputsData(bytes, name), {});
        try {
            onnx::importOnnxData(bytes, name, dims);
        } catch (const onnx::UnsupportedOperators&) {
            continue;  // if.onnx: refused in any order
        }
        for (const auto& perm : permutations(static_cast<size_t>(model.graph().node_size()))) {
            ::onnx::ModelProto shuffled = model;
            auto* nodes = shuffled.mutable_graph()->mutable_node();
            for (size_t k = 0; k < perm.size(); ++k) *nodes->Mutable(static_cast<int>(k)) = model.graph().node(perm[k]);
            const std::vector<int> expected = oldOnnxOrder(shuffled);
            const onnx::Graph g = onnx::importOnnxData(shuffled.SerializeAsString(), name, dims);
            std::vector<int> order;
            for (const onnx::Node& n : g.nodes) order.push_back(n.index);
            EXPECT_EQ(order, expected) << name;
            ++compared;
        }
    }
    EXPECT_GE(compared, 35);
}

TEST(GraphOrder, EditorDocumentsKeepTheOldOrderWhateverTheIds) {
    for (const fs::path& file : filesIn(fs::path(PARTITA_EXAMPLES_DIR) / "networks", ".json")) {
        const Network net = loadNetwork(file.string());
        for (const auto& perm : permutations(net.ops.size())) {
            // Operator k gets id perm[k] + 1.
            edit::Patch patch;
            patch.header = edit::Header{net.name, net.description, net.input};
            for (size_t k = 0; k < net.ops.size(); ++k) {
                edit::Node n;
                n.id = perm[k] + 1;
                n.op = net.ops[k];
                for (int p : net.ops[k].input_ids) n.inputs.push_back(p < 0 ? edit::kNetworkInput : perm[static_cast<size_t>(p)] + 1);
                patch.nodes.emplace(n.id, std::move(n));
            }
            edit::Document doc;
            doc.apply(patch);
            // The old order: Kahn's, smallest ready id first, each distinct input counted once.
            std::vector<std::vector<int>> by_id(net.ops.size());  // inputs by id - 1
            for (size_t k = 0; k < net.ops.size(); ++k) {
                std::set<int> distinct;
                for (int p : net.ops[k].input_ids)
                    if (p >= 0) distinct.insert(perm[static_cast<size_t>(p)]);
                by_id[static_cast<size_t>(perm[k])].assign(distinct.begin(), distinct.end());
            }
            std::vector<std::string> expected;
            for (int v : oldOrder(by_id)) expected.push_back(doc.node(v + 1)->op.name);
            EXPECT_EQ(names(doc.toNetwork().ops), expected) << file;
        }
    }
}

}  // namespace
}  // namespace partita
