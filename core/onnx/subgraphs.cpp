// A node's attributes as Graph keeps them, and the bodies of control-flow nodes (Loop, Scan, If)
// flattened into one list, with the tensors they read from the enclosing graph (detail.h).
#include <set>

#include "core/onnx/detail.h"
#include "core/util/utf8.h"

namespace partita::onnx::detail {

std::map<std::string, Attribute> attributesOf(const ::onnx::NodeProto& n) {
    std::map<std::string, Attribute> attrs;
    for (const auto& a : n.attribute()) {
        Attribute v;
        if (a.has_i()) v.i = a.i();
        if (a.has_f()) v.f = static_cast<double>(a.f());
        if (a.has_s()) v.s = a.s();
        v.ints.assign(a.ints().begin(), a.ints().end());
        v.floats.assign(a.floats().begin(), a.floats().end());
        attrs[a.name()] = std::move(v);
    }
    return attrs;
}

namespace {

// Walks every body of a node, nested ones too, in the file's order.
class Flattener {
public:
    explicit Flattener(std::string owner) : owner_(std::move(owner)) {}

    void add(const ::onnx::NodeProto& n) {
        for (const auto& a : n.attribute()) {
            if (a.has_g()) body(n.op_type(), a.g());
            for (const auto& g : a.graphs()) body(n.op_type(), g);
        }
    }

    Subgraphs finish() {
        // A name read but defined in no body comes from the enclosing graph (ONNX's outer scope).
        std::set<std::string> seen;
        for (const ::onnx::NodeProto* proto : protos_)
            for (const std::string& in : proto->input())
                if (!in.empty() && !defined_.count(in) && seen.insert(in).second) out_.captured.push_back(validUtf8(in));
        return std::move(out_);
    }

private:
    void body(const std::string& op, const ::onnx::GraphProto& g) {
        // A Loop body's first two inputs are the iteration number and the condition: control, not data.
        const int skip = op == "Loop" ? 2 : 0;
        for (int i = 0; i < g.input_size(); ++i) {
            defined_.insert(g.input(i).name());
            if (i >= skip) out_.inputs.push_back(validUtf8(g.input(i).name()));
        }
        for (const auto& t : g.initializer()) defined_.insert(t.name());
        for (const auto& t : g.sparse_initializer()) defined_.insert(t.values().name());
        for (const auto& n : g.node()) {
            for (const std::string& o : n.output()) defined_.insert(o);
            Node node;
            const auto k = out_.nodes.size();
            node.name = validUtf8(n.name().empty() ? owner_ + "/" + n.op_type() + "_" + std::to_string(k) : n.name());
            node.op_type = validUtf8(n.op_type());
            node.domain = validUtf8(n.domain() == "ai.onnx" ? "" : n.domain());
            node.index = static_cast<int>(k);
            for (const std::string& in : n.input()) node.inputs.push_back(validUtf8(in));
            for (const std::string& o : n.output()) node.outputs.push_back(validUtf8(o));
            node.attributes = attributesOf(n);
            out_.nodes.push_back(std::move(node));
            protos_.push_back(&n);
            add(n);
        }
    }

    std::string owner_;
    Subgraphs out_;
    std::set<std::string> defined_;
    std::vector<const ::onnx::NodeProto*> protos_;
};

}  // namespace

std::shared_ptr<const Subgraphs> subgraphsOf(const ::onnx::NodeProto& n, const std::string& name) {
    bool any = false;
    for (const auto& a : n.attribute()) any = any || a.has_g() || a.graphs_size() > 0;
    if (!any) return nullptr;
    Flattener f(name);
    f.add(n);
    return std::make_shared<const Subgraphs>(f.finish());
}

}  // namespace partita::onnx::detail
