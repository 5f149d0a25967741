#include "widgets/compare/compare_view.h"

#include <algorithm>
#include <cmath>

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "core/util/format.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"
#include "widgets/compare/sim_compare_view.h"
#include "widgets/grid/grid_view.h"

namespace partita {

namespace {


bool sameShape(const Grid& a, const Grid& b) { return a.levels() == b.levels() && a.layers() == b.layers(); }

void stylePlot(QCustomPlot* plot) {
    QFont font = plot->font();
    font.setPixelSize(11);
    plot->setFont(font);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
        axis->grid()->setPen(QPen(QColor(225, 225, 225), 1));
    }
    plot->xAxis->grid()->setVisible(false);
    plot->legend->setFont(font);
    plot->legend->setVisible(true);
    plot->legend->setBorderPen(QPen(QColor(200, 200, 200)));
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot->setMinimumSize(240, 180);
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    stack_ = new QStackedWidget(this);
    outer->addWidget(stack_);
    auto* analytic = new QWidget(stack_);
    stack_->addWidget(analytic);
    sim_ = new SimCompareView(stack_);
    stack_->addWidget(sim_);
    auto* layout = new QVBoxLayout(analytic);
    layout->setContentsMargins(0, 0, 0, 0);
    note_ = new QLabel(this);
    note_->setObjectName("model-note");
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    note_->setContentsMargins(8, 4, 8, 4);
    note_->hide();
    layout->addWidget(note_);
    auto* splitter = splitter_ = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);

    auto* scroll = new QScrollArea(splitter);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    grid_area_ = new QWidget(scroll);
    grid_area_->setBackgroundRole(QPalette::Base);
    grid_area_->setAutoFillBackground(true);
    auto* grids = new QVBoxLayout(grid_area_);
    grids->setContentsMargins(8, 6, 8, 6);
    grids->setSpacing(2);
    scroll->setWidget(grid_area_);

    // In the CSV's order; the method is the CSV's (the run's name says it on screen).
    metrics_model_ = new ResultTableModel({{tr("run"), "run", false},
                                           {tr("method"), "method", false},
                                           {tr("total communication (elements)"), "total_elements"},
                                           {tr("total traffic"), "total_GB"},
                                           {tr("step time"), "step_time_s"},
                                           {tr("compute"), "compute_time_s"},
                                           {tr("communication time"), "comm_time_s"},
                                           {tr("energy"), "energy_J"},
                                           {tr("perf vs DP (x)"), "perf_vs_dp_x"},
                                           {tr("energy vs DP (x)"), "energy_vs_dp_x"}},
                                          this);
    metrics_ = makeModelView(splitter, "compare-metrics", metrics_model_);
    metrics_->setColumnHidden(1, true);
    metrics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    metrics_->setSelectionBehavior(QAbstractItemView::SelectRows);
    metrics_->setAlternatingRowColors(true);
    metrics_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    metrics_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    metrics_->verticalHeader()->setVisible(false);  // the run column already numbers the runs
    metrics_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    metrics_->verticalHeader()->setDefaultSectionSize(metrics_->fontMetrics().height() + 12);
    metrics_->setMinimumHeight(60);

    auto* charts = new QSplitter(Qt::Horizontal, splitter);
    charts->setChildrenCollapsible(false);
    level_chart_ = new QCustomPlot(charts);
    time_chart_ = new QCustomPlot(charts);
    stylePlot(level_chart_);
    stylePlot(time_chart_);
    for (int i : {0, 1}) charts->setStretchFactor(i, 1);  // two equal halves

    splitter->addWidget(scroll);
    splitter->addWidget(metrics_);
    splitter->addWidget(charts);
    // Growing the view grows the charts; grids and table keep the height fitSplitter gave them.
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 0);
    splitter->setStretchFactor(2, 1);
    layout->addWidget(splitter);
    rebuild();
}

void CompareView::setRuns(std::vector<RunPtr> runs, QStringList refused) {
    std::erase(runs, nullptr);
    if (runs.size() > 4) runs.resize(4);
    runs_ = std::move(runs);
    refused_ = std::move(refused);
    simulated_ = std::any_of(runs_.begin(), runs_.end(), [](const RunPtr& r) { return r->isSimulation(); });
    if (simulated_) {
        sim_->setRuns(runs_);
        stack_->setCurrentWidget(sim_);
        return;
    }
    stack_->setCurrentIndex(0);
    rebuild();
}

