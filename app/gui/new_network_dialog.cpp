#include "app/gui/new_network_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

#include "core/util/limits.h"

namespace partita::gui {

NewNetworkDialog::NewNetworkDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("New network"));
    auto* form = new QFormLayout(this);
    name_ = new QLineEdit(tr("Untitled"), this);
    name_->setObjectName("new-name");
    name_->setToolTip(tr("The network's name (it can be changed later in the editor's properties)"));
    form->addRow(tr("Name"), name_);
    const auto spin = [this, form](const QString& key, const QString& label, int value, const QString& tip) {
        auto* box = new QSpinBox(this);
        box->setObjectName(key);
        box->setRange(1, static_cast<int>(limits::kDimension));
        box->setValue(value);
        box->setToolTip(tip);
        form->addRow(label, box);
        return box;
    };
    c_ = spin("new-c", tr("Input channels"), 3, tr("Channels of the network input, per sample"));
    h_ = spin("new-h", tr("Input height"), 224, tr("Height of the network input (1 for a vector)"));
    w_ = spin("new-w", tr("Input width"), 224, tr("Width of the network input (1 for a vector)"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

QString NewNetworkDialog::name() const { return name_->text().trimmed().isEmpty() ? tr("Untitled") : name_->text().trimmed(); }

Shape NewNetworkDialog::input() const { return {c_->value(), h_->value(), w_->value()}; }

}  // namespace partita::gui
