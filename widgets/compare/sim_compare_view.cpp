#include "widgets/compare/sim_compare_view.h"

#include <algorithm>
#include <cmath>

#include <QHeaderView>
#include <QScrollBar>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "core/util/format.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/number_table.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"
#include "widgets/compare/compare_view.h"

namespace partita {

namespace {

QString percent(double fraction) { return q(fixed(100 * fraction, 1)) + " %"; }

// Every column as wide as its contents, the last one taking what is left.
void fitColumns(QTableView* t) {
    auto* h = t->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setStretchLastSection(true);
}

}  // namespace

SimCompareView::SimCompareView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    summary_ = new QLabel(this);
    summary_->setObjectName("sim-compare-summary");
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // wraps instead of widening the window
    summary_->setMinimumWidth(240);
    layout->addWidget(summary_);

    body_ = new QStackedWidget(this);
    body_->addWidget(new QWidget(body_));  // under a refusal: the summary says why
    auto* page = new QWidget(body_);
    auto* page_layout = new QVBoxLayout(page);
    page_layout->setContentsMargins(0, 0, 0, 0);
    runs_model_ = new ResultTableModel({}, this);
    runs_ = makeResultView(page, "sim-compare-runs", runs_model_);
    runs_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    page_layout->addWidget(runs_);

    pages_ = new QTabWidget(page);
    auto* use = new QSplitter(Qt::Horizontal, pages_);
    use->setChildrenCollapsible(false);
    auto* chart_box = new QWidget(use);
    auto* chart_layout = new QVBoxLayout(chart_box);
    chart_layout->setContentsMargins(0, 0, 0, 0);
    chart_ = new QCustomPlot(chart_box);
    chart_->setObjectName("sim-compare-utilisation");
    chart_->setMinimumSize(260, 180);
    chart_layout->addWidget(chart_);
    devices_model_ = new ResultTableModel({}, this);
    devices_ = makeResultView(use, "sim-compare-devices", devices_model_);
    devices_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // device order until a column is clicked
    devices_->setToolTip(tr("Every device's utilisation (busy time / makespan) in each run; sort by a column"));
    use->addWidget(chart_box);
    use->addWidget(devices_);
    use->setStretchFactor(0, 3);
    use->setStretchFactor(1, 2);
    pages_->addTab(use, tr("Utilisation per device"));

    auto* diff_page = new QWidget(pages_);
    auto* diff_layout = new QVBoxLayout(diff_page);
    diff_layout->setContentsMargins(4, 4, 4, 4);
    differences_note_ = new QLabel(diff_page);
    differences_note_->setWordWrap(true);
    diff_layout->addWidget(differences_note_);
    differences_model_ = new ResultTableModel({}, this);
    differences_ = makeResultView(diff_page, "sim-compare-differences", differences_model_);
    differences_->setWordWrap(true);
    diff_layout->addWidget(differences_, 1);
    pages_->addTab(diff_page, tr("Strategy differences"));
    page_layout->addWidget(pages_, 1);
    body_->addWidget(page);
    layout->addWidget(body_, 1);

    QFont font = chart_->font();
    font.setPixelSize(11);
    chart_->xAxis->setTickLabelFont(font);
    chart_->yAxis->setTickLabelFont(font);
    chart_->yAxis->setLabelFont(font);
    chart_->xAxis->grid()->setVisible(false);
    chart_->legend->setFont(font);
    chart_->plotLayout()->insertRow(0);  // the legend above the axes: it never hides a bar
    chart_->plotLayout()->addElement(0, 0, chart_->legend);
    chart_->plotLayout()->setRowStretchFactor(0, 0.001);
    chart_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    chart_->legend->setWrap(2);
    setRuns({});
}

QString SimCompareView::runLabel(int i) const {
    return QStringLiteral("#%1 %2").arg(i + 1).arg(q(comparison_.runs[static_cast<std::size_t>(i)].strategy));
}

