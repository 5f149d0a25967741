#include "core/sim/transformer_network.h"

#include <stdexcept>

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

// The roles megatronStrategy splits by.
bool columnParallel(const Operator& o) {
    return o.source_op == "QKV" || o.source_op == "Attention" || o.source_op == "MlpUp" ||
           o.source_op == "MlpGate" || o.source_op == "Activation" || o.source_op == "LmHead" ||
           o.source_op == "CrossEntropy";
}
bool rowParallel(const Operator& o) { return o.source_op == "AttentionOut" || o.source_op == "MlpDown"; }

}  // namespace

Network transformerNetwork(const llm::Transformer& m, std::int64_t layers, bool head) {
    llm::validate(m);
    if (m.kv_heads != m.heads)
        throw std::invalid_argument("model '" + m.name + "': grouped-query attention (" + std::to_string(m.kv_heads) +
                                    " KV heads for " + std::to_string(m.heads) +
                                    ") has no fused head-by-head QKV in this network form");
    if (layers <= 0) layers = m.layers;
    const char* norm = m.norm == llm::NormKind::LayerNorm ? "LayerNormalization" : "RMSNormalization";
    Network net;
    net.name = m.name + (layers == m.layers ? "" : " (" + std::to_string(layers) + " layers)");
    net.description = "The transformer " + m.name + " as a SOAP network: one sample is one token (batch = sequences × " +
                      std::to_string(m.seq) + "); per layer a fused QKV (head by head), the attention core over " +
                      std::to_string(m.seq) + "-token sequences, the output projection, the MLP and two residuals" +
                      (head ? "; then the final norm, the LM head and the loss" : "");
    net.input = Shape{m.hidden, 1, 1};
    std::string x = "input";
    for (std::int64_t l = 0; l < layers; ++l) {
        const std::string p = "l" + std::to_string(l) + ".";
        net.ops.push_back(op(p + "norm1", OpType::Elementwise, {x}, 0, norm));
        net.ops.push_back(op(p + "qkv", OpType::FullyConnected, {p + "norm1"}, 3 * m.qDim(), "QKV"));
        Operator attention = op(p + "attention", OpType::Elementwise, {p + "qkv"}, 0, "Attention");
        attention.attention = AttentionCore{m.seq, m.heads};
        net.ops.push_back(attention);
        net.ops.push_back(op(p + "proj", OpType::FullyConnected, {p + "attention"}, m.hidden, "AttentionOut"));
        net.ops.push_back(op(p + "residual1", OpType::Add, {p + "proj", x}, 0, "Residual"));
        net.ops.push_back(op(p + "norm2", OpType::Elementwise, {p + "residual1"}, 0, norm));
        net.ops.push_back(op(p + "up", OpType::FullyConnected, {p + "norm2"}, m.ffn, "MlpUp"));
        if (m.gated()) {
            net.ops.push_back(op(p + "gate", OpType::FullyConnected, {p + "norm2"}, m.ffn, "MlpGate"));
            net.ops.push_back(op(p + "activation", OpType::Elementwise, {p + "gate", p + "up"}, 0, "Activation"));
        } else {
            net.ops.push_back(op(p + "activation", OpType::Elementwise, {p + "up"}, 0, "Activation"));
        }
        net.ops.push_back(op(p + "down", OpType::FullyConnected, {p + "activation"}, m.hidden, "MlpDown"));
        net.ops.push_back(op(p + "residual2", OpType::Add, {p + "down", p + "residual1"}, 0, "Residual"));
        x = p + "residual2";
    }
    if (head) {
        net.ops.push_back(op("final_norm", OpType::Elementwise, {x}, 0, norm));
        // Padded to a multiple of 128, as Megatron pads it, so tensor parallelism can split it.
        const std::int64_t vocab = (m.vocab + 127) / 128 * 128;
        net.ops.push_back(op("lm_head", OpType::FullyConnected, {"final_norm"}, vocab, "LmHead"));
        net.ops.push_back(op("loss", OpType::Elementwise, {"lm_head"}, 0, "CrossEntropy"));
    }
    propagate(net, net.name);
    return net;
}

SoapStrategy megatronStrategy(const Network& net, std::int64_t tokens, int tp, int dp) {
    if (tp < 1 || dp < 1) throw std::invalid_argument("tensor and data parallelism must be at least 1");
    if (tokens % (static_cast<std::int64_t>(tp) * dp) != 0)
        throw std::invalid_argument("the batch of " + std::to_string(tokens) + " tokens does not split " +
                                    std::to_string(tp * dp) + " ways");
    SoapStrategy s;
    s.network = net.name;
    for (const Operator& o : net.ops) {
        OpConfig c;
        const bool split_channels = columnParallel(o) && tp > 1;
        if (split_channels || (rowParallel(o) && tp > 1)) {
            c.degree[0] = dp;
            if (split_channels) {
                if (o.out_shape.c % tp != 0)
                    throw std::invalid_argument("operator '" + o.name + "': " + std::to_string(o.out_shape.c) +
                                                " channels do not split " + std::to_string(tp) + " ways");
                c.degree[1] = tp;
            } else {
                c.reduce = tp;
            }
            // Task s + d·j (sample fastest, then channel or reduce index j) on device t·s + j.
            for (int k = 0; k < dp * tp; ++k) c.devices.push_back(tp * (k % dp) + k / dp);
        } else {
            c.degree[0] = tp * dp;
            for (int k = 0; k < dp * tp; ++k) c.devices.push_back(k);
        }
        s.ops.push_back(c);
    }
    validateStrategy(net, tokens, s, tp * dp);
    return s;
}

}  // namespace partita::sim
