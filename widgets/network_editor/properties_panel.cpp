#include "widgets/network_editor/properties_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/util/limits.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

QString headerValue(const edit::Header& h, const QString& key) {
    if (key == "network_name") return q(h.name);
    if (key == "description") return q(h.description);
    if (key == "input_c") return QString::number(h.input.c);
    if (key == "input_h") return QString::number(h.input.h);
    return QString::number(h.input.w);
}

QString parseHeader(const QString& key, const QString& text, edit::Header& h) {
    if (key == "network_name") {
        if (text.trimmed().isEmpty()) return QObject::tr("a network needs a name");
        h.name = text.trimmed().toStdString();
        return {};
    }
    if (key == "description") {
        h.description = text.toStdString();
        return {};
    }
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    if (!ok) return QObject::tr("'%1' is not a whole number").arg(text.trimmed());
    if (v < 1) return QObject::tr("must be positive, got %1").arg(v);
    if (v > limits::kDimension) return QObject::tr("exceeds the limit of %1, got %2").arg(limits::kDimension).arg(v);
    (key == "input_c" ? h.input.c : key == "input_h" ? h.input.h : h.input.w) = v;
    return {};
}

}  // namespace

PropertiesPanel::PropertiesPanel(QWidget* parent) : QWidget(parent) {
    setObjectName("editor-properties");
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);
    title_ = new QLabel(this);
    title_->setObjectName("editor-properties-title");
    title_->setWordWrap(true);
    column->addWidget(title_);
    form_ = new QFormLayout;
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form_->setVerticalSpacing(4);
    column->addLayout(form_);
    problem_ = new QLabel(this);
    problem_->setObjectName("editor-properties-problem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("QLabel { color: #b00020; }");
    problem_->hide();
    column->addWidget(problem_);
    column->addStretch(1);
}

void PropertiesPanel::clearForm() {
    while (form_->rowCount() > 0) form_->removeRow(0);
    fields_.clear();
    tips_.clear();
    labels_.clear();
    errors_.clear();
    specs_.clear();
    template_specs_.clear();
    problem_->hide();
}

QWidget* PropertiesPanel::addField(const QString& key, const QString& label, const QString& tip, const QStringList& choices) {
    QWidget* w = nullptr;
    if (!choices.isEmpty()) {
        auto* box = new QComboBox(this);
        box->addItems(choices);
        connect(box, &QComboBox::textActivated, this, [this, key](const QString& t) { edited(key, t); });
        w = box;
    } else {
        auto* edit = new QLineEdit(this);
        edit->setMinimumWidth(60);
        // textEdited, not textChanged: only the user's typing validates and signals.
        connect(edit, &QLineEdit::textEdited, this, [this, key](const QString& t) { edited(key, t); });
        w = edit;
    }
    w->setObjectName(key);
    w->setToolTip(tip);
    form_->addRow(label, w);
    fields_[key] = w;
    tips_[key] = tip;
    labels_[key] = label;
    return w;
}

void PropertiesPanel::showNode(edit::NodeId id, const Operator& op, std::function<bool(const std::string&)> taken) {
    taken_ = std::move(taken);
    const bool same = mode_ == Mode::Node && id_ == id && op_.type == op.type;
    id_ = id;
    op_ = op;
    if (same) return refresh();
    clearForm();
    mode_ = Mode::Node;
    title_->setText(tr("<b>%1</b> operator").arg(QString::fromLatin1(opTypeName(op.type))));
    addField("name", tr("Name"), tr("The operator's name: unique in the network, shown in the grid and the graph (F2)"), {});
    specs_ = opFields(op.type);
    for (const OpField& f : specs_) addField(f.key, f.label, f.tip, f.choices);
    refresh();
}

void PropertiesPanel::showHeader(const edit::Header& header) {
    const bool same = mode_ == Mode::Header;
    header_ = header;
    if (same) return refresh();
    clearForm();
    mode_ = Mode::Header;
    title_->setText(tr("<b>Network</b> (nothing selected: select a node to edit it)"));
    addField("network_name", tr("Name"), tr("The network's name, as the library, the runs and the exports show it"), {});
    addField("description", tr("Description"), tr("One line about the network (optional)"), {});
    addField("input_c", tr("Input C"), tr("The network input's channels (per sample)"), {});
    addField("input_h", tr("Input H"), tr("The network input's height (1 for a vector)"), {});
    addField("input_w", tr("Input W"), tr("The network input's width (1 for a vector)"), {});
    refresh();
}

void PropertiesPanel::showNote(const QString& text) {
    clearForm();
    mode_ = Mode::Note;
    title_->setText(text);
}

void PropertiesPanel::showTemplate(const QString& key, const QString& label, const edit::TemplateParams& params,
                                   const edit::TemplateParams& defaults) {
    clearForm();
    mode_ = Mode::Template;
    template_key_ = key;
    template_ = params;
    template_defaults_ = defaults;
    title_->setText(tr("<b>%1</b> template: its parameters for the next insertion (double-click or drag it from "
                       "the palette)")
                        .arg(label.toHtmlEscaped()));
    template_specs_ = templateFields(params);
    for (const TemplateField& f : template_specs_) addField(f.key, f.label, f.tip, f.choices);
    auto* reset = new QPushButton(tr("Reset to defaults"), this);
    reset->setObjectName("template-reset");
    reset->setToolTip(tr("The template's parameters as the palette first offers them"));
    connect(reset, &QPushButton::clicked, this, [this] {
        for (const QString& k : errors_.keys()) setError(k, {});
        template_ = template_defaults_;
        refresh();
        emit templateEdited(template_key_, template_);
    });
    form_->addRow(QString(), reset);
    refresh();
}

void PropertiesPanel::refresh() {
    loading_ = true;
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
        const QString& key = it.key();
        QString value;
        bool applies = true;
        // Whether text the user typed already means the current value ("3, 3" for 3): kept as typed.
        std::function<bool(const QString&)> means = [](const QString&) { return false; };
        if (mode_ == Mode::Template) {
            for (const TemplateField& f : template_specs_)
                if (f.key == key) {
                    value = f.text(template_);
                    means = [this, &f, &value](const QString& t) {
                        edit::TemplateParams p = template_;
                        return f.parse(t, p).isEmpty() && f.text(p) == value;
                    };
                }
        } else if (mode_ == Mode::Header) {
            value = headerValue(header_, key);
            means = [this, key, &value](const QString& t) {
                edit::Header h = header_;
                return parseHeader(key, t, h).isEmpty() && headerValue(h, key) == value;
            };
        } else if (key == "name") {
            value = q(op_.name);
            means = [&value](const QString& t) { return t.trimmed() == value; };
        } else {
            for (const OpField& f : specs_)
                if (f.key == key) {
                    applies = f.applies(op_);
                    value = applies ? f.text(op_) : QString();
                    means = [this, &f, &value](const QString& t) {
                        Operator op = op_;
                        return f.parse(t, op).isEmpty() && f.text(op) == value;
                    };
                }
        }
        QWidget* w = it.value();
        w->setEnabled(applies);
        if (auto* box = qobject_cast<QComboBox*>(w)) {
            box->setCurrentText(value);
        } else if (auto* edit = qobject_cast<QLineEdit*>(w);
                   edit && !errors_.contains(key) && edit->text() != value && !means(edit->text())) {
            edit->setText(value);  // an undo, or another field's edit (a stride following its kernel)
            edit->setCursorPosition(0);
        }
    }
    loading_ = false;
}

