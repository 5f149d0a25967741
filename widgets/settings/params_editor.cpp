#include "widgets/settings/params_editor.h"

#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include "core/settings/array_fields.h"
#include "core/settings/cost_fields.h"
#include "widgets/settings/groups_editor.h"
#include "widgets/settings/number_text.h"

namespace partita {

namespace {

// What the editor's tooltip says of a table field: its help, then its unit, default and range.
template <class S>
QString fieldTip(const Field<S>& f) {
    return QObject::tr(f.help) + "\n(" + QString::fromStdString(fieldSummary(f)) + ")";
}

// The row label: "Link (bit/s)" from the field's label and unit.
template <class S>
QString fieldLabel(const Field<S>& f) {
    return *f.unit ? QObject::tr(f.label) + " (" + f.unit + ")" : QObject::tr(f.label);
}

QString acceleratorsText(int count) { return QObject::tr("= %1 accelerators").arg(count); }

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
    // Each table field becomes a row; the few that need more than a plain control are placed by key.
    QFormLayout* run = group(outer, tr("Run"), this);
    for (const auto& f : costFields()) {
        const std::string key = f.key;
        if (key == "include_sram_energy") continue;  // shown with the accelerator's energies
        if (key == "w_intra") {  // shown as the model's two names (and a file's custom weight)
            auto* mode = addCombo(run, "mode", tr("Mode"), fieldTip(f), {{tr("cal (w_intra 2)"), 2.0}, {tr("lit (w_intra 1)"), 1.0}});
            bind("mode", mode, f, &params_);
        } else {
            addField(run, f, &params_);
        }
    }

    QFormLayout* arr = group(outer, tr("Array"), this);
    for (const auto& f : arrayFields()) {
        if (f.object || f.type == FieldType::Text) continue;
        if (std::string(f.key) == "levels") {  // a spin box with the accelerator count beside it
            auto* levels = new QSpinBox(this);
            levels->setRange(int(f.range.lo), int(f.range.hi));
            remember("levels", levels, fieldLabel(f), fieldTip(f));
            accelerators_ = new QLabel(this);
            accelerators_->setObjectName("accelerators");
            auto* levels_row = new QHBoxLayout;
            levels_row->addWidget(levels);
            levels_row->addWidget(accelerators_, 1);
            arr->addRow(fieldLabel(f), levels_row);
            hypar_only_ << "levels";  // set by the groups when there are groups
            connect(levels, &QSpinBox::valueChanged, this, [this] { choiceChanged(); });
            continue;
        }
        addField(arr, f, &array_);
    }

    groups_ = new GroupsEditor(this);
    groups_->hide();
    outer->addWidget(groups_);
    fields_["groups"] = groups_->table();
    connect(groups_, &GroupsEditor::edited, this, &ParamsEditor::groupsEdited);

    QFormLayout* acc = group(outer, tr("Accelerator"), this);
    analytic_only_ << acc->parentWidget();
    for (const auto& f : arrayFields())
        if (f.object && f.type != FieldType::Text) addField(acc, f, &array_);
    addField(acc, *findField(costFields(), "include_sram_energy"), &params_, "sram_energy");

