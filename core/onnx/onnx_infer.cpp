// ONNX's own inference function for one node, run with what the importer knows: the input types and
// shapes, and the values of folded inputs as constant tensors. Running it node by node (rather than
// ONNX's whole-model InferShapes) lets every node see the values folded upstream in the same pass.
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <unordered_map>

#include "core/onnx/detail.h"
#include "core/util/limits.h"

namespace partita::onnx::detail {

using ::onnx::TensorProto;
using ::onnx::TypeProto;

namespace {

TypeProto typeOf(const Info& info) {
    TypeProto t;
    auto* tensor = t.mutable_tensor_type();
    tensor->set_elem_type(info.elem_type);
    if (info.rank_known) {
        auto* shape = tensor->mutable_shape();
        for (const std::int64_t d : info.dims) {
            auto* dim = shape->add_dim();
            if (d >= 0) dim->set_dim_value(d);
        }
    }
    return t;
}

// The folded values as ONNX stores them; false when the element type has no plain field.
bool onnxTensorOf(const std::string& name, const Info& info, TensorProto& t) {
    if (info.is_float != isFloatType(info.elem_type) || !info.known()) return false;
    t.set_name(name);
    t.set_data_type(info.elem_type);
    for (const std::int64_t d : info.dims) t.add_dims(d);
    switch (info.elem_type) {
        case TensorProto::FLOAT:
            for (const double v : info.floats) t.add_float_data(static_cast<float>(v));
            return true;
        case TensorProto::DOUBLE:
            for (const double v : info.floats) t.add_double_data(v);
            return true;
        case TensorProto::INT64:
            for (const std::int64_t v : info.ints) t.add_int64_data(v);
            return true;
        case TensorProto::INT32:
        case TensorProto::INT16:
        case TensorProto::INT8:
        case TensorProto::UINT16:
        case TensorProto::UINT8:
        case TensorProto::BOOL:
            for (const std::int64_t v : info.ints) t.add_int32_data(static_cast<std::int32_t>(v));
            return true;
        case TensorProto::UINT32:
            for (const std::int64_t v : info.ints) t.add_uint64_data(static_cast<std::uint64_t>(v));
            return true;
        default:
            return false;
    }
}

}  // namespace

std::string onnxInfer(const NodeCtx& c, std::vector<Info>& out) {
    const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(c.op(), c.opset, "");
    if (!schema || !schema->has_type_and_shape_inference_function())
        return "the ONNX library has no shape inference for " + c.op() + " in opset " + std::to_string(c.opset);
    std::vector<TypeProto> types(c.in.size());
    std::vector<TensorProto> values(c.in.size());
    std::unordered_map<std::string, TypeProto*> typeByName;
    std::unordered_map<std::string, const TensorProto*> valueByName;
    // The schema's type parameter of input i ("T"); variadic inputs share the last formal one's.
    const auto& formal = schema->inputs();
    auto typeParam = [&](std::size_t i) { return formal.empty() ? std::string() : formal[std::min(i, formal.size() - 1)].GetTypeStr(); };
    for (std::size_t i = 0; i < c.in.size(); ++i) {
        const Info* in = c.in[i];
        if (!in) continue;
        const std::string& name = c.node.input(static_cast<int>(i));
        int elem_type = in->elem_type;
        // A type lost upstream (read in structure mode) is the one its type parameter takes at another input.
        for (std::size_t j = 0; j < c.in.size() && elem_type == 0; ++j)
            if (j != i && c.in[j] && c.in[j]->elem_type != 0 && !typeParam(i).empty() && typeParam(j) == typeParam(i))
                elem_type = c.in[j]->elem_type;
        if (elem_type == 0) return "the element type of input '" + name + "' is unknown";
        types[i] = typeOf(*in);
        types[i].mutable_tensor_type()->set_elem_type(elem_type);
        typeByName[name] = &types[i];
        if (in->has_values && onnxTensorOf(name, *in, values[i])) valueByName[name] = &values[i];
    }
    const std::unordered_map<std::string, const ::onnx::SparseTensorProto*> noSparse;
    ::onnx::shape_inference::InferenceContextImpl ctx(c.node, typeByName, valueByName, noSparse, nullptr, nullptr);
    try {
        schema->GetTypeAndShapeInferenceFunction()(ctx);
    } catch (const std::exception& e) {
        return e.what();
    }
    for (std::size_t i = 0; i < out.size() && i < ctx.allOutputTypes_.size(); ++i) {
        const TypeProto& t = ctx.allOutputTypes_[i];
        if (!t.has_tensor_type()) continue;
        Info info;
        info.elem_type = t.tensor_type().elem_type();
        if (t.tensor_type().has_shape()) {
            const auto& shape = t.tensor_type().shape();
            if (shape.dim_size() > limits::kOnnxRank)
                throw RuleError("an output of rank " + std::to_string(shape.dim_size()) + " exceeds the limit of " +
                                std::to_string(limits::kOnnxRank) + " axes");
            info.rank_known = true;
            for (const auto& d : shape.dim()) info.dims.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
        }
        out[i] = std::move(info);
    }
    return "";
}

int maxKnownOpset() { return ::onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at("").second; }

std::string verifyNode(const NodeCtx& c) {
    if (c.opset > maxKnownOpset()) return "";  // newer attributes and inputs than this ONNX library knows
    const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(c.op(), c.opset, "");
    if (!schema || schema->deprecated()) return "";  // Upsample after opset 9: still read, as ONNX Runtime does
    try {
        schema->Verify(c.node);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace partita::onnx::detail
