#pragma once
// Small ONNX models built in the tests (no downloads): a ModelProto with inputs, initializers and
// nodes set through protobuf's setters, written to a temporary file for the importer.
#include <onnx/onnx_pb.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <variant>
#include <vector>

namespace partita::test {

class OnnxBuilder {
public:
    // A declared input dimension: a size (-1: unknown, neither size nor symbol) or a symbol.
    using Dim = std::variant<std::int64_t, std::string>;
    static constexpr int kFloat = ::onnx::TensorProto::FLOAT;
    static constexpr int kInt64 = ::onnx::TensorProto::INT64;

    explicit OnnxBuilder(int opset = 13, const std::string& name = "test") {
        model.set_ir_version(8);
        model.set_producer_name("partita-tests");
        model.set_producer_version("1");
        auto* op = model.add_opset_import();
        op->set_domain("");
        op->set_version(opset);
        graph().set_name(name);
    }

    ::onnx::GraphProto& graph() { return *model.mutable_graph(); }

    void input(const std::string& name, const std::vector<Dim>& dims, int type = kFloat) {
        auto* tt = addValue(graph().add_input(), name, type);
        auto* shape = tt->mutable_shape();
        for (const Dim& d : dims) {
            auto* dim = shape->add_dim();
            if (const auto* v = std::get_if<std::int64_t>(&d)) {
                if (*v >= 0) dim->set_dim_value(*v);
            } else {
                dim->set_dim_param(std::get<std::string>(d));
            }
        }
    }
    void inputWithoutShape(const std::string& name, int type = kFloat) { addValue(graph().add_input(), name, type); }
    void output(const std::string& name, int type = kFloat) { addValue(graph().add_output(), name, type); }

    // A float weight of `dims`, stored as zero bytes as exporters store raw data.
    ::onnx::TensorProto& weight(const std::string& name, const std::vector<std::int64_t>& dims) {
        auto& t = tensor(name, dims, kFloat);
        std::int64_t n = 1;
        for (const std::int64_t d : dims) n *= d;
        t.set_raw_data(std::string(static_cast<std::size_t>(n) * 4, '\0'));
        return t;
    }
    ::onnx::TensorProto& ints(const std::string& name, const std::vector<std::int64_t>& values,
                              std::vector<std::int64_t> dims = {-1}) {
        if (dims == std::vector<std::int64_t>{-1}) dims = {static_cast<std::int64_t>(values.size())};
        auto& t = tensor(name, dims, kInt64);
        for (const std::int64_t v : values) t.add_int64_data(v);
        return t;
    }
    ::onnx::TensorProto& floats(const std::string& name, const std::vector<float>& values,
                                std::vector<std::int64_t> dims = {-1}) {
        if (dims == std::vector<std::int64_t>{-1}) dims = {static_cast<std::int64_t>(values.size())};
        auto& t = tensor(name, dims, kFloat);
        for (const float v : values) t.add_float_data(v);
        return t;
    }
    ::onnx::TensorProto& scalarInt(const std::string& name, std::int64_t v) { return ints(name, {v}, {}); }

    ::onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                            const std::vector<std::string>& outputs, const std::string& name = "") {
        auto* n = graph().add_node();
        n->set_op_type(op);
        if (!name.empty()) n->set_name(name);
        for (const auto& i : inputs) n->add_input(i);
        for (const auto& o : outputs) n->add_output(o);
        return *n;
    }

    static void attrInt(::onnx::NodeProto& n, const std::string& name, std::int64_t v) {
        auto* a = attr(n, name, ::onnx::AttributeProto::INT);
        a->set_i(v);
    }
    static void attrFloat(::onnx::NodeProto& n, const std::string& name, float v) {
        auto* a = attr(n, name, ::onnx::AttributeProto::FLOAT);
        a->set_f(v);
    }
    static void attrString(::onnx::NodeProto& n, const std::string& name, const std::string& v) {
        auto* a = attr(n, name, ::onnx::AttributeProto::STRING);
        a->set_s(v);
    }
    static void attrInts(::onnx::NodeProto& n, const std::string& name, const std::vector<std::int64_t>& v) {
        auto* a = attr(n, name, ::onnx::AttributeProto::INTS);
        for (const std::int64_t x : v) a->add_ints(x);
    }
    static void attrFloats(::onnx::NodeProto& n, const std::string& name, const std::vector<float>& v) {
        auto* a = attr(n, name, ::onnx::AttributeProto::FLOATS);
        for (const float x : v) a->add_floats(x);
    }
    static ::onnx::TensorProto& attrTensor(::onnx::NodeProto& n, const std::string& name, int type,
                                           const std::vector<std::int64_t>& dims) {
        auto* a = attr(n, name, ::onnx::AttributeProto::TENSOR);
        auto* t = a->mutable_t();
        t->set_data_type(type);
        for (const std::int64_t d : dims) t->add_dims(d);
        return *t;
    }

    std::string bytes() const { return model.SerializeAsString(); }

    // Writes the model to a new file under the system's temporary folder and returns its path.
    std::string write(const std::string& stem = "model") const { return writeBytes(bytes(), stem); }

    static std::string writeBytes(const std::string& data, const std::string& stem = "data") {
        static std::atomic<int> counter{0};
        const auto path = std::filesystem::temp_directory_path() /
                          ("partita-onnx-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + stem + ".onnx");
        std::ofstream out(path, std::ios::binary);
        out << data;
        written().push_back(path);
        return path.string();
    }

    ::onnx::ModelProto model;

private:
    // Every file written, removed when the test binary exits.
    struct Written : std::vector<std::filesystem::path> {
        ~Written() {
            std::error_code ec;
            for (const auto& p : *this) std::filesystem::remove(p, ec);
        }
    };
    static Written& written() {
        static Written files;
        return files;
    }
    static ::onnx::TypeProto_Tensor* addValue(::onnx::ValueInfoProto* vi, const std::string& name, int type) {
        vi->set_name(name);
        auto* tt = vi->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(type);
        return tt;
    }
    ::onnx::TensorProto& tensor(const std::string& name, const std::vector<std::int64_t>& dims, int type) {
        auto* t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        for (const std::int64_t d : dims) t->add_dims(d);
        return *t;
    }
    static ::onnx::AttributeProto* attr(::onnx::NodeProto& n, const std::string& name, ::onnx::AttributeProto::AttributeType type) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(type);
        return a;
    }
};

}  // namespace partita::test
