#include "widgets/settings/sim_params_editor.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/llm/profile.h"
#include "core/util/ranges.h"
#include "widgets/settings/number_text.h"

namespace partita {

namespace {
// The weight-sync choices: a sync mode and, for the ring, how it is simulated.
constexpr int kSyncCollective = 0, kSyncPerHop = 1, kSyncServer = 2;
}  // namespace

namespace {

constexpr int kKindRole = Qt::UserRole + 1;  // "preset", "file" or "load"
const QString kLoad = QStringLiteral("load");

// The integer fields: 0 means "none" for the iteration budget and is a valid seed.
bool integral(const QString& key) { return key == "iterations" || key == "seed"; }

QFormLayout* formIn(QGroupBox* box) {
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setContentsMargins(6, 6, 6, 6);
    form->setVerticalSpacing(4);
    return form;
}

}  // namespace

SimParamsEditor::SimParamsEditor(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 0);

    auto* box = new QGroupBox(tr("Simulation"), this);
    QFormLayout* form = formIn(box);
    topology_ = new QComboBox(box);
    topology_->setObjectName("topology");
    topology_->setToolTip(tr("Device topology the strategy runs on: a built-in cluster or a partita-topology/1 "
                             "file (Load file…)."));
    topology_->addItem(tr("Load file…"), QString());
    topology_->setItemData(0, kLoad, kKindRole);
    topology_->insertSeparator(0);
    form->addRow(tr("Topology"), topology_);
    fields_["topology"] = topology_;
    connect(topology_, &QComboBox::activated, this, &SimParamsEditor::topologyActivated);

    source_ = new QComboBox(box);
    source_->setObjectName("source");
    source_->setToolTip(tr("Strategy to simulate: a baseline over every device, the grid shown in the Grid tab "
                           "lowered to SOAP (HyPar's plan if none), or a partita-soap/1 file."));
    for (SimSource s : {SimSource::DataParallel, SimSource::OneWeirdTrick, SimSource::ModelParallel,
                        SimSource::Grid, SimSource::File}) {
        const QString label = s == SimSource::Grid ? tr("Current grid, lowered")
                              : s == SimSource::File ? tr("Strategy file")
                                                     : QString(simSourceLabel(s));
        source_->addItem(label, int(s));
    }
    sync_ = new QComboBox(box);
    sync_->setObjectName("sync");
    sync_->setToolTip(tr("Weight synchronisation among an operator's replicas: a ring all-reduce overlapped with "
                         "the backward pass, simulated as a collective by the fastest algorithm over the topology "
                         "(ring, tree, halving-doubling, hierarchical) or per hop as FlexFlow does (every hop of "
                         "every message a task: small cases only); or a parameter server on the first replica "
                         "(FlexFlow's simulator)."));
    sync_->addItem(tr("All-reduce (collective)"), kSyncCollective);
    sync_->addItem(tr("Ring all-reduce, per hop"), kSyncPerHop);
    sync_->addItem(tr("Parameter server"), kSyncServer);
    form->addRow(tr("Weight sync"), sync_);
    fields_["sync"] = sync_;
    connect(sync_, &QComboBox::activated, this, [this] { emit changed(); });

    kernels_ = new QComboBox(box);
    kernels_->setObjectName("kernels");
    kernels_->setToolTip(tr("How compute is priced: each device's peak × efficiency from the topology, or an LLM "
                            "hardware profile's kernel curves (GEMMs on the matrix unit, the rest on the vector "
                            "unit, efficiency by size), as the LLM planner prices them."));
    kernels_->addItem(tr("Device peaks"), QString());
    for (const std::string& name : llm::profilePresetNames()) kernels_->addItem(QString::fromStdString(name), QString::fromStdString(name));
    form->addRow(tr("Compute"), kernels_);
    fields_["kernels"] = kernels_;
    precision_ = new QComboBox(box);
    precision_->setObjectName("precision");
    precision_->setToolTip(tr("The profile's unit and the element size: fp32 4 bytes, bf16 and fp16 2 (fp8: GEMMs "
                              "only, 16-bit activations). Gradients are reduced in the profile's dtype."));
    for (const llm::Dtype d : {llm::Dtype::Fp32, llm::Dtype::Bf16, llm::Dtype::Fp16, llm::Dtype::Fp8})
        precision_->addItem(llm::dtypeName(d), static_cast<int>(d));
    precision_label_ = new QLabel(tr("Precision"), box);
    form->addRow(precision_label_, precision_);
    fields_["precision"] = precision_;
    connect(kernels_, &QComboBox::activated, this, [this] {
        // A profile starts at its own training precision.
        if (!kernelProfile().empty()) setKernels(kernelProfile(), llm::profilePreset(kernelProfile()).precision.param);
        updateVisibility();
        emit changed();
    });
    connect(precision_, &QComboBox::activated, this, [this] { emit changed(); });
    source_label_ = new QLabel(tr("Strategy"), box);
    form->addRow(source_label_, source_);
    fields_["source"] = source_;
    connect(source_, &QComboBox::activated, this, [this] {
        updateVisibility();
        if (source() == SimSource::File && strategy_file_.isEmpty()) emit strategyFileRequested();
        else emit changed();
    });

