// The ONNX importer's driver: read and check the file, set the input sizes, then one pass over the
// nodes in topological order (fold, own shape rules, ONNX's inference; see import.h).
#include "core/onnx/import.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/onnx/detail.h"
#include "core/util/graph.h"
#include "core/util/input_file.h"
#include "core/util/limits.h"
#include "core/util/utf8.h"

namespace partita::onnx {

using detail::Info;
using detail::RuleError;

namespace {

// A user's or model's string as a short excerpt, so a huge name cannot blow up a message.
std::string importExcerpt(const std::string& s) { return s.size() <= 80 ? s : s.substr(0, 77) + "..."; }
std::string quoted(const std::string& s) { return "'" + importExcerpt(s) + "'"; }

bool isDefaultDomain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

std::string listText(const std::vector<std::string>& items, std::size_t shown = 10) {
    std::string s;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) s += (i ? ", " : "") + items[i];
    if (items.size() > shown) s += " and " + std::to_string(items.size() - shown) + " more";
    return s;
}

}  // namespace

// Named (not anonymous): OnnxModel::Parsed holds one.
struct Model {
    ::onnx::ModelProto proto;
    std::string source;
    int opset = 0;
};

namespace {

// Names and types become network JSON, the results database and --json output, which hold UTF-8
// only: any other byte is refused here, where the file and the place are known.
void checkText(const Model& m) {
    const auto check = [&](const std::string& text, const std::string& place, const char* what) {
        if (const std::string why = utf8Problem(text); !why.empty()) throw InputError(m.source, place, std::string(what) + " " + why);
    };
    const auto& g = m.proto.graph();
    check(g.name(), "graph", "its name");
    check(m.proto.producer_name(), "producer_name", "the producer's name");
    check(m.proto.producer_version(), "producer_version", "the producer's version");
    for (int i = 0; i < g.node_size(); ++i) {
        const auto& n = g.node(i);
        const std::string at = "node #" + std::to_string(i);
        check(n.name(), at, "its name");
        check(n.op_type(), at, "its op_type");
        check(n.domain(), at, "its domain");
        for (int k = 0; k < n.input_size(); ++k) check(n.input(k), at + ", input " + std::to_string(k), "the name");
        for (int k = 0; k < n.output_size(); ++k) check(n.output(k), at + ", output " + std::to_string(k), "the name");
    }
    for (int i = 0; i < g.input_size(); ++i) check(g.input(i).name(), "graph input #" + std::to_string(i), "its name");
    for (int i = 0; i < g.output_size(); ++i) check(g.output(i).name(), "graph output #" + std::to_string(i), "its name");
    for (int i = 0; i < g.initializer_size(); ++i)
        check(g.initializer(i).name(), "initializer #" + std::to_string(i), "its name");
    for (int i = 0; i < g.value_info_size(); ++i)
        check(g.value_info(i).name(), "value_info #" + std::to_string(i), "its name");
}

// What every ONNX model has: an IR version, a graph, the default domain's opset; and the node limit.
void checkParsed(Model& m, bool parsed) {
    const std::string& source = m.source;
    if (!parsed)
        throw InputError(source, "", "not an ONNX model: the data is not a complete ONNX protobuf (truncated, or another format)");
    if (m.proto.ir_version() <= 0 || !m.proto.has_graph())
        throw InputError(source, "", std::string("not an ONNX model: it has no ") +
                                         (m.proto.ir_version() <= 0 ? "ir_version" : "graph"));
    for (const auto& op : m.proto.opset_import())
        if (isDefaultDomain(op.domain())) m.opset = static_cast<int>(std::clamp<std::int64_t>(op.version(), 0, 1 << 20));
    if (m.opset <= 0)
        throw InputError(source, "opset_import", "not an ONNX model (or truncated): no opset version for the default domain");
    const auto& g = m.proto.graph();
    if (g.node_size() > limits::kOperators)
        throw InputError(source, "graph", std::to_string(g.node_size()) + " nodes exceed the limit of " +
                                              std::to_string(limits::kOperators));
    checkText(m);
}

Model parseModel(std::string_view bytes, const std::string& source) {
    if (bytes.size() > static_cast<std::size_t>(limits::kOnnxFileBytes))
        throw InputError(source, "", "the data is larger than the limit of " + std::to_string(limits::kOnnxFileBytes) + " bytes");
    Model m;
    m.source = source;
    checkParsed(m, m.proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
    return m;
}

// Parsed from the stream, so a large file is not held twice (its bytes and the parsed weights).
Model readModel(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw InputError(path, "", "cannot open the file: it does not exist");
    requireRegularFile(path);  // a folder, FIFO or device, by name
    const auto size = fs::file_size(path, ec);
    if (ec) throw InputError(path, "", "cannot read the file size");
    if (size > static_cast<std::uintmax_t>(limits::kOnnxFileBytes))
        throw InputError(path, "", "the file is " + std::to_string(size) + " bytes, larger than the limit of " +
                                       std::to_string(limits::kOnnxFileBytes) +
                                       " bytes for an ONNX file (larger models keep their weights in external data)");
    InputFile in(path);  // refuses a FIFO or device swapped in after the check above, never blocking
    Model m;
    m.source = path;
    checkParsed(m, m.proto.ParseFromFileDescriptor(in.fd()));
    return m;
}

std::string nodeName(const ::onnx::NodeProto& n, int index) {
    return n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
}

std::string nodePlace(const ::onnx::NodeProto& n, int index) {
    return "node " + quoted(nodeName(n, index)) + " (" + importExcerpt(n.op_type()) + ", #" + std::to_string(index) + ")";
}

void checkSupported(const Model& m) {
    const std::vector<std::string>& ops = supportedOperators();
    std::vector<UnsupportedNode> bad;
    const auto& g = m.proto.graph();
    for (int i = 0; i < g.node_size(); ++i) {
        const auto& n = g.node(i);
        if (isDefaultDomain(n.domain()) && std::binary_search(ops.begin(), ops.end(), n.op_type())) continue;
        bad.push_back({nodeName(n, i), n.op_type(), n.domain() == "ai.onnx" ? "" : n.domain(), i});
    }
    if (!bad.empty()) throw UnsupportedOperators(m.source, std::move(bad));
}

std::set<std::string> initializerNames(const ::onnx::GraphProto& g) {
    std::set<std::string> names;
    for (const auto& t : g.initializer()) names.insert(t.name());
    for (const auto& t : g.sparse_initializer()) names.insert(t.values().name());
    return names;
}

GraphInput declaredInput(const ::onnx::ValueInfoProto& vi) {
    GraphInput in;
    in.name = vi.name();
    if (!vi.type().has_tensor_type()) return in;
    const auto& tt = vi.type().tensor_type();
    in.dtype = detail::dtypeName(tt.elem_type());
    if (!tt.has_shape()) return in;
    in.rank_known = true;
    for (const auto& d : tt.shape().dim()) {
        InputDim dim;
        if (d.has_dim_value() && d.dim_value() > 0) dim.value = d.dim_value();
        if (d.has_dim_param()) dim.symbol = d.dim_param();
        in.dims.push_back(dim);
    }
    return in;
}

std::vector<GraphInput> inputsOf(const Model& m) {
    std::vector<GraphInput> inputs;
    const auto& g = m.proto.graph();
    const std::set<std::string> init = initializerNames(g);
    for (const auto& vi : g.input()) {
        if (init.count(vi.name())) continue;
        GraphInput in = declaredInput(vi);
        if (in.dims.size() > static_cast<std::size_t>(limits::kOnnxRank))
            throw InputError(m.source, "input " + quoted(vi.name()),
                             "rank " + std::to_string(in.dims.size()) + " exceeds the limit of " + std::to_string(limits::kOnnxRank));
        inputs.push_back(std::move(in));
    }
    return inputs;
}

// A dynamic dimension the user has not set: "input 'x' dim 0 ('batch')".
struct Unresolved {
    std::string input;
    std::size_t dim = 0;
    std::string symbol;
};

// The graph inputs with the user's sizes applied; unset dynamic sizes stay -1.
std::map<std::string, Info> applyDims(const Model& m, const std::vector<GraphInput>& inputs, const InputDims& dims,
                                      std::vector<Unresolved>& unresolved) {
    const std::string& src = m.source;
    std::set<std::string> names, symbols;
    for (const GraphInput& in : inputs) {
        names.insert(in.name);
        for (const InputDim& d : in.dims)
            if (!d.fixed() && !d.symbol.empty()) symbols.insert(d.symbol);
    }
    for (const auto& [name, v] : dims.inputs)
        if (!names.count(name))
            throw InputError(src, "--input " + importExcerpt(name),
                             "the model has no graph input of that name (inputs: " +
                                 listText({names.begin(), names.end()}) + ")");
    for (const auto& [name, v] : dims.symbols)
        if (!symbols.count(name))
            throw InputError(src, "--dim " + importExcerpt(name),
                             symbols.empty() ? "the model's inputs have no symbolic dimensions"
                                             : "no dynamic input dimension is named so (symbols: " +
                                                   listText({symbols.begin(), symbols.end()}) + ")");
    auto checkSize = [&](const std::string& place, std::int64_t v) {
        if (v < 1 || v > limits::kDimension)
            throw InputError(src, place, "size " + std::to_string(v) + " is outside 1.." + std::to_string(limits::kDimension));
    };
    std::map<std::string, Info> infos;
    const auto& g = m.proto.graph();
    for (const GraphInput& in : inputs) {
        const auto* vi = &*std::find_if(g.input().begin(), g.input().end(), [&](const auto& v) { return v.name() == in.name; });
        if (!vi->type().has_tensor_type())
            throw InputError(src, "input " + quoted(in.name), "not a tensor (sequences and maps are not supported)");
        Info info;
        info.elem_type = vi->type().tensor_type().elem_type();
        const auto given = dims.inputs.find(in.name);
        if (given != dims.inputs.end()) {
            const std::vector<std::int64_t>& v = given->second;
            if (in.rank_known && v.size() != in.dims.size())
                throw InputError(src, "--input " + importExcerpt(in.name),
                                 std::to_string(v.size()) + " sizes given; the model declares " +
                                     std::to_string(in.dims.size()) + " dimensions");
            if (v.size() > static_cast<std::size_t>(limits::kOnnxRank))
                throw InputError(src, "--input " + importExcerpt(in.name), "more than " + std::to_string(limits::kOnnxRank) + " sizes");
            for (const std::int64_t d : v) checkSize("--input " + importExcerpt(in.name), d);
            info.rank_known = true;
            info.dims = v;
        } else if (in.rank_known) {
            info.rank_known = true;
            for (std::size_t i = 0; i < in.dims.size(); ++i) {
                const InputDim& d = in.dims[i];
                std::int64_t size = d.fixed() ? d.value : -1;
                if (!d.fixed() && !d.symbol.empty() && dims.symbols.count(d.symbol)) {
                    size = dims.symbols.at(d.symbol);
                    checkSize("--dim " + importExcerpt(d.symbol), size);
                }
                if (size < 0) unresolved.push_back({in.name, i, d.symbol});
                info.dims.push_back(size);
            }
        } else {
            unresolved.push_back({in.name, 0, ""});
        }
        try {
            if (info.known()) detail::elementCount(info.dims);
        } catch (const RuleError& e) {
            throw InputError(src, "input " + quoted(in.name), e.what());
        }
        infos[in.name] = std::move(info);
    }
    return infos;
}

std::string unresolvedText(const std::vector<Unresolved>& unresolved) {
    std::vector<std::string> items;
    for (const Unresolved& u : unresolved)
        items.push_back("input " + quoted(u.input) + " dim " + std::to_string(u.dim) +
                        (u.symbol.empty() ? "" : " (" + quoted(u.symbol) + ")"));
    return listText(items);
}

// The node order to walk: the model's when it is topological (as ONNX requires), else the first ready
// node by position first (core/util/graph.h); a cycle or an input nothing defines is an error. A
// control-flow node also waits for the tensors its bodies read (`bodies`, per node; null for most).
std::vector<int> importTopologicalOrder(const Model& m, const std::set<std::string>& defined,
                                        const std::vector<std::shared_ptr<const Subgraphs>>& bodies) {
    const auto& g = m.proto.graph();
    const int n = g.node_size();
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < n; ++i)
        for (const std::string& o : g.node(i).output()) {
            if (o.empty()) continue;
            if (defined.count(o) || !producer.emplace(o, i).second)
                throw InputError(m.source, nodePlace(g.node(i), i), "tensor " + quoted(o) + " is defined twice");
        }
    std::vector<std::vector<int>> inputs(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const auto& node = g.node(i);
        if (node.input_size() > limits::kOperatorInputs)
            throw InputError(m.source, nodePlace(node, i), std::to_string(node.input_size()) +
                                                               " inputs exceed the limit of " +
                                                               std::to_string(limits::kOperatorInputs));
        for (const std::string& in : node.input()) {
            if (in.empty() || defined.count(in)) continue;
            const auto p = producer.find(in);
            if (p == producer.end())
                throw InputError(m.source, nodePlace(node, i),
                                 "input " + quoted(in) + " is not produced by any node, initializer or graph input");
            inputs[static_cast<std::size_t>(i)].push_back(p->second);
        }
        if (const auto& body = bodies[static_cast<std::size_t>(i)])
            for (const std::string& in : body->captured)
                if (const auto p = producer.find(in); p != producer.end() && p->second != i)
                    inputs[static_cast<std::size_t>(i)].push_back(p->second);
    }
    std::vector<int> order = graph::smallestFirstOrder(inputs);
    if (static_cast<int>(order.size()) != n) {
        std::vector<bool> done(static_cast<std::size_t>(n), false);
        for (const int i : order) done[static_cast<std::size_t>(i)] = true;
        int stuck = 0;
        while (done[static_cast<std::size_t>(stuck)]) ++stuck;
        throw InputError(m.source, nodePlace(g.node(stuck), stuck), "the graph has a cycle through this node");
    }
    return order;
}

Tensor tensorOf(const std::string& name, const Info& info) {
    Tensor t;
    t.name = name;
    t.dtype = detail::dtypeName(info.elem_type);
    t.dims = info.rank_known ? info.dims : std::vector<std::int64_t>{};
    t.constant = info.constant;
    t.has_values = info.has_values;
    if (info.has_values) {
        if (info.is_float) t.float_values = info.floats;
        else t.int_values = info.ints;
    }
    return t;
}

// An output a costed node leaves unknown or empty: the error names the node, the tensor and the fix.
[[noreturn]] void unknownOutput(const Model& m, const std::string& place, const std::string& name, const Info& info,
                                const std::vector<const Info*>& ins, const ::onnx::NodeProto& node,
                                const std::string& onnx_message, const std::vector<Unresolved>& unresolved) {
    std::string msg;
    if (info.known()) {
        msg = "output " + quoted(name) + " has a zero size " + detail::dimsText(info.dims);
    } else {
        msg = "the shape of output " + quoted(name) + " is unknown" +
              (info.rank_known ? " (" + detail::dimsText(info.dims) + ")" : "");
    }
    if (!unresolved.empty()) {
        msg += "; set the dynamic input sizes: " + unresolvedText(unresolved) +
               " (--input NAME=d0,d1,… or --dim SYMBOL=V)";
    } else {
        std::vector<std::string> items;
        for (std::size_t i = 0; i < ins.size(); ++i)
            if (ins[i])
                items.push_back(quoted(node.input(static_cast<int>(i))) + " " +
                                (ins[i]->rank_known ? detail::dimsText(ins[i]->dims) : "[unknown rank]"));
        msg += "; its inputs: " + listText(items);
        if (!onnx_message.empty()) msg += "; ONNX shape inference: " + importExcerpt(onnx_message);
    }
    throw InputError(m.source, place, msg);
}

bool isSupported(const ::onnx::NodeProto& n) {
    const std::vector<std::string>& ops = supportedOperators();
    return isDefaultDomain(n.domain()) && std::binary_search(ops.begin(), ops.end(), n.op_type());
}

// Operators outside the supported set whose first output (and, for the Skip… norms, the residual
// sum) has the shape and type of the first input: enough to read a transformer's structure.
bool passesShapeOn(const ::onnx::NodeProto& n, int output) {
    static const std::set<std::string> ops{"Trilu", "Sin", "Cos", "CumSum", "Softplus", "Elu", "Celu", "Selu", "Mish",
                                           "Gelu", "FastGelu", "BiasGelu", "QuickGelu", "Silu", "Swish",
                                           "SimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization",
                                           "SkipLayerNormalization", "RMSNormalization", "RotaryEmbedding"};
    if (!ops.count(n.op_type())) return false;
    return output == 0 || (output == 3 && n.op_type().rfind("Skip", 0) == 0);
}

bool anyUnknown(const std::vector<const Info*>& ins) {
    return std::any_of(ins.begin(), ins.end(), [](const Info* i) { return i && !i->known(); });
}

// `structure`: OnnxModel::importStructure's mode (import.h).
Graph importModel(Model& m, const std::vector<GraphInput>& inputs, const InputDims& dims, bool structure = false) {
    if (!structure) checkSupported(m);
    auto& g = *m.proto.mutable_graph();
    std::vector<Unresolved> unresolved;
    std::map<std::string, Info> known = applyDims(m, inputs, dims, unresolved);

    Graph graph;
    graph.source = m.source;
    graph.name = isPlaceholderGraphName(g.name()) ? validUtf8(std::filesystem::path(m.source).stem().string()) : g.name();
    graph.producer = m.proto.producer_name() + (m.proto.producer_version().empty() ? "" : " " + m.proto.producer_version());
    graph.opset = m.opset;
    for (const GraphInput& in : inputs) graph.inputs.push_back(in.name);

    for (const auto& t : g.initializer()) {
        try {
            detail::readTensor(t, known[t.name()]);
        } catch (const RuleError& e) {
            throw InputError(m.source, "initializer " + quoted(t.name()), e.what());
        }
    }
    for (const auto& t : g.sparse_initializer()) {
        Info& info = known[t.values().name()];
        try {
            info = detail::shaped(t.values().data_type(), {t.dims().begin(), t.dims().end()});
            detail::elementCount(info.dims);
        } catch (const RuleError& e) {
            throw InputError(m.source, "initializer " + quoted(t.values().name()), e.what());
        }
        info.constant = true;
    }
    std::set<std::string> defined;
    for (const auto& [name, info] : known) defined.insert(name);

    std::vector<std::shared_ptr<const Subgraphs>> bodies(static_cast<std::size_t>(g.node_size()));
    for (int i = 0; i < g.node_size(); ++i) {
        if (g.node(i).domain() == "ai.onnx") g.mutable_node(i)->set_domain("");
        bodies[static_cast<std::size_t>(i)] = detail::subgraphsOf(g.node(i), nodeName(g.node(i), i));
    }
    for (const int index : importTopologicalOrder(m, defined, bodies)) {
        ::onnx::NodeProto& np = *g.mutable_node(index);
        const std::string place = nodePlace(np, index);
        detail::NodeCtx c{np, m.opset, {}};
        for (const std::string& in : np.input()) c.in.push_back(in.empty() ? nullptr : &known.at(in));
        std::vector<Info> out(static_cast<std::size_t>(np.output_size()));
        std::string onnx_message;
        if (structure && !isSupported(np)) {
            for (int k = 0; k < np.output_size(); ++k)
                if (!c.in.empty() && c.in[0] && passesShapeOn(np, k)) {
                    Info& o = out[static_cast<std::size_t>(k)];
                    o.elem_type = c.in[0]->elem_type;
                    o.rank_known = c.in[0]->rank_known;
                    o.dims = c.in[0]->dims;
                }
        } else {
            try {
                if (const std::string bad = detail::verifyNode(c); !bad.empty()) throw RuleError(bad);
                detail::checkNode(c);
                bool done = detail::fold(c, out);
                if (!done && detail::hasOwnShapeRule(np.op_type())) done = detail::ownShapes(c, out);
                if (!done && !detail::hasOwnShapeRule(np.op_type())) onnx_message = detail::onnxInfer(c, out);
                for (const Info& o : out)
                    if (o.known()) detail::elementCount(o.dims);
            } catch (const RuleError& e) {
                // Reading structure, a rule that fails on an input left unknown upstream leaves its outputs unknown.
                if (!structure || !anyUnknown(c.in)) throw InputError(m.source, place, std::string(e.what()).substr(0, 400));
                out.assign(out.size(), Info{});
            } catch (const std::overflow_error& e) {
                throw InputError(m.source, place, e.what());
            }
        }
        // A node computed from constants alone is constant too (a Transpose of a weight, a Shape
        // chain); such nodes are not operators to cost.
        bool from_constants = np.input_size() > 0 || np.op_type() == "Constant";
        for (const Info* in : c.in)
            if (in && !in->constant) from_constants = false;
        const auto& body = bodies[static_cast<std::size_t>(index)];
        if (body)
            for (const std::string& in : body->captured)
                if (const auto k = known.find(in); k == known.end() || !k->second.constant) from_constants = false;
        bool all_valued = true;
        for (int k = 0; k < np.output_size(); ++k)
            if (!np.output(k).empty() && !out[static_cast<std::size_t>(k)].has_values) all_valued = false;
        const bool folded = from_constants || all_valued;

        Node node;
        node.name = nodeName(np, index);
        node.op_type = np.op_type();
        node.domain = np.domain();
        node.index = index;
        node.inputs.assign(np.input().begin(), np.input().end());
        node.outputs.assign(np.output().begin(), np.output().end());
        node.attributes = detail::attributesOf(np);
        node.subgraphs = body;
        node.folded = folded;
        for (int k = 0; k < np.output_size(); ++k) {
            const std::string& name = np.output(k);
            if (name.empty()) continue;
            Info& o = out[static_cast<std::size_t>(k)];
            o.constant = o.constant || folded;
            if (!folded && !structure) {
                bool positive = o.known();
                for (const std::int64_t d : o.dims) positive = positive && d > 0;
                if (!positive) unknownOutput(m, place, name, o, c.in, np, onnx_message, unresolved);
            }
            known[name] = std::move(o);
        }
        graph.nodes.push_back(std::move(node));
    }
    for (const auto& o : g.output()) {
        if (!known.count(o.name()))
            throw InputError(m.source, "graph output " + quoted(o.name()), "no node, initializer or input defines it");
        graph.outputs.push_back(o.name());
    }
    for (const auto& [name, info] : known) graph.tensors[name] = tensorOf(name, info);
    return graph;
}

}  // namespace

