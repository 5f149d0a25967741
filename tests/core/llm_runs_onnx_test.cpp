// A partita-llm-runs/1 run whose "model" names an ONNX file (issue 28 item 3): the path is relative to
// the runs file; a missing file or a graph without a transformer is refused naming the runs file and
// the JSON pointer of "onnx".
#include <gtest/gtest.h>

#include <filesystem>

#include "core/llm/runs.h"
#include "core/util/error.h"
#include "onnx_transformers.h"

namespace partita::llm {
namespace {

namespace fs = std::filesystem;

std::string runsText(const std::string& model) {
    return R"({"format": "partita-llm-runs/1", "runs": [{"name": "r", "model": )" + model +
           R"(, "cluster": {"profile": "a100-sxm4-80gb", "gpus": 2},
  "plan": {"tp": 2, "global_batch": 4}, "measured": {"iteration_s": 1}}]})";
}

std::string place(const std::string& model, const std::string& source) {
    try {
        readRuns(runsText(model), source);
    } catch (const InputError& e) {
        EXPECT_EQ(e.source(), source);
        return e.place();
    }
    return "(accepted)";
}

TEST(LlmRunsOnnx, ARunNamesAnOnnxFileRelativeToTheRunsFile) {
    partita::test::TinyTransformer t;
    t.heads = 8;
    t.kv_heads = 2;
    t.ffn = 88;
    t.vocab = 120;
    const fs::path onnx = partita::test::llama(t).write("llama-runs");
    const std::string source = (onnx.parent_path() / "runs.json").string();
    const std::vector<llm::Run> runs = readRuns(runsText(R"({"onnx": ")" + onnx.filename().string() + R"("})"), source);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].model, loadOnnxTransformer(onnx.string()).model);
    EXPECT_EQ(runs[0].model.layers, 2);
    EXPECT_EQ(runs[0].model.heads, 8);
    EXPECT_EQ(runs[0].model.kv_heads, 2);
}

TEST(LlmRunsOnnx, AMissingFileOrAGraphWithoutATransformerNamesThePointer) {
    const fs::path cnn = partita::test::cnn().write("cnn-runs");
    const std::string source = (cnn.parent_path() / "runs.json").string();
    EXPECT_EQ(place(R"({"onnx": "no-such.onnx"})", source), "/runs/0/model/onnx");
    EXPECT_EQ(place(R"({"onnx": ")" + cnn.filename().string() + R"("})", source), "/runs/0/model/onnx");
    EXPECT_EQ(place(R"({"onnx": "x.onnx", "preset": "gpt3-1.3b"})", source), "/runs/0/model/onnx");
}

}  // namespace
}  // namespace partita::llm
