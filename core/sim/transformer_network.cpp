#include "core/sim/transformer_network.h"

#include <map>
#include <stdexcept>

#include "core/util/limits.h"

namespace partita::sim {

namespace {

Operator op(const std::string& name, OpType type, std::vector<std::string> inputs, std::int64_t out = 0,
            const std::string& source = "") {
    Operator o;
    o.name = name;
    o.type = type;
    o.inputs = std::move(inputs);
    o.out_channels = out;
    o.source_op = source;
    return o;
}


}  // namespace

TransformerNetwork transformerNetwork(const llm::Transformer& m, std::int64_t layers, bool head) {
    llm::validate(m);
    if (m.kv_heads != m.heads)
        throw std::invalid_argument("model '" + m.name + "': grouped-query attention (" + std::to_string(m.kv_heads) +
                                    " KV heads for " + std::to_string(m.heads) +
                                    ") has no fused head-by-head QKV in this network form");
    if (layers <= 0) layers = m.layers;
    constexpr std::int64_t kPerLayer = 11, kHead = 3;  // a gated layer's operators; the head's
    if (layers > (limits::kOperators - kHead) / kPerLayer)
        throw std::invalid_argument(std::to_string(layers) + " layers exceed the limit of " +
                                    std::to_string(limits::kOperators) + " operators per network");
    const char* norm = m.norm == llm::NormKind::LayerNorm ? "LayerNormalization" : "RMSNormalization";
    TransformerNetwork out;
    Network& net = out.network;
    std::map<std::string, MegatronSplit> split_of;
    const auto add = [&](Operator o, MegatronSplit split) {
        split_of[o.name] = split;
        net.ops.push_back(std::move(o));
    };
    using enum MegatronSplit;
    net.name = m.name + (layers == m.layers ? "" : " (" + std::to_string(layers) + " layers)");
    net.description = "The transformer " + m.name + " as a SOAP network: one sample is one token (batch = sequences × " +
                      std::to_string(m.seq) + "); per layer a fused QKV (head by head), the attention core over " +
                      std::to_string(m.seq) + "-token sequences, the output projection, the MLP and two residuals" +
                      (head ? "; then the final norm, the LM head and the loss" : "");
    net.input = Shape{m.hidden, 1, 1};
    std::string x = "input";
    for (std::int64_t l = 0; l < layers; ++l) {
        const std::string p = "l" + std::to_string(l) + ".";
        add(op(p + "norm1", OpType::Elementwise, {x}, 0, norm), Tokens);
        add(op(p + "qkv", OpType::FullyConnected, {p + "norm1"}, 3 * m.qDim(), "QKV"), Column);
        Operator attention = op(p + "attention", OpType::Elementwise, {p + "qkv"}, 0, "Attention");
        attention.attention = AttentionCore{m.seq, m.heads};
        add(std::move(attention), Column);
        add(op(p + "proj", OpType::FullyConnected, {p + "attention"}, m.hidden, "AttentionOut"), Row);
        add(op(p + "residual1", OpType::Add, {p + "proj", x}, 0, "Residual"), Tokens);
        add(op(p + "norm2", OpType::Elementwise, {p + "residual1"}, 0, norm), Tokens);
        add(op(p + "up", OpType::FullyConnected, {p + "norm2"}, m.ffn, "MlpUp"), Column);
        if (m.gated()) {
            add(op(p + "gate", OpType::FullyConnected, {p + "norm2"}, m.ffn, "MlpGate"), Column);
            add(op(p + "activation", OpType::Elementwise, {p + "gate", p + "up"}, 0, "Activation"), Column);
        } else {
            add(op(p + "activation", OpType::Elementwise, {p + "up"}, 0, "Activation"), Column);
        }
        add(op(p + "down", OpType::FullyConnected, {p + "activation"}, m.hidden, "MlpDown"), Row);
        add(op(p + "residual2", OpType::Add, {p + "down", p + "residual1"}, 0, "Residual"), Tokens);
        x = p + "residual2";
    }
    if (head) {
        add(op("final_norm", OpType::Elementwise, {x}, 0, norm), Tokens);
        // Padded to a multiple of 128, as Megatron pads it, so tensor parallelism can split it.
        const std::int64_t vocab = (m.vocab + 127) / 128 * 128;
        add(op("lm_head", OpType::FullyConnected, {"final_norm"}, vocab, "LmHead"), Column);
        add(op("loss", OpType::Elementwise, {"lm_head"}, 0, "CrossEntropy"), Column);
    }
    propagate(net, net.name);
    for (const Operator& o : net.ops) out.splits.push_back(split_of.at(o.name));  // in propagate's order
    return out;
}

SoapStrategy megatronStrategy(const TransformerNetwork& t, std::int64_t tokens, int tp, int dp) {
    const Network& net = t.network;
    if (tp < 1 || dp < 1) throw std::invalid_argument("tensor and data parallelism must be at least 1");
    const std::int64_t devices = static_cast<std::int64_t>(tp) * dp;
    if (devices > limits::kTopologyDevices)
        throw std::invalid_argument("tp x dp = " + std::to_string(devices) + " devices exceed the limit of " +
                                    std::to_string(limits::kTopologyDevices));
    if (tokens < 1 || tokens % devices != 0)
        throw std::invalid_argument("the batch of " + std::to_string(tokens) + " tokens does not split " +
                                    std::to_string(devices) + " ways");
    const int n = static_cast<int>(devices);
    SoapStrategy s;
    s.network = net.name;
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const Operator& o = net.ops[i];
        const MegatronSplit split = tp > 1 ? t.splits.at(i) : MegatronSplit::Tokens;
        OpConfig c;
        if (split == MegatronSplit::Tokens) {
            c.degree[0] = n;
            for (int k = 0; k < n; ++k) c.devices.push_back(k);
        } else {
            c.degree[0] = dp;
            if (split == MegatronSplit::Column) {
                if (o.out_shape.c % tp != 0)
                    throw std::invalid_argument("operator '" + o.name + "': " + std::to_string(o.out_shape.c) +
                                                " channels do not split " + std::to_string(tp) + " ways");
                c.degree[1] = tp;
            } else {
                c.reduce = tp;
            }
            // Task s + d·j (sample fastest, then channel or reduce index j) on device t·s + j.
            for (int k = 0; k < n; ++k) c.devices.push_back(tp * (k % dp) + k / dp);
        }
        s.ops.push_back(std::move(c));
    }
    validateStrategy(net, tokens, s, n);
    return s;
}

}  // namespace partita::sim