void SimCompareView::setRuns(const std::vector<RunPtr>& runs) {
    comparison_ = compareSimulations(runs);
    groups_ = comparison_.ok() ? deviceGroups(comparison_, kMaxBars) : std::vector<DeviceGroup>{};
    if (!comparison_.ok()) {
        summary_->setText(tr("<p><b>These runs cannot be compared.</b></p><p>%1.</p>")
                              .arg(q(comparison_.refusal).toHtmlEscaped()));
        body_->setCurrentIndex(0);
    } else {
        summary_->setText(tr("<b>%1 simulated runs</b> of %2, batch %3, on %4 (%5 devices) · speed-up: the makespan "
                             "of #1 over each run's")
                              .arg(comparison_.runs.size())
                              .arg(q(comparison_.network).toHtmlEscaped(), q(formatNumber(comparison_.batch)),
                                   q(comparison_.topology).toHtmlEscaped(),
                                   q(withCommas(static_cast<double>(comparison_.devices.size())))));
        body_->setCurrentIndex(1);
    }
    fillRuns();
    fillChart();
    fillDevices();
    fillDifferences();
}

void SimCompareView::fillRuns() {
    const SimComparison& c = comparison_;
    std::vector<ResultColumn> columns{{tr("Run"), "run", false, {}},
                                      {tr("Strategy"), "strategy", false, {}},
                                      {tr("Makespan"), "makespan_s", true, {}},
                                      {tr("Speed-up over #1"), "speedup_vs_first_x", true, {}},
                                      {tr("Devices used"), "devices_used", true, {}},
                                      {tr("Traffic"), "traffic_B", true, {}}};
    for (const std::string& kind : c.link_kinds) columns.push_back({tr("on %1 links").arg(q(kind)), kind + "_links_B", true, {}});
    std::vector<ResultTableModel::Row> rows;
    for (int i = 0; i < static_cast<int>(c.runs.size()); ++i) {
        const SimCompareRun& r = c.runs[static_cast<std::size_t>(i)];
        ResultCell name = textCell(QStringLiteral("#%1 %2").arg(i + 1).arg(q(r.name)));
        name.csv = r.name;
        name.foreground = compareRunColour(i).darker(120);
        ResultTableModel::Row row{name, textCell(q(r.strategy)), numberCell(q(seconds(r.makespan_s)), r.makespan_s),
                                  numberCell(q(fixed(r.speedup, 3)) + QChar(0x00D7), r.speedup),
                                  countCell(tr("%1 of %2").arg(q(withCommas(r.devices_used)),
                                                              q(withCommas(static_cast<double>(c.devices.size())))),
                                            r.devices_used),
                                  numberCell(byteText(r.traffic_bytes), r.traffic_bytes)};
        for (double b : r.link_bytes) row.push_back(numberCell(byteText(b), b));
        rows.push_back(std::move(row));
    }
    runs_model_->setColumns(std::move(columns));
    runs_model_->setRows(std::move(rows));
    runs_->setToolTip(tr("Traffic: bytes between devices, each message once; on <kind> links: the bytes those links "
                         "carried, counted on every link a message crosses"));
    fitColumns(runs_);
    runs_->horizontalHeader()->setStretchLastSection(false);
    runs_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // As tall as its two to four rows.
    const int shown = std::max(1, runs_model_->rowCount());
    // Room for the horizontal scroll bar too: on a narrow window the columns scroll and the bar
    // would otherwise cover the last row.
    runs_->setFixedHeight(runs_->horizontalHeader()->sizeHint().height() +
                          shown * runs_->verticalHeader()->defaultSectionSize() + 2 * runs_->frameWidth() + 2 +
                          runs_->horizontalScrollBar()->sizeHint().height());
}

void SimCompareView::fillChart() {
    QCustomPlot* plot = chart_;
    plot->clearPlottables();
    delete bars_group_;
    bars_group_ = nullptr;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    // Every label when they fit, else every k-th (the table beside the chart names every bar).
    const int label_step = std::max(1, (static_cast<int>(groups_.size()) + 15) / 16);
    for (int g = 0; g < static_cast<int>(groups_.size()); g += label_step)
        ticker->addTick(g + 1, q(groups_[static_cast<std::size_t>(g)].label));
    plot->xAxis->setTicker(ticker);
    // Many labels stand on end rather than overlap.
    plot->xAxis->setTickLabelRotation(groups_.size() > 8 ? 60 : 0);
    const bool gathered = !groups_.empty() && groups_.front().count > 1;
    plot->yAxis->setLabel(gathered ? tr("mean utilisation (%)") : tr("utilisation (%)"));
    const int runs = static_cast<int>(comparison_.runs.size());
    if (runs > 1) bars_group_ = new QCPBarsGroup(plot);
    for (int i = 0; i < runs; ++i) {
        QVector<double> keys, values;
        for (int g = 0; g < static_cast<int>(groups_.size()); ++g) {
            keys << g + 1;
            values << 100 * groups_[static_cast<std::size_t>(g)].utilisation[static_cast<std::size_t>(i)];
        }
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(runLabel(i));
        bars->setWidth(0.8 / std::max(1, runs));
        bars->setPen(QPen(compareRunColour(i).darker(130), 1));
        bars->setBrush(compareRunColour(i));
        bars->setData(keys, values, true);
        if (bars_group_) bars->setBarsGroup(bars_group_);
    }
    plot->legend->setVisible(runs > 0);
    plot->xAxis->setRange(0.4, std::max<double>(1, static_cast<double>(groups_.size())) + 0.6);
    // Scaled to the busiest bar, so that utilisations of a few percent are seen.
    double busiest = 0;
    for (const DeviceGroup& g : groups_)
        for (double u : g.utilisation) busiest = std::max(busiest, 100 * u);
    plot->yAxis->setRange(0, busiest > 50 ? 105 : std::max(1.0, std::ceil(busiest * 1.15)));
    plot->replot();
}

