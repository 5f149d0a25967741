// A transformer recognised in an ONNX model (issue 28 item 1; core/llm/onnx_transformer.h): GPT-2-like
// and LLaMA-like graphs built here give their dimensions exactly, evaluate bit for bit as the same
// dimensions in a model JSON file, and a CNN is refused naming what was looked for.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/llm/evaluate.h"
#include "core/llm/onnx_transformer.h"
#include "core/llm/runs.h"
#include "core/util/error.h"
#include "llm_same_evaluation.h"
#include "onnx_transformers.h"

namespace partita::llm {
namespace {

using partita::test::TinyTransformer;

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string jsonFile(const std::string& text) { return partita::test::tempModelJson(text); }

const OnnxEvidence& evidence(const OnnxTransformer& t, const std::string& key) {
    for (const auto& e : t.evidence)
        if (e.key == key) return e;
    throw std::runtime_error("no evidence for " + key);
}

// The dimensions a test expects, compared as one model (the family's defaults for the rest).
struct Expected {
    Family family;
    std::int64_t layers, hidden, heads, kv_heads, ffn, seq, vocab;
    MlpKind mlp;
    NormKind norm;
    Position position;
    bool tied, biases;
};

void expectModel(const Transformer& m, const Expected& e) {
    Transformer want = familyDefaults(e.family);
    want.name = m.name;
    want.provenance = m.provenance;
    want.layers = e.layers, want.hidden = e.hidden, want.heads = e.heads, want.kv_heads = e.kv_heads;
    want.ffn = e.ffn, want.seq = e.seq, want.vocab = e.vocab;
    want.mlp = e.mlp, want.norm = e.norm, want.position = e.position;
    want.tied_embeddings = e.tied, want.biases = e.biases;
    EXPECT_EQ(transformerToJson(m), transformerToJson(want));
    EXPECT_EQ(m, want);
}

TEST(LlmOnnx, Gpt2LikeModelGivesItsDimensions) {
    const TinyTransformer t;
    const std::string path = partita::test::gpt2(t).write("gpt2");
    const OnnxTransformer r = loadOnnxTransformer(path);
    expectModel(r.model, {Family::Gpt, 2, 32, 4, 4, 128, 16, 100, MlpKind::Gelu, NormKind::LayerNorm, Position::Learned,
                          true, true});
    EXPECT_TRUE(r.model.dropout);
    EXPECT_TRUE(r.seq_static);
    EXPECT_EQ(r.ids_input, "ids");
    EXPECT_EQ(evidence(r, "layers").from.size(), 2u);
    EXPECT_EQ(evidence(r, "heads").from, (std::vector<std::string>{"scores_15", "h0.qkv", "h0.split_qkv"}));
    EXPECT_EQ(evidence(r, "ffn").from, (std::vector<std::string>{"h0.up", "h0.down"}));
    EXPECT_EQ(evidence(r, "tied_embeddings").from, (std::vector<std::string>{"lm_head", "wte"}));
    EXPECT_EQ(evidence(r, "norm").from, (std::vector<std::string>{"h0.ln1", "ln_f"}));
    EXPECT_EQ(evidence(r, "position").from, (std::vector<std::string>{"embed_add"}));
    EXPECT_EQ(onnxSummary(r), "model recognised in " + path +
                                  ": 2 layers, hidden 32, 4 heads (4 KV) of 8, ffn 128 gelu, layernorm, vocab 100 tied, "
                                  "seq 16, positions learned, biases");
}

TEST(LlmOnnx, AHeadOnAFoldedCopyOfTheEmbeddingIsTied) {
    TinyTransformer t;
    t.folded_head = true;
    const OnnxTransformer r = loadOnnxTransformer(partita::test::gpt2(t).write("gpt2-folded"));
    EXPECT_TRUE(r.model.tied_embeddings);
    EXPECT_EQ(r.head_weight, "onnx::MatMul_99");
    EXPECT_EQ(r.embedding_table, "wte");
    EXPECT_EQ(evidence(r, "tied_embeddings").from,
              (std::vector<std::string>{"lm_head", "onnx::MatMul_99", "wte", "onnx::MatMul_99 holds the transposed values of wte"}));
}

TEST(LlmOnnx, LlamaLikeModelGivesItsDimensions) {
    TinyTransformer t;
    t.heads = 8;
    t.kv_heads = 2;
    t.ffn = 88;
    t.vocab = 120;
    for (const bool contrib : {false, true}) {
        SCOPED_TRACE(contrib);
        t.contrib_norm = contrib;
        const OnnxTransformer r = loadOnnxTransformer(partita::test::llama(t).write("llama"));
        expectModel(r.model, {Family::Llama, 2, 32, 8, 2, 88, 16, 120, MlpKind::Swiglu, NormKind::RmsNorm, Position::Rope,
                               false, false});
        EXPECT_FALSE(r.model.dropout);
        EXPECT_EQ(evidence(r, "kv_heads").from, (std::vector<std::string>{"layers.0.k_proj", "layers.0.v_proj"}));
        EXPECT_EQ(evidence(r, "ffn").from,
                  (std::vector<std::string>{"layers.0.gate_proj", "layers.0.up_proj", "layers.0.down_proj"}));
        EXPECT_EQ(evidence(r, "tied_embeddings").from, (std::vector<std::string>{"lm_head", "lm_head.weight", "embed"}));
        EXPECT_EQ(evidence(r, "norm").from.front(), contrib ? "layers.0.attn_norm" : "layers.0.attn_norm_mean_2");
    }
}

TEST(LlmOnnx, EvaluatesAsTheSameDimensionsInAModelFile) {
    const OnnxTransformer gpt = loadOnnxTransformer(partita::test::gpt2(TinyTransformer{}).write("gpt2"));
    const Transformer gpt_json = loadTransformer(jsonFile(R"({"layers": 2, "hidden": 32, "heads": 4, "ffn": 128,
        "seq": 16, "vocab": 100, "mlp": "gelu", "norm": "layernorm", "position": "learned", "tied_embeddings": true})"));
    TinyTransformer t;
    t.heads = 8;
    t.kv_heads = 2;
    t.ffn = 88;
    t.vocab = 120;
    const OnnxTransformer llama = loadOnnxTransformer(partita::test::llama(t).write("llama"));
    const Transformer llama_json = loadTransformer(jsonFile(R"({"layers": 2, "hidden": 32, "heads": 8, "kv_heads": 2,
        "ffn": 88, "seq": 16, "vocab": 120, "mlp": "swiglu", "norm": "rmsnorm", "position": "rope",
        "tied_embeddings": false})"));
    for (const auto& [onnx, json] : {std::pair{gpt.model, gpt_json}, std::pair{llama.model, llama_json}}) {
        Transformer same = onnx;
        same.name = json.name;
        same.provenance = json.provenance;
        EXPECT_EQ(same, json) << transformerToJson(onnx).dump() << "\n" << transformerToJson(json).dump();
        expectSameEvaluation(onnx, json);
    }
}

TEST(LlmOnnx, LoadTransformerReadsAnOnnxFileAndSaysSo) {
    const std::string path = partita::test::gpt2(TinyTransformer{}).write("gpt2");
    ModelSource source;
    const Transformer m = loadTransformer(path, 0, &source);
    EXPECT_EQ(source.kind, "onnx");
    ASSERT_TRUE(source.onnx.has_value());
    EXPECT_EQ(m, source.onnx->model);
    const Json j = modelSourceJson(source);
    EXPECT_EQ(j["kind"], "onnx");
    EXPECT_EQ(j["file"], path);
    EXPECT_EQ(j["recognised"]["heads"]["value"], "4");
    EXPECT_EQ(j["recognised"]["vocab"]["from"], (Json{"wte_gather", "lm_head"}));
    // The protobuf is recognised without the extension too.
    const std::string renamed = path + ".model";
    std::filesystem::copy_file(path, renamed);
    Transformer again = loadTransformer(renamed);
    EXPECT_EQ(again.provenance, "recognised in " + renamed + " (ONNX)");
    again.provenance = m.provenance;
    EXPECT_EQ(again, m);
    std::filesystem::remove(renamed);
    (void)loadTransformer("gpt3-13b", 0, &source);
    EXPECT_EQ(modelSourceJson(source), (Json{{"kind", "preset"}, {"name", "gpt3-13b"}}));
}

TEST(LlmOnnx, NeitherATableNorRotaryIsPositionNone) {
    TinyTransformer t;
    t.no_positions = true;
    const OnnxTransformer r = loadOnnxTransformer(partita::test::gpt2(t).write("gpt2-nopos"));
    EXPECT_EQ(r.model.position, Position::None);
    EXPECT_EQ(modelParameters(r.model).positions, 0);
    const auto kernels = layerKernels(r.model, 1, 1, false, KernelStyle{});
    EXPECT_TRUE(std::none_of(kernels.begin(), kernels.end(), [](const Kernel& k) { return k.name == "rope"; }));
    const Transformer json = loadTransformer(jsonFile(R"({"layers": 2, "hidden": 32, "heads": 4, "ffn": 128,
        "seq": 16, "vocab": 100, "position": "none"})"));
    EXPECT_EQ(json.position, Position::None);
    expectSameEvaluation(r.model, json);
}

TEST(LlmOnnx, ADynamicSequenceLengthMustBeGiven) {
    TinyTransformer t;
    t.dynamic_seq = true;
    const std::string path = partita::test::gpt2(t).write("gpt2-dynamic");
    EXPECT_EQ(errorOf([&] { loadOnnxTransformer(path); }),
              path + ": input 'ids': the sequence length (dim 1 of the token ids) is dynamic: give it (--seq S)");
    const OnnxTransformer r = loadOnnxTransformer(path, 24);
    EXPECT_EQ(r.model.seq, 24);
    EXPECT_FALSE(r.seq_static);
    EXPECT_EQ(r.model.heads, 4);
    EXPECT_EQ(r.model.hidden, 32);
    EXPECT_EQ(r.model.position, Position::Learned);
}

TEST(LlmOnnx, ANonTransformerIsRefusedNamingWhatWasLookedFor) {
    const std::string path = partita::test::cnn().write("cnn");
    EXPECT_EQ(errorOf([&] { loadOnnxTransformer(path); }),
              path + ": no repeated attention block found (looked for MatMul→Softmax→MatMul with Q/K/V projections)");
    EXPECT_EQ(errorOf([&] { loadTransformer(path); }),
              path + ": no repeated attention block found (looked for MatMul→Softmax→MatMul with Q/K/V projections)");
}

TEST(LlmOnnx, UnplannedBlocksAreRefusedNotGuessed) {
    TinyTransformer t;
    t.relu = true;
    const std::string relu = partita::test::gpt2(t).write("relu");
    EXPECT_EQ(errorOf([&] { loadOnnxTransformer(relu); }),
              relu + ": the MLP before 'h0.down' uses ReLU: Partita plans GeLU or SwiGLU MLPs");
    // A GPT-2 without its LM head: the head is looked for, not assumed tied.
    partita::test::OnnxBuilder b = partita::test::gpt2(TinyTransformer{});
    auto& nodes = *b.graph().mutable_node();
    nodes.RemoveLast();
    b.graph().mutable_output(0)->set_name("ln_f_out");
    const std::string headless = b.write("headless");
    EXPECT_EQ(errorOf([&] { loadOnnxTransformer(headless); }),
              headless + ": no LM head found (looked for a MatMul or Gemm from hidden 32 to the 100 rows of the embedding 'wte')");
    EXPECT_TRUE(contains(errorOf([&] { loadOnnxTransformer("/nonexistent/model.onnx"); }), "/nonexistent/model.onnx: cannot open"));
}

}  // namespace
}  // namespace partita::llm
