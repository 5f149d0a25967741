#include "widgets/l2s/l2s_models.h"

#include <algorithm>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>

#include "widgets/common/method_table.h"

namespace partita {

namespace {

QLabel* l2sLabel(const QString& text, QWidget* buddy, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    l->setBuddy(buddy);
    l->setToolTip(buddy->toolTip());
    return l;
}

}  // namespace

L2sModelControls::L2sModelControls(QWidget* parent) : QWidget(parent) {
    // The groups' layout is on a child placed by resizeEvent: a layout on this widget would answer
    // the parent's height-for-width questions in its place.
    inner_ = new QWidget(this);
    row_ = new QBoxLayout(QBoxLayout::LeftToRight, inner_);
    row_->setContentsMargins(0, 0, 0, 0);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    compute_ = new QComboBox(this);
    compute_->setObjectName("l2s-compute");
    compute_->addItem(tr("lane-filling"), static_cast<int>(l2s::ComputeModel::LaneFilling));
    compute_->addItem(tr("channel-only"), static_cast<int>(l2s::ComputeModel::ChannelOnly));
    compute_->setToolTip(tr("Per-core cycles of a layer. lane-filling (default): ceil(MACs / 256), the 16×16 PEs "
                            "filled by any dimension; channel-only (spec B4, the old default): only channels fill them"));
    setItemTips(compute_, {tr("ceil(MACs / 256) cycles per core"),
                           tr("H W K² ceil(C_out,core / 16) ceil(C_in / 16) cycles per core")});
    comm_ = new QComboBox(this);
    comm_->setObjectName("l2s-comm");
    comm_->addItem(tr("burst"), static_cast<int>(l2s::CommModel::Burst));
    comm_->addItem(tr("ideal"), static_cast<int>(l2s::CommModel::Ideal));
    comm_->setToolTip(tr("How a boundary's communication is timed. burst (default): the busiest port or link drains "
                         "at the rate beside, as the all-gather's transfers block each other; ideal (the old "
                         "default): the busiest link at 2 flits/cycle, no congestion"));
    rate_ = new QDoubleSpinBox(this);
    rate_->setObjectName("l2s-rate");
    rate_->setRange(kMinRate, kMaxRate);
    rate_->setDecimals(2);
    rate_->setSingleStep(0.05);
    rate_->setValue(0.4);
    rate_->setKeyboardTracking(false);  // one evaluation per finished edit, not per keystroke
    rate_->setToolTip(tr("Burst: the effective rate each node's port drains at, %1 to %2 flits/cycle/node "
                         "(0.4, near BookSim's saturation, by default); not used by ideal")
                          .arg(kMinRate)
                          .arg(kMaxRate));
    for (int h = 0; h < 3; ++h) {
        auto* box = keep_[h] = new QDoubleSpinBox(this);
        box->setObjectName(QStringLiteral("l2s-keep-%1").arg(h + 1));
        box->setRange(0, 1);
        box->setDecimals(3);
        box->setSingleStep(0.05);
        box->setKeyboardTracking(false);
        box->setToolTip(tr("SS_Mask: probability a block %1 hop(s) away is kept (0 to 1); farther blocks are dropped. "
                           "The preset's values give Table IV's traffic rate").arg(h + 1));
    }
    defaults_ = new QPushButton(tr("Defaults"), this);
    defaults_->setObjectName("l2s-model-defaults");
    defaults_->setToolTip(tr("lane-filling, burst at 0.4 flits/cycle/node and the preset's hop keep"));

    // Two groups side by side, one above the other when the tab is too narrow for both (resizeEvent).
    auto* noc = new QWidget(inner_);
    auto* a = new QHBoxLayout(noc);
    a->setContentsMargins(0, 0, 0, 0);
    a->addWidget(l2sLabel(tr("Compute"), compute_, noc));
    a->addWidget(compute_);
    a->addSpacing(6);
    a->addWidget(l2sLabel(tr("NoC"), comm_, noc));
    a->addWidget(comm_);
    a->addWidget(l2sLabel(tr("at"), rate_, noc));
    a->addWidget(rate_);
    a->addWidget(l2sLabel(tr("flits/cycle/node"), rate_, noc));
    auto* keep = new QWidget(inner_);
    auto* b = new QHBoxLayout(keep);
    b->setContentsMargins(0, 0, 0, 0);
    b->addWidget(l2sLabel(tr("Keep at 1, 2, 3 hops"), keep_[0], keep));
    for (QDoubleSpinBox* box : keep_) b->addWidget(box);
    b->addWidget(defaults_);
    for (QWidget* w : {static_cast<QWidget*>(compute_), static_cast<QWidget*>(comm_), static_cast<QWidget*>(rate_),
                       static_cast<QWidget*>(keep_[0]), static_cast<QWidget*>(keep_[1]),
                       static_cast<QWidget*>(keep_[2])})
        w->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);  // wrap rather than squeeze the numbers
    for (QWidget* group : {noc, keep}) {
        group->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
        row_->addWidget(group, 0, Qt::AlignLeft);
    }
    row_->addStretch(1);
    groups_[0] = noc;
    groups_[1] = keep;

