#include "widgets/llm/pipeline_timeline_view.h"

#include <algorithm>

#include <QFile>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include "core/util/format.h"
#include "widgets/timeline/gantt_canvas.h"

namespace partita {

namespace {

sim::Phase phaseOf(llm::BlockKind k) {
    switch (k) {
    case llm::BlockKind::Forward:
    case llm::BlockKind::Recompute: return sim::Phase::Forward;
    case llm::BlockKind::Backward: return sim::Phase::Backward;
    case llm::BlockKind::Collective:
    case llm::BlockKind::PpSend: return sim::Phase::Transfer;
    default: return sim::Phase::Sync;
    }
}

// The simulator's Gantt input: the stages' compute lanes, then their communication lanes, then DP; the
// block kinds are the "layers" (colour keys), a record's task is the block's index.
std::shared_ptr<const view::GanttInput> ganttOf(const llm::PipelineTimeline& t) {
    auto in = std::make_shared<view::GanttInput>();
    const int p = static_cast<int>(t.stages);
    auto resourceOf = [p](int lane) { return lane == 2 * p ? 2 * p : lane % 2 == 0 ? lane / 2 : p + lane / 2; };
    in->resources.resize(t.lane_names.size());
    for (int l = 0; l < static_cast<int>(t.lane_names.size()); ++l) {
        const std::string group = l == 2 * p ? "data parallel and optimizer" : l % 2 ? "TP/SP collectives and PP sends" : "compute";
        in->resources[static_cast<size_t>(resourceOf(l))] = {t.lane_names[static_cast<size_t>(l)], group, l % 2 == 1 || l == 2 * p};
    }
    for (int k = 0; k < llm::kBlockKinds; ++k) in->op_names.push_back(llm::blockKindName(static_cast<llm::BlockKind>(k)));
    for (size_t i = 0; i < t.blocks.size(); ++i) {
        const auto& b = t.blocks[i];
        in->records.push_back({resourceOf(b.lane), static_cast<std::uint64_t>(i), static_cast<int>(b.kind), phaseOf(b.kind),
                               static_cast<int>(b.micro_batch), b.start, b.end, b.bytes});
    }
    std::stable_sort(in->records.begin(), in->records.end(),
                     [](const auto& a, const auto& b) { return a.resource < b.resource; });
    in->makespan = t.makespan;
    return in;
}

QString flopsText(double f) {
    if (f <= 0) return QStringLiteral("0");
    const char* units[] = {"", "k", "M", "G", "T", "P"};
    int u = 0;
    while (f >= 1000 && u < 5) f /= 1000, ++u;
    return QString::number(f, 'g', 4) + QStringLiteral(" %1FLOP").arg(QString::fromLatin1(units[u]));
}

}  // namespace

PipelineTimelineView::PipelineTimelineView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    header_->setContentsMargins(6, 4, 6, 2);
    canvas_ = new GanttCanvas(this);
    canvas_->setColouring(view::GanttColouring::Layer);
    canvas_->viewport()->installEventFilter(this);
    layout->addWidget(header_);
    layout->addWidget(canvas_, 1);
}

void PipelineTimelineView::setTimeline(llm::PipelineTimeline timeline) {
    timeline_ = std::move(timeline);
    canvas_->setInput(ganttOf(timeline_));
    canvas_->setColouring(view::GanttColouring::Layer);
    canvas_->fitAll();
    header_->setText(summary());
}

void PipelineTimelineView::setPlan(const llm::Transformer& model, const llm::Plan& plan, const llm::Profile& profile,
                                   const llm::Evaluation& evaluation) {
    setTimeline(llm::pipelineTimeline(plan, llm::timelineCosts(model, plan, profile, evaluation)));
}

void PipelineTimelineView::clear() {
    timeline_ = {};
    canvas_->setInput(nullptr);
    header_->clear();
}

