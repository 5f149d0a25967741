// Built-in transformers with their published dimensions (docs/methods/llm.md#what-is-modelled: lower-case family and
// size). GPT-3 vocabularies are Megatron's padded 51,200; LLaMA's are the tokenizers' sizes.
#include <algorithm>

#include "core/llm/transformer.h"

namespace partita::llm {

namespace {

Transformer gpt(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, const char* source) {
    Transformer m = familyDefaults(Family::Gpt);
    m.name = name;
    m.provenance = source;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = heads;
    m.ffn = 4 * hidden;
    m.seq = 2048;
    m.vocab = 51200;
    return m;
}

Transformer llama(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads,
                  std::int64_t kv_heads, std::int64_t ffn, std::int64_t seq, std::int64_t vocab, const char* source) {
    Transformer m = familyDefaults(Family::Llama);
    m.name = name;
    m.provenance = source;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = kv_heads;
    m.ffn = ffn;
    m.seq = seq;
    m.vocab = vocab;
    return m;
}

std::vector<Transformer> makePresets() {
    const char* gpt3 = "Brown et al. 2020 (GPT-3) Table 2.1; s 2048, vocabulary padded to 51,200 as Megatron-LM";
    const char* n21 = "Narayanan et al. SC'21 Table 1 (Megatron-LM); s 2048, vocabulary 51,200";
    const char* k22 = "Korthikanti et al. 2022 Table 3; s 2048, vocabulary 51,200";
    std::vector<Transformer> v = {
        // GPT-3 XL lists 24 heads of 128 (3,072 wide, not 2,048): Megatron-LM's reproductions use 16 heads.
        gpt("gpt3-1.3b", 24, 2048, 16, "Brown et al. 2020 Table 2.1 (GPT-3 XL; 16 heads of 128 as Megatron-LM)"),
        gpt("gpt3-2.7b", 32, 2560, 32, gpt3),
        gpt("gpt3-6.7b", 32, 4096, 32, gpt3),
        // The paper's d_model 5140 is a typo for 40 heads x 128 = 5120.
        gpt("gpt3-13b", 40, 5120, 40, "Brown et al. 2020 Table 2.1 (d_model 5,120 = 40 heads x 128)"),
        gpt("gpt3-175b", 96, 12288, 96, gpt3),
        gpt("megatron-1.7b", 24, 2304, 24, n21),
        gpt("megatron-3.6b", 30, 3072, 32, n21),
        gpt("megatron-7.5b", 36, 4096, 32, n21),
        gpt("megatron-18b", 40, 6144, 48, n21),
        gpt("megatron-22b", 48, 6144, 64, k22),
        gpt("megatron-39b", 48, 8192, 64, n21),
        gpt("megatron-76b", 60, 10240, 80, n21),
        gpt("megatron-145b", 80, 12288, 96, n21),
        gpt("megatron-310b", 96, 16384, 128, n21),
        gpt("turing-530b", 105, 20480, 128, "Smith et al. 2022 (MT-NLG 530B); Korthikanti et al. 2022 Table 3"),
        gpt("megatron-1t", 128, 25600, 160, n21),
        llama("llama2-7b", 32, 4096, 32, 32, 11008, 4096, 32000, "Touvron et al. 2023 (Llama 2) Table 1; HF config"),
        llama("llama2-13b", 40, 5120, 40, 40, 13824, 4096, 32000, "Touvron et al. 2023 (Llama 2) Table 1; HF config"),
        llama("llama2-70b", 80, 8192, 64, 8, 28672, 4096, 32000, "Touvron et al. 2023 (Llama 2) Table 1; HF config"),
        llama("llama3-8b", 32, 4096, 32, 8, 14336, 8192, 128256, "Llama Team 2024 (The Llama 3 Herd) Table 3"),
        llama("llama3-70b", 80, 8192, 64, 8, 28672, 8192, 128256, "Llama Team 2024 (The Llama 3 Herd) Table 3"),
        llama("llama3-405b", 126, 16384, 128, 8, 53248, 8192, 128256, "Llama Team 2024 (The Llama 3 Herd) Table 3"),
    };
    Transformer bert = familyDefaults(Family::Bert);
    bert.name = "bert-large";
    bert.provenance = "Devlin et al. 2019; s 512, vocabulary 30,522 padded to 30,592";
    bert.layers = 24;
    bert.hidden = 1024;
    bert.heads = bert.kv_heads = 16;
    bert.ffn = 4096;
    bert.seq = 512;
    bert.vocab = 30592;
    v.push_back(bert);
    return v;
}

}  // namespace

const std::vector<Transformer>& modelPresets() {
    static const std::vector<Transformer> presets = makePresets();
    return presets;
}

const Transformer& modelPreset(const std::string& name) {
    const auto& all = modelPresets();
    const auto it = std::find_if(all.begin(), all.end(), [&](const Transformer& m) { return m.name == name; });
    if (it != all.end()) return *it;
    std::string names;
    for (const auto& m : all) names += (names.empty() ? "" : ", ") + m.name;
    throw std::invalid_argument("unknown model preset '" + name + "' (one of " + names + ")");
}

}  // namespace partita::llm
