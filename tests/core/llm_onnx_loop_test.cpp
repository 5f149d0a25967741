// A transformer read through control flow (issue 28 item 1; core/llm/onnx_transformer.h): torch writes
// grouped-query attention's K/V head repeat as a Loop when the batch is dynamic. Such a model gives the
// same Transformer, and the same evaluation bit for bit, as its static twin and its model JSON file;
// a projection inside a Loop's body, or a body that computes on the heads, is still refused.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/llm/onnx_transformer.h"
#include "core/llm/runs.h"
#include "core/onnx/import.h"
#include "llm_same_evaluation.h"
#include "onnx_transformers.h"
#include "test_util.h"

namespace partita::llm {
namespace {

using partita::test::TinyTransformer;

// The test models llm_export.py --test-models writes (torch 1.13, opset 14): a LLaMA with 2 layers,
// hidden 16, 4 heads, 2 KV heads, ffn 24, vocab 32, sequence 8, exported with a dynamic batch (each
// K/V repeat a Loop) and with static shapes.
std::string testModel(const char* name) {
    return (std::filesystem::path(PARTITA_TEST_DATA) / "fuzz" / "onnx" / name).string();
}

const char* kTwinJson = R"({"layers": 2, "hidden": 16, "heads": 4, "kv_heads": 2, "ffn": 24, "seq": 8, "vocab": 32,
    "mlp": "swiglu", "norm": "rmsnorm", "position": "rope", "tied_embeddings": false})";

// The same model, names aside (they say which file it came from).
Transformer unnamed(Transformer m) {
    m.name.clear();
    m.provenance.clear();
    return m;
}

TEST(LlmOnnxLoop, TorchsDynamicBatchLlamaIsItsStaticTwin) {
    const std::string loop = testModel("llama-gqa-loop.onnx"), fixed = testModel("llama-gqa-static.onnx");
    // The Loops are there: the importer keeps their bodies.
    const onnx::Graph g = onnx::OnnxModel::read(loop).importStructure(onnx::defaultInputDims(onnx::graphInputs(loop)));
    int loops = 0;
    for (const onnx::Node& n : g.nodes)
        if (n.op_type == "Loop") {
            ++loops;
            ASSERT_TRUE(n.subgraphs);
            EXPECT_FALSE(n.subgraphs->captured.empty());
        }
    EXPECT_EQ(loops, 4);  // K and V in each of 2 layers
    // Past the Loops the shapes are found again: the merged heads' Reshape to sizes, then the MatMul by
    // the output projection, whose activation's type comes from its weight's.
    EXPECT_EQ(g.tensor("/blocks.0/o/MatMul_output_0")->dims, (std::vector<std::int64_t>{1, 8, 16}));
    const OnnxTransformer a = loadOnnxTransformer(loop), b = loadOnnxTransformer(fixed);
    EXPECT_EQ(unnamed(a.model), unnamed(b.model));
    const Transformer json = loadTransformer(partita::test::tempModelJson(kTwinJson));
    EXPECT_EQ(unnamed(a.model), unnamed(json)) << transformerToJson(a.model).dump();
    EXPECT_EQ(a.model.kv_heads, 2);
    EXPECT_TRUE(a.seq_static);
    for (const auto& e : a.evidence)
        if (e.key == "kv_heads") {
            EXPECT_EQ(e.from, (std::vector<std::string>{"/blocks.0/k/MatMul", "/blocks.0/v/MatMul"}));
        }
    expectSameEvaluation(a.model, b.model);
    expectSameEvaluation(a.model, json);
}

TEST(LlmOnnxLoop, ARepeatLoopReadsAsTheExpandItReplaces) {
    TinyTransformer t;
    t.heads = 8;
    t.kv_heads = 2;
    t.ffn = 88;
    for (const bool dynamic : {false, true}) {
        SCOPED_TRACE(dynamic);
        t.dynamic_seq = dynamic;
        t.loop_repeat = false;
        const OnnxTransformer expand = loadOnnxTransformer(partita::test::llama(t).write("llama-expand"), 16);
        t.loop_repeat = true;
        const OnnxTransformer loop = loadOnnxTransformer(partita::test::llama(t).write("llama-loop"), 16);
        EXPECT_EQ(unnamed(loop.model), unnamed(expand.model));
        EXPECT_EQ(loop.model.heads, 8);
        EXPECT_EQ(loop.model.kv_heads, 2);
        expectSameEvaluation(loop.model, expand.model);
    }
}

TEST(LlmOnnxLoop, AProjectionInsideALoopIsRefused) {
    TinyTransformer t;
    t.heads = 8;
    t.kv_heads = 2;
    t.loop_projection = true;
    const std::string path = partita::test::llama(t).write("llama-projection-in-loop");
    EXPECT_EQ(partita::test::anyErrorOf([&] { loadOnnxTransformer(path); }),
              path + ": the keys of the attention at 'scores_63' pass through 'Loop_25' (Loop); its body holds the "
                     "projection 'layers.0.k_proj_in_loop' (MatMul): projections inside control flow are not read: "
                     "export with static shapes");
}

TEST(LlmOnnxLoop, ALoopThatComputesOnTheHeadsIsRefused) {
    TinyTransformer t;
    t.heads = 8;
    t.kv_heads = 2;
    t.loop_repeat = true;
    partita::test::OnnxBuilder b = partita::test::llama(t);
    // The first Loop's body scales each head (an Expand becomes a Mul): no longer a repeat.
    for (auto& node : *b.graph().mutable_node())
        if (node.op_type() == "Loop") {
            for (auto& inner : *node.mutable_attribute(0)->mutable_g()->mutable_node())
                if (inner.op_type() == "Expand") inner.set_op_type("Mul");
            break;
        }
    const std::string path = b.write("llama-loop-computes");
    const std::string error = partita::test::anyErrorOf([&] { loadOnnxTransformer(path); });
    EXPECT_EQ(error.rfind(path + ": the keys of the attention at ", 0), 0u) << error;
    EXPECT_NE(error.find("(Loop); its body computes 'expanded_"), std::string::npos) << error;
    EXPECT_NE(error.find("(Mul) from the data it reads: only a body that moves heads (repeats, reshapes, gathers) is read "
                         "through: export with static shapes"),
              std::string::npos)
        << error;
}

}  // namespace
}  // namespace partita::llm
