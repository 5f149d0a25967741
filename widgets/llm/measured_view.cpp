#include "widgets/llm/measured_view.h"

#include <algorithm>
#include <cmath>

#include <QHeaderView>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include "core/util/format.h"

namespace partita {

namespace {

QColor sourceColour(int k) {
    static const QColor base[] = {{0, 114, 178}, {213, 94, 0}, {0, 158, 115}, {204, 121, 167},
                                  {230, 159, 0}, {86, 180, 233}, {0, 0, 0}};
    return base[std::max(0, k) % 7];
}

// A source named by its runs file shows the file's name; the table's tooltip keeps the path.
QString sourceLabel(const std::string& source) {
    const auto slash = source.find_last_of('/');
    return QString::fromStdString(slash == std::string::npos ? source : source.substr(slash + 1));
}

bool plotted(const llm::RunPrediction& r) { return r.error.empty() && r.measured_s && *r.measured_s > 0 && r.predicted_s > 0; }

}  // namespace

class MeasuredPlot : public QWidget {
public:
    explicit MeasuredPlot(MeasuredView* owner) : QWidget(owner), owner_(owner) {
        setMouseTracking(true);
        setMinimumSize(320, 240);
    }
    llmview::PlotArea area() const { return owner_->plotArea(rect()); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        owner_->paintPlot(p, rect());
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        setCursor(owner_->runAt(e->position()) ? Qt::PointingHandCursor : Qt::ArrowCursor);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        if (e->button() == Qt::LeftButton)
            if (const auto r = owner_->runAt(e->position())) owner_->chooseRun(*r);
    }
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* h = static_cast<QHelpEvent*>(e);
            if (const auto r = owner_->runAt(h->pos())) QToolTip::showText(h->globalPos(), owner_->runToolTip(*r), this);
            else QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }

private:
    MeasuredView* owner_;
};

// ---- RunPredictionsModel

void RunPredictionsModel::setReport(const llm::ValidationReport* report) {
    beginResetModel();
    report_ = report;
    endResetModel();
}

int RunPredictionsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !report_ ? 0 : static_cast<int>(report_->runs.size());
}
int RunPredictionsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 6; }

QVariant RunPredictionsModel::headerData(int section, Qt::Orientation o, int role) const {
    static const char* names[] = {"run", "source", "measured (s)", "predicted (s)", "error %", "note"};
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= 6) return {};
    return QString::fromLatin1(names[section]);
}

QVariant RunPredictionsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto& r = report_->runs[static_cast<size_t>(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() >= 2 && index.column() <= 4)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
    case 0: return QString::fromStdString(r.name);
    case 1: return role == Qt::ToolTipRole ? QString::fromStdString(r.source) : sourceLabel(r.source);
    case 2: return r.measured_s ? QString::number(*r.measured_s, 'g', 4) : QString();
    case 3: return r.error.empty() ? QString::number(r.predicted_s, 'g', 4) : QString();
    case 4: return r.error_pct ? QString::number(*r.error_pct, 'f', 1) : QString();
    case 5: return QString::fromStdString(r.error);
    }
    return {};
}

// ---- MeasuredView

MeasuredView::MeasuredView(QWidget* parent) : QWidget(parent), model_(this) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* split = new QSplitter(Qt::Vertical, this);
    plot_ = new MeasuredPlot(this);
    table_ = new QTableView(this);
    table_->setModel(&model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setStretchLastSection(true);
    split->addWidget(plot_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) { chooseRun(i.row()); });
}

QWidget* MeasuredView::plot() const { return plot_; }

void MeasuredView::setReport(llm::ValidationReport report) {
    report_ = std::move(report);
    sources_.clear();
    for (const auto& r : report_.runs)
        if (std::find(sources_.begin(), sources_.end(), r.source) == sources_.end()) sources_.push_back(r.source);
    chosen_ = -1;
    model_.setReport(&report_);
    table_->resizeColumnsToContents();
    plot_->update();
}

int MeasuredView::sourceIndex(const std::string& s) const {
    return static_cast<int>(std::find(sources_.begin(), sources_.end(), s) - sources_.begin());
}

