#include "widgets/editors/params_editor.h"

#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/util/limits.h"
#include "core/util/ranges.h"
#include "widgets/editors/groups_editor.h"
#include "widgets/editors/number_text.h"

namespace partita {

namespace {

// Energies may be zero (to leave a term out); counts, sizes and rates may not.
bool allowsZero(const QString& key) { return key.startsWith("e_"); }

// The limits (docs/formats/limits.md) the command line, files and sweeps check: shown as the user types.
QString limitProblem(const QString& key, double v) {
    if (key == "batch")
        return v == std::floor(v) && v <= static_cast<double>(limits::kBatch)
                   ? QString()
                   : QObject::tr("must be an integer from 1 to %1").arg(limits::kBatch);
    if (key == "bytes_per_element" || key == "accpar_bytes_per_element")
        return QString::fromStdString(rangeProblem(v, ranges::kBytesPerElement));
    return QString::fromStdString(rangeProblem(v, arrayRange(key.toStdString())));
}

QString acceleratorsText(int count) { return QObject::tr("= %1 accelerators").arg(count); }

// Fields that describe a HyPar array of identical accelerators; an array with
// groups takes them from the groups (levels) or has no place for them in its file.
const char* const kHyparOnly[] = {"levels", "topology", "link_bps", "level_bw_factor", "throughput_ops",
                                  "e_mult_pj", "e_add_pj", "e_dram_pj", "e_sram_pj", "e_link_pj_per_bit"};

QString groupsReason(const QString& key) {
    if (key == "levels") return QObject::tr("Set by the accelerator groups: the height of their bisection tree.");
    if (key.startsWith("e_"))
        return QObject::tr("Not editable with accelerator groups: an array with groups has no 'accelerator' "
                           "entry, so these defaults apply.");
    return QObject::tr("Not used with accelerator groups: the groups' throughput and bandwidth replace it.");
}

QFormLayout* group(QVBoxLayout* outer, const QString& title, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    form->setContentsMargins(6, 6, 6, 6);
    form->setVerticalSpacing(4);
    outer->addWidget(box);
    return form;
}

}  // namespace

ParamsEditor::ParamsEditor(QWidget* parent) : QWidget(parent) {
    loading_ = true;  // combos signal as items are added; setValues at the end clears this
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    auto combo = [this](QFormLayout* form, const QString& key, const QString& label, const QString& tip,
                        const QList<QPair<QString, QVariant>>& items) {
        auto* box = new QComboBox(this);
        for (const auto& [text, data] : items) box->addItem(text, data);
        box->setToolTip(tip);
        box->setObjectName(key);
        form->addRow(label, box);
        fields_[key] = box;
        labels_[key] = label;
        tips_[key] = tip;
        connect(box, &QComboBox::currentIndexChanged, this, [this] { choiceChanged(); });
        return box;
    };

    QFormLayout* run = group(outer, tr("Run"), this);
    addNumber(run, "batch", tr("Batch"),
              tr("Mini-batch size B: samples per training step (default 256)."));
    combo(run, "mode", tr("Mode"),
          tr("Communication model. cal: intra-layer amounts weighted by w_intra = 2, the paper-calibrated "
             "model (default). lit: w_intra = 1, Tables 1-2 as printed."),
          {{tr("cal (w_intra 2)"), 2.0}, {tr("lit (w_intra 1)"), 1.0}});
    combo(run, "out_size", tr("Output size"),
          tr("Which output size prices Type-II partial sums: after pooling (default) or before it."),
          {{tr("post-pool"), int(OutSize::PostPool)}, {tr("pre-pool"), int(OutSize::PrePool)}});
    addNumber(run, "bytes_per_element", tr("Bytes / element"),
              tr("Bytes per tensor element (default 4 = fp32); converts elements to GB and bits on the links."));

    QFormLayout* arr = group(outer, tr("Array"), this);
    auto* levels = new QSpinBox(this);
    levels->setObjectName("levels");
    levels->setRange(1, Array::kMaxLevels);
    tips_["levels"] = tr("Hierarchy levels H: 2^H accelerators, H1 the top split (1-%1; default 4 = 16 "
                         "accelerators).").arg(Array::kMaxLevels);
    levels->setToolTip(tips_["levels"]);
    accelerators_ = new QLabel(this);
    accelerators_->setObjectName("accelerators");
    auto* levels_row = new QHBoxLayout;
    levels_row->addWidget(levels);
    levels_row->addWidget(accelerators_, 1);
    arr->addRow(tr("Levels"), levels_row);
    fields_["levels"] = levels;
    labels_["levels"] = tr("Levels");
    connect(levels, &QSpinBox::valueChanged, this, [this] { choiceChanged(); });
    combo(arr, "topology", tr("Topology"),
          tr("H-tree (default): a fat tree, each level's pair exchange has its own links. Torus: a 2-D torus "
             "with dimension-order routing; exchanges sharing a link split its bandwidth."),
          {{tr("H-tree"), int(Topology::HTree)}, {tr("torus"), int(Topology::Torus)}});
    addNumber(arr, "link_bps", tr("Link (bit/s)"),
              tr("Bandwidth of one link in bit/s (default 1.6e9 = 1.6 Gb/s)."));
    addNumber(arr, "level_bw_factor", tr("Level BW factor"),
              tr("Fat-tree bandwidth ratio between adjacent levels (default 2): each level up has this many "
                 "times the bandwidth of the one below."));

    groups_ = new GroupsEditor(this);
    groups_->hide();
    outer->addWidget(groups_);
    fields_["groups"] = groups_->table();
    connect(groups_, &GroupsEditor::edited, this, &ParamsEditor::groupsEdited);

    QFormLayout* acc = group(outer, tr("Accelerator"), this);
    analytic_only_ << acc->parentWidget();
    addNumber(acc, "throughput_ops", tr("Throughput (ops/s)"),
              tr("Accelerator throughput R_acc in ops/s, 2 ops per MAC (default 4.2e11 = 420 GOPS)."));
    addNumber(acc, "e_mult_pj", tr("Multiply (pJ)"), tr("Energy of one 32-bit float multiply, pJ (default 3.7)."));
    addNumber(acc, "e_add_pj", tr("Add (pJ)"), tr("Energy of one 32-bit float add, pJ (default 0.9)."));
    addNumber(acc, "e_dram_pj", tr("DRAM (pJ)"), tr("Energy of one 32-bit DRAM access, pJ (default 640)."));
    addNumber(acc, "e_sram_pj", tr("SRAM (pJ)"),
              tr("Energy of one 32-bit SRAM access, pJ (default 5); counted only with SRAM energy on."));
    addNumber(acc, "e_link_pj_per_bit", tr("Link (pJ/bit)"),
              tr("Energy to move one bit over a link, pJ/bit (default 20)."));
    auto* sram = new QCheckBox(tr("Include SRAM energy"), this);
    sram->setObjectName("sram_energy");
    sram->setToolTip(tr("Add the optional term of 2 SRAM reads per MAC to the energy (off by default)."));
    acc->addRow(sram);
    fields_["sram_energy"] = sram;
    labels_["sram_energy"] = sram->text();
    connect(sram, &QCheckBox::toggled, this, [this] { choiceChanged(); });

    QFormLayout* ap = group(outer, tr("AccPar"), this);
    analytic_only_ << ap->parentWidget();
    combo(ap, "ratio_model", tr("Ratio model"),
          tr("How AccPar balances a split between two groups. E (default): the ratio that makes both groups' "
             "compute plus communication time exactly equal. P: the paper's linear rule as printed."),
          {{tr("E (exact balance)"), int(RatioModel::E)}, {tr("P (paper-literal)"), int(RatioModel::P)}});
    auto* balanced = new QCheckBox(tr("Balanced baselines"), this);
    balanced->setObjectName("balanced_baselines");
    balanced->setToolTip(tr("Give DP, OWT and HyPar the ratio model's balanced ratios instead of 1/2, so the "
                            "baselines also use unequal groups well (off by default)."));
    ap->addRow(balanced);
    fields_["balanced_baselines"] = balanced;
    labels_["balanced_baselines"] = balanced->text();
    connect(balanced, &QCheckBox::toggled, this, [this] { choiceChanged(); });
    addNumber(ap, "accpar_bytes_per_element", tr("Bytes / element (AccPar)"),
              tr("Bytes per tensor element in AccPar's cost (default 2 = bf16); divides communicated bytes by "
                 "the groups' bandwidth."));

    problem_ = new QLabel(this);
    problem_->setObjectName("problem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("QLabel { color: #b00020; }");
    problem_->hide();
    outer->addWidget(problem_);
    outer->addStretch(1);

    setValues(defaultArray(4), CostParams{});
}

QLineEdit* ParamsEditor::addNumber(QFormLayout* form, const QString& key, const QString& label, const QString& tip) {
    QLineEdit* edit = addNumberRow(this, form, key, label, tip);
    fields_[key] = edit;
    labels_[key] = label;
    tips_[key] = tip;
    numbers_ << key;
    // textEdited, not textChanged: only the user's typing validates and signals.
    connect(edit, &QLineEdit::textEdited, this, [this, key] { numberEdited(key); });
    return edit;
}

double* ParamsEditor::slot(const QString& key) {
    AcceleratorSpec& a = array_.accelerator;
    if (key == "batch") return &params_.batch;
    if (key == "bytes_per_element") return &params_.bytes_per_element;
    if (key == "accpar_bytes_per_element") return &accpar_.bytes_per_element;
    if (key == "link_bps") return &array_.link_bps;
    if (key == "level_bw_factor") return &array_.level_bw_factor;
    if (key == "throughput_ops") return &a.throughput_ops;
    if (key == "e_mult_pj") return &a.e_mult_pj;
    if (key == "e_add_pj") return &a.e_add_pj;
    if (key == "e_dram_pj") return &a.e_dram_pj;
    if (key == "e_sram_pj") return &a.e_sram_pj;
    if (key == "e_link_pj_per_bit") return &a.e_link_pj_per_bit;
    return nullptr;
}

void ParamsEditor::setValues(const Array& array, const CostParams& params) {
    loading_ = true;
    base_ = array;
    array_ = array;
    deriveFromGroups(array_);  // levels = the groups' tree height, whatever the caller set
    params_ = params;
    errors_.clear();
    for (const QString& key : numbers_) {
        auto* edit = static_cast<QLineEdit*>(fields_[key]);
        edit->setText(numberText(*slot(key)));
        setError(key, {});
    }
    auto* mode = static_cast<QComboBox*>(fields_["mode"]);
    if (mode->count() > 2) mode->removeItem(2);
    int index = mode->findData(params.comm.w_intra);
    if (index < 0) {  // a value from a file that is neither cal nor lit: keep it selectable
        mode->addItem(tr("custom (w_intra %1)").arg(numberText(params.comm.w_intra)), params.comm.w_intra);
        index = 2;
    }
    mode->setCurrentIndex(index);
    auto* out = static_cast<QComboBox*>(fields_["out_size"]);
    out->setCurrentIndex(out->findData(int(params.comm.out_size)));
    auto* topo = static_cast<QComboBox*>(fields_["topology"]);
    topo->setCurrentIndex(topo->findData(int(array.topology)));
    static_cast<QSpinBox*>(fields_["levels"])->setValue(array_.levels);
    static_cast<QCheckBox*>(fields_["sram_energy"])->setChecked(params.include_sram_energy);
    accelerators_->setText(acceleratorsText(array_.count()));
    if (grouped()) groups_->setGroups(array_.groups);
    groups_->setVisible(grouped());
    setGroupsMode(grouped());
    loading_ = false;
    showProblems();
}

void ParamsEditor::setAccParValues(const AccParParams& p) {
    loading_ = true;
    accpar_ = p;
    auto* ratio = static_cast<QComboBox*>(fields_["ratio_model"]);
    ratio->setCurrentIndex(ratio->findData(int(p.ratio_model)));
    static_cast<QCheckBox*>(fields_["balanced_baselines"])->setChecked(p.balanced_baselines);
    static_cast<QLineEdit*>(fields_["accpar_bytes_per_element"])->setText(numberText(p.bytes_per_element));
    setError("accpar_bytes_per_element", {});
    loading_ = false;
    showProblems();
}

AccParParams ParamsEditor::accparParams() const {
    AccParParams p = accpar_;
    p.batch = params_.batch;
    return p;
}

void ParamsEditor::setGroupsMode(bool on) {
    for (const char* name : kHyparOnly) {
        const QString key = name;
        fields_[key]->setEnabled(!on);
        fields_[key]->setToolTip(on ? groupsReason(key) + "\n\n" + tips_[key] : tips_[key]);
    }
}

void ParamsEditor::groupsEdited() {
    showProblems();
    if (!groups_->valid()) return;  // keep the last valid groups
    array_.groups = groups_->groups();
    deriveFromGroups(array_);
    // A per-level bandwidth override from the file no longer fits a tree of another height.
    if (!array_.level_bandwidth_Bps.empty() && int(array_.level_bandwidth_Bps.size()) != array_.levels)
        array_.level_bandwidth_Bps.clear();
    loading_ = true;
    static_cast<QSpinBox*>(fields_["levels"])->setValue(array_.levels);
    loading_ = false;
    accelerators_->setText(acceleratorsText(array_.count()));
    for (const char* key : {"link_bps", "level_bw_factor", "throughput_ops"})  // derived for one kind
        static_cast<QLineEdit*>(fields_[key])->setText(numberText(*slot(key)));
    emit changed();
}

void ParamsEditor::numberEdited(const QString& key) {
    double value = 0;
    QString reason = parseNumber(static_cast<QLineEdit*>(fields_[key])->text(), allowsZero(key), &value);
    if (reason.isEmpty()) reason = limitProblem(key, value);
    setError(key, reason);
    showProblems();
    if (!reason.isEmpty()) return;  // keep the last valid value
    *slot(key) = value;
    emit changed();
}

void ParamsEditor::choiceChanged() {
    if (loading_) return;
    params_.comm.w_intra = static_cast<QComboBox*>(fields_["mode"])->currentData().toDouble();
    params_.comm.out_size = OutSize(static_cast<QComboBox*>(fields_["out_size"])->currentData().toInt());
    params_.include_sram_energy = static_cast<QCheckBox*>(fields_["sram_energy"])->isChecked();
    accpar_.ratio_model = RatioModel(static_cast<QComboBox*>(fields_["ratio_model"])->currentData().toInt());
    accpar_.balanced_baselines = static_cast<QCheckBox*>(fields_["balanced_baselines"])->isChecked();
    if (grouped()) {  // levels and topology follow the groups
        emit changed();
        return;
    }
    const int levels = static_cast<QSpinBox*>(fields_["levels"])->value();
    accelerators_->setText(acceleratorsText(1 << levels));
    const auto topology = Topology(static_cast<QComboBox*>(fields_["topology"])->currentData().toInt());
    // A default array's name says its size and topology; keep it truthful. Named arrays keep their name.
    if (base_.name == defaultArray(base_.levels, base_.topology).name)
        array_.name = defaultArray(levels, topology).name;
    array_.levels = levels;
    array_.topology = topology;
    emit changed();
}

void ParamsEditor::setError(const QString& key, const QString& message) {
    auto* edit = static_cast<QLineEdit*>(fields_[key]);
    if (message.isEmpty()) {
        errors_.remove(key);
        edit->setStyleSheet({});
        edit->setToolTip(tips_[key]);
    } else {
        errors_[key] = message;
        edit->setStyleSheet("QLineEdit { background-color: #ffd6d6; }");
        edit->setToolTip(labels_[key] + ": " + message + "\n\n" + tips_[key]);
    }
    edit->setProperty("invalid", !message.isEmpty());
}

void ParamsEditor::showProblems() {
    QStringList lines;
    for (const QString& key : numbers_)
        if (errors_.contains(key)) lines << labels_[key] + ": " + errors_[key];
    if (grouped()) lines << groups_->problems();
    problem_->setText(lines.join('\n'));
    problem_->setVisible(!lines.isEmpty());
}

Array ParamsEditor::array() const { return array_; }

CostParams ParamsEditor::params() const { return params_; }

bool ParamsEditor::valid() const { return errors_.isEmpty() && (!grouped() || groups_->valid()); }

QString ParamsEditor::problem() const {
    for (const QString& key : numbers_)
        if (errors_.contains(key)) return labels_[key] + ": " + errors_[key];
    if (grouped() && !groups_->valid()) return groups_->problems().value(0);
    return {};
}

void ParamsEditor::setSimulationMode(bool on) {
    for (QWidget* box : analytic_only_) box->setVisible(!on);
}

QWidget* ParamsEditor::field(const QString& key) const { return fields_.value(key); }

}  // namespace partita
