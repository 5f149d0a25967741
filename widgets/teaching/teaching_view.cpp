#include "widgets/teaching/teaching_view.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "core/util/format.h"

namespace partita {

namespace {

constexpr int kPhases = 3;
constexpr int kPlayMs = 1600;  // long enough to read a phase's numbers

// The drawing surface: paints the owner's figure at its own size.
class Canvas : public QWidget {
public:
    Canvas(const TeachingView* owner, QWidget* parent) : QWidget(parent), owner_(owner) {
        setMinimumSize(960, 560);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.fillRect(rect(), Qt::white);
        owner_->paintFigure(p, rect());
    }

private:
    const TeachingView* owner_;
};

}  // namespace

TeachingView::TeachingView(QWidget* parent) : QWidget(parent) {
    level_box_ = new QComboBox(this);
    layer_box_ = new QComboBox(this);
    level_box_->setToolTip(tr("The level of the partition hierarchy to show: H1 is the top split"));
    layer_box_->setToolTip(tr("The weighted layer l whose tensors are drawn"));
    auto* back = new QPushButton(tr("◀ Back"), this);
    auto* next = new QPushButton(tr("Next ▶"), this);
    play_ = new QPushButton(tr("Play"), this);
    play_->setCheckable(true);
    back->setToolTip(tr("Show the previous phase"));
    next->setToolTip(tr("Show the next phase"));
    play_->setToolTip(tr("Step through the phases on its own, one every %1 s").arg(kPlayMs / 1000.0));
    phases_ = new QButtonGroup(this);
    phases_->setExclusive(true);
    auto* bar = new QHBoxLayout;
    for (QComboBox* box : {level_box_, layer_box_}) {  // layer names can be long: shrink, the popup shows them
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(6);
    }
    bar->addWidget(new QLabel(tr("Level"), this));
    bar->addWidget(level_box_);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Layer"), this));
    bar->addWidget(layer_box_);
    // The phase controls on a second row, so the bar never sets the window's minimum width.
    auto* steps = new QHBoxLayout;
    steps->addWidget(back);
    const char* names[kPhases] = {"1 Forward", "2 Backward", "3 Gradient"};
    const char* tips[kPhases] = {"Forward: the layer's input F_l and weights W_l give its output F_l+1",
                                 "Backward: the error E_l+1 and weights W_l give the error E_l",
                                 "Gradient: the input F_l and error E_l+1 give the weight gradient dW_l"};
    for (int i = 0; i < kPhases; ++i) {
        auto* b = new QPushButton(tr(names[i]), this);
        b->setToolTip(tr(tips[i]));
        b->setCheckable(true);
        phases_->addButton(b, i);
        steps->addWidget(b);
    }
    steps->addWidget(next);
    steps->addWidget(play_);
    steps->addStretch(1);
    bar->addSpacing(12);
    summary_ = new QLabel(this);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // clipped, never widening the window
    bar->addWidget(summary_, 1);

    // The figure needs 960 x 560 to stay legible; in a narrower window it scrolls rather than
    // widening the window's minimum (which would squeeze the docks).
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    canvas_ = new Canvas(this, scroll);
    scroll->setWidget(canvas_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addLayout(steps);
    layout->addWidget(scroll, 1);

    timer_ = new QTimer(this);
    timer_->setInterval(kPlayMs);
    connect(timer_, &QTimer::timeout, this, [this] { step(+1); });
    connect(play_, &QPushButton::toggled, this, &TeachingView::setPlaying);
    connect(back, &QPushButton::clicked, this, [this] { step(-1); });
    connect(next, &QPushButton::clicked, this, [this] { step(+1); });
    connect(phases_, &QButtonGroup::idClicked, this, [this](int id) { setPhase(static_cast<Phase>(id)); });
    auto picked = [this] {
        if (syncing_ || !run_) return;
        setCell(level_box_->currentIndex(), layer_box_->currentIndex());
        emit cellChanged(level_, layer_);
    };
    connect(level_box_, &QComboBox::currentIndexChanged, this, picked);
    connect(layer_box_, &QComboBox::currentIndexChanged, this, picked);
    fillCombos();
    syncControls();
}

void TeachingView::setRun(RunPtr run) {
    run_ = std::move(run);
    fillCombos();
    setCell(level_, layer_);
}

void TeachingView::setEmptyText(const QString& text) {
    empty_text_ = text;
    update();
}

void TeachingView::setCell(int level, int layer) {
    const int levels = run_ ? run_->grid.levels() : 0, layers = run_ ? run_->grid.layers() : 0;
    level_ = std::clamp(level, 0, std::max(0, levels - 1));
    layer_ = std::clamp(layer, 0, std::max(0, layers - 1));
    rebuild();
    syncControls();
    canvas_->update();
}

void TeachingView::setPhase(Phase phase) {
    const bool changed = phase != phase_;
    phase_ = phase;
    syncControls();
    canvas_->update();
    if (changed) emit phaseChanged(static_cast<int>(phase_));
}

void TeachingView::step(int delta) {
    const int next = ((static_cast<int>(phase_) + delta) % kPhases + kPhases) % kPhases;
    setPhase(static_cast<Phase>(next));
}

void TeachingView::setPlaying(bool playing) {
    if (playing) timer_->start(); else timer_->stop();
    if (play_->isChecked() != playing) play_->setChecked(playing);
    play_->setText(playing ? tr("Pause") : tr("Play"));
}

bool TeachingView::playing() const { return timer_->isActive(); }

QString TeachingView::phaseSummary() const {
    if (!teaching_) return tr("no run");
    const double e = teaching_->phaseElements(phase_);
    QString text = QString::fromLatin1(phaseName(phase_)) + QStringLiteral(": ");
    if (e == 0) return text + tr("nothing moves");
    return text + QStringLiteral("%1 elements (%2)")
                      .arg(QString::fromStdString(withCommas(e)),
                           QString::fromStdString(withPrefix(e * teaching_->bytes_per_element, "B")));
}

CsvTable TeachingView::csv() const {
    if (!teaching_) return {};
    return teachingCsv(*teaching_);
}

void TeachingView::rebuild() {
    teaching_.reset();
    if (!run_ || !run_->inputs || run_->grid.levels() == 0 || run_->grid.layers() == 0) return;
    teaching_ = teachCell(run_->inputs->layers, run_->grid, run_->inputs->params, level_, layer_);
}

void TeachingView::fillCombos() {
    syncing_ = true;
    level_box_->clear();
    layer_box_->clear();
    if (run_) {
        for (int h = 0; h < run_->grid.levels(); ++h) level_box_->addItem(QStringLiteral("H%1").arg(h + 1));
        for (int l = 0; l < run_->grid.layers() && l < int(run_->inputs->layers.size()); ++l)
            layer_box_->addItem(QString::fromStdString(run_->inputs->layers[size_t(l)].name));
    }
    syncing_ = false;
}

void TeachingView::syncControls() {
    syncing_ = true;
    if (level_ < level_box_->count()) level_box_->setCurrentIndex(level_);
    if (layer_ < layer_box_->count()) layer_box_->setCurrentIndex(layer_);
    syncing_ = false;
    if (auto* b = phases_->button(static_cast<int>(phase_))) b->setChecked(true);
    summary_->setText(phaseSummary());
}

}  // namespace partita