UnsupportedOperators::UnsupportedOperators(std::string source, std::vector<UnsupportedNode> nodes)
    : InputError(std::move(source), "", [&] {
          std::vector<std::string> items;
          for (const UnsupportedNode& n : nodes)
              items.push_back(quoted(n.name) + " (" + (n.domain.empty() ? "" : importExcerpt(n.domain) + ".") + importExcerpt(n.op_type) +
                              ", #" + std::to_string(n.index) + ")");
          return std::to_string(nodes.size()) + (nodes.size() == 1 ? " node uses an operator" : " nodes use operators") +
                 " Partita does not support: " + listText(items, 20);
      }()),
      nodes_(std::move(nodes)) {}

const std::vector<std::string>& supportedOperators() {
    static const std::vector<std::string> ops = [] {
        std::vector<std::string> v = {
            "Conv", "ConvTranspose", "Gemm", "MatMul", "BatchNormalization", "LayerNormalization", "Add", "Mul", "Sub",
            "Div", "Pow", "Sqrt", "Relu", "LeakyRelu", "Clip", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Erf",
            "Gelu", "Softmax", "ReduceMean", "ReduceSum", "ReduceMax", "ReduceProd", "Concat", "Split", "Slice",
            "Reshape", "Flatten", "Transpose", "Squeeze", "Unsqueeze", "Pad", "Resize", "Upsample", "MaxPool",
            "AveragePool", "GlobalAveragePool", "Dropout", "Identity", "Cast", "Shape", "Gather", "Constant",
            "ConstantOfShape", "Range", "Expand", "Tile", "Where", "Equal", "Floor", "Ceil", "Neg", "Abs", "Sign",
            "Reciprocal", "Exp", "Log", "Not", "Min", "Max", "Mod", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
            "And", "Or", "Xor"};
        std::sort(v.begin(), v.end());
        return v;
    }();
    return ops;
}

