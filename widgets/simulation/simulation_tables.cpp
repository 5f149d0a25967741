#include "widgets/simulation/simulation_tables.h"

#include <algorithm>
#include <numeric>

#include <QHeaderView>
#include <QTableView>

#include "core/util/format.h"
#include "widgets/common/number_table.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

std::string kindOf(const SimulationResult& sim, int resource) {
    const sim::Topology& t = sim.topology();
    if (sim.isStream(resource)) return "collective stream";
    if (!sim.isLink(resource)) return "device · " + t.devices[static_cast<size_t>(resource)].kind;
    const auto link = static_cast<size_t>(resource - sim.compute_devices);
    return link < t.links.size() ? "link · " + t.links[link].kind : "link";
}

// `column` as wide as its widest shown cell and its header, as ResizeToContents makes it, measured on
// the cells with the longest texts only: ResizeToContents measures a thousand rows on every layout,
// a fifth of a second on the GUI thread for the thousands of resources of 1,024 GPUs
// (docs/contributing/architecture.md#jobs-and-threads). In one font the widest text is among the longest.
void fitColumn(QTableView* t, const std::vector<ResultTableModel::Row>& rows, int column) {
    constexpr size_t kMeasured = 24;
    const auto c = static_cast<size_t>(column);
    std::vector<int> order(rows.size());
    std::iota(order.begin(), order.end(), 0);
    const auto longer = [&](int a, int b) {
        return rows[static_cast<size_t>(a)][c].text.size() > rows[static_cast<size_t>(b)][c].text.size();
    };
    std::vector<int> shown;
    std::sort(order.begin(), order.end(), longer);
    for (int r : order) {
        const QModelIndex i = sortModelOf(t)->mapFromSource(resultModelOf(t)->index(r, column));
        if (!i.isValid()) continue;  // an idle link not shown
        shown.push_back(r);
        if (shown.size() == kMeasured) break;
    }
    auto* h = t->horizontalHeader();
    int width = h->sectionSizeHint(column);
    for (int r : shown) {
        const QModelIndex i = sortModelOf(t)->mapFromSource(resultModelOf(t)->index(r, column));
        width = std::max(width, t->sizeHintForIndex(i).width() + (t->showGrid() ? 1 : 0));
    }
    h->resizeSection(column, std::max(width, h->minimumSectionSize()));
}

}  // namespace

std::vector<ResultColumn> resourceColumns() {
    return {{QObject::tr("Resource"), "resource", false, {}},
            {QObject::tr("Kind"), "kind", false, {}},
            {QObject::tr("Busy (ms)"), "busy_s", true, {}},
            {QObject::tr("Utilisation"), "utilisation_percent", true, {}}};
}

std::vector<ResultColumn> startColumns() {
    return {{QObject::tr("Start"), "start", false, {}},           {QObject::tr("Initial (ms)"), "initial_makespan_s", true, {}},
            {QObject::tr("Best (ms)"), "best_makespan_s", true, {}}, {QObject::tr("Gain"), {}, true, {}},
            {QObject::tr("Iterations"), "iterations", true, {}},  {QObject::tr("Accepted"), "accepted", true, {}},
            {QObject::tr("Restarts"), {}, true, {}},               {QObject::tr("Elapsed (s)"), "elapsed_s", true, {}},
            {QObject::tr("Stop"), "stop", false, {}}};
}

QTableView* makeSimTable(QWidget* parent, const QString& name, std::vector<ResultColumn> columns) {
    return makeResultView(parent, name, new ResultTableModel(std::move(columns)));
}

std::shared_ptr<const SimulationTables> simulationTables(std::shared_ptr<const SimulationResult> result) {
    auto out = std::make_shared<SimulationTables>();
    out->of = std::move(result);
    if (!out->of) return out;
    const SimulationResult& sim = *out->of;
    for (int r = 0; r < static_cast<int>(sim.resources.size()); ++r) {
        const auto i = static_cast<size_t>(r);
        // The resource index keeps devices before links when sorted by the name's column.
        ResultCell name = countCell(q(sim.resources[i]), r);
        name.csv = sim.resources[i];
        ResultCell use = numberCell(q(fixed(100 * sim.utilisation[i], 1)) + " %", sim.utilisation[i]);
        use.csv = formatNumber(100 * sim.utilisation[i]);
        out->resources.push_back({name, textCell(q(kindOf(sim, r))),
                                  numberCell(q(fixed(sim.busy_s[i] * 1e3, 3)), sim.busy_s[i]), use});
        const bool idle = sim.isLink(r) && sim.busy_s[i] == 0;
        out->busy.push_back(!idle);
        out->idle_links += idle;
    }
    if (sim.mcmc)
        for (const sim::McmcStartSummary& s : sim.mcmc->starts) {
            const double gain = s.best_s > 0 ? s.initial_s / s.best_s : 0;
            out->starts.push_back({textCell(q(s.name)), numberCell(q(fixed(s.initial_s * 1e3, 3)), s.initial_s),
                                   numberCell(q(fixed(s.best_s * 1e3, 3)), s.best_s),
                                   numberCell(q(fixed(gain, 3)) + QChar(0x00D7), gain),
                                   countCell(q(withCommas(double(s.iterations))), qint64(s.iterations)),
                                   countCell(q(withCommas(double(s.accepted))), qint64(s.accepted)),
                                   countCell(q(withCommas(double(s.restarts))), qint64(s.restarts)),
                                   numberCell(q(fixed(s.elapsed_s, 2)), s.elapsed_s), textCell(q(s.stop))});
        }
    return out;
}

void fillResourceTable(QTableView* t, const SimulationTables& tables, bool idle_links) {
    t->setSortingEnabled(false);
    // The filter first, then the rows: filtering rows already shown removes thousands of idle links one
    // range at a time, each through the view's headers.
    resultModelOf(t)->setRows({});
    sortModelOf(t)->setRowFilter(
        [busy = tables.busy, idle_links](int r) { return idle_links || busy[static_cast<size_t>(r)]; });
    resultModelOf(t)->setRows(tables.resources);
    setBarColumn(t, 3);
    auto* h = t->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setSectionResizeMode(3, QHeaderView::Stretch);  // the bar gets the spare width
    h->setMinimumSectionSize(90);
    for (int c = 0; c < 3; ++c) fitColumn(t, tables.resources, c);
    t->setSortingEnabled(true);
    t->sortByColumn(0, Qt::AscendingOrder);
}

void fillStartsTable(QTableView* t, const SimulationTables& tables) {
    resultModelOf(t)->setRows(tables.starts);
    auto* h = t->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(h->count() - 1, QHeaderView::Stretch);
    // As tall as its rows: a search has a handful of starts.
    const int shown = std::max(1, t->model()->rowCount());
    t->setFixedHeight(h->sizeHint().height() + shown * t->verticalHeader()->defaultSectionSize() +
                      2 * t->frameWidth() + 2);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
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
