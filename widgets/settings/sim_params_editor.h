#pragma once
// The settings of the Simulate and MCMC methods (FlexFlow's simulator): the
// device topology (built-in presets or files the user loaded), for Simulate
// the strategy's source (DP, OWT, MP, the current grid lowered, a strategy
// file), for MCMC the budgets, seed, beta, starts and whether a stall ends a chain. Fields are validated as
// typed like the other properties; invalid text keeps the last valid value.
// Files are chosen by the owner: the editor only asks for them.
#include <QMap>
#include <QStringList>
#include <QWidget>

#include "core/llm/profile.h"
#include "core/run/simulation.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace partita {

class SimParamsEditor : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Simulate, Mcmc };
    explicit SimParamsEditor(QWidget* parent = nullptr);

    void setMode(Mode mode);  // shows the fields of that method
    Mode mode() const { return mode_; }

    // Topologies by key: a preset's name or a file's absolute path. No changed() from these.
    void addPreset(const QString& name, const QString& title);
    void addTopologyFile(const QString& path, const QString& title);  // once per path
    bool setTopology(const QString& key);  // false if the key was never added
    QString topology() const;              // the chosen key
    bool topologyIsFile() const;

    SimSource source() const;
    void setSource(SimSource source);
    // Weight synchronisation: ring all-reduce (default) or a parameter server per weight (FlexFlow's
    // simulator); a ring simulated as collectives (default) or per hop (FlexFlow's model).
    sim::SyncMode sync() const;
    sim::CollectiveModel collectives() const;
    void setSync(sim::SyncMode mode, sim::CollectiveModel collectives = sim::CollectiveModel::Algorithm);
    // Compute priced by an LLM profile's kernel curves (a preset's name; empty: each device's peak) in
    // `precision` (docs/methods/flexflow.md#kernel-curves).
    std::string kernelProfile() const;
    llm::Dtype kernelPrecision() const;
    void setKernels(const std::string& profile, llm::Dtype precision);
    QString strategyFile() const { return strategy_file_; }
    void setStrategyFile(const QString& path);
    McmcSettings mcmc() const { return mcmc_; }  // the last valid settings
    void setMcmc(const McmcSettings& settings);

    bool valid() const { return errors_.isEmpty(); }
    QString problem() const;  // the first invalid field's message, empty when valid

    // Tests reach fields by key: "topology", "source", "strategy_file" (its button),
    // "sync", "kernels", "precision", "budget_s", "iterations", "seed", "beta", "start_dp", "start_owt", "start_random",
    // "stop_on_stall".
    QWidget* field(const QString& key) const { return fields_.value(key); }

signals:
    void changed();                  // a valid edit by the user
    void topologyFileRequested();    // "Load file…" chosen in the topology list
    void strategyFileRequested();    // the strategy file's "Choose…" button

private:
    QLineEdit* addNumber(QFormLayout* form, const QString& key, const QString& label, const QString& tip);
    void numberEdited(const QString& key);
    void topologyActivated(int index);
    void startsToggled();
    void setError(const QString& key, const QString& message);
    void showProblems();
    void updateVisibility();

    Mode mode_ = Mode::Simulate;
    McmcSettings mcmc_;
    QString strategy_file_;
    int topology_index_ = -1;          // the last real choice (not "Load file…")
    QMap<QString, QWidget*> fields_;
    QMap<QString, QString> labels_;
    QMap<QString, QString> errors_;
    QStringList numbers_;
    QComboBox* topology_ = nullptr;
    QComboBox* source_ = nullptr;
    QComboBox* sync_ = nullptr;
    QComboBox* kernels_ = nullptr;
    QComboBox* precision_ = nullptr;
    QLabel* precision_label_ = nullptr;
    QLabel* file_label_ = nullptr;
    QWidget* file_row_ = nullptr;
    QLabel* source_label_ = nullptr;
    QGroupBox* mcmc_box_ = nullptr;
    QLabel* problem_ = nullptr;
    bool loading_ = false;
};

}  // namespace partita