    file_row_ = new QWidget(box);
    auto* row = new QHBoxLayout(file_row_);
    row->setContentsMargins(0, 0, 0, 0);
    file_label_ = new QLabel(tr("(none)"), file_row_);
    file_label_->setObjectName("strategy-file-name");
    file_label_->setMinimumWidth(40);
    file_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // long names do not widen the dock
    auto* choose = new QPushButton(tr("Choose…"), file_row_);
    choose->setObjectName("strategy_file");
    choose->setToolTip(tr("Choose a SOAP strategy file (partita-soap/1) for the loaded network"));
    row->addWidget(file_label_, 1);
    row->addWidget(choose);
    form->addRow(file_row_);
    fields_["strategy_file"] = choose;
    connect(choose, &QPushButton::clicked, this, &SimParamsEditor::strategyFileRequested);
    outer->addWidget(box);

    mcmc_box_ = new QGroupBox(tr("MCMC search"), this);
    QFormLayout* m = formIn(mcmc_box_);
    addNumber(m, "budget_s", tr("Time budget (s)"),
              tr("Wall time of the whole search in seconds, shared by the starts; 0 = none. A time budget "
                 "makes the result depend on the machine."));
    addNumber(m, "iterations", tr("Iterations"),
              tr("Proposals of the whole search, shared by the starts; 0 = none. With no time budget the "
                 "search is reproducible for a seed."));
    addNumber(m, "seed", tr("Seed"), tr("Random seed (a non-negative integer): the same seed, budget and inputs "
                                        "give the same search."));
    addNumber(m, "beta", tr("Beta (1/ms)"),
              tr("Metropolis-Hastings beta per ms of makespan: higher accepts fewer worse proposals (default 1)."));
    auto* starts = new QHBoxLayout;
    for (const char* name : {"dp", "owt", "random"}) {
        const QString key = QStringLiteral("start_") + name;
        auto* check = new QCheckBox(key == "start_random" ? tr("random") : QString(name).toUpper(), mcmc_box_);
        check->setObjectName(key);
        check->setToolTip(tr("Start a chain from this strategy (the budgets are shared among the chains)"));
        starts->addWidget(check);
        fields_[key] = check;
        connect(check, &QCheckBox::toggled, this, &SimParamsEditor::startsToggled);
    }
    starts->addStretch(1);
    m->addRow(tr("Starts"), starts);
    auto* stall = new QCheckBox(tr("Stop a chain at a stall"), mcmc_box_);
    stall->setObjectName("stop_on_stall");
    stall->setToolTip(tr("A chain has stalled when its best has not improved for half of its run. By default it "
                         "then restarts from its best with a few operators given new configurations, and the "
                         "search runs to its budget; ticked, the chain ends at the stall and the search may end "
                         "before its budget."));
    m->addRow(stall);
    fields_["stop_on_stall"] = stall;
    connect(stall, &QCheckBox::toggled, this, [this](bool on) {
        if (loading_ || mcmc_.stop_on_stall == on) return;
        mcmc_.stop_on_stall = on;
        emit changed();
    });
    outer->addWidget(mcmc_box_);