    auto edited = [this] {
        rate_->setEnabled(comm() == l2s::CommModel::Burst);
        if (!updating_) emit changed();
    };
    connect(compute_, &QComboBox::currentIndexChanged, this, edited);
    connect(comm_, &QComboBox::currentIndexChanged, this, edited);
    connect(rate_, &QDoubleSpinBox::valueChanged, this, edited);
    for (QDoubleSpinBox* box : keep_) connect(box, &QDoubleSpinBox::valueChanged, this, edited);
    connect(defaults_, &QPushButton::clicked, this, &L2sModelControls::defaultsRequested);
    show(L2sSettings{}, {1, 0, 0});  // until an outcome shows its own (the preset's keep is not known here)
}

l2s::ComputeModel L2sModelControls::compute() const {
    return static_cast<l2s::ComputeModel>(compute_->currentData().toInt());
}
l2s::CommModel L2sModelControls::comm() const { return static_cast<l2s::CommModel>(comm_->currentData().toInt()); }
double L2sModelControls::rate() const { return rate_->value(); }
std::vector<double> L2sModelControls::hopKeep() const { return {keep_[0]->value(), keep_[1]->value(), keep_[2]->value()}; }

void L2sModelControls::show(const L2sSettings& s, const std::vector<double>& hop_keep) {
    updating_ = true;
    compute_->setCurrentIndex(compute_->findData(static_cast<int>(s.compute)));
    comm_->setCurrentIndex(comm_->findData(static_cast<int>(s.comm)));
    rate_->setEnabled(s.comm == l2s::CommModel::Burst);
    rate_->setValue(s.burst_rate);
    shown_rate_ = s.burst_rate;
    shown_rate_box_ = rate_->value();
    shown_keep_ = hop_keep;
    shown_keep_box_.clear();
    for (size_t h = 0; h < 3; ++h) {
        keep_[h]->setValue(h < hop_keep.size() ? hop_keep[h] : 0);
        shown_keep_box_.push_back(keep_[h]->value());
    }
    updating_ = false;
}

void L2sModelControls::applyTo(L2sSettings& s) const {
    s.compute = compute();
    s.comm = comm();
    s.burst_rate = rate() == shown_rate_box_ ? shown_rate_ : rate();
    const std::vector<double> boxes = hopKeep();
    if (boxes == shown_keep_box_) return;
    s.hop_keep = shown_keep_;
    for (size_t h = 0; h < 3; ++h)
        if (boxes[h] != shown_keep_box_[h]) s.hop_keep[h] = boxes[h];
}

int L2sModelControls::bothWidth() const {
    return groups_[0]->sizeHint().width() + row_->spacing() + groups_[1]->sizeHint().width();
}

QSize L2sModelControls::sizeHint() const { return {bothWidth(), heightForWidth(bothWidth())}; }

QSize L2sModelControls::minimumSizeHint() const {
    const QSize a = groups_[0]->sizeHint(), b = groups_[1]->sizeHint();
    return {std::max(a.width(), b.width()), std::max(a.height(), b.height())};
}

int L2sModelControls::heightForWidth(int width) const {
    const int a = groups_[0]->sizeHint().height(), b = groups_[1]->sizeHint().height();
    return width >= bothWidth() ? std::max(a, b) : a + row_->spacing() + b;
}

void L2sModelControls::resizeEvent(QResizeEvent* event) {
    const auto direction = event->size().width() >= bothWidth() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (row_->direction() != direction) row_->setDirection(direction);
    // Scroll areas and box layouts above do not ask heightForWidth: two rows claim their height here.
    if (const int h = heightForWidth(event->size().width()); minimumHeight() != h) setMinimumHeight(h);
    inner_->setGeometry(rect());
    QWidget::resizeEvent(event);
}

}  // namespace partita