int CompareView::differingCells(int i) const {
    if (i <= 0 || i >= static_cast<int>(runs_.size())) return 0;
    const Grid& a = runs_[0]->grid;
    const Grid& b = runs_[static_cast<size_t>(i)]->grid;
    if (!sameShape(a, b)) return 0;
    int n = 0;
    for (int h = 0; h < a.levels(); ++h)
        for (int l = 0; l < a.layers(); ++l) n += !(a.at(h, l) == b.at(h, l));
    return n;
}

GridView* CompareView::gridView(int i) const {
    return i >= 0 && i < static_cast<int>(grids_.size()) ? grids_[static_cast<size_t>(i)] : nullptr;
}

QString CompareView::shortLabel(int i) const {
    const Run& r = *runs_[static_cast<size_t>(i)];
    QString what = q(r.method);
    for (Method m : kAllMethods)
        if (r.method == methodName(m)) what = methodLabel(m);
    if (r.kind == RunKind::Edited) what = tr("Edited");
    return QStringLiteral("#%1 %2").arg(i + 1).arg(what);
}

QString CompareView::modelOf(const Run& run) {
    const bool accpar = run.isAccPar();
    const double bpe = accpar ? run.inputs->accpar.bytes_per_element : run.inputs->params.bytes_per_element;
    return (accpar ? tr("AccPar's model") : tr("HyPar's model")) + tr(", %1 B/element").arg(bpe);
}

QString CompareView::modelNote() const {
    QStringList parts;
    bool differ = false;
    for (size_t i = 0; i < runs_.size(); ++i) {
        if (!runs_[i]->inputs) return {};
        const QString model = modelOf(*runs_[i]);
        differ = differ || model != modelOf(*runs_[0]);
        parts << QStringLiteral("#%1 %2").arg(i + 1).arg(model);
    }
    if (!differ) return {};
    return tr("These runs are priced by different cost models (%1): their communication and times are not "
              "directly comparable.")
        .arg(parts.join("; "));
}

void CompareView::rebuild() {
    QStringList notes;
    if (!modelNote().isEmpty()) notes << modelNote().toHtmlEscaped();
    for (const QString& r : refused_) notes << tr("<b>Refused</b>, not compared: %1").arg(r.toHtmlEscaped());
    const QString note = notes.join(QStringLiteral("<br>"));
    note_->setText(note);
    note_->setVisible(!note.isEmpty());
    rebuildGrids();
    fillMetrics();
    fillLevelChart();
    fillTimeChart();
    fitSplitter();
}

void CompareView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The first real size is known now; later shows keep the user's splitter positions.
    if (!shown_once_) fitSplitter();
    shown_once_ = true;
}

void CompareView::fitSplitter() {
    const int total = std::max(height(), 600);
    const int handles = 2 * splitter_->handleWidth();
    // The table shows every row; the grids get what they need up to about half, then scroll.
    int table = metrics_->horizontalHeader()->height() + 2 * metrics_->frameWidth() + 2;
    for (int r = 0; r < metrics_model_->rowCount(); ++r) table += metrics_->rowHeight(r);
    if (metrics_model_->rowCount() == 0) table = 60;
    const int width = std::max(splitter_->width(), 800) - 20;  // a vertical scroll bar may take some
    const int grids = std::min(grid_area_->heightForWidth(width) + 8, (total - handles) / 2);
    const int charts = std::max(220, total - handles - table - grids);
    splitter_->setSizes({grids, table, charts});
}