    QFormLayout* ap = group(outer, tr("AccPar"), this);
    analytic_only_ << ap->parentWidget();
    for (const auto& f : accparFields()) {
        // Its own key and label: the cost parameters have a bytes_per_element too.
        if (std::string(f.key) == "bytes_per_element")
            addField(ap, f, &accpar_, "accpar_bytes_per_element", fieldLabel(f) + tr(" (AccPar)"));
        else addField(ap, f, &accpar_);
    }
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
    remember(key, edit, label, tip);
    numbers_ << key;
    // textEdited, not textChanged: only the user's typing validates and signals.
    connect(edit, &QLineEdit::textEdited, this, [this, key] { numberEdited(key); });
    return edit;
}

void ParamsEditor::remember(const QString& key, QWidget* widget, const QString& label, const QString& tip) {
    widget->setObjectName(key);
    widget->setToolTip(tip);
    fields_[key] = widget;
    labels_[key] = label;
    tips_[key] = tip;
}

QComboBox* ParamsEditor::addCombo(QFormLayout* form, const QString& key, const QString& label, const QString& tip,
                                  const QList<QPair<QString, QVariant>>& items) {
    auto* box = new QComboBox(this);
    for (const auto& [text, data] : items) box->addItem(text, data);
    remember(key, box, label, tip);
    form->addRow(label, box);
    connect(box, &QComboBox::currentIndexChanged, this, [this] { choiceChanged(); });
    return box;
}

template <class S>
void ParamsEditor::addField(QFormLayout* form, const Field<S>& f, S* target, const QString& key_or_empty,
                            const QString& label_or_empty) {
    const QString key = key_or_empty.isEmpty() ? QString(f.key) : key_or_empty;
    const QString label = label_or_empty.isEmpty() ? fieldLabel(f) : label_or_empty;
    const QString tip = fieldTip(f);
    QWidget* widget = nullptr;
    if (f.type == FieldType::Number || f.type == FieldType::Integer) {
        widget = addNumber(form, key, label, tip);
    } else if (f.type == FieldType::Choice) {
        QList<QPair<QString, QVariant>> items;
        for (size_t i = 0; i < f.choices.size(); ++i) items.append({tr(f.choices[i].label), int(i)});
        widget = addCombo(form, key, label, tip, items);
    } else if (f.type == FieldType::Flag) {
        auto* box = new QCheckBox(label, this);
        remember(key, box, label, tip);
        form->addRow(box);
        connect(box, &QCheckBox::toggled, this, [this] { choiceChanged(); });
        widget = box;
    } else {
        return;  // text fields (names) are not edited here
    }
    bind(key, widget, f, target);
}

template <class S>
void ParamsEditor::bind(const QString& key, QWidget* widget, const Field<S>& f, S* target) {
    Binding b;
    b.widget = widget;
    b.get = [&f, target] { return f.get(*target); };
    b.set = [&f, target](double v) { f.set(*target, v); };
    b.problem = [&f](double v) { return QString::fromStdString(fieldProblem(f.type, f.range, v)); };
    b.allow_zero = f.range.lo <= 0;  // energies may be zero, to leave a term out
    b.accpar = std::is_same_v<S, AccParParams>;
    bindings_[key] = b;
    if (f.models == FieldModels::HyPar) hypar_only_ << key;
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
        edit->setText(numberText(bindings_[key].get()));
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
    for (auto it = bindings_.cbegin(); it != bindings_.cend(); ++it)
        if (!it->accpar && !numbers_.contains(it.key()) && it.key() != "mode") showChoice(*it);
    static_cast<QSpinBox*>(fields_["levels"])->setValue(array_.levels);
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
    for (auto it = bindings_.cbegin(); it != bindings_.cend(); ++it) {
        if (!it->accpar) continue;
        if (!numbers_.contains(it.key())) {
            showChoice(*it);
            continue;
        }
        static_cast<QLineEdit*>(it->widget)->setText(numberText(it->get()));
        setError(it.key(), {});
    }
    loading_ = false;
    showProblems();
}

AccParParams ParamsEditor::accparParams() const {
    AccParParams p = accpar_;
    p.batch = params_.batch;
    return p;
}

void ParamsEditor::showChoice(const Binding& b) {
    if (auto* box = qobject_cast<QComboBox*>(b.widget)) box->setCurrentIndex(box->findData(int(b.get())));
    else if (auto* check = qobject_cast<QCheckBox*>(b.widget)) check->setChecked(b.get() != 0);
}

void ParamsEditor::setGroupsMode(bool on) {
    for (const QString& key : hypar_only_) {
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
    for (const QString& key : hypar_only_)  // the rates are derived for one kind of group
        if (numbers_.contains(key)) static_cast<QLineEdit*>(fields_[key])->setText(numberText(bindings_[key].get()));
    emit changed();
}

void ParamsEditor::numberEdited(const QString& key) {
    double value = 0;
    const Binding& b = bindings_[key];
    QString reason = parseNumber(static_cast<QLineEdit*>(fields_[key])->text(), b.allow_zero, &value);
    if (reason.isEmpty()) reason = b.problem(value);
    setError(key, reason);
    showProblems();
    if (!reason.isEmpty()) return;  // keep the last valid value
    b.set(value);
    emit changed();
}

void ParamsEditor::choiceChanged() {
    if (loading_) return;
    for (auto it = bindings_.cbegin(); it != bindings_.cend(); ++it) {
        if (numbers_.contains(it.key()) || it.key() == "topology") continue;  // topology: below, with the levels
        if (auto* box = qobject_cast<QComboBox*>(it->widget)) it->set(box->currentData().toDouble());
        else if (auto* check = qobject_cast<QCheckBox*>(it->widget)) it->set(check->isChecked() ? 1 : 0);
    }
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
