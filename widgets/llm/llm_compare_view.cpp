#include "widgets/llm/llm_compare_view.h"

#include <algorithm>

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/common/qt_text.h"
#include "widgets/compare/compare_chart_style.h"

namespace partita {

namespace {

// "#12 LLM tp4 pp8 dp2": the id and the run's name up to its model (the header's tool tip has all).
QString shortName(const LlmComparedRun& r) {
    const std::string head = r.name.substr(0, r.name.find(" · "));
    return QStringLiteral("#%1 %2").arg(r.id).arg(q(head));
}

}  // namespace

LlmCompareView::LlmCompareView(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    heading_ = new QLabel(this);
    heading_->setObjectName("llm-compare-heading");
    heading_->setWordWrap(true);
    column->addWidget(heading_);
    // Side by side: the table keeps its full height (about 30 rows), the chart takes the rest of the width.
    auto* split = new QSplitter(Qt::Horizontal, this);
    table_ = new QTableWidget(split);
    table_->setObjectName("llm-compare-table");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
    table_->setTextElideMode(Qt::ElideMiddle);
    chart_ = new QCustomPlot(split);
    chart_->setObjectName("llm-compare-chart");
    chart_->setMinimumWidth(220);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 1);  // the table first (up to its width), the chart the rest
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);
    column->addWidget(split, 1);
    setRuns({});
}

void LlmCompareView::setRuns(std::vector<LlmComparedRun> runs) {
    comparison_ = LlmComparison(std::move(runs));
    heading_->setText(heading());
    fillTable();
    fillChart();
}

QString LlmCompareView::heading() const {
    const auto& runs = comparison_.runs();
    if (runs.empty())
        return tr("No LLM runs compared: select 2 to 4 stored LLM runs in the Runs dock and press Compare.");
    return tr("%1 LLM runs side by side; Δ and ratio against <b>%2</b>. Memory is one GPU of each plan's peak stage.")
        .arg(runs.size())
        .arg(shortName(runs.front()).toHtmlEscaped());
}

int LlmCompareView::tableRow(const std::string& key) const {
    const auto& rows = comparison_.rows();
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].key == key) return static_cast<int>(i);
    return -1;
}

void LlmCompareView::fillTable() {
    const auto& runs = comparison_.runs();
    const auto& rows = comparison_.rows();
    const int n = static_cast<int>(runs.size());
    const int columns = runs.empty() ? 0 : 1 + n + (n - 1);
    table_->clear();
    table_->clearSpans();
    table_->setRowCount(runs.empty() ? 0 : static_cast<int>(rows.size()));
    table_->setColumnCount(columns);
    if (runs.empty()) return;
    QStringList headers{tr("")};
    for (const LlmComparedRun& r : runs) headers << shortName(r);
    for (int i = 1; i < n; ++i) headers << tr("Δ #%1").arg(runs[static_cast<std::size_t>(i)].id);
    table_->setHorizontalHeaderLabels(headers);
    for (int i = 0; i < n; ++i)
        table_->horizontalHeaderItem(1 + i)->setToolTip(q(runs[static_cast<std::size_t>(i)].name));
    QFont bold = table_->font();
    bold.setBold(true);
    const QColor differs(255, 244, 214);  // a setting or figure unlike the first run's
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const LlmComparison::Row& row = rows[static_cast<std::size_t>(r)];
        if (row.section) {
            auto* item = new QTableWidgetItem(q(row.label));
            item->setFont(bold);
            item->setBackground(QColor(235, 235, 235));
            table_->setItem(r, 0, item);
            table_->setSpan(r, 0, 1, columns);
            continue;
        }
        table_->setItem(r, 0, new QTableWidgetItem(q(row.label)));
        for (int i = 0; i < n; ++i) {
            const std::size_t run = static_cast<std::size_t>(i);
            auto* item = new QTableWidgetItem(q(LlmComparison::cell(row, run)));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(item->text());
            if (i > 0 && LlmComparison::cell(row, run) != LlmComparison::cell(row, 0)) item->setBackground(differs);
            if (row.key == "fits" && row.text[run] != "fits") item->setForeground(QColor(200, 0, 0));
            table_->setItem(r, 1 + i, item);
        }
        for (int i = 1; i < n; ++i) {
            const std::size_t run = static_cast<std::size_t>(i);
            const std::string d = LlmComparison::delta(row, run), x = LlmComparison::ratio(row, run);
            auto* item = new QTableWidgetItem(q(x.empty() || d == "=" ? d : d + "  " + x));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, n + i, item);
        }
        table_->setRowHidden(r, LlmComparison::allZero(row));
    }
    // As wide as its columns: the chart beside it gets the rest.
    table_->resizeColumnsToContents();
    for (int c = 1; c <= n; ++c)  // a long GPU name is elided (its cell's tool tip has it): 1024 px fit
        table_->setColumnWidth(c, std::min(table_->columnWidth(c), table_->fontMetrics().horizontalAdvance("#00 LLM tp00 pp00 dp00")));
    int width = table_->frameWidth() * 2 + table_->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < columns; ++c) width += table_->columnWidth(c);
    table_->setMinimumWidth(std::min(width, 340));  // narrower: it scrolls, the chart keeps its 220 px
    table_->setMaximumWidth(width);
}

void LlmCompareView::fillChart() {
    QCustomPlot* plot = chart_;
    plot->clearPlottables();
    const auto& runs = comparison_.runs();
    // The time terms some run has, in namedTerms' order.
    std::vector<const LlmComparison::Row*> terms;
    double top = 0;
    for (const LlmComparison::Row& row : comparison_.rows())
        if (row.key.rfind("time.", 0) == 0 && !LlmComparison::allZero(row)) {
            terms.push_back(&row);
            for (double v : row.values) top = std::max(top, v);
        }
    const AxisUnit unit = timeAxisUnit(top);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t t = 0; t < terms.size(); ++t) ticker->addTick(static_cast<double>(t + 1), q(terms[t]->label));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setTickLabelRotation(-60);  // term names under narrow groups
    plot->yAxis->setLabel(tr("time per iteration (%1)").arg(unit.name));
    delete group_;
    group_ = runs.size() > 1 ? new QCPBarsGroup(plot) : nullptr;
    const double width = 0.8 / static_cast<double>(std::max<std::size_t>(1, runs.size()));
    for (std::size_t i = 0; i < runs.size(); ++i) {
        QVector<double> keys, values;
        for (std::size_t t = 0; t < terms.size(); ++t) {
            keys << static_cast<double>(t + 1);
            values << terms[t]->values[i] / unit.scale;
        }
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(shortName(runs[i]));
        bars->setWidth(width);
        styleCompareBars(bars, compareRunColour(static_cast<int>(i)));
        bars->setData(keys, values);
        if (group_) bars->setBarsGroup(group_);
    }
    plot->legend->setVisible(!runs.empty());
    compareLegendAbove(plot, 1);  // one run a line: the chart is narrow
    plot->yAxis->setTickLabels(!runs.empty());
    plot->xAxis->setRange(0.4, static_cast<double>(std::max<std::size_t>(1, terms.size())) + 0.6);
    plot->yAxis->setRange(0, top > 0 ? top / unit.scale * 1.08 : 1);
    plot->replot();
}

}  // namespace partita