struct OnnxModel::Parsed {
    Model model;
    std::vector<GraphInput> inputs;
};

OnnxModel::OnnxModel(std::unique_ptr<Parsed> parsed) : parsed_(std::move(parsed)) {
    parsed_->inputs = inputsOf(parsed_->model);
}
OnnxModel::OnnxModel(OnnxModel&&) noexcept = default;
OnnxModel& OnnxModel::operator=(OnnxModel&&) noexcept = default;
OnnxModel::~OnnxModel() = default;

OnnxModel OnnxModel::read(const std::string& path) { return OnnxModel(std::make_unique<Parsed>(Parsed{readModel(path), {}})); }

OnnxModel OnnxModel::parse(std::string_view bytes, const std::string& source) {
    return OnnxModel(std::make_unique<Parsed>(Parsed{parseModel(bytes, source), {}}));
}

const std::vector<GraphInput>& OnnxModel::inputs() const { return parsed_->inputs; }

void OnnxModel::checkOperators() const { checkSupported(parsed_->model); }

Graph OnnxModel::import(const InputDims& dims) && {
    const std::unique_ptr<Parsed> parsed = std::move(parsed_);
    return importModel(parsed->model, parsed->inputs, dims);
}

Graph OnnxModel::importStructure(const InputDims& dims) { return importModel(parsed_->model, parsed_->inputs, dims, true); }

