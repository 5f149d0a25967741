// partita-cli llm evaluate|search --model F.onnx (issue 28 item 1): the recognised transformer is
// reported (one text line, "model_source" in --json) and evaluates as its dimensions in a model JSON
// file; a dynamic sequence length needs --seq; torch's dynamic-batch LLaMA (K/V repeats as Loops)
// evaluates as its static twin; a model without a transformer is refused by name.
#include "cli_test_util.h"
#include "tests/core/onnx_transformers.h"

namespace partita::cli::test {
namespace {

std::string jsonModel(const std::string& text) { return partita::test::tempModelJson(text); }

const std::vector<std::string> kPlan = {"--profile", "a100-sxm4-80gb", "--tp", "2", "--pp", "2", "--dp", "2",
                                        "--global-batch", "16", "--micro-batch", "2", "--sp"};

std::vector<std::string> evaluateArgs(const std::string& model, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"llm", "evaluate", "--model", model};
    args.insert(args.end(), kPlan.begin(), kPlan.end());
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

TEST(LlmOnnxCli, EvaluateReportsTheRecognisedModelAndMatchesTheModelFile) {
    partita::test::TinyTransformer t;
    t.heads = 8;
    t.kv_heads = 2;
    t.ffn = 88;
    t.vocab = 120;
    const std::string onnx = partita::test::llama(t).write("llama");
    const Result text = cli(evaluateArgs(onnx));
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_EQ(text.out.substr(0, text.out.find('\n')),
              "model recognised in " + onnx +
                  ": 2 layers, hidden 32, 8 heads (2 KV) of 4, ffn 88 swiglu, rmsnorm, vocab 120 untied, seq 16, "
                  "positions rope, no biases");
    const auto j = cliJson(evaluateArgs(onnx, {"--json"}));
    const auto& src = j["model_source"];
    EXPECT_EQ(src["kind"], "onnx");
    EXPECT_EQ(src["file"], onnx);
    EXPECT_EQ(src["ids_input"], "ids");
    EXPECT_TRUE(src["seq_static"].get<bool>());
    EXPECT_EQ(src["recognised"]["kv_heads"]["value"], "2");
    EXPECT_EQ(src["recognised"]["kv_heads"]["from"], (nlohmann::json{"layers.0.k_proj", "layers.0.v_proj"}));
    EXPECT_EQ(src["recognised"]["mlp"]["value"], "swiglu");
    const std::string file = jsonModel(R"({"layers": 2, "hidden": 32, "heads": 8, "kv_heads": 2, "ffn": 88, "seq": 16,
        "vocab": 120, "mlp": "swiglu", "norm": "rmsnorm", "position": "rope", "tied_embeddings": false})");
    const auto same = cliJson(evaluateArgs(file, {"--json"}));
    EXPECT_EQ(same["model_source"], (nlohmann::json{{"kind", "file"}, {"file", file}}));
    for (const char* key : {"iteration_s", "memory_gib", "mfu", "tokens_per_s", "model_flops", "time_s", "stages"})
        EXPECT_EQ(j[key], same[key]) << key;
    // search takes the same model and says so.
    const Result search = cli({"llm", "search", "--model", onnx, "--gpus", "8", "--global-batch", "16", "--top", "1"});
    ASSERT_EQ(search.status, 0) << search.err;
    EXPECT_EQ(search.out.rfind("model recognised in " + onnx, 0), 0u);
    const auto sj = cliJson({"llm", "search", "--model", onnx, "--gpus", "8", "--global-batch", "16", "--top", "1", "--json"});
    EXPECT_EQ(sj["model_source"]["recognised"]["heads"]["value"], "8");
}

TEST(LlmOnnxCli, TorchsDynamicBatchLlamaEvaluatesAsItsTwins) {
    // llm_export.py --test-models: the K/V head repeats of the dynamic-batch export are Loops.
    const std::string dir = std::string(PARTITA_TEST_DATA) + "/fuzz/onnx/";
    const std::string file = jsonModel(R"({"layers": 2, "hidden": 16, "heads": 4, "kv_heads": 2, "ffn": 24, "seq": 8,
        "vocab": 32, "mlp": "swiglu", "norm": "rmsnorm", "position": "rope", "tied_embeddings": false})");
    const auto loop = cliJson(evaluateArgs(dir + "llama-gqa-loop.onnx", {"--json"}));
    const auto fixed = cliJson(evaluateArgs(dir + "llama-gqa-static.onnx", {"--json"}));
    const auto json = cliJson(evaluateArgs(file, {"--json"}));
    EXPECT_EQ(loop["model_source"]["recognised"]["kv_heads"]["value"], "2");
    for (const auto& [key, found] : fixed["model_source"]["recognised"].items())
        EXPECT_EQ(loop["model_source"]["recognised"][key]["value"], found["value"]) << key;
    for (const char* key : {"iteration_s", "memory_gib", "mfu", "tokens_per_s", "model_flops", "time_s", "stages"}) {
        EXPECT_EQ(loop[key], fixed[key]) << key;
        EXPECT_EQ(loop[key], json[key]) << key;
    }
}

TEST(LlmOnnxCli, ADynamicSequenceLengthTakesSeq) {
    partita::test::TinyTransformer t;
    t.dynamic_seq = true;
    const std::string onnx = partita::test::gpt2(t).write("gpt2-dynamic");
    const Result refused = cli(evaluateArgs(onnx));
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.err.find(onnx + ": input 'ids': the sequence length (dim 1 of the token ids) is dynamic: give it (--seq S)"),
              std::string::npos)
        << refused.err;
    const auto j = cliJson(evaluateArgs(onnx, {"--seq", "24", "--json"}));
    EXPECT_FALSE(j["model_source"]["seq_static"].get<bool>());
    EXPECT_EQ(j["model_source"]["recognised"]["seq"]["value"], "24");
    EXPECT_GT(j["iteration_s"].get<double>(), 0);
}

TEST(LlmOnnxCli, ACnnIsRefusedWithWhatWasLookedFor) {
    const std::string onnx = partita::test::cnn().write("cnn");
    const Result r = cli(evaluateArgs(onnx));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(onnx + ": no repeated attention block found (looked for MatMul→Softmax→MatMul with Q/K/V projections)"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(cli({"llm", "evaluate", "--help"}).out.find("an ONNX model"), std::string::npos);
}

}  // namespace
}  // namespace partita::cli::test
