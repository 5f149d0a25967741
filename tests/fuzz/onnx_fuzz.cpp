// ONNX import: the bytes as a model file parsed once, its inputs at their default sizes, the import,
// the counts and the conversion to the native network (views, fused LayerNorms, narrowed windows);
// then the structure import and the transformer recogniser of `llm --model F.onnx`.
#include "core/llm/onnx_transformer.h"
#include "core/onnx/convert.h"
#include "core/onnx/counts.h"
#include "core/onnx/import.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = partita::fuzz::text(data, size);
    partita::fuzz::refusedOrDone([&] {
        partita::onnx::OnnxModel model = partita::onnx::OnnxModel::parse(bytes, "fuzz.onnx");
        const auto dims = partita::onnx::defaultInputDims(model.inputs());
        const partita::onnx::Graph graph = std::move(model).import(dims);
        partita::onnx::summarize(graph);
        partita::onnx::toNetwork(graph, "fuzz.onnx");
    });
    partita::fuzz::refusedOrDone([&] {
        partita::onnx::OnnxModel model = partita::onnx::OnnxModel::parse(bytes, "fuzz.onnx");
        const auto dims = partita::onnx::defaultInputDims(model.inputs());
        partita::llm::recogniseTransformer(model.importStructure(dims));
    });
    return 0;
}
