#include "core/llm/runs.h"

#include <cmath>
#include <filesystem>

#include "core/llm/calculon_model.h"
#include "core/llm/json_util.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::llm {

namespace {

// An "onnx" model: the path is relative to the file being read (`f.source()`); the sequence length is
// the object's "seq" when the export leaves it dynamic.
Transformer readOnnxModel(Fields& f) {
    std::filesystem::path path = f.string("onnx");
    if (path.is_relative()) path = std::filesystem::path(f.source()).parent_path() / path;
    const std::int64_t seq = f.has("seq") && f.raw("seq").is_number_integer() ? f.raw("seq").get<std::int64_t>() : 0;
    try {
        if (!std::filesystem::exists(path)) throw Error(path.string() + ": no such file");
        return loadOnnxTransformer(path.string(), seq).model;
    } catch (const std::exception& e) {
        f.fail("onnx", e.what());
    }
}

}  // namespace

Transformer readTransformer(Fields f) {
    Transformer m;
    const bool onnx = given(f, "onnx");
    if (onnx && given(f, "preset")) f.fail("onnx", "give \"onnx\" or \"preset\", not both");
    if (onnx) m = readOnnxModel(f);
    const bool preset = onnx || given(f, "preset");
    if (preset && !onnx) {
        try {
            m = modelPreset(f.string("preset"));
        } catch (const std::invalid_argument& e) {
            f.fail("preset", e.what());
        }
    }
    const bool family = given(f, "family");
    if (family) {
        // The family's block defaults; a preset keeps its dimensions.
        Transformer d = familyDefaults(parsed(f, "family", [](const std::string& s) { return parseFamily(s); }));
        if (preset) {
            d.name = m.name, d.provenance = m.provenance, d.layers = m.layers, d.hidden = m.hidden;
            d.heads = m.heads, d.kv_heads = m.kv_heads, d.ffn = m.ffn, d.seq = m.seq, d.vocab = m.vocab;
        }
        m = d;
    }
    auto dim = [&](const char* key, std::int64_t hi, std::int64_t& out) {
        if (given(f, key)) out = f.integerIn(key, 1, hi);
        else if (!preset) f.fail(key, "required (or name a \"preset\")");
    };
    if (given(f, "name")) m.name = f.string("name");
    if (given(f, "provenance")) m.provenance = f.string("provenance");
    dim("layers", limits::kLlmLayers, m.layers);
    dim("hidden", limits::kLlmHidden, m.hidden);
    const std::int64_t preset_heads = m.heads;
    dim("heads", limits::kLlmHidden, m.heads);
    dim("seq", limits::kLlmSeq, m.seq);
    dim("vocab", limits::kLlmVocab, m.vocab);
    if (given(f, "kv_heads")) m.kv_heads = f.integerIn("kv_heads", 1, limits::kLlmHidden);
    else if (!preset || m.kv_heads == preset_heads) m.kv_heads = m.heads;  // multi-head attention
    if (given(f, "ffn")) m.ffn = f.integerIn("ffn", 1, limits::kLlmFfn);
    else if (!preset) m.ffn = 4 * m.hidden;
    if (given(f, "head_dim")) m.head_dim = f.integerIn("head_dim", 1, limits::kLlmHidden);
    if (given(f, "mlp")) m.mlp = parsed(f, "mlp", [](const std::string& s) { return parseMlp(s); });
    if (given(f, "norm")) m.norm = parsed(f, "norm", [](const std::string& s) { return parseNorm(s); });
    if (given(f, "position")) m.position = parsed(f, "position", [](const std::string& s) { return parsePosition(s); });
    if (given(f, "tied_embeddings")) m.tied_embeddings = f.boolean("tied_embeddings", true);
    if (!preset && !family && (m.mlp == MlpKind::Swiglu || m.norm == NormKind::RmsNorm)) {
        // LLaMA-style blocks carry no biases and train without dropout.
        m.family = Family::Llama;
        m.biases = false;
        m.dropout = false;
    }
    if (given(f, "biases")) m.biases = f.boolean("biases", m.biases);
    if (given(f, "dropout")) m.dropout = f.boolean("dropout", m.dropout);
    if (given(f, "causal")) m.causal = f.boolean("causal", m.causal);
    f.finish();
    return m;
}

