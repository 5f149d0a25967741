// The AccPar authors' network text format: their files import to the shapes
// they declare, and broken files get a line number.
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

std::string data(const std::string& name) { return std::string(PARTITA_TEST_DATA) + "/accpar/" + name; }

std::string textErrorOf(const std::string& text) {
    return test::errorOf<InputError>([&] { readAccParText(text, "net.txt"); });
}

TEST(AccParText, AlexnetFileAsDeclared) {
    const auto t = weightedLayers(loadNetwork(data("Alexnet.txt")));
    ASSERT_EQ(t.size(), 8u);
    EXPECT_EQ(t.network, "Alexnet");
    const double in_hw[] = {224 * 224, 55 * 55, 27 * 27, 13 * 13, 13 * 13, 1, 1, 1};
    const double out_hw[] = {55 * 55, 27 * 27, 13 * 13, 13 * 13, 6 * 6, 1, 1, 1};
    for (size_t l = 0; l < 8; ++l) {
        EXPECT_EQ(t[l].in_hw, in_hw[l]) << t[l].name;
        EXPECT_EQ(t[l].out_hw, out_hw[l]) << t[l].name;
    }
    double weights = 0;
    for (const auto& l : t.layers) weights += l.weights();
    EXPECT_EQ(weights, 62367776);  // Oracle E: DP level-0 cost
}

TEST(AccParText, Vgg11MatchesVggAWeights) {
    const auto text = weightedLayers(loadNetwork(data("Vgg11.txt")));
    const auto native = test::builtin("vgg-a");
    ASSERT_EQ(text.size(), native.size());
    for (size_t l = 0; l < text.size(); ++l) {
        EXPECT_EQ(text[l].weights(), native[l].weights());
        EXPECT_EQ(text[l].in_hw, native[l].in_hw) << text[l].name;
        EXPECT_EQ(text[l].out_hw, native[l].out_hw) << text[l].name;
    }
}

TEST(AccParText, ExplicitFormatOverridesExtension) {
    const std::string text = readTextFile(data("Vgg11.txt"));
    EXPECT_EQ(readAccParText(text, "x").ops.size(), 11u);
}

TEST(AccParText, Errors) {
    EXPECT_EQ(textErrorOf("layers 2\n"), "net.txt: line 1: expected 'num_layers N' on the first line");
    EXPECT_EQ(textErrorOf("num_layers 2\nfc1 FC\nin_ch 10\nout_ch 5\nfc2 FC\nin_ch 5\n"),
              "net.txt: line 6: the file ends early: expected 'out_ch' of layer 'fc2'");
    EXPECT_EQ(textErrorOf("num_layers 1\nfc1 FC\nin_ch 10\n"),
              "net.txt: line 3: the file ends early: expected 'out_ch' of layer 'fc1'");
    EXPECT_EQ(textErrorOf("num_layers 1\nfc1 RNN\n"), "net.txt: line 2: expected '<name> FC' or '<name> CONV', found 'fc1 RNN'");
    EXPECT_EQ(textErrorOf("num_layers 1\nfc1 FC\nin_ch -10\nout_ch 5\n"), "net.txt: line 3: in_ch must be positive, got -10");
    EXPECT_EQ(textErrorOf("num_layers 1\nfc1 FC\nin_ch 10\nout_chan 5\n"),
              "net.txt: line 4: expected 'out_ch' for layer 'fc1', found 'out_chan'");
    EXPECT_EQ(textErrorOf("num_layers 2\nfc1 FC\nin_ch 10\nout_ch 5\nfc2 FC\nin_ch 6\nout_ch 2\n"),
              "net.txt: line 5: layer 'fc2' has in_ch 6 but the previous layer produces 5 values per sample");
    EXPECT_EQ(textErrorOf("num_layers 1\nc CONV\nin_ch 3\nin_fmap_h 8\nin_fmap_w 8\nkernel 3\nout_ch 4\nout_fmap_h 20\n"
                      "out_fmap_w 20\npool 1\n"),
              "net.txt: line 2: no stride and padding map 8x8 to 20x20 with kernel 3 in layer 'c'");
    EXPECT_EQ(textErrorOf("num_layers 1\nfc1 FC\nin_ch 10\nout_ch 5\nextra FC\n"),
              "net.txt: line 5: unexpected text after the 1 layers announced by num_layers");
}

}  // namespace
}  // namespace partita
