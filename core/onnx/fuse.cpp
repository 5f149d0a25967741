#include "core/onnx/fuse.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>

namespace partita::onnx {

namespace {

class Matcher {
public:
    explicit Matcher(const Graph& g) : g_(g) {
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            for (const std::string& in : g.nodes[i].inputs) {
                if (in.empty()) continue;
                auto& r = readers_[in];
                if (r.empty() || r.back() != i) r.push_back(i);  // Mul(d, d) reads d once
            }
        outputs_.insert(g.outputs.begin(), g.outputs.end());
    }

    std::vector<Fusion> run() {
        std::vector<Fusion> found;
        std::set<std::size_t> taken;
        for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
            if (taken.count(i)) continue;
            if (std::optional<Fusion> f = match(i)) {
                taken.insert(f->nodes.begin(), f->nodes.end());
                found.push_back(std::move(*f));
            }
        }
        return found;
    }

private:
    const Node& node(std::size_t i) const { return g_.nodes[i]; }
    // Node i is an unfolded `op` with one named output (an exporter's; a malformed model's may lack it).
    bool is(std::size_t i, const char* op) const {
        const Node& n = node(i);
        return !n.folded && n.op_type == op && !n.outputs.empty() && !n.outputs[0].empty();
    }
    const std::string& outOf(std::size_t i) const { return node(i).outputs[0]; }  // after is()

    const std::vector<std::size_t>& readers(const std::string& tensor) const {
        static const std::vector<std::size_t> none;
        const auto it = readers_.find(tensor);
        return it == readers_.end() ? none : it->second;
    }
    // The single node reading node i's output, when nothing else (nor the graph's outputs) reads it.
    std::optional<std::size_t> onlyReader(std::size_t i) const {
        const std::string& out = outOf(i);
        const auto& r = readers(out);
        if (outputs_.count(out) || r.size() != 1) return std::nullopt;
        return r[0];
    }
    bool isConstant(const std::string& name) const {
        const Tensor* t = g_.tensor(name);
        return t && t->constant;
    }
    bool isTwo(const std::string& name) const {
        const Tensor* t = g_.tensor(name);
        if (!t || !t->constant || !t->has_values) return false;
        return (t->float_values.size() == 1 && t->float_values[0] == 2.0) ||
               (t->int_values.size() == 1 && t->int_values[0] == 2);
    }
    // The other input of a two-input node, when one of them is `known`.
    std::optional<std::string> other(std::size_t i, const std::string& known) const {
        const auto& in = node(i).inputs;
        if (in.size() != 2) return std::nullopt;
        if (in[0] == known) return in[1];
        if (in[1] == known) return in[0];
        return std::nullopt;
    }

    // The axes a ReduceMean reduces, normalised and sorted, when it keeps its dims; else nullopt.
    std::optional<std::vector<std::int64_t>> meanAxes(std::size_t i, std::size_t rank) const {
        const Node& n = node(i);
        const auto keep = n.attributes.find("keepdims");
        if (keep != n.attributes.end() && keep->second.i.value_or(1) == 0) return std::nullopt;
        std::vector<std::int64_t> axes;
        if (const auto a = n.attributes.find("axes"); a != n.attributes.end()) {
            axes = a->second.ints;
        } else if (n.inputs.size() > 1 && !n.inputs[1].empty()) {  // opset 18: an input
            const Tensor* t = g_.tensor(n.inputs[1]);
            if (!t || !t->has_values) return std::nullopt;
            axes = t->int_values;
        }
        const auto r = static_cast<std::int64_t>(rank);
        for (std::int64_t& a : axes) {
            if (a < -r || a >= r) return std::nullopt;
            if (a < 0) a += r;
        }
        std::sort(axes.begin(), axes.end());
        // Trailing axes, never the batch axis 0; empty axes would reduce every axis.
        if (axes.empty() || std::adjacent_find(axes.begin(), axes.end()) != axes.end() || axes.front() == 0) return std::nullopt;
        for (std::size_t k = 0; k < axes.size(); ++k)
            if (axes[k] != r - static_cast<std::int64_t>(axes.size() - k)) return std::nullopt;
        return axes;
    }