Json transformerToJson(const Transformer& m) {
    Json j = {{"name", m.name},
              {"family", familyName(m.family)},
              {"layers", m.layers},
              {"hidden", m.hidden},
              {"heads", m.heads},
              {"kv_heads", m.kv_heads},
              {"ffn", m.ffn},
              {"seq", m.seq},
              {"vocab", m.vocab},
              {"mlp", mlpName(m.mlp)},
              {"norm", normName(m.norm)},
              {"position", positionName(m.position)},
              {"tied_embeddings", m.tied_embeddings},
              {"biases", m.biases},
              {"dropout", m.dropout}};
    if (m.head_dim > 0) j["head_dim"] = m.head_dim;
    // Written when it departs from the family's (so BERT need not say it), never lost.
    if (m.causal != familyDefaults(m.family).causal) j["causal"] = m.causal;
    if (!m.provenance.empty()) j["provenance"] = m.provenance;
    return j;
}

Json modelSourceJson(const ModelSource& s) {
    Json j = {{"kind", s.kind}, {s.kind == "preset" ? "name" : "file", s.name}};
    if (s.onnx) {
        Json dims = Json::object();
        for (const OnnxEvidence& e : s.onnx->evidence) dims[e.key] = {{"value", e.value}, {"from", e.from}};
        j["recognised"] = dims;
        j["seq_static"] = s.onnx->seq_static;
        j["ids_input"] = s.onnx->ids_input;
    }
    return j;
}

Transformer loadTransformer(const std::string& preset_or_path, std::int64_t seq, ModelSource* source) {
    ModelSource local;
    ModelSource& src = source ? *source : local;
    src = {"preset", preset_or_path, std::nullopt};
    for (const auto& m : modelPresets())
        if (m.name == preset_or_path) return m;
    if (!std::filesystem::exists(preset_or_path) && !isOnnxFile(preset_or_path)) {
        (void)modelPreset(preset_or_path);  // throws, listing the presets
    }
    if (isOnnxFile(preset_or_path)) {
        src.kind = "onnx";
        src.onnx = loadOnnxTransformer(preset_or_path, seq);
        return src.onnx->model;
    }
    const Json j = parseJsonText(readTextFile(preset_or_path), preset_or_path);
    if (j.is_object() && j.contains("feedforward") && j.contains("num_blocks")) {
        src.kind = "calculon";
        return transformerFromCalculon(j, Json::object(), preset_or_path);
    }
    src.kind = "file";
    return readTransformer(Fields(j, "", preset_or_path));
}

namespace {

std::optional<double> positiveOpt(Fields& f, const char* key, double hi) {
    if (!given(f, key)) return std::nullopt;
    const double v = f.positive(key);
    if (v > hi) f.fail(key, "exceeds " + std::to_string(hi));
    return v;
}

Run readRun(const Json& j, const std::string& pointer, const std::string& source) {
    Fields f(j, pointer, source);
    Run r;
    r.pointer = pointer;
    r.name = f.string("name");
    r.provenance = given(f, "provenance") ? f.string("provenance") : "";
    r.source = given(f, "source") ? f.string("source") : source;
    r.model = readTransformer(object(f, "model"));
    {
        Fields c = object(f, "cluster");
        r.profile = c.string("profile");
        r.gpus = c.integerIn("gpus", 1, limits::kLlmGpus);
        if (given(c, "gpus_per_node")) r.cluster.gpus_per_node = c.integerIn("gpus_per_node", 1, limits::kLlmGpus);
        r.cluster.intra_node_GBps = positiveOpt(c, "intra_node_GBps", 1e9);
        r.cluster.inter_node_Gbps_per_node = positiveOpt(c, "inter_node_Gbps_per_node", 1e9);
        r.cluster.inter_node_Gbps_per_gpu = positiveOpt(c, "inter_node_Gbps_per_gpu", 1e9);
        c.finish();
    }
    {
        Fields planFields = object(f, "plan");
        const bool splitGiven = given(planFields, "uneven_split");
        r.plan = readPlan(std::move(planFields));
        // A run that was measured had some split of its layers: unless the file says otherwise, layers
        // not divisible by pp are split as docs/methods/llm.md#uneven-splits describes, not refused.
        if (!splitGiven) r.plan.uneven_split = true;
    }
    if (given(f, "precision")) r.precision = parsed(f, "precision", [](const std::string& s) { return parseDtype(s); });
    if (given(f, "measured")) {
        Fields m = object(f, "measured");
        r.measured.iteration_s = positiveOpt(m, "iteration_s", limits::kLatencyMax * 365);
        r.measured.tokens_per_s_per_gpu = positiveOpt(m, "tokens_per_s_per_gpu", 1e12);
        r.measured.tflops_per_gpu = positiveOpt(m, "tflops_per_gpu", 1e9);
        r.measured.memory_gib = positiveOpt(m, "memory_gib", 1e9);
        if (given(m, "tflops_counts")) {
            const std::string counts = m.string("tflops_counts");
            if (counts != "model" && counts != "hardware") m.fail("tflops_counts", "expected model or hardware");
            r.measured.tflops_hardware = counts == "hardware";
        }
        m.finish();
    }
    f.finish();
    return r;
}

}  // namespace

