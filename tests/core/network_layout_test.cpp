// Layout hints in partita-network/1: each operator's optional "position": [x, y] is read, written
// and round-trips (through the editor's document too); plain readers accept and ignore it.
#include <gtest/gtest.h>

#include "core/edit/document.h"
#include "core/io/network_io.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

const char* kLaidOut = R"({
  "format": "partita-network/1", "name": "tiny", "input": {"channels": 1, "height": 8, "width": 8},
  "operators": [
    {"name": "c", "type": "conv", "out_channels": 2, "kernel": 3, "position": [12.5, -40]},
    {"name": "f", "type": "fc", "out_features": 3}
  ]
})";

TEST(NetworkLayout, PositionsAreReadAndRoundTrip) {
    const LaidOutNetwork read = readNetworkJsonWithLayout(kLaidOut, "tiny.json");
    EXPECT_EQ(read.positions, (std::map<std::string, edit::Point>{{"c", {12.5, -40}}}));
    EXPECT_EQ(read.network.ops[1].out_shape, (Shape{3, 1, 1}));
    const std::string text = writeNetworkJson(read.network, read.positions);
    EXPECT_NE(text.find("\"position\": [\n        12.5,\n        -40.0\n      ]"), std::string::npos) << text;
    const LaidOutNetwork again = readNetworkJsonWithLayout(text, "again.json");
    EXPECT_EQ(again.positions, read.positions);
    EXPECT_EQ(writeNetworkJson(again.network, again.positions), text);
    // The plain reader accepts hints; the plain writer leaves them out.
    EXPECT_EQ(writeNetworkJson(readNetworkJson(kLaidOut, "tiny.json")), writeNetworkJson(read.network));
    EXPECT_EQ(writeNetworkJson(read.network).find("position"), std::string::npos);
}

TEST(NetworkLayout, ThroughTheEditorsDocument) {
    const LaidOutNetwork read = readNetworkJsonWithLayout(kLaidOut, "tiny.json");
    edit::Document doc = edit::Document::fromNetwork(read.network, read.positions);
    EXPECT_EQ(doc.node(1)->position, (edit::Point{12.5, -40}));
    EXPECT_EQ(doc.node(2)->position, std::nullopt);
    doc.apply(edit::moveNodes(doc, {{2, {0, 100}}}));
    const std::string saved = writeNetworkJson(doc.toNetwork(), doc.positions());
    const LaidOutNetwork back = readNetworkJsonWithLayout(saved, "saved.json");
    EXPECT_EQ(back.positions, (std::map<std::string, edit::Point>{{"c", {12.5, -40}}, {"f", {0, 100}}}));
}

TEST(NetworkLayout, BadPositionsNameTheirPlace) {
    auto error = [](const std::string& position) {
        const std::string text = R"({"format": "partita-network/1", "name": "t", "input": {"channels": 1},
            "operators": [{"name": "f", "type": "fc", "out_features": 2, "position": )" + position + "}]}";
        return test::errorOf<InputError>([&] { readNetworkJson(text, "t.json"); });
    };
    EXPECT_EQ(error("[1]"), "t.json: /operators/0/position: expected [x, y], found [1]");
    EXPECT_EQ(error("\"left\""), "t.json: /operators/0/position: expected [x, y], found \"left\"");
    EXPECT_EQ(error("[1, 2e9]"), "t.json: /operators/0/position: expected [x, y] of numbers within +-1e9, found [1, 2000000000.0]");
    EXPECT_EQ(error("[1, true]"), "t.json: /operators/0/position: expected [x, y] of numbers within +-1e9, found [1, true]");
}

}  // namespace
}  // namespace partita