    std::optional<Fusion> match(std::size_t mean) const {
        if (!is(mean, "ReduceMean") || node(mean).inputs.empty()) return std::nullopt;
        const std::string x = node(mean).inputs[0];
        const Tensor* xt = g_.tensor(x);
        if (!xt || xt->constant) return std::nullopt;
        const auto axes = meanAxes(mean, xt->dims.size());
        if (!axes) return std::nullopt;
        const std::string& m = outOf(mean);
        const auto sub = onlyReader(mean);
        if (!sub || !is(*sub, "Sub") || node(*sub).inputs != std::vector<std::string>{x, m}) return std::nullopt;
        const std::string& d = outOf(*sub);
        // d feeds the square and the division, nothing else.
        const auto& dr = readers(d);
        if (outputs_.count(d) || dr.size() != 2) return std::nullopt;
        // The normalising step is d / sqrt(...) or, as some exporters write it, d * reciprocal(sqrt(...)).
        std::optional<std::size_t> square, div;
        for (const std::size_t r : dr) {
            if (is(r, "Div") && node(r).inputs.size() == 2 && node(r).inputs[0] == d && node(r).inputs[1] != d) div = r;
            else if (is(r, "Pow") && node(r).inputs.size() == 2 && node(r).inputs[0] == d && isTwo(node(r).inputs[1])) square = r;
            else if (is(r, "Mul") && node(r).inputs == std::vector<std::string>{d, d}) square = r;
            else if (is(r, "Mul") && other(r, d)) div = r;
        }
        if (!square || !div) return std::nullopt;
        const auto var = onlyReader(*square);
        if (!var || !is(*var, "ReduceMean") || node(*var).inputs.empty() || node(*var).inputs[0] != outOf(*square) ||
            meanAxes(*var, xt->dims.size()) != axes)
            return std::nullopt;
        const auto eps = onlyReader(*var);
        if (!eps || !is(*eps, "Add")) return std::nullopt;
        const auto eps_value = other(*eps, outOf(*var));
        if (!eps_value || !isConstant(*eps_value)) return std::nullopt;
        const auto sqrt = onlyReader(*eps);
        if (!sqrt || !is(*sqrt, "Sqrt")) return std::nullopt;
        std::vector<std::size_t> nodes{mean, *sub, *square, *var, *eps, *sqrt};
        if (is(*div, "Mul")) {
            const auto reciprocal = onlyReader(*sqrt);
            if (!reciprocal || !is(*reciprocal, "Reciprocal") || onlyReader(*reciprocal) != div ||
                other(*div, d) != outOf(*reciprocal))
                return std::nullopt;
            nodes.push_back(*reciprocal);
        } else if (onlyReader(*sqrt) != div || node(*div).inputs[1] != outOf(*sqrt)) {
            return std::nullopt;
        }
        nodes.push_back(*div);
        // The affine tail: Mul by γ, then Add of β.
        if (const auto mul = onlyReader(*div); mul && is(*mul, "Mul")) {
            const auto gamma = other(*mul, outOf(*div));
            if (gamma && isConstant(*gamma)) {
                nodes.push_back(*mul);
                if (const auto add = onlyReader(*mul); add && is(*add, "Add")) {
                    const auto beta = other(*add, outOf(*mul));
                    if (beta && isConstant(*beta)) nodes.push_back(*add);
                }
            }
        }
        const std::string& y = outOf(nodes.back());
        const Tensor* yt = g_.tensor(y);
        if (!yt || yt->dims != xt->dims) return std::nullopt;
        Fusion f;
        const std::string& first = node(mean).name;
        const std::size_t slash = first.rfind('/');
        f.name = slash == std::string::npos ? first + ":LayerNormalization" : first.substr(0, slash + 1) + "LayerNormalization";
        f.source_op = "LayerNormalization";
        f.input = x;
        f.output = y;
        f.nodes = std::move(nodes);
        return f;
    }

    const Graph& g_;
    std::unordered_map<std::string, std::vector<std::size_t>> readers_;
    std::set<std::string> outputs_;
};

}  // namespace

std::vector<Fusion> findDecomposedLayerNorms(const Graph& graph) { return Matcher(graph).run(); }

}  // namespace partita::onnx
