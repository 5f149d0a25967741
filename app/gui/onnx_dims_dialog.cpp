#include "app/gui/onnx_dims_dialog.h"

#include <algorithm>
#include <map>

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

bool OnnxDimsDialog::asks(const std::vector<onnx::GraphInput>& inputs) {
    return std::any_of(inputs.begin(), inputs.end(), [](const onnx::GraphInput& in) { return onnx::hasOpenDims(in); });
}

bool OnnxDimsDialog::isRemembered(const QString& path) { return QSettings().contains(settingsKey(path)); }

onnx::InputDims OnnxDimsDialog::remembered(const QString& path, const std::vector<onnx::GraphInput>& inputs) {
    onnx::InputDims dims;
    const QVariantMap saved = QSettings().value(settingsKey(path)).toMap();
    std::map<std::string, std::int64_t> symbols;  // a named dimension gets one size in every input
    for (const onnx::GraphInput& in : inputs) {
        if (!onnx::hasOpenDims(in)) continue;  // the model's own sizes
        std::vector<std::int64_t> values = onnx::defaultDims(in, symbols);
        std::vector<std::int64_t> kept;
        // A remembered answer of another rank belongs to an older version of the file.
        if (parseList(saved.value(q(in.name)).toString(), &kept) && (!in.rank_known || kept.size() == in.dims.size()))
            values = kept;
        if (!values.empty()) dims.inputs[in.name] = values;
    }
    return dims;
}

void OnnxDimsDialog::remember(const QString& path, const onnx::InputDims& dims) {
    QVariantMap saved;
    for (const auto& [name, values] : dims.inputs) saved[q(name)] = listText(values);
    QSettings().setValue(settingsKey(path), saved);
}

OnnxDimsDialog::OnnxDimsDialog(const QString& path, std::vector<onnx::GraphInput> inputs, QWidget* parent)
    : QDialog(parent), path_(path) {
    setWindowTitle(tr("Input sizes of %1").arg(QFileInfo(path).fileName()));
    const onnx::InputDims chosen = remembered(path, inputs);
    QStringList fixed;
    for (onnx::GraphInput& in : inputs) {
        if (onnx::hasOpenDims(in)) open_.push_back(std::move(in));
        else fixed << tr("%1 %2").arg(q(in.name), in.dims.empty() ? tr("(a scalar)") : declared(in));
    }
    auto* column = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The model leaves some input sizes open. Give each input's whole shape, batch "
                                "first, as comma-separated sizes (the batch is a run parameter: 1 is fine)."),
                             this);
    intro->setWordWrap(true);
    column->addWidget(intro);
    auto* form = new QFormLayout;
    for (const auto& in : open_) {
        auto* field = new QLineEdit(this);
        field->setObjectName(q("dims-" + in.name));
        const auto it = chosen.inputs.find(in.name);
        if (it != chosen.inputs.end()) field->setText(listText(it->second));
        field->setToolTip(tr("Sizes of '%1', declared %2").arg(q(in.name), declared(in)));
        form->addRow(tr("%1 %2").arg(q(in.name), declared(in)), field);
        fields_.push_back(field);
    }
    column->addLayout(form);
    if (!fixed.isEmpty()) {
        auto* given = new QLabel(tr("Sized by the model: %1").arg(fixed.join(", ")), this);
        given->setObjectName("dims-fixed");
        given->setWordWrap(true);
        given->setStyleSheet("color: #555");
        column->addWidget(given);
    }
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
    for (size_t i = 0; i < open_.size(); ++i) {
        std::vector<std::int64_t> values;
        if (!parseList(fields_[i]->text(), &values)) {
            *problem = tr("'%1': expected positive sizes separated by commas").arg(q(open_[i].name));
            return false;
        }
        if (open_[i].rank_known && values.size() != open_[i].dims.size()) {
            *problem = tr("'%1' has %2 dimensions, %3 given")
                           .arg(q(open_[i].name))
                           .arg(open_[i].dims.size())
                           .arg(values.size());
            return false;
        }
        out->inputs[open_[i].name] = values;
    }
    return true;
}

}  // namespace partita::gui
