#include "widgets/compare/sim_compare_view.h"

#include <algorithm>
#include <cmath>

#include <QHeaderView>
#include <QScrollBar>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "core/util/format.h"
#include "widgets/common/number_table.h"
#include "widgets/common/qt_text.h"
#include "widgets/compare/compare_view.h"

namespace partita {

namespace {

QString percent(double fraction) { return q(fixed(100 * fraction, 1)) + " %"; }
QString bytes(double b) { return q(withPrefix(b, "B")); }

// Every column as wide as its contents, the last one taking what is left.
void fitColumns(QTableWidget* t) {
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
    runs_ = makeNumberTable(page, "sim-compare-runs");
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
    devices_ = makeNumberTable(use, "sim-compare-devices");
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
    differences_ = makeNumberTable(diff_page, "sim-compare-differences");
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
    QStringList header{tr("Run"), tr("Strategy"), tr("Makespan"), tr("Speed-up over #1"), tr("Devices used"),
                       tr("Traffic")};
    for (const std::string& kind : c.link_kinds) header << tr("on %1 links").arg(q(kind));
    runs_->setSortingEnabled(false);
    runs_->clear();
    runs_->setColumnCount(static_cast<int>(header.size()));
    runs_->setHorizontalHeaderLabels(header);
    runs_->setRowCount(static_cast<int>(c.runs.size()));
    for (int i = 0; i < runs_->rowCount(); ++i) {
        const SimCompareRun& r = c.runs[static_cast<std::size_t>(i)];
        auto* name = new QTableWidgetItem(QStringLiteral("#%1 %2").arg(i + 1).arg(q(r.name)));
        name->setForeground(compareRunColour(i).darker(120));
        runs_->setItem(i, 0, name);
        runs_->setItem(i, 1, new QTableWidgetItem(q(r.strategy)));
        runs_->setItem(i, 2, numberItem(q(seconds(r.makespan_s)), r.makespan_s));
        runs_->setItem(i, 3, numberItem(q(fixed(r.speedup, 3)) + QChar(0x00D7), r.speedup));
        runs_->setItem(i, 4, numberItem(tr("%1 of %2").arg(q(withCommas(r.devices_used)),
                                                           q(withCommas(static_cast<double>(c.devices.size())))),
                                        r.devices_used));
        runs_->setItem(i, 5, numberItem(bytes(r.traffic_bytes), r.traffic_bytes));
        for (std::size_t k = 0; k < r.link_bytes.size(); ++k)
            runs_->setItem(i, 6 + static_cast<int>(k), numberItem(bytes(r.link_bytes[k]), r.link_bytes[k]));
    }
    runs_->setToolTip(tr("Traffic: bytes between devices, each message once; on <kind> links: the bytes those links "
                         "carried, counted on every link a message crosses"));
    fitColumns(runs_);
    runs_->horizontalHeader()->setStretchLastSection(false);
    runs_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // As tall as its two to four rows.
    const int rows = std::max(1, runs_->rowCount());
    // Room for the horizontal scroll bar too: on a narrow window the columns scroll and the bar
    // would otherwise cover the last row.
    runs_->setFixedHeight(runs_->horizontalHeader()->sizeHint().height() +
                          rows * runs_->verticalHeader()->defaultSectionSize() + 2 * runs_->frameWidth() + 2 +
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
    QStringList header{tr("Device"), tr("Node")};
    for (int i = 0; i < static_cast<int>(c.runs.size()); ++i) header << runLabel(i);
    devices_->setSortingEnabled(false);
    devices_->clear();
    devices_->setColumnCount(static_cast<int>(header.size()));
    devices_->setHorizontalHeaderLabels(header);
    devices_->setRowCount(c.ok() ? static_cast<int>(c.devices.size()) : 0);
    for (int d = 0; d < devices_->rowCount(); ++d) {
        auto* name = numberItem(q(c.devices[static_cast<std::size_t>(d)]), d);  // sorts in device order
        name->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        devices_->setItem(d, 0, name);
        devices_->setItem(d, 1, numberItem(QString::number(c.device_nodes[static_cast<std::size_t>(d)]),
                                           c.device_nodes[static_cast<std::size_t>(d)]));
        for (std::size_t i = 0; i < c.runs.size(); ++i) {
            const double u = c.runs[i].utilisation[static_cast<std::size_t>(d)];
            devices_->setItem(d, 2 + static_cast<int>(i), numberItem(percent(u), u));
        }
    }
    for (int col = 2; col < devices_->columnCount(); ++col) setBarColumn(devices_, col);
    fitColumns(devices_);
    devices_->horizontalHeader()->setMinimumSectionSize(70);
    devices_->setSortingEnabled(true);
}

void SimCompareView::fillDifferences() {
    const SimComparison& c = comparison_;
    QStringList header{tr("Operator")};
    for (int i = 0; i < static_cast<int>(c.runs.size()); ++i) header << runLabel(i);
    differences_->clear();
    differences_->setColumnCount(static_cast<int>(header.size()));
    differences_->setHorizontalHeaderLabels(header);
    differences_->setRowCount(static_cast<int>(c.differences.size()));
    for (int r = 0; r < differences_->rowCount(); ++r) {
        const SimOpDifference& d = c.differences[static_cast<std::size_t>(r)];
        differences_->setItem(r, 0, new QTableWidgetItem(q(d.op)));
        for (std::size_t i = 0; i < d.configs.size(); ++i) {
            auto* item = new QTableWidgetItem(q(d.configs[i]));
            item->setToolTip(item->text());
            if (i > 0 && d.configs[i] != d.configs[0]) item->setForeground(compareRunColour(static_cast<int>(i)).darker(130));
            differences_->setItem(r, 1 + static_cast<int>(i), item);
        }
    }
    auto* h = differences_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    for (int col = 1; col < differences_->columnCount(); ++col) h->setSectionResizeMode(col, QHeaderView::Stretch);
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

CsvTable SimCompareView::runsCsv() const {
    CsvTable t;
    t.header = {"run", "strategy", "makespan_s", "speedup_vs_first_x", "devices_used", "traffic_B"};
    for (const std::string& k : comparison_.link_kinds) t.header.push_back(k + "_links_B");
    for (const SimCompareRun& r : comparison_.runs) {
        std::vector<std::string> row{r.name, r.strategy, formatNumber(r.makespan_s), formatNumber(r.speedup),
                                     std::to_string(r.devices_used), formatNumber(r.traffic_bytes)};
        for (double b : r.link_bytes) row.push_back(formatNumber(b));
        t.rows.push_back(std::move(row));
    }
    return t;
}

CsvTable SimCompareView::devicesCsv() const {
    CsvTable t;
    t.header = {"device", "node"};
    for (std::size_t i = 0; i < comparison_.runs.size(); ++i)
        t.header.push_back("#" + std::to_string(i + 1) + "_utilisation_percent");
    for (std::size_t d = 0; d < comparison_.devices.size() && comparison_.ok(); ++d) {
        std::vector<std::string> row{comparison_.devices[d], std::to_string(comparison_.device_nodes[d])};
        for (const SimCompareRun& r : comparison_.runs) row.push_back(formatNumber(100 * r.utilisation[d]));
        t.rows.push_back(std::move(row));
    }
    return t;
}

CsvTable SimCompareView::differencesCsv() const {
    CsvTable t;
    t.header = {"operator"};
    for (std::size_t i = 0; i < comparison_.runs.size(); ++i) t.header.push_back("#" + std::to_string(i + 1) + "_config");
    for (const SimOpDifference& d : comparison_.differences) {
        std::vector<std::string> row{d.op};
        row.insert(row.end(), d.configs.begin(), d.configs.end());
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace partita
