#include "app/gui/onnx_dims_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "widgets/common/qt_text.h"

namespace partita::gui {

namespace {

QString settingsKey(const QString& path) { return "onnx-dims/" + QString(path).replace('/', '|'); }

QString declared(const onnx::GraphInput& in) {
    if (!in.rank_known) return QObject::tr("no declared shape");
    QStringList dims;
    for (const auto& d : in.dims) dims << (d.fixed() ? QString::number(d.value) : d.symbol.empty() ? "?" : q(d.symbol));
    return "[" + dims.join(", ") + "]";
}

QString listText(const std::vector<std::int64_t>& dims) {
    QStringList parts;
    for (auto d : dims) parts << QString::number(d);
    return parts.join(",");
}

bool parseList(const QString& text, std::vector<std::int64_t>* out) {
    out->clear();
    for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong v = part.trimmed().toLongLong(&ok);
        if (!ok || v <= 0) return false;
        out->push_back(v);
    }
    return !out->empty();
}

}  // namespace

onnx::InputDims OnnxDimsDialog::remembered(const QString& path) {
    return remembered(path, onnx::graphInputs(path.toStdString()));
}

onnx::InputDims OnnxDimsDialog::remembered(const QString& path, const std::vector<onnx::GraphInput>& inputs) {
    onnx::InputDims dims = onnx::defaultInputDims(inputs);
    const QSettings settings;
    const QVariantMap saved = settings.value(settingsKey(path)).toMap();
    for (auto it = saved.begin(); it != saved.end(); ++it) {
        std::vector<std::int64_t> values;
        if (parseList(it.value().toString(), &values)) dims.inputs[it.key().toStdString()] = values;
    }
    return dims;
}

void OnnxDimsDialog::remember(const QString& path, const onnx::InputDims& dims) {
    QVariantMap saved;
    for (const auto& [name, values] : dims.inputs) saved[q(name)] = listText(values);
    QSettings().setValue(settingsKey(path), saved);
}

OnnxDimsDialog::OnnxDimsDialog(const QString& path, QWidget* parent) : QDialog(parent), path_(path) {
    setWindowTitle(tr("Input sizes of %1").arg(QFileInfo(path).fileName()));
    inputs_ = onnx::graphInputs(path.toStdString());
    const onnx::InputDims chosen = remembered(path, inputs_);
    auto* column = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The model leaves some input sizes open. Give each input's whole shape, batch "
                                "first, as comma-separated sizes (the batch is a run parameter: 1 is fine)."),
                             this);
    intro->setWordWrap(true);
    column->addWidget(intro);
    auto* form = new QFormLayout;
    for (const auto& in : inputs_) {
        auto* field = new QLineEdit(this);
        field->setObjectName(q("dims-" + in.name));
        const auto it = chosen.inputs.find(in.name);
        if (it != chosen.inputs.end()) field->setText(listText(it->second));
        field->setToolTip(tr("Sizes of '%1', declared %2").arg(q(in.name), declared(in)));
        form->addRow(tr("%1 %2").arg(q(in.name), declared(in)), field);
        fields_.push_back(field);
    }
    column->addLayout(form);
    problem_ = new QLabel(this);
    problem_->setStyleSheet("color: #b00020");
    column->addWidget(problem_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setToolTip(tr("Import the model with these sizes"));
    buttons->button(QDialogButtonBox::Cancel)->setToolTip(tr("Do not open the model"));
    column->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        onnx::InputDims d;
        QString problem;
        if (!dims(&d, &problem)) return problem_->setText(problem);
        remember(path_, d);
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

bool OnnxDimsDialog::dims(onnx::InputDims* out, QString* problem) const {
    out->inputs.clear();
    for (size_t i = 0; i < inputs_.size(); ++i) {
        std::vector<std::int64_t> values;
        if (!parseList(fields_[i]->text(), &values)) {
            *problem = tr("'%1': expected positive sizes separated by commas").arg(q(inputs_[i].name));
            return false;
        }
        if (inputs_[i].rank_known && values.size() != inputs_[i].dims.size()) {
            *problem = tr("'%1' has %2 dimensions, %3 given")
                           .arg(q(inputs_[i].name))
                           .arg(inputs_[i].dims.size())
                           .arg(values.size());
            return false;
        }
        out->inputs[inputs_[i].name] = values;
    }
    return true;
}

}  // namespace partita::gui
