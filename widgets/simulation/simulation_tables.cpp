#include "widgets/simulation/simulation_tables.h"

#include <algorithm>

#include <QHeaderView>
#include <QTableWidget>

#include "core/util/format.h"
#include "widgets/common/number_table.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {


std::string kindOf(const SimulationResult& sim, int resource) {
    const sim::Topology& t = sim.topology();
    if (!sim.isLink(resource)) return "device · " + t.devices[static_cast<size_t>(resource)].kind;
    const auto link = static_cast<size_t>(resource - sim.compute_devices);
    return link < t.links.size() ? "link · " + t.links[link].kind : "link";
}

void setRow(QTableWidget* table, int row, const QList<QTableWidgetItem*>& items) {
    for (int c = 0; c < items.size(); ++c) table->setItem(row, c, items[c]);
}

}  // namespace

QTableWidget* makeSimTable(QWidget* parent, const QString& name) { return makeNumberTable(parent, name); }

int idleLinks(const SimulationResult& sim) {
    int idle = 0;
    for (size_t i = static_cast<size_t>(sim.compute_devices); i < sim.busy_s.size(); ++i) idle += sim.busy_s[i] == 0;
    return idle;
}

void fillResourceTable(QTableWidget* t, const SimulationResult& sim, bool idle_links) {
    t->setSortingEnabled(false);
    t->clear();
    t->setColumnCount(4);
    t->setHorizontalHeaderLabels({QObject::tr("Resource"), QObject::tr("Kind"), QObject::tr("Busy (ms)"),
                                  QObject::tr("Utilisation")});
    std::vector<int> shown;
    for (int r = 0; r < static_cast<int>(sim.resources.size()); ++r)
        if (idle_links || !sim.isLink(r) || sim.busy_s[static_cast<size_t>(r)] > 0) shown.push_back(r);
    t->setRowCount(static_cast<int>(shown.size()));
    for (int row = 0; row < t->rowCount(); ++row) {
        const int r = shown[static_cast<size_t>(row)];
        const auto i = static_cast<size_t>(r);
        auto* use = numberItem(q(fixed(100 * sim.utilisation[i], 1)) + " %", sim.utilisation[i]);
        // The resource index keeps devices before links when sorted by name's column.
        auto* name = numberItem(q(sim.resources[i]), r);
        name->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        setRow(t, row, {name, new QTableWidgetItem(q(kindOf(sim, r))),
                      numberItem(q(fixed(sim.busy_s[i] * 1e3, 3)), sim.busy_s[i]), use});
    }
    setBarColumn(t, 3);
    auto* h = t->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(3, QHeaderView::Stretch);  // the bar gets the spare width
    h->setMinimumSectionSize(90);
    t->setSortingEnabled(true);
    t->sortByColumn(0, Qt::AscendingOrder);
}

void fillStartsTable(QTableWidget* t, const McmcSummary& m) {
    t->setSortingEnabled(false);
    t->clear();
    const QStringList header{QObject::tr("Start"),      QObject::tr("Initial (ms)"), QObject::tr("Best (ms)"),
                             QObject::tr("Gain"),       QObject::tr("Iterations"),   QObject::tr("Accepted"),
                             QObject::tr("Restarts"),   QObject::tr("Elapsed (s)"),  QObject::tr("Stop")};
    t->setColumnCount(header.size());
    t->setHorizontalHeaderLabels(header);
    t->setRowCount(static_cast<int>(m.starts.size()));
    for (int r = 0; r < t->rowCount(); ++r) {
        const sim::McmcStartSummary& s = m.starts[static_cast<size_t>(r)];
        const double gain = s.best_s > 0 ? s.initial_s / s.best_s : 0;
        setRow(t, r,
               {new QTableWidgetItem(q(s.name)), numberItem(q(fixed(s.initial_s * 1e3, 3)), s.initial_s),
                numberItem(q(fixed(s.best_s * 1e3, 3)), s.best_s),
                numberItem(q(fixed(gain, 3)) + QChar(0x00D7), gain),
                numberItem(q(withCommas(double(s.iterations))), double(s.iterations)),
                numberItem(q(withCommas(double(s.accepted))), double(s.accepted)),
                numberItem(q(withCommas(double(s.restarts))), double(s.restarts)),
                numberItem(q(fixed(s.elapsed_s, 2)), s.elapsed_s), new QTableWidgetItem(q(s.stop))});
    }
    auto* h = t->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(header.size() - 1, QHeaderView::Stretch);
    // As tall as its rows: a search has a handful of starts.
    const int rows = std::max(1, t->rowCount());
    t->setFixedHeight(h->sizeHint().height() + rows * t->verticalHeader()->defaultSectionSize() +
                      2 * t->frameWidth() + 2);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

CsvTable resourceCsv(const SimulationResult* sim) {
    CsvTable c{{"resource", "kind", "busy_s", "utilisation_percent"}, {}};
    if (!sim) return c;
    for (size_t i = 0; i < sim->resources.size(); ++i)
        c.rows.push_back({sim->resources[i], kindOf(*sim, static_cast<int>(i)), formatNumber(sim->busy_s[i]),
                          formatNumber(100 * sim->utilisation[i])});
    return c;
}

CsvTable startsCsv(const McmcSummary* m) {
    CsvTable c{{"start", "initial_makespan_s", "best_makespan_s", "iterations", "accepted", "elapsed_s", "stop"}, {}};
    if (!m) return c;
    for (const auto& s : m->starts)
        c.rows.push_back({s.name, formatNumber(s.initial_s), formatNumber(s.best_s), std::to_string(s.iterations),
                          std::to_string(s.accepted), formatNumber(s.elapsed_s), s.stop});
    return c;
}

CsvTable trafficCsv(const SimulationResult* sim) {
    CsvTable c{{"from \\ to (bytes)"}, {}};
    if (!sim) return c;
    for (int d = 0; d < sim->compute_devices; ++d) c.header.push_back(sim->resources[static_cast<size_t>(d)]);
    for (int d = 0; d < sim->compute_devices && d < static_cast<int>(sim->traffic.size()); ++d) {
        std::vector<std::string> row{sim->resources[static_cast<size_t>(d)]};
        for (double bytes : sim->traffic[static_cast<size_t>(d)]) row.push_back(formatNumber(bytes));
        c.rows.push_back(std::move(row));
    }
    return c;
}

}  // namespace partita
