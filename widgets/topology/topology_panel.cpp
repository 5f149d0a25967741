#include "widgets/topology/topology_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "widgets/topology/topology_view.h"

namespace partita {

using Colouring = TopologyView::Colouring;

TopologyPanel::TopologyPanel(QWidget* parent) : QWidget(parent) {
    view_ = new TopologyView(this);
    colouring_ = new QComboBox(this);
    colouring_->setObjectName("topology-colouring");
    colouring_->addItem(tr("Device and link kind"), static_cast<int>(Colouring::Kind));
    colouring_->addItem(tr("Utilisation"), static_cast<int>(Colouring::Utilisation));
    colouring_->addItem(tr("Bytes moved"), static_cast<int>(Colouring::Bytes));
    colouring_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    hint_ = new QLabel(this);
    hint_->setObjectName("topology-hint");
    hint_->setForegroundRole(QPalette::PlaceholderText);
    hint_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a hint gives way: never widens the tab

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 4, 8, 2);
    auto* label = new QLabel(tr("Colour by"), this);
    label->setBuddy(colouring_);
    bar->setSpacing(6);
    bar->addWidget(label);
    bar->addWidget(colouring_);
    bar->addSpacing(12);
    bar->addWidget(hint_, 1);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addLayout(bar);
    column->addWidget(view_, 1);

    connect(colouring_, &QComboBox::activated, this, [this] {
        view_->setColouring(static_cast<Colouring>(colouring_->currentData().toInt()));
        view_->setFocus();
    });
    connect(view_, &TopologyView::colouringChanged, this, &TopologyPanel::sync);
    sync();
}

void TopologyPanel::sync() {
    const QSignalBlocker quiet(colouring_);
    const bool load = view_->hasLoad();
    colouring_->setCurrentIndex(colouring_->findData(static_cast<int>(view_->colouring())));
    colouring_->setEnabled(load);
    colouring_->setToolTip(load ? tr("What colours devices and links (C cycles)")
                                : tr("Utilisation and bytes moved need a simulated run (Simulate or MCMC)"));
    hint_->setText(load ? tr("Click a device or a cable to find its lane in the Timeline")
                        : tr("Run Simulate or MCMC to colour by load"));
    hint_->setToolTip(hint_->text());  // the whole hint where a narrow tab cuts it
}

}  // namespace partita
