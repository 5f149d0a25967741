#pragma once
// Shared helpers for the engine tests: built-in example loading, error messages,
// networks by hand, HyPar's lenet-c plan.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/io/network_io.h"
#include "core/model/layers.h"
#include "core/search/methods.h"

namespace partita::test {

// HyPar's and AccPar's names of the three splits (Type-I, -II, -III).
inline constexpr Split I = Split::Batch, II = Split::Input, III = Split::Output;

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::string example(const std::string& relative) { return std::string(PARTITA_EXAMPLES_DIR) + "/" + relative; }

inline LayerTable builtin(const std::string& name) {
    return weightedLayers(loadNetwork(example("networks/" + name + ".json")));
}

// The message of the E that `f` throws, or `none`; any other exception escapes and fails the test.
template <class E, class F>
std::string errorOf(F f, const char* none = "no error") {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return none;
}

// The message of whatever `f` throws, or "(no error)".
template <class F>
std::string anyErrorOf(F f) {
    return errorOf<std::exception>(f, "(no error)");
}

// The message `f` throws ("(no error)" when none), run in a worker that must finish within 10 s: a
// hang (a blocked open(), a quadratic loop) fails the test instead of hanging it, and the worker is
// then left to the process' end. A harness time limit, not a timing assertion.
inline std::string errorWithin10s(std::function<void()> f) {
    auto* task = new std::packaged_task<std::string()>([f] { return anyErrorOf(f); });
    std::future<std::string> done = task->get_future();
    std::thread([task] {
        (*task)();
        delete task;
    }).detach();
    if (done.wait_for(std::chrono::seconds(10)) != std::future_status::ready) return "(did not finish within 10 s)";
    return done.get();
}

// Operators by hand (shapes come from network()).
inline Operator conv(const std::string& name, std::vector<std::string> inputs, std::int64_t out, int k, int stride = 1,
                     int pad = 0) {
    Operator op;
    op.name = name;
    op.type = OpType::Conv;
    op.inputs = std::move(inputs);
    op.out_channels = out;
    op.window = {k, k, stride, stride, pad, pad, Rounding::Floor};
    return op;
}

inline Operator pool(const std::string& name, std::vector<std::string> inputs, int k, int stride, int pad = 0) {
    Operator op;
    op.name = name;
    op.type = OpType::Pool;
    op.inputs = std::move(inputs);
    op.window = {k, k, stride, stride, pad, pad, Rounding::Floor};
    return op;
}

inline Operator join(const std::string& name, OpType type, std::vector<std::string> inputs) {
    Operator op;
    op.name = name;
    op.type = type;
    op.inputs = std::move(inputs);
    return op;
}

inline Operator fc(const std::string& name, std::vector<std::string> inputs, std::int64_t out) {
    Operator op;
    op.name = name;
    op.type = OpType::FullyConnected;
    op.inputs = std::move(inputs);
    op.out_channels = out;
    return op;
}

// `ops` after an input of {channels, height, width}, shapes propagated (named `name` in errors).
inline Network network(const std::string& name, Shape input, std::vector<Operator> ops) {
    Network n;
    n.name = name;
    n.input = input;
    n.ops = std::move(ops);
    propagate(n, name);
    return n;
}

// HyPar's plan of lenet-c over 4 levels with default parameters, evaluated on the default array.
struct LenetPlan {
    LayerTable layers;
    CostParams params;
    Grid grid;
    Evaluation eval;
};

inline LenetPlan lenetPlan() {
    LenetPlan p{builtin("lenet-c"), CostParams{}, {}, {}};
    p.grid = hyparSearch(p.layers, 4, p.params);
    p.eval = evaluate(p.layers, defaultArray(4), p.grid, p.params);
    return p;
}

// `work()` run under a harness time limit: its result, or, when it is not done within `limit`, the
// test process ends failing with `what` (a hung thread can be neither joined nor stopped, and
// std::async's future would wait for it). No claim on speed: the limit is far above a normal run.
template <class F>
auto withinTimeLimit(const char* what, std::chrono::seconds limit, F work) {
    auto done = std::async(std::launch::async, std::move(work));
    if (done.wait_for(limit) != std::future_status::ready) {
        std::fprintf(stderr, "FAILED: %s: not done within %lld s (a hang)\n", what, static_cast<long long>(limit.count()));
        std::fflush(stderr);
        std::_Exit(1);
    }
    return done.get();
}

inline const char* const kTenNetworks[] = {"sfc",   "sconv", "lenet-c", "cifar-c", "alexnet",
                                           "vgg-a", "vgg-b", "vgg-c",   "vgg-d",   "vgg-e"};

}  // namespace partita::test
