#include "widgets/params_editor.h"

#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/util/format.h"

namespace partita {

namespace {

// Energies may be zero (to leave a term out); counts, sizes and rates may not.
bool allowsZero(const QString& key) { return key.startsWith("e_"); }

// Shortest exact text, with a compact exponent: 420e9 -> "4.2e11", 1.6e9 -> "1.6e9".
QString display(double value) {
    QString text = QString::fromStdString(formatNumber(value));
    text.replace("e+0", "e").replace("e+", "e").replace("e-0", "e-");
    return text;
}

// Empty reason = valid; C locale so "4.2e11" parses the same everywhere.
QString checkNumber(const QString& key, const QString& text, double* value) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return QObject::tr("enter a number");
    bool ok = false;
    const double v = QLocale::c().toDouble(t, &ok);
    if (!ok) return QObject::tr("'%1' is not a number").arg(t);
    if (!std::isfinite(v)) return QObject::tr("must be a finite number");
    if (allowsZero(key) && v < 0) return QObject::tr("must not be negative, got %1").arg(t);
    if (!allowsZero(key) && !(v > 0)) return QObject::tr("must be greater than 0, got %1").arg(t);
    *value = v;
    return {};
}

QString acceleratorsText(int levels) { return QObject::tr("= %1 accelerators").arg(1 << levels); }

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
    levels->setToolTip(tr("Hierarchy levels H: 2^H accelerators, H1 the top split (1-%1; default 4 = 16 "
                          "accelerators).").arg(Array::kMaxLevels));
    accelerators_ = new QLabel(this);
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

    QFormLayout* acc = group(outer, tr("Accelerator"), this);
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
    auto* edit = new QLineEdit(this);
    edit->setObjectName(key);
    edit->setToolTip(tip);
    edit->setMinimumWidth(60);
    form->addRow(label, edit);
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
    params_ = params;
    errors_.clear();
    for (const QString& key : numbers_) {
        auto* edit = static_cast<QLineEdit*>(fields_[key]);
        edit->setText(display(*slot(key)));
        setError(key, {});
    }
    auto* mode = static_cast<QComboBox*>(fields_["mode"]);
    if (mode->count() > 2) mode->removeItem(2);
    int index = mode->findData(params.comm.w_intra);
    if (index < 0) {  // a value from a file that is neither cal nor lit: keep it selectable
        mode->addItem(tr("custom (w_intra %1)").arg(display(params.comm.w_intra)), params.comm.w_intra);
        index = 2;
    }
    mode->setCurrentIndex(index);
    auto* out = static_cast<QComboBox*>(fields_["out_size"]);
    out->setCurrentIndex(out->findData(int(params.comm.out_size)));
    auto* topo = static_cast<QComboBox*>(fields_["topology"]);
    topo->setCurrentIndex(topo->findData(int(array.topology)));
    static_cast<QSpinBox*>(fields_["levels"])->setValue(array.levels);
    static_cast<QCheckBox*>(fields_["sram_energy"])->setChecked(params.include_sram_energy);
    accelerators_->setText(acceleratorsText(array.levels));
    loading_ = false;
    showProblems();
}

void ParamsEditor::numberEdited(const QString& key) {
    double value = 0;
    const QString reason = checkNumber(key, static_cast<QLineEdit*>(fields_[key])->text(), &value);
    setError(key, reason);
    showProblems();
    if (!reason.isEmpty()) return;  // keep the last valid value
    *slot(key) = value;
    emit changed();
}

void ParamsEditor::choiceChanged() {
    if (loading_) return;
    const int levels = static_cast<QSpinBox*>(fields_["levels"])->value();
    accelerators_->setText(acceleratorsText(levels));
    params_.comm.w_intra = static_cast<QComboBox*>(fields_["mode"])->currentData().toDouble();
    params_.comm.out_size = OutSize(static_cast<QComboBox*>(fields_["out_size"])->currentData().toInt());
    params_.include_sram_energy = static_cast<QCheckBox*>(fields_["sram_energy"])->isChecked();
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
    problem_->setText(lines.join('\n'));
    problem_->setVisible(!lines.isEmpty());
}

Array ParamsEditor::array() const { return array_; }

CostParams ParamsEditor::params() const { return params_; }

bool ParamsEditor::valid() const { return errors_.isEmpty(); }

QString ParamsEditor::problem() const {
    for (const QString& key : numbers_)
        if (errors_.contains(key)) return labels_[key] + ": " + errors_[key];
    return {};
}

QWidget* ParamsEditor::field(const QString& key) const { return fields_.value(key); }

}  // namespace partita