QString PipelineTimelineView::summary() const {
    if (timeline_.blocks.empty()) return {};
    const double span = timeline_.pipeline_end;
    QString s = QStringLiteral("%1, %2 %3 × %4 micro-batches")
                    .arg(QString::fromLatin1(llm::scheduleName(timeline_.schedule)))
                    .arg(timeline_.stages)
                    .arg(timeline_.stages == 1 ? QStringLiteral("stage") : QStringLiteral("stages"))
                    .arg(timeline_.micro_batches);
    if (timeline_.chunks > 1) s += QStringLiteral(" × %1 chunks").arg(timeline_.chunks);
    s += QStringLiteral(" — iteration %1, pipeline %2")
             .arg(QString::fromStdString(view::timeText(timeline_.makespan)))
             .arg(QString::fromStdString(view::timeText(span)));
    if (timeline_.bubble_s <= 0) return s + QStringLiteral(", no bubble");
    s += QStringLiteral(", bubble %1 (%2 % of the pipeline)")
             .arg(QString::fromStdString(view::timeText(timeline_.bubble_s)))
             .arg(span > 0 ? 100 * timeline_.bubble_s / span : 0, 0, 'f', 1);
    return s;
}

std::optional<int> PipelineTimelineView::blockAt(const QPointF& pos) const {
    const auto bar = canvas_->barAt(pos);
    if (!bar) return std::nullopt;
    return static_cast<int>(canvas_->model().record(bar->first, bar->second).task);
}

QString PipelineTimelineView::blockToolTip(int index) const {
    if (index < 0 || index >= static_cast<int>(timeline_.blocks.size())) return {};
    const auto& b = timeline_.blocks[static_cast<size_t>(index)];
    QString s = QString::fromLatin1(llm::blockKindName(b.kind));
    if (b.micro_batch >= 0) {
        s += QStringLiteral(" — stage %1, micro-batch %2").arg(b.stage).arg(b.micro_batch);
        if (timeline_.chunks > 1) s += QStringLiteral(", chunk %1").arg(b.chunk);
    }
    s += QStringLiteral("\n%1 (from %2 to %3)")
             .arg(QString::fromStdString(view::timeText(b.seconds())))
             .arg(QString::fromStdString(view::timeText(b.start)))
             .arg(QString::fromStdString(view::timeText(b.end)));
    if (b.flops > 0) s += QStringLiteral("\n%1 per GPU").arg(flopsText(b.flops));
    if (b.bytes > 0) s += QStringLiteral("\n%1 sent per GPU").arg(QString::fromStdString(view::bytesText(b.bytes)));
    return s;
}

QString PipelineTimelineView::toolTipAt(const QPointF& pos) const {
    const auto b = blockAt(pos);
    return b ? blockToolTip(*b) : QString();
}

bool PipelineTimelineView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == canvas_->viewport()) {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const QString text = toolTipAt(help->pos());
            if (text.isEmpty()) QToolTip::hideText();
            else QToolTip::showText(help->globalPos(), text, canvas_->viewport());
            return true;
        }
        if (event->type() == QEvent::MouseButtonRelease) {
            auto* m = static_cast<QMouseEvent*>(event);
            if (const auto b = blockAt(m->position())) emit blockClicked(*b);
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PipelineTimelineView::paintFigure(QPainter& painter, const QRect& area) const {
    const QFontMetrics fm(font());
    const QString text = summary();
    const QRect head(area.left() + 6, area.top() + 2, area.width() - 12, 3 * fm.height());
    const QRect used = fm.boundingRect(head, Qt::TextWordWrap, text);
    painter.save();
    painter.setFont(font());
    painter.setPen(QColor(40, 40, 40));
    painter.drawText(head, Qt::TextWordWrap, text);
    painter.restore();
    const int top = text.isEmpty() ? 0 : used.height() + 6;
    canvas_->paintInto(painter, area.adjusted(0, top, 0, 0));
}

CsvTable PipelineTimelineView::csv() const {
    CsvTable t;
    t.header = {"lane", "kind", "stage", "chunk", "micro_batch", "start_s", "end_s", "seconds", "flops", "bytes"};
    for (const auto& b : timeline_.blocks)
        t.rows.push_back({timeline_.lane_names[static_cast<size_t>(b.lane)], llm::blockKindName(b.kind),
                          std::to_string(b.stage), std::to_string(b.chunk), std::to_string(b.micro_batch),
                          formatNumber(b.start), formatNumber(b.end), formatNumber(b.seconds()), formatNumber(b.flops),
                          formatNumber(b.bytes)});
    return t;
}

std::string PipelineTimelineView::chromeTraceJson() const { return llm::timelineChromeTrace(timeline_).dump() + "\n"; }

QString PipelineTimelineView::exportChromeTrace(const QString& path) const {
    return exportText(QString::fromStdString(chromeTraceJson()), path);
}

}  // namespace partita
