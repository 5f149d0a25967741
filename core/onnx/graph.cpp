#include "core/onnx/graph.h"

namespace partita::onnx {

const Tensor* Graph::tensor(const std::string& name) const {
    const auto it = tensors.find(name);
    return it == tensors.end() ? nullptr : &it->second;
}

}  // namespace partita::onnx