void CompareView::rebuildGrids() {
    auto* layout = static_cast<QVBoxLayout*>(grid_area_->layout());
    while (QLayoutItem* item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    grids_.clear();
    if (runs_.empty()) {
        auto* hint = new QLabel(tr("Select two to four runs to compare them"), grid_area_);
        hint->setAlignment(Qt::AlignCenter);
        hint->setForegroundRole(QPalette::PlaceholderText);
        layout->addWidget(hint, 1);
        return;
    }
    for (size_t i = 0; i < runs_.size(); ++i) {
        const Run& r = *runs_[i];
        QString note;
        if (i == 0) {
            note = runs_.size() > 1 ? tr("baseline") : QString();
        } else if (!sameShape(runs_[0]->grid, r.grid)) {
            note = tr("grid shape differs from #1, not compared");
        } else {
            const int n = differingCells(static_cast<int>(i));
            const int cells = r.grid.levels() * r.grid.layers();
            note = n == 0 ? tr("same grid as #1") : tr("%1 of %2 cells differ from #1").arg(n).arg(cells);
        }
        auto* caption = new QLabel(grid_area_);
        caption->setTextFormat(Qt::RichText);
        caption->setText(QStringLiteral("<b>#%1 %2</b> &nbsp;<span style='color:#555'>%3 · %4%5</span>")
                             .arg(i + 1)
                             .arg(q(r.name).toHtmlEscaped(), q(r.method).toHtmlEscaped(), q(runKindName(r.kind)),
                                  note.isEmpty() ? QString() : QStringLiteral(" · ") + note));
        caption->setContentsMargins(4, i == 0 ? 0 : 8, 0, 0);
        auto* grid = new GridView(grid_area_);
        grid->setCompact(true);
        grid->setEditable(false);
        grid->setRun(runs_[i]);
        if (i > 0 && sameShape(runs_[0]->grid, r.grid)) grid->setCompareGrid(&runs_[0]->grid);
        QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        policy.setHeightForWidth(true);  // rotated or not, the headers decide the height
        grid->setSizePolicy(policy);
        // The height-for-width decides; the narrowest-width minimum (rotated headers) would
        // otherwise make the scroll area reserve space the grid does not use. A very wide
        // layout gives the least height any width needs.
        grid->setMinimumHeight(grid->heightForWidth(1 << 14));
        layout->addWidget(caption);
        layout->addWidget(grid);
        grids_.push_back(grid);
    }
    layout->addStretch(1);
}

void CompareView::fillMetrics() {
    std::vector<ResultTableModel::Row> rows;
    // AccPar's model has no energy term: "—", and nothing in the CSV.
    auto noEnergy = [] {
        ResultCell c = textCell(QStringLiteral("—"));
        c.raw = QVariant();
        c.csv = "";
        c.alignment = QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return c;
    };
    for (int i = 0; i < static_cast<int>(runs_.size()); ++i) {
        const Run& r = *runs_[static_cast<size_t>(i)];
        const Evaluation& ev = r.shown();
        ResultCell name = textCell(QStringLiteral("#%1 %2").arg(i + 1).arg(q(r.name)));
        name.csv = r.name;
        ResultCell traffic = numberCell(byteText(ev.total_bytes), ev.totalGB());
        rows.push_back({name, textCell(q(r.method)), numberCell(q(withCommas(std::round(ev.total_elements))), ev.total_elements),
                        traffic, numberCell(q(seconds(ev.time_step_s)), ev.time_step_s),
                        numberCell(q(seconds(ev.time_compute_s)), ev.time_compute_s),
                        numberCell(q(seconds(ev.time_comm_s)), ev.time_comm_s),
                        r.isAccPar() ? noEnergy() : numberCell(q(joules(ev.energy_j)), ev.energy_j),
                        numberCell(q(fixed(r.perfVsDp(), 2)) + QStringLiteral(" x"), r.perfVsDp()),
                        r.isAccPar() ? noEnergy()
                                     : numberCell(q(fixed(r.energyVsDp(), 2)) + QStringLiteral(" x"), r.energyVsDp())});
    }
    metrics_model_->setRows(std::move(rows));
}

CsvTable CompareView::metricsCsv() const { return simulated_ ? sim_->runsCsv() : csvFromModel(*metrics_model_); }

CsvTable CompareView::levelCommCsv() const {
    CsvTable t;
    t.header = {"run", "level", "comm_elements", "time_s"};
    if (simulated_) return t;  // the simulator has no levels
    for (const RunPtr& r : runs_) {
        const Evaluation& ev = r->shown();
        for (int h = 0; h < ev.levels; ++h)
            t.rows.push_back({r->name, "H" + std::to_string(h + 1), formatNumber(ev.level_comm[static_cast<size_t>(h)]),
                              formatNumber(ev.level_time_s[static_cast<size_t>(h)])});
    }
    return t;
}

}  // namespace partita