    problem_ = new QLabel(this);
    problem_->setObjectName("sim-problem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("QLabel { color: #b00020; }");
    problem_->hide();
    outer->addWidget(problem_);

    setMcmc(McmcSettings{});
    updateVisibility();
}

QLineEdit* SimParamsEditor::addNumber(QFormLayout* form, const QString& key, const QString& label,
                                      const QString& tip) {
    QLineEdit* edit = addNumberRow(this, form, key, label, tip);
    fields_[key] = edit;
    labels_[key] = label;
    numbers_ << key;
    connect(edit, &QLineEdit::textEdited, this, [this, key] { numberEdited(key); });
    return edit;
}

void SimParamsEditor::setMode(Mode mode) {
    mode_ = mode;
    updateVisibility();
}

void SimParamsEditor::updateVisibility() {
    const bool simulate = mode_ == Mode::Simulate;
    source_label_->setVisible(simulate);
    source_->setVisible(simulate);
    file_row_->setVisible(simulate && source() == SimSource::File);
    mcmc_box_->setVisible(!simulate);
    precision_label_->setVisible(!kernelProfile().empty());
    precision_->setVisible(!kernelProfile().empty());
}

std::string SimParamsEditor::kernelProfile() const { return kernels_->currentData().toString().toStdString(); }

llm::Dtype SimParamsEditor::kernelPrecision() const { return static_cast<llm::Dtype>(precision_->currentData().toInt()); }

void SimParamsEditor::setKernels(const std::string& profile, llm::Dtype precision) {
    const int at = kernels_->findData(QString::fromStdString(profile));
    kernels_->setCurrentIndex(std::max(0, at));
    precision_->setCurrentIndex(std::max(0, precision_->findData(static_cast<int>(precision))));
    updateVisibility();
}

void SimParamsEditor::addPreset(const QString& name, const QString& title) {
    if (topology_->findData(name) >= 0) return;
    const int at = topology_->count() - 2;  // before the separator and "Load file…"
    int presets = 0;
    while (presets < at && topology_->itemData(presets, kKindRole).toString() == "preset") ++presets;
    topology_->insertItem(presets, title, name);
    topology_->setItemData(presets, QStringLiteral("preset"), kKindRole);
    topology_->setItemData(presets, tr("Built-in topology '%1'").arg(name), Qt::ToolTipRole);
    if (topology_index_ < 0) setTopology(name);
    else topology_index_ = topology_->currentIndex();
}

void SimParamsEditor::addTopologyFile(const QString& path, const QString& title) {
    if (topology_->findData(path) < 0) {
        const int at = topology_->count() - 2;
        // A file by its name too; a key that is not a path (a generated graph) by its title alone.
        topology_->insertItem(at, QFileInfo(path).isAbsolute() ? title + " · " + QFileInfo(path).fileName() : title, path);
        topology_->setItemData(at, QStringLiteral("file"), kKindRole);
        topology_->setItemData(at, path, Qt::ToolTipRole);
    }
    topology_index_ = topology_->currentIndex();
}

bool SimParamsEditor::setTopology(const QString& key) {
    const int index = key.isEmpty() ? -1 : topology_->findData(key);
    if (index < 0) return false;
    topology_->setCurrentIndex(index);
    topology_index_ = index;
    return true;
}

QString SimParamsEditor::topology() const {
    return topology_index_ >= 0 ? topology_->itemData(topology_index_).toString() : QString();
}

bool SimParamsEditor::topologyIsFile() const {
    return topology_index_ >= 0 && topology_->itemData(topology_index_, kKindRole).toString() == "file";
}

void SimParamsEditor::topologyActivated(int index) {
    if (topology_->itemData(index, kKindRole).toString() == kLoad) {
        // Stay on the last real choice; the owner selects the file once it has read it.
        topology_->setCurrentIndex(topology_index_);
        emit topologyFileRequested();
        return;
    }
    if (index == topology_index_) return;
    topology_index_ = index;
    emit changed();
}

SimSource SimParamsEditor::source() const { return SimSource(source_->currentData().toInt()); }

void SimParamsEditor::setSource(SimSource source) {
    const int index = source_->findData(int(source));
    if (index >= 0) source_->setCurrentIndex(index);
    updateVisibility();
}

void SimParamsEditor::setStrategyFile(const QString& path) {
    strategy_file_ = path;
    file_label_->setText(path.isEmpty() ? tr("(none)") : QFileInfo(path).fileName());
    file_label_->setToolTip(path);
}

void SimParamsEditor::setMcmc(const McmcSettings& s) {
    loading_ = true;
    mcmc_ = s;
    auto text = [this](const QString& key, const QString& value) {
        static_cast<QLineEdit*>(fields_[key])->setText(value);
        setError(key, {});
    };
    text("budget_s", numberText(s.budget_s));
    text("iterations", QString::number(s.iterations));
    text("seed", QString::number(s.seed));
    text("beta", numberText(s.beta));
    for (const char* name : {"dp", "owt", "random"})
        static_cast<QCheckBox*>(fields_[QStringLiteral("start_") + name])
            ->setChecked(std::find(s.starts.begin(), s.starts.end(), name) != s.starts.end());
    errors_.remove("starts");
    static_cast<QCheckBox*>(fields_["stop_on_stall"])->setChecked(s.stop_on_stall);
    loading_ = false;
    showProblems();
}

void SimParamsEditor::numberEdited(const QString& key) {
    // Every field again: fixing one budget also clears the other's "both are 0".
    McmcSettings next = mcmc_;
    bool ok = true;
    for (const QString& k : numbers_) {
        double value = 0;
        QString reason = parseNumber(static_cast<QLineEdit*>(fields_[k])->text(), k != "beta", &value);
        if (reason.isEmpty() && integral(k) && (value != std::floor(value) || value > 9.0e15))
            reason = tr("must be a whole number");
        if (reason.isEmpty() && k == "beta") reason = QString::fromStdString(rangeProblem(value, ranges::kMcmcBeta));
        if (reason.isEmpty() && k == "budget_s" && value > 1e7) reason = tr("must be at most 10,000,000 s");
        setError(k, reason);
        ok = ok && reason.isEmpty();
        if (!reason.isEmpty()) continue;
        if (k == "budget_s") next.budget_s = value;
        else if (k == "iterations") next.iterations = static_cast<std::int64_t>(value);
        else if (k == "seed") next.seed = static_cast<std::uint64_t>(value);
        else next.beta = value;
    }
    if (ok && next.budget_s == 0 && next.iterations == 0) {
        setError(key, tr("give a time budget or an iteration budget (both are 0)"));
        ok = false;
    }
    showProblems();
    if (!ok) return;  // the last valid settings stay in force
    mcmc_ = next;
    emit changed();
}

void SimParamsEditor::startsToggled() {
    if (loading_) return;
    std::vector<std::string> starts;
    for (const char* name : {"dp", "owt", "random"})
        if (static_cast<QCheckBox*>(fields_[QStringLiteral("start_") + name])->isChecked()) starts.push_back(name);
    if (starts.empty()) errors_["starts"] = tr("tick at least one start");
    else errors_.remove("starts");
    showProblems();
    if (starts.empty()) return;
    mcmc_.starts = starts;
    emit changed();
}

void SimParamsEditor::setError(const QString& key, const QString& message) {
    auto* edit = static_cast<QLineEdit*>(fields_[key]);
    if (message.isEmpty()) errors_.remove(key);
    else errors_[key] = message;
    edit->setStyleSheet(message.isEmpty() ? QString() : QStringLiteral("QLineEdit { background-color: #ffd6d6; }"));
    edit->setProperty("invalid", !message.isEmpty());
}

QString SimParamsEditor::problem() const {
    for (const QString& key : numbers_)
        if (errors_.contains(key)) return labels_[key] + ": " + errors_[key];
    if (errors_.contains("starts")) return tr("Starts: ") + errors_["starts"];
    return {};
}

void SimParamsEditor::showProblems() {
    QStringList lines;
    for (const QString& key : numbers_)
        if (errors_.contains(key)) lines << labels_[key] + ": " + errors_[key];
    if (errors_.contains("starts")) lines << tr("Starts: ") + errors_["starts"];
    problem_->setText(lines.join('\n'));
    problem_->setVisible(!lines.isEmpty());
}

sim::SyncMode SimParamsEditor::sync() const {
    return sync_->currentData().toInt() == kSyncServer ? sim::SyncMode::ParameterServer : sim::SyncMode::Ring;
}

sim::CollectiveModel SimParamsEditor::collectives() const {
    return sync_->currentData().toInt() == kSyncPerHop ? sim::CollectiveModel::PerHop : sim::CollectiveModel::Algorithm;
}

void SimParamsEditor::setSync(sim::SyncMode mode, sim::CollectiveModel collectives) {
    const int code = mode == sim::SyncMode::ParameterServer             ? kSyncServer
                     : collectives == sim::CollectiveModel::PerHop ? kSyncPerHop
                                                                   : kSyncCollective;
    sync_->setCurrentIndex(sync_->findData(code));
}

}  // namespace partita