namespace {

// An initializer's element bytes: its raw data, or float_data re-encoded; empty when neither.
std::string elementBytes(const ::onnx::TensorProto& t, std::size_t& width) {
    static const std::map<int, std::size_t> widths{{::onnx::TensorProto::FLOAT, 4}, {::onnx::TensorProto::DOUBLE, 8},
                                                   {::onnx::TensorProto::FLOAT16, 2}, {::onnx::TensorProto::BFLOAT16, 2}};
    const auto w = widths.find(t.data_type());
    if (w == widths.end() || t.data_location() == ::onnx::TensorProto::EXTERNAL) return "";
    width = w->second;
    if (t.has_raw_data()) return t.raw_data();
    if (t.data_type() != ::onnx::TensorProto::FLOAT) return "";
    std::string bytes(static_cast<std::size_t>(t.float_data_size()) * 4, '\0');
    if (!bytes.empty()) std::memcpy(bytes.data(), t.float_data().data(), bytes.size());
    return bytes;
}

}  // namespace

bool OnnxModel::sameValues(const std::string& a, const std::string& b, bool transposed) const {
    const ::onnx::TensorProto* ta = nullptr;
    const ::onnx::TensorProto* tb = nullptr;
    for (const auto& t : parsed_->model.proto.graph().initializer()) {
        if (t.name() == a) ta = &t;
        if (t.name() == b) tb = &t;
    }
    if (!ta || !tb || ta->data_type() != tb->data_type() || ta->dims_size() != 2 || tb->dims_size() != 2) return false;
    const std::int64_t rows = ta->dims(0), cols = ta->dims(1);
    if (rows <= 0 || cols <= 0) return false;
    if (transposed ? tb->dims(0) != cols || tb->dims(1) != rows : tb->dims(0) != rows || tb->dims(1) != cols) return false;
    std::size_t width = 0;
    const std::string da = elementBytes(*ta, width), db = elementBytes(*tb, width);
    const auto r = static_cast<std::size_t>(rows), c = static_cast<std::size_t>(cols);
    if (width == 0 || da.size() != r * c * width || db.size() != r * c * width) return false;
    if (!transposed) return da == db;
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < c; ++j)
            if (std::memcmp(da.data() + (i * c + j) * width, db.data() + (j * r + i) * width, width) != 0) return false;
    return true;
}