QString MeasuredView::mapeText(double pct) { return QString::number(pct, 'f', 1) + QStringLiteral(" %"); }

QStringList MeasuredView::legendLines() const {
    QStringList lines;
    for (const auto& s : sources_) {
        const auto n = std::count_if(report_.runs.begin(), report_.runs.end(),
                                     [&](const auto& r) { return r.source == s && plotted(r); });
        const auto it = report_.mape_by_source.find(s);
        lines << QStringLiteral("%1: MAPE %2 (%3 runs)")
                     .arg(sourceLabel(s), it == report_.mape_by_source.end() ? tr("n/a") : mapeText(it->second))
                     .arg(n);
    }
    if (report_.mape_pct) lines << tr("all: MAPE %1").arg(mapeText(*report_.mape_pct));
    return lines;
}

bool MeasuredView::logAxes() const {
    double lo = INFINITY, hi = 0;
    for (const auto& r : report_.runs)
        if (plotted(r)) lo = std::min({lo, *r.measured_s, r.predicted_s}), hi = std::max({hi, *r.measured_s, r.predicted_s});
    return hi > 0 && hi / lo > 10;
}

llmview::PlotArea MeasuredView::plotArea(const QRect& area) const {
    llmview::PlotArea a;
    const QFontMetrics fm(font());
    a.plot = llmview::plotRect(area, font(), 1.6 * fm.height());
    double lo = INFINITY, hi = 0;
    for (const auto& r : report_.runs)
        if (plotted(r)) lo = std::min({lo, *r.measured_s, r.predicted_s}), hi = std::max({hi, *r.measured_s, r.predicted_s});
    if (!(hi > 0)) lo = 0.1, hi = 1;
    const bool log = logAxes();
    // The same range on both axes, so y = x is the diagonal; a ±10 % band needs 10 % of room.
    a.x = llmview::Axis::covering(log ? lo / 1.15 : lo * 0.85, hi * 1.15, log, 0.02);
    if (!log) a.x.setRange(std::max(0.0, a.x.lo), a.x.hi);
    a.y = a.x;
    a.x.title = tr("measured iteration time");
    a.y.title = tr("predicted iteration time");
    a.x.unit = a.y.unit = QStringLiteral("s");
    return a;
}

void MeasuredView::paintPlot(QPainter& p, const QRect& area) const {
    const llmview::PlotArea a = plotArea(area);
    p.fillRect(area, Qt::white);
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(QColor(40, 40, 40));
    p.drawText(QRectF(area.left() + 6, area.top() + 2, area.width() - 12, fm.height() + 2), Qt::AlignLeft,
               report_.runs.empty() ? tr("No runs file opened") : tr("Predicted vs measured iteration time, %1 runs").arg(report_.runs.size()));
    llmview::paintAxes(p, a, font());
    p.save();
    p.setClipRect(a.plot);
    p.setRenderHint(QPainter::Antialiasing);
    // ±10 % band and y = x, sampled so they bend correctly on log axes too.
    QPolygonF band, diag;
    const int n = 64;
    for (int i = 0; i <= n; ++i) {
        const double x = a.x.fromUnit(static_cast<double>(i) / n);
        band << QPointF(a.px(x), a.py(1.1 * x));
        diag << QPointF(a.px(x), a.py(x));
    }
    for (int i = n; i >= 0; --i) {
        const double x = a.x.fromUnit(static_cast<double>(i) / n);
        band << QPointF(a.px(x), a.py(0.9 * x));
    }
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0, 0, 0, 22));
    p.drawPolygon(band);
    p.setPen(QPen(QColor(90, 90, 90), 1.2, Qt::DashLine));
    p.drawPolyline(diag);
    for (size_t i = 0; i < report_.runs.size(); ++i) {
        const auto& r = report_.runs[i];
        if (!plotted(r)) continue;
        const QPointF q(a.px(*r.measured_s), a.py(r.predicted_s));
        p.setPen(QPen(Qt::white, 1));
        p.setBrush(sourceColour(sourceIndex(r.source)));
        p.drawEllipse(q, 4.5, 4.5);
        if (static_cast<int>(i) == chosen_) {
            p.setPen(QPen(Qt::black, 2));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(q, 8, 8);
        }
    }
    p.restore();
    // Legend inside the plot's top-left corner.
    const QStringList lines = legendLines();
    if (lines.isEmpty()) return;
    p.save();
    p.setFont(font());
    int w = 0;
    for (const auto& l : lines) w = std::max(w, fm.horizontalAdvance(l));
    const QRectF box(a.plot.left() + 8, a.plot.top() + 8, std::min<double>(w + 30, a.plot.width() - 16),
                     lines.size() * (fm.height() + 2) + 8 + fm.height());
    p.setPen(QColor(180, 180, 180));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRect(box);
    double y = box.top() + 4;
    for (int i = 0; i < lines.size(); ++i, y += fm.height() + 2) {
        const bool overall = i >= static_cast<int>(sources_.size());
        if (!overall) p.fillRect(QRectF(box.left() + 6, y + fm.height() / 2.0 - 4, 8, 8), sourceColour(i));
        QFont f = font();
        f.setBold(overall);
        p.setFont(f);
        p.setPen(QColor(30, 30, 30));
        p.drawText(QRectF(box.left() + 20, y, box.width() - 24, fm.height() + 2), Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
    }
    p.setFont(font());
    p.setPen(QColor(90, 90, 90));
    p.drawText(QRectF(box.left() + 20, y, box.width() - 24, fm.height() + 2), Qt::AlignLeft | Qt::AlignVCenter,
               tr("dashed: y = x; band: ±10 %"));
    p.restore();
}

