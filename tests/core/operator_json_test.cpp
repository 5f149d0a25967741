// One operator's JSON (the editor's recovery file): written as partita-network/1 writes it, without
// inputs, and read back with every parameter, whether or not its shapes would work out.
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

TEST(OperatorJson, EveryOperatorOfTheTourRoundTrips) {
    const Network tour = loadNetwork(test::example("networks/ops-tour.json"));
    ASSERT_GT(tour.ops.size(), 10u);
    for (const Operator& op : tour.ops) {
        const Json j = operatorToJson(op);
        EXPECT_FALSE(j.contains("inputs")) << j.dump();
        const Operator back = readOperatorJson(j, "/op", "test");
        EXPECT_TRUE(back.inputs.empty());
        EXPECT_EQ(operatorToJson(back), j) << op.name;
        EXPECT_EQ(back.name, op.name);
        EXPECT_EQ(back.type, op.type);
        EXPECT_EQ(back.out_channels, op.out_channels);
        EXPECT_EQ(back.window.kernel_h, op.window.kernel_h);
        EXPECT_EQ(back.window.padBottom(), op.window.padBottom());
        EXPECT_EQ(back.pool.has_value(), op.pool.has_value());
        EXPECT_EQ(back.layout_shape, op.layout_shape);
        EXPECT_EQ(back.source_op, op.source_op);
    }
}

TEST(OperatorJson, ShapesAreNotDerivedAndErrorsNameThePlace) {
    // A 99x99 kernel fits no input here: read all the same (no shapes are derived).
    const Json big = Json::parse(R"({"name": "c", "type": "conv", "out_channels": 4, "kernel": 99})");
    EXPECT_EQ(readOperatorJson(big, "/nodes/0/operator", "r.json").window.kernel_w, 99);
    const Json bad = Json::parse(R"({"name": "c", "type": "conv", "out_channels": 0, "kernel": 3})");
    const std::string why = test::errorOf<InputError>([&] { readOperatorJson(bad, "/nodes/0/operator", "r.json"); });
    EXPECT_NE(why.find("r.json"), std::string::npos) << why;
    EXPECT_NE(why.find("/nodes/0/operator/out_channels"), std::string::npos) << why;
}

}  // namespace
}  // namespace partita