Graph importOnnxData(std::string_view bytes, const std::string& source, const InputDims& dims) {
    return OnnxModel::parse(bytes, source).import(dims);
}

Graph importOnnx(const std::string& path, const InputDims& dims) { return OnnxModel::read(path).import(dims); }

std::vector<GraphInput> graphInputsData(std::string_view bytes, const std::string& source) {
    return OnnxModel::parse(bytes, source).inputs();
}

std::vector<GraphInput> graphInputs(const std::string& path) { return OnnxModel::read(path).inputs(); }

std::vector<std::int64_t> defaultDims(const GraphInput& input, std::map<std::string, std::int64_t>& symbols) {
    std::vector<std::int64_t> dims = defaultDims(input);
    // A named dimension is one size everywhere: the first input that has it decides.
    for (std::size_t i = 0; i < dims.size() && i < input.dims.size(); ++i) {
        const InputDim& d = input.dims[i];
        if (d.fixed() || d.symbol.empty()) continue;
        const auto [at, inserted] = symbols.emplace(d.symbol, dims[i]);
        if (!inserted) dims[i] = at->second;
    }
    return dims;
}

std::vector<std::int64_t> defaultDims(const GraphInput& input) {
    if (!input.rank_known) return {};
    const std::size_t rank = input.dims.size();
    auto fixedAt = [&](std::size_t i) { return input.dims[i].fixed() ? input.dims[i].value : 0; };
    // NHWC when the last axis is fixed to a channel count and the second is not.
    const bool nhwc = rank == 4 && fixedAt(3) >= 1 && fixedAt(3) <= 4 && !(fixedAt(1) >= 1 && fixedAt(1) <= 4);
    std::vector<std::int64_t> dims;
    for (std::size_t i = 0; i < rank; ++i) {
        if (input.dims[i].fixed()) {
            dims.push_back(input.dims[i].value);
        } else if (i == 0) {
            dims.push_back(1);
        } else if (rank == 4) {
            const bool channels = nhwc ? i == 3 : i == 1;
            dims.push_back(channels ? 3 : 224);
        } else if ((rank == 2 || rank == 3) && i == 1) {
            dims.push_back(128);
        } else {
            dims.push_back(1);
        }
    }
    return dims;
}