void SimCompareView::fillDevices() {
    const SimComparison& c = comparison_;
    std::vector<ResultColumn> columns{{tr("Device"), "device", false, {}}, {tr("Node"), "node", true, {}}};
    for (int i = 0; i < static_cast<int>(c.runs.size()); ++i)
        columns.push_back({runLabel(i), "#" + std::to_string(i + 1) + "_utilisation_percent", true, {}});
    std::vector<ResultTableModel::Row> rows;
    for (std::size_t d = 0; d < c.devices.size() && c.ok(); ++d) {
        ResultCell name = countCell(q(c.devices[d]), qint64(d));  // sorts in device order
        name.csv = c.devices[d];
        ResultTableModel::Row row{name, countCell(QString::number(c.device_nodes[d]), c.device_nodes[d])};
        for (const SimCompareRun& r : c.runs) {
            ResultCell use = numberCell(percent(r.utilisation[d]), r.utilisation[d]);
            use.csv = formatNumber(100 * r.utilisation[d]);
            row.push_back(std::move(use));
        }
        rows.push_back(std::move(row));
    }
    devices_->setSortingEnabled(false);
    devices_model_->setColumns(std::move(columns));
    devices_model_->setRows(std::move(rows));
    for (int col = 2; col < devices_model_->columnCount(); ++col) setBarColumn(devices_, col);
    fitColumns(devices_);
    devices_->horizontalHeader()->setMinimumSectionSize(70);
    devices_->setSortingEnabled(true);
}

void SimCompareView::fillDifferences() {
    const SimComparison& c = comparison_;
    std::vector<ResultColumn> columns{{tr("Operator"), "operator", false, {}}};
    for (int i = 0; i < static_cast<int>(c.runs.size()); ++i)
        columns.push_back({runLabel(i), "#" + std::to_string(i + 1) + "_config", false, {}});
    std::vector<ResultTableModel::Row> rows;
    for (const SimOpDifference& d : c.differences) {
        ResultTableModel::Row row{textCell(q(d.op))};
        for (std::size_t i = 0; i < d.configs.size(); ++i) {
            ResultCell config = textCell(q(d.configs[i]));
            config.tooltip = config.text;
            if (i > 0 && d.configs[i] != d.configs[0]) config.foreground = compareRunColour(static_cast<int>(i)).darker(130);
            row.push_back(std::move(config));
        }
        rows.push_back(std::move(row));
    }
    differences_model_->setColumns(std::move(columns));
    differences_model_->setRows(std::move(rows));
    auto* h = differences_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    for (int col = 1; col < differences_model_->columnCount(); ++col) h->setSectionResizeMode(col, QHeaderView::Stretch);
    std::size_t ops = 0;
    if (c.ok() && !c.runs.empty()) ops = c.differences.size();
    differences_note_->setText(!c.ok() ? QString()
                               : ops == 0
                                   ? tr("Every operator has the same configuration in every run.")
                                   : tr("%1 operators are configured differently from #1: degrees per dimension "
                                        "(sample, channel, height, width; reduce: input channels) and the devices "
                                        "their tasks run on.")
                                         .arg(ops));
}

CsvTable SimCompareView::runsCsv() const { return csvFromModel(*runs_model_); }

CsvTable SimCompareView::devicesCsv() const { return csvFromModel(*devices_model_); }

CsvTable SimCompareView::differencesCsv() const { return csvFromModel(*differences_model_); }

}  // namespace partita
