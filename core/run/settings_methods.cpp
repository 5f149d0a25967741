// MPT and Learn-to-Scale in the registry: methods kept as their settings (MethodRun) and evaluated
// again when a stored run is opened.
#include <memory>

#include "core/io/network_io.h"
#include "core/l2s/mesh.h"
#include "core/llm/numbers.h"
#include "core/llm/runs.h"
#include "core/run/method_registry.h"
#include "core/store/method_codec.h"
#include "core/store/results_db.h"

namespace partita {

namespace {

std::string networkNamed(const std::string& json, const std::string& key) {
    return readNetworkJson(json, "network of '" + key + "'").name;
}

class MptCodec final : public SettingsCodec {
public:
    Json toJson(const MethodRun& run) const override { return store::mptSettingsToJson(run.mpt); }
    void read(MethodRun& run, const Json& json, const std::string& source,
              const std::string& network_text) const override {
        run.mpt = store::readMptSettingsJson(json, source);
        if (!isMptLayerStudy(run.mpt.workload)) run.mpt.network_json = network_text;
    }
    MethodSummary recompute(const MethodRun& run) const override { return summarize(evaluateMpt(run.mpt)); }
    std::string networkName(const MethodRun& run) const override {
        if (run.mpt.workload == "layers") return "Table II layers 3x3";
        if (run.mpt.workload == "layers-5x5") return "Table II layers 5x5";
        return networkNamed(run.mpt.network_json, run.mpt.workload);
    }
    // The layer studies have no network text, so a marker names them.
    std::string networkText(const MethodRun& run) const override {
        if (isMptLayerStudy(run.mpt.workload))
            return Json{{"format", "partita-mpt-layer-study/1"}, {"workload", run.mpt.workload}}.dump();
        return run.mpt.network_json;
    }
    std::string origin(const MethodRun& run) const override { return run.mpt.workload; }
    MethodHardware hardware(const MethodRun&) const override {
        MethodHardware h;
        h.devices = mpt::MptParams{}.p;
        h.name = std::to_string(h.devices) + " NDP workers";
        return h;
    }
    double batch() const override { return mpt::MptParams{}.batch; }
    SummaryLabels summaryLabels() const override {
        return {{"time / iteration", "s", 1, true}, {"speed-up vs w_dp", "×", 1, false, true},
                {"communication / worker", "B", 1, true}, {"energy", "J", 1, true}};
    }
    std::string key(const MethodRun& run) const override {
        return store::mptSettingsToJson(run.mpt).dump() + contentHash(run.mpt.network_json);
    }
};

class L2sCodec final : public SettingsCodec {
public:
    Json toJson(const MethodRun& run) const override { return store::l2sSettingsToJson(run.l2s); }
    void read(MethodRun& run, const Json& json, const std::string& source,
              const std::string& network_text) const override {
        run.l2s = store::readL2sSettingsJson(json, source);
        run.l2s.network_json = network_text;
    }
    MethodSummary recompute(const MethodRun& run) const override { return summarize(evaluateL2s(run.l2s)); }
    std::string networkName(const MethodRun& run) const override {
        return networkNamed(run.l2s.network_json, run.l2s.preset);
    }
    std::string networkText(const MethodRun& run) const override { return run.l2s.network_json; }
    std::string origin(const MethodRun& run) const override { return run.l2s.preset; }
    MethodHardware hardware(const MethodRun& run) const override {
        l2s::MeshParams p;
        p.cores = run.l2s.cores;
        const l2s::Mesh mesh(p);
        MethodHardware h;
        h.devices = mesh.cores();
        h.name = std::to_string(mesh.width()) + "x" + std::to_string(mesh.height()) + " mesh";
        return h;
    }
    double batch() const override { return 1; }
    SummaryLabels summaryLabels() const override {
        return {{"time / image", "s", 1, true}, {"speed-up vs traditional", "×", 1, false, true},
                {"NoC traffic", "B", 1, true}, {"NoC energy", "J", 1, true}};
    }
    std::string key(const MethodRun& run) const override {
        return store::l2sSettingsToJson(run.l2s).dump() + contentHash(run.l2s.network_json);
    }
};

// The model and profile are kept resolved inside the settings, so the network text is the model's
// dimensions (no partita-network/1 exists for an LLM).
class LlmCodec final : public SettingsCodec {
public:
    Json toJson(const MethodRun& run) const override { return llmSettingsToJson(run.llm); }
    void read(MethodRun& run, const Json& json, const std::string& source, const std::string&) const override {
        run.llm = readLlmSettingsJson(json, source);
    }
    MethodSummary recompute(const MethodRun& run) const override { return summarize(evaluateLlm(run.llm)); }
    std::string networkName(const MethodRun& run) const override {
        return run.llm.model.name.empty() ? run.llm.model_name : run.llm.model.name;
    }
    std::string networkText(const MethodRun& run) const override {
        return Json{{"format", "partita-llm-model/1"}, {"model", llm::transformerToJson(run.llm.model)}}.dump();
    }
    std::string origin(const MethodRun& run) const override { return run.llm.model_name; }
    MethodHardware hardware(const MethodRun& run) const override {
        MethodHardware h;
        h.devices = static_cast<int>(run.llm.plan.gpus());
        h.name = run.llm.profile_name;
        return h;
    }
    double batch() const override { return 0; }
    // No speed-up: the second figure is 1 when the plan fits; memory in GiB, MFU a fraction.
    SummaryLabels summaryLabels() const override {
        return {{"iteration", "s", 1, true}, {}, {"peak memory", "GiB", 1.0 / llm::kGiB, false},
                {"MFU", "%", 100, false, true}, "fits"};
    }
    std::string key(const MethodRun& run) const override { return llmSettingsToJson(run.llm).dump(); }
};

class SettingsMethod final : public MethodInfo {
public:
    SettingsMethod(std::string key, std::string label, std::string tip, std::unique_ptr<SettingsCodec> codec,
                   std::unique_ptr<SettingsSweep> sweep = nullptr)
        : key_(std::move(key)), label_(std::move(label)), tip_(std::move(tip)), codec_(std::move(codec)),
          settings_sweep_(std::move(sweep)) {
        if (!settings_sweep_) return;
        sweep_.in_sweeps = true;
        sweep_.needs_options = key_ + " needs its \"settings\" ({\"method\": \"" + key_ +
                               "\", \"settings\": {...}}, docs/guide/sweeps.md)";
    }
    std::string key() const override { return key_; }
    std::string label() const override { return label_; }
    std::string toolTip() const override { return tip_; }
    MethodFamily family() const override { return MethodFamily::Settings; }
    const SettingsCodec* settings() const override { return codec_.get(); }
    const SettingsSweep* settingsSweep() const override { return settings_sweep_.get(); }

private:
    std::string key_, label_, tip_;
    std::unique_ptr<SettingsCodec> codec_;
    std::unique_ptr<SettingsSweep> settings_sweep_;
};

}  // namespace

std::unique_ptr<MethodInfo> llmMethod() {
    return std::make_unique<SettingsMethod>(
        "llm", "LLM", "A transformer training plan (tp, pp, dp, micro-batch, ...) on a GPU cluster (docs/methods/llm.md)",
        std::make_unique<LlmCodec>(), llmSweep());
}

std::unique_ptr<MethodInfo> mptMethod() {
    return std::make_unique<SettingsMethod>(
        "mpt", "MPT",
        "Winograd x data-parallel training on 256 near-data workers, per-layer cluster shapes (MPT tab)",
        std::make_unique<MptCodec>());
}

std::unique_ptr<MethodInfo> l2sMethod() {
    return std::make_unique<SettingsMethod>(
        "l2s", "Learn-to-Scale",
        "Single-image inference split by output channel across the cores of a mesh (L2S tab)",
        std::make_unique<L2sCodec>());
}

}  // namespace partita