std::optional<QPointF> MeasuredView::runPosition(int run) const {
    if (run < 0 || run >= static_cast<int>(report_.runs.size()) || !plotted(report_.runs[static_cast<size_t>(run)]))
        return std::nullopt;
    const auto a = plotArea(plot_->rect());
    const auto& r = report_.runs[static_cast<size_t>(run)];
    return QPointF(a.px(*r.measured_s), a.py(r.predicted_s));
}

std::optional<int> MeasuredView::runAt(const QPointF& pos) const {
    // Runs files hold tens of runs: a scan is enough.
    std::optional<int> best;
    double best_d = 7 * 7;
    for (int i = 0; i < static_cast<int>(report_.runs.size()); ++i)
        if (const auto q = runPosition(i)) {
            const QPointF dl = *q - pos;
            if (const double dd = QPointF::dotProduct(dl, dl); dd < best_d) best_d = dd, best = i;
        }
    return best;
}

QString MeasuredView::runToolTip(int run) const {
    if (run < 0 || run >= static_cast<int>(report_.runs.size())) return {};
    const auto& r = report_.runs[static_cast<size_t>(run)];
    QString s = QStringLiteral("%1 (%2)").arg(QString::fromStdString(r.name), sourceLabel(r.source));
    if (r.measured_s) s += tr("\nmeasured %1 s").arg(*r.measured_s, 0, 'g', 4);
    s += tr("\npredicted %1 s").arg(r.predicted_s, 0, 'g', 4);
    if (r.error_pct) s += tr("\nerror %1 %").arg(*r.error_pct, 0, 'f', 1);
    return s;
}

void MeasuredView::chooseRun(int run) {
    if (run < 0 || run >= static_cast<int>(report_.runs.size())) return;
    chosen_ = run;
    table_->selectRow(run);
    plot_->update();
    emit runChosen(run);
}

void MeasuredView::paintFigure(QPainter& painter, const QRect& area) const { paintPlot(painter, area); }

CsvTable MeasuredView::csv() const {
    CsvTable t;
    t.header = {"name", "source", "measured_s", "predicted_s", "error_pct"};
    for (const auto& r : report_.runs)
        t.rows.push_back({r.name, r.source, r.measured_s ? formatNumber(*r.measured_s) : "",
                          r.error.empty() ? formatNumber(r.predicted_s) : "", r.error_pct ? formatNumber(*r.error_pct) : ""});
    return t;
}

}  // namespace partita
