// ONNX import: the bytes as a model file, its inputs at their default sizes, the import and the counts.
#include "core/onnx/counts.h"
#include "core/onnx/import.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = partita::fuzz::text(data, size);
    partita::fuzz::refusedOrDone([&] {
        const auto dims = partita::onnx::defaultInputDims(partita::onnx::graphInputsData(bytes, "fuzz.onnx"));
        const partita::onnx::Graph graph = partita::onnx::importOnnxData(bytes, "fuzz.onnx", dims);
        partita::onnx::summarize(graph);
    });
    return 0;
}