bool hasOpenDims(const GraphInput& input) {
    return !input.rank_known || std::any_of(input.dims.begin(), input.dims.end(), [](const InputDim& d) { return !d.fixed(); });
}

InputDims withDefaults(const std::vector<GraphInput>& inputs, const InputDims& given, std::vector<DefaultedInput>* defaulted) {
    InputDims out = given;
    std::map<std::string, std::int64_t> suggested_symbols = given.symbols;  // a --dim decides everywhere
    for (const GraphInput& input : inputs) {  // and so does a size given with --input
        const auto it = given.inputs.find(input.name);
        if (it == given.inputs.end()) continue;
        for (std::size_t i = 0; i < input.dims.size() && i < it->second.size(); ++i)
            if (!input.dims[i].fixed() && !input.dims[i].symbol.empty())
                suggested_symbols.emplace(input.dims[i].symbol, it->second[i]);
    }
    for (const GraphInput& input : inputs) {
        if (given.inputs.count(input.name) || !input.rank_known) continue;
        const std::vector<std::int64_t> suggested = defaultDims(input, suggested_symbols);
        std::vector<std::int64_t> chosen;
        bool took_default = false;
        for (size_t i = 0; i < input.dims.size() && i < suggested.size(); ++i) {
            const InputDim& d = input.dims[i];
            const auto symbol = d.symbol.empty() ? given.symbols.end() : given.symbols.find(d.symbol);
            if (d.fixed()) chosen.push_back(d.value);
            else if (symbol != given.symbols.end()) chosen.push_back(symbol->second);
            else {
                chosen.push_back(suggested[i]);
                took_default = true;
            }
        }
        if (took_default && defaulted) defaulted->push_back({input.name, chosen});
        out.inputs[input.name] = chosen;
    }
    return out;
}

bool isPlaceholderGraphName(const std::string& name) {
    static const std::set<std::string> exporters{"torch_jit", "torch-jit-export", "main_graph", "tf2onnx",
                                                 "paddle-onnx", "graph", "model", "Graph", "Model"};
    if (name.empty() || exporters.count(name)) return true;
    // A sentence ("Model from PaddlePaddle.") describes where the model came from, not what it is.
    return name.back() == '.' || name.rfind("Model from ", 0) == 0;
}

InputDims defaultInputDims(const std::vector<GraphInput>& inputs) {
    InputDims dims;
    std::map<std::string, std::int64_t> symbols;
    for (const GraphInput& in : inputs)
        if (in.rank_known) dims.inputs[in.name] = defaultDims(in, symbols);
    return dims;
}

}  // namespace partita::onnx