void PropertiesPanel::edited(const QString& key, const QString& text) {
    if (loading_) return;
    if (mode_ == Mode::Template) {
        edit::TemplateParams p = template_;
        QString why;
        for (const TemplateField& f : template_specs_)
            if (f.key == key) why = f.parse(text, p);
        setError(key, why);
        if (!why.isEmpty()) return;
        template_ = p;
        emit templateEdited(template_key_, template_);
        return;
    }
    if (mode_ == Mode::Header) {
        edit::Header h = header_;
        const QString why = parseHeader(key, text, h);
        setError(key, why);
        if (!why.isEmpty()) return;
        header_ = h;
        emit headerEdited(header_, key);
        return;
    }
    Operator op = op_;
    QString why;
    if (key == "name") {
        const std::string name = text.trimmed().toStdString();
        if (name.empty()) why = tr("an operator needs a name");
        else if (name == "input") why = tr("'input' is the network input's name");
        else if (name != op_.name && taken_ && taken_(name)) why = tr("another operator is called '%1'").arg(text.trimmed());
        else op.name = name;
    } else {
        for (const OpField& f : specs_)
            if (f.key == key) why = f.parse(text, op);
    }
    setError(key, why);
    if (!why.isEmpty()) return;
    op_ = op;
    emit operatorEdited(id_, op_, key);
    if (key == "pool" || key.endsWith("kernel")) refresh();  // the pool's fields or a following stride
}

void PropertiesPanel::setError(const QString& key, const QString& reason) {
    QWidget* w = fields_.value(key);
    if (!w) return;
    if (reason.isEmpty()) {
        errors_.remove(key);
        w->setStyleSheet({});
        w->setToolTip(tips_[key]);
    } else {
        errors_[key] = reason;
        w->setStyleSheet("QLineEdit { background-color: #ffd6d6; }");
        w->setToolTip(labels_[key] + ": " + reason + "\n\n" + tips_[key]);
    }
    w->setProperty("invalid", !reason.isEmpty());
    QStringList lines;
    for (auto it = errors_.begin(); it != errors_.end(); ++it) lines << labels_[it.key()] + ": " + it.value();
    problem_->setText(lines.join('\n'));
    problem_->setVisible(!lines.isEmpty());
}

QString PropertiesPanel::problem() const {
    return errors_.isEmpty() ? QString() : labels_[errors_.firstKey()] + ": " + errors_.first();
}

void PropertiesPanel::editName() {
    auto* edit = qobject_cast<QLineEdit*>(fields_.value(mode_ == Mode::Header ? "network_name" : "name"));
    if (!edit) return;
    edit->setVisible(true);  // a form built just now is shown by the layout only on the next event loop pass
    edit->setFocus(Qt::ShortcutFocusReason);
    edit->selectAll();
}

}  // namespace partita
