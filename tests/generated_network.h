#pragma once
// A generated network of any size, for the tests and benchmarks that need a large graph (the
// network graph's worker layout, collapsing and paint benchmark): one builder, so that they all
// measure and check the same shape of network.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/network.h"

namespace partita::test {

// Blocks in turn on a 16 x 8 x 8 input: a residual block with a conv on its shortcut (4 operators,
// 32 channels out), an identity residual block (3) and a two-branch concat back to 16 channels (3),
// while 4 more fit before `operators` - 1; then 3x3 convs to `operators` - 1, and an fc. Every three
// blocks repeat exactly (the same shapes), and so do the padding convs.
inline Network generatedNetwork(int operators) {
    Network net;
    net.name = "Generated-" + std::to_string(operators);
    net.input = {16, 8, 8};
    const auto add = [&](const std::string& name, OpType type, std::vector<std::string> inputs, std::int64_t out = 0) {
        Operator o;
        o.name = name;
        o.type = type;
        o.inputs = std::move(inputs);
        o.out_channels = out;
        if (type == OpType::Conv) o.window = {3, 3, 1, 1, 1, 1, Rounding::Exact};
        net.ops.push_back(std::move(o));
    };
    std::string x = "input";
    std::int64_t channels = 16;
    for (int b = 0; static_cast<int>(net.ops.size()) + 4 < operators; ++b) {
        const std::string n = std::to_string(b);
        switch (b % 3) {
        case 0:
            add("a" + n, OpType::Conv, {x}, 32);
            add("b" + n, OpType::Conv, {"a" + n}, 32);
            add("proj" + n, OpType::Conv, {x}, 32);
            add("add" + n, OpType::Add, {"b" + n, "proj" + n});
            channels = 32;
            x = "add" + n;
            break;
        case 1:
            add("a" + n, OpType::Conv, {x}, channels);
            add("b" + n, OpType::Conv, {"a" + n}, channels);
            add("add" + n, OpType::Add, {"b" + n, x});
            x = "add" + n;
            break;
        default:
            add("l" + n, OpType::Conv, {x}, 8);
            add("r" + n, OpType::Conv, {x}, 8);
            add("cat" + n, OpType::Concat, {"l" + n, "r" + n});
            channels = 16;
            x = "cat" + n;
        }
    }
    while (static_cast<int>(net.ops.size()) + 1 < operators) {
        const std::string n = "pad" + std::to_string(net.ops.size());
        add(n, OpType::Conv, {x}, channels);
        x = n;
    }
    add("fc", OpType::FullyConnected, {x}, 10);
    propagate(net, net.name);
    return net;
}

}  // namespace partita::test
