#include "widgets/timeline/gantt_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/timeline/gantt_canvas.h"

namespace partita {

GanttView::GanttView(QWidget* parent) : QWidget(parent), canvas_(new GanttCanvas(this)) {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 4);
    bar->setSpacing(10);
    bar->addWidget(new QLabel(tr("Colour by"), this));
    colouring_ = new QComboBox(this);
    colouring_->addItem(tr("Phase"));
    colouring_->addItem(tr("Layer"));
    colouring_->setToolTip(tr("Colour the bars by training phase or by layer"));
    bar->addWidget(colouring_);
    critical_ = new QCheckBox(tr("Critical path"), this);
    idle_ = new QCheckBox(tr("Hide idle links"), this);
    idle_->setChecked(canvas_->idleLinksHidden());
    critical_->setToolTip(tr("Draw the critical path of the simulated step over the lanes"));
    idle_->setToolTip(tr("Leave out the lanes of links that carry no traffic in this run"));
    bar->addWidget(critical_);
    bar->addWidget(idle_);
    auto* fit = new QPushButton(tr("Fit all"), this);
    fit->setToolTip(tr("Show the whole run (F or Home)"));
    bar->addWidget(fit);
    memory_ = new QLabel(this);
    memory_->setStyleSheet(QStringLiteral("color: rgb(200, 30, 30); font-weight: bold"));
    memory_->setMinimumWidth(1);  // clipped rather than widening the window; the tooltip has it whole
    memory_->setContentsMargins(6, 0, 6, 4);
    memory_->hide();
    bar->addStretch(1);
    auto* hint = new QLabel(tr("Wheel: zoom \u00b7 drag: pan \u00b7 Shift+wheel: scroll lanes \u00b7 click a bar: select its layer"),
                            this);
    hint->setEnabled(false);
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a hint: clipped before the bar widens the window
    hint->setToolTip(hint->text());
    bar->addWidget(hint);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(memory_);  // its own line under the controls, shown only when the strategy does not fit
    layout->addWidget(canvas_, 1);

    connect(colouring_, &QComboBox::currentIndexChanged, this, [this](int i) {
        canvas_->setColouring(i == 1 ? view::GanttColouring::Layer : view::GanttColouring::Phase);
    });
    connect(critical_, &QCheckBox::toggled, canvas_, &GanttCanvas::setCriticalPathShown);
    connect(idle_, &QCheckBox::toggled, canvas_, &GanttCanvas::setIdleLinksHidden);
    connect(fit, &QPushButton::clicked, canvas_, &GanttCanvas::fitAll);
    connect(canvas_, &GanttCanvas::operatorClicked, this, &GanttView::operatorClicked);
    connect(canvas_, &GanttCanvas::resourceClicked, this, &GanttView::resourceClicked);
}

void GanttView::setInput(std::shared_ptr<const view::GanttInput> input) {
    const QString note = input && !input->memory_note.empty() ? tr("Does not fit: %1").arg(q(input->memory_note)) : QString();
    memory_->setText(note);
    memory_->setToolTip(note);
    memory_->setVisible(!note.isEmpty());
    canvas_->setInput(std::move(input));
}

QString GanttView::memoryNote() const { return memory_->text(); }
const view::GanttModel& GanttView::model() const { return canvas_->model(); }

void GanttView::setColouring(view::GanttColouring colouring) {
    canvas_->setColouring(colouring);
    syncControls();
}
view::GanttColouring GanttView::colouring() const { return canvas_->model().colouring(); }

void GanttView::setCriticalPathShown(bool shown) {
    canvas_->setCriticalPathShown(shown);
    syncControls();
}
bool GanttView::criticalPathShown() const { return canvas_->criticalPathShown(); }

void GanttView::setIdleLinksHidden(bool hidden) {
    canvas_->setIdleLinksHidden(hidden);
    syncControls();
}
bool GanttView::idleLinksHidden() const { return canvas_->idleLinksHidden(); }

void GanttView::selectOperator(int op) { canvas_->setSelectedOperator(op); }
int GanttView::selectedOperator() const { return canvas_->selectedOperator(); }
void GanttView::selectResource(int resource) { canvas_->setSelectedResource(resource); }
int GanttView::selectedResource() const { return canvas_->selectedResource(); }
void GanttView::fitAll() { canvas_->fitAll(); }
std::pair<double, double> GanttView::visibleRange() const { return canvas_->visibleRange(); }
void GanttView::setGroupCollapsed(int group, bool collapsed) { canvas_->setGroupCollapsed(group, collapsed); }
int GanttView::visibleLaneCount() const { return canvas_->layout().visibleLaneCount(); }

void GanttView::syncControls() {
    const QSignalBlocker a(colouring_), b(critical_), c(idle_);
    colouring_->setCurrentIndex(colouring() == view::GanttColouring::Layer ? 1 : 0);
    critical_->setChecked(criticalPathShown());
    idle_->setChecked(idleLinksHidden());
}

void GanttView::paintFigure(QPainter& painter, const QRect& area) const { canvas_->paintInto(painter, area); }

CsvTable GanttView::csv() const {
    CsvTable t;
    t.header = {"lane", "group", "layer", "phase", "part", "task", "start (s)", "end (s)", "duration (s)", "bytes (B)"};
    const auto& m = model();
    for (const auto& g : m.groups())
        for (int l = g.first_lane; l < g.first_lane + g.lane_count; ++l)
            for (int i = 0; i < static_cast<int>(m.bars(l).size()); ++i) {
                const auto& r = m.record(l, i);
                t.rows.push_back({m.lanes()[static_cast<size_t>(l)].name, g.name, m.opName(r.op), view::phaseLabel(r.phase),
                                  std::to_string(r.part), std::to_string(r.task), formatNumber(r.start),
                                  formatNumber(r.end), formatNumber(r.end - r.start), formatNumber(r.bytes)});
            }
    return t;
}

}  // namespace partita