std::vector<Run> readRuns(const std::string& text, const std::string& source) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-llm-runs/1");
    const Json& runs = f.raw("runs");
    if (!runs.is_array()) f.fail("runs", "expected a list of runs");
    if (static_cast<std::int64_t>(runs.size()) > limits::kLlmRuns)
        f.fail("runs", "more than " + std::to_string(limits::kLlmRuns) + " runs");
    std::vector<Run> out;
    for (size_t i = 0; i < runs.size(); ++i) out.push_back(readRun(runs[i], "/runs/" + std::to_string(i), source));
    f.finish();
    return out;
}

std::vector<Run> loadRuns(const std::string& path) {
    auto runs = readRuns(readTextFile(path), path);
    // Profile files name paths relative to the runs file.
    const auto dir = std::filesystem::path(path).parent_path();
    for (auto& r : runs)
        if (!isProfilePreset(r.profile) && std::filesystem::path(r.profile).is_relative() && !dir.empty() &&
            !std::filesystem::exists(r.profile))
            r.profile = (dir / r.profile).string();
    return runs;
}

Json runsToJson(const std::vector<Run>& runs) {
    Json list = Json::array();
    for (const auto& r : runs) {
        Json cluster = {{"profile", r.profile}, {"gpus", r.gpus}};
        if (r.cluster.gpus_per_node) cluster["gpus_per_node"] = *r.cluster.gpus_per_node;
        if (r.cluster.intra_node_GBps) cluster["intra_node_GBps"] = *r.cluster.intra_node_GBps;
        if (r.cluster.inter_node_Gbps_per_node) cluster["inter_node_Gbps_per_node"] = *r.cluster.inter_node_Gbps_per_node;
        if (r.cluster.inter_node_Gbps_per_gpu) cluster["inter_node_Gbps_per_gpu"] = *r.cluster.inter_node_Gbps_per_gpu;
        Json measured = Json::object();
        auto put = [&](const char* k, const std::optional<double>& v) {
            measured[k] = v ? Json(*v) : Json(nullptr);
        };
        put("iteration_s", r.measured.iteration_s);
        put("tokens_per_s_per_gpu", r.measured.tokens_per_s_per_gpu);
        put("tflops_per_gpu", r.measured.tflops_per_gpu);
        put("memory_gib", r.measured.memory_gib);
        if (r.measured.tflops_per_gpu) measured["tflops_counts"] = r.measured.tflops_hardware ? "hardware" : "model";
        Json run = {{"name", r.name},
                    {"provenance", r.provenance},
                    {"model", transformerToJson(r.model)},
                    {"cluster", cluster},
                    {"plan", planToJson(r.plan)},
                    {"measured", measured}};
        if (r.precision) run["precision"] = dtypeName(*r.precision);
        list.push_back(run);
    }
    return {{"format", "partita-llm-runs/1"}, {"runs", list}};
}

std::optional<double> measuredIterationSeconds(const Run& r) {
    if (r.measured.iteration_s) return *r.measured.iteration_s;
    const double gpus = static_cast<double>(r.gpus);
    const double tokens = static_cast<double>(r.plan.global_batch) * static_cast<double>(r.model.seq);
    if (r.measured.tokens_per_s_per_gpu) return tokens / (*r.measured.tokens_per_s_per_gpu * gpus);
    if (r.measured.tflops_per_gpu) {
        double flops = iterationModelFlops(r.model, r.plan.global_batch);
        if (r.measured.tflops_hardware) {
            const double sequences = static_cast<double>(r.plan.global_batch), L = static_cast<double>(r.model.layers);
            if (r.plan.recompute == Recompute::Full) flops += sequences * L * layerForwardMatrixFlops(r.model, 1);
            if (r.plan.recompute == Recompute::Selective) flops += sequences * L * attentionCoreFlops(r.model, 1);
        }
        return flops / (*r.measured.tflops_per_gpu * 1e12 * gpus);
    }
    return std::nullopt;
}

}  // namespace partita::llm
