#pragma once
// The LLM planner's inputs as knobs: the model (a built-in preset, custom dimensions, or an ONNX /
// JSON file), the cluster (a profile preset or file, and the GPU count), the global batch and sequence
// length, and the plan (tp, pp, dp derived from the GPUs, micro-batch, interleave, schedule,
// recompute, SP, ZeRO, distributed optimizer). Every edit emits changed(); an input that cannot be
// planned is explained under the knob it names (showError), never in a dialog.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <QWidget>

#include "core/run/llm_settings.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace partita {

class LlmSettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit LlmSettingsPanel(QWidget* parent = nullptr);

    // The settings the knobs say. Throws llm::FieldError whose knobOf(field()) is a knob's key: "model",
    // "cost_model", "profile", "topology", "gpus_per_node", "intra_node_GBps",
    // "inter_node_Gbps_per_node", "gpus", "global_batch", "seq", "tp", "pp", "dp",
    // "micro_batch", "interleave", "schedule", "recompute", "sequence_parallel", "zero",
    // "distributed_optimizer".
    LlmSettings settings() const;
    // Shows `s` in the knobs (a stored or searched run); options the knobs do not show (TP overlap,
    // DP overlap, ...) are kept as they are in s.plan. Its profile is already resolved, so the topology
    // and override knobs are cleared.
    void setSettings(const LlmSettings& s);
    void setModel(const QString& preset_or_path);  // a preset name, else a file
    void setProfile(const QString& preset_or_path);
    void setTopology(const QString& path);  // "" for the profile's own tiers
    // 0 keeps the profile's value (docs/methods/llm.md#what-is-modelled).
    void setOverrides(std::int64_t gpus_per_node, double intra_node_GBps, double inter_node_Gbps_per_node);
    void setCostModel(llm::ModelKind kind);
    void setGpus(std::int64_t gpus);
    void setGlobalBatch(std::int64_t batch);
    void setPlan(const llm::Plan& plan);  // its degrees set the GPU count

    // The message of an error under the knob `field` names (a FieldError's field; "model.heads" is the
    // model's, "cluster.gpus" the GPU count's, anything unknown goes above the knobs); clears the others.
    void showError(const std::string& field, const QString& message);
    void clearErrors();
    QString errorAt(const QString& knob) const;  // the message shown under a knob, "" if none
    static QString knobOf(const std::string& field);
    void setSearching(bool searching);

signals:
    void changed();
    void searchRequested();

private:
    void addKnob(QFormLayout* form, const QString& key, const QString& label, QWidget* field, const QString& tip);
    void modelChoiceChanged();
    void choose(QComboBox* combo, QLineEdit* file, const QString& preset_or_path);
    void updateDerived();
    llm::Transformer modelFromKnobs() const;
    std::string profileName() const;  // the preset's name or the profile file's path
    const llm::Profile& clusterProfile(const std::string& profile_name) const;
    llm::Profile profileFromKnobs(const std::string& profile_name) const;
    llm::Profile baseProfile(const std::string& profile_name) const;  // the preset, file or stored run's
    void showProfileValues();  // the override knobs' "as the profile" text gives the profile's values

    QComboBox* model_ = nullptr;
    QLineEdit* model_file_ = nullptr;
    QPushButton* browse_ = nullptr;
    QWidget* custom_ = nullptr;
    QSpinBox *layers_ = nullptr, *hidden_ = nullptr, *heads_ = nullptr, *vocab_ = nullptr;
    QComboBox* profile_ = nullptr;
    QLineEdit* profile_file_ = nullptr;
    QLineEdit* topology_file_ = nullptr;
    QSpinBox* gpus_per_node_ = nullptr;
    QDoubleSpinBox *intra_GBps_ = nullptr, *inter_Gbps_ = nullptr;
    QComboBox* cost_model_ = nullptr;
    QSpinBox *gpus_ = nullptr, *global_batch_ = nullptr, *seq_ = nullptr;
    QSpinBox *tp_ = nullptr, *pp_ = nullptr, *micro_batch_ = nullptr, *interleave_ = nullptr;
    QLabel* dp_ = nullptr;
    QComboBox *schedule_ = nullptr, *recompute_ = nullptr, *zero_ = nullptr;
    QCheckBox *sp_ = nullptr, *dist_opt_ = nullptr;
    QPushButton* search_ = nullptr;
    std::map<QString, QLabel*> errors_;  // by knob key; "" is the general one
    std::map<QString, QFormLayout*> forms_;
    llm::Plan base_;  // the options the knobs do not show
    // What the knobs do not show of a custom model (KV heads, FFN, norm, ...) and of a profile set with
    // its cluster overrides (a stored or measured run's): kept while the knobs name the same profile.
    std::optional<llm::Transformer> custom_base_;
    std::optional<llm::Profile> profile_base_;
    std::string profile_base_name_;
    mutable std::optional<std::pair<std::string, llm::Profile>> cluster_cache_;  // (profile + topology, profile)
    bool loading_ = false;
};

}  // namespace partita
