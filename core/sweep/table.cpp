#include "core/sweep/table.h"

#include "core/sweep/axes.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <cmath>
#include <map>
#include <numeric>

#include "core/io/json_fields.h"
#include "core/run/method_registry.h"
#include "core/store/results_db.h"
#include "core/sweep/spec.h"
#include "core/util/format.h"

namespace partita::sweep {

namespace {

constexpr MetricInfo kInfo[] = {{"time_step_s", "Step time (s)", false},
                                {"energy_j", "Energy (J)", false},
                                {"comm_elements", "Communication (elements)", false},
                                {"speedup_vs_dp_x", "Speed-up over DP (×)", true}};
static_assert(std::size(kInfo) == kMetricCount);

// The column order: the inputs first, then the axes as the spec nests them, then anything else.
int rank(const std::string& name) {
    static const char* const kFirst[] = {"network", "array", "topology", "method"};
    for (std::size_t i = 0; i < std::size(kFirst); ++i)
        if (name == kFirst[i]) return static_cast<int>(i);
    const int axis = axisRank(name);
    return axis >= 0 ? static_cast<int>(std::size(kFirst)) + axis : 1000;
}

// "peak memory", "GiB" -> "peak_memory_gib"; "%" reads "pct", "×" "x".
std::string columnKey(const SummaryFigure& f) {
    std::string key;
    for (const char c : f.label + " " + (f.unit == "%" ? "pct" : f.unit == "×" ? "x" : f.unit)) {
        const bool word = std::isalnum(static_cast<unsigned char>(c));
        if (word) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!key.empty() && key.back() != '_') key += '_';
    }
    while (!key.empty() && key.back() == '_') key.pop_back();
    return key;
}

// The summary labels of the one settings method every stored row is of; none for a mixed table or
// one of other methods.
std::optional<SummaryLabels> labelsOf(const std::vector<TableRow>& rows) {
    std::string method;
    for (const TableRow& r : rows) {
        if (r.method.empty()) continue;
        if (!method.empty() && r.method != method) return std::nullopt;
        method = r.method;
    }
    const MethodInfo* info = method.empty() ? nullptr : findMethod(method);
    if (!info || !info->settings()) return std::nullopt;
    return info->settings()->summaryLabels();
}

std::string valueText(const Json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return formatNumber(v.get<double>());
    return v.dump();
}

bool finite(double v) { return std::isfinite(v); }

// A generated array's label names its levels ("levels=4,torus"); a levels axis builds the array again
// at the axis's levels, so the point ran on an H-tree or torus of those levels, not the label's. A
// file's array is resized the same way.
std::string arrayText(const std::string& label, bool levels_axis) {
    if (!levels_axis) return label;
    if (!label.starts_with("levels=")) return label + " at the levels axis";
    return label.ends_with(",torus") ? "torus" : "H-tree";
}

}  // namespace

const MetricInfo& metricInfo(Metric metric) { return kInfo[static_cast<std::size_t>(metric)]; }

std::array<MetricColumn, kMetricCount> metricColumns() {
    std::array<MetricColumn, kMetricCount> columns;
    for (std::size_t m = 0; m < kMetricCount; ++m) columns[m] = {kInfo[m].key, kInfo[m].label, kInfo[m].maximise, {}};
    return columns;
}

int Table::axisIndex(const std::string& name) const {
    const auto it = std::find(axes.begin(), axes.end(), name);
    return it == axes.end() ? -1 : static_cast<int>(it - axes.begin());
}

bool Table::unfit(const TableRow& row) const {
    for (std::size_t m = 0; m < kMetricCount; ++m)
        if (columns[m].yes_no && row.ok() && row.metrics[m] == 0) return true;
    return false;
}

bool Table::varies(int axis) const {
    const auto a = static_cast<std::size_t>(axis);
    return std::any_of(rows.begin(), rows.end(), [&](const TableRow& r) { return r.axes[a] != rows.front().axes[a]; });
}

std::vector<std::string> Table::sweeps() const {
    std::vector<std::string> out;
    for (const TableRow& r : rows)
        if (std::find(out.begin(), out.end(), r.sweep) == out.end()) out.push_back(r.sweep);
    return out;
}

Table makeTable(const std::vector<store::SweepPointListing>& points) {
    std::vector<Json> parsed;
    parsed.reserve(points.size());
    std::vector<std::string> names;
    for (const auto& p : points) {
        Json j = Json::parse(p.point_json, nullptr, false);
        if (!j.is_object()) j = Json::object();  // a damaged row still shows, with its numbers
        for (const auto& [name, value] : j.items())
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        parsed.push_back(std::move(j));
    }
    std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : (rank(a) == 1000 && a < b);
    });
    Table t;
    t.axes = names;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        TableRow row{p.key, p.sweep, p.error, p.run_id, {}, {}, p.method};
        const Json& point = parsed[i];
        for (const std::string& name : names) {
            std::string text = point.contains(name) ? valueText(point[name]) : std::string();
            if (name == "array") text = arrayText(text, point.contains("levels"));
            row.axes.push_back(std::move(text));
        }
        // A simulated point (it names a topology) has a makespan and a speed-up, but neither energy
        // nor element counts: the simulator measures neither, and its run stores 0 for them.
        const double nan = std::nan("");
        const bool simulated = point.contains("topology");
        row.metrics = {p.time_step_s, simulated ? nan : p.energy_j, simulated ? nan : p.total_elements, p.perf_vs_dp};
        t.rows.push_back(std::move(row));
    }
    if (const auto labels = labelsOf(t.rows)) {
        // kMetrics: step time, energy, communication, speed-up (MethodSummary's time, energy, traffic, speed-up)
        const std::array<SummaryFigure, kMetricCount> figures{labels->time, labels->energy, labels->traffic,
                                                              labels->speedup};
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const SummaryFigure& f = figures[m];
            if (m == static_cast<std::size_t>(Metric::Speedup) && !f.used() && !labels->verdict.empty()) {
                // The run keeps its verdict here: 1 yes, 0 no.
                t.columns[m] = {labels->verdict, labels->verdict, true, std::nullopt, true};
                continue;
            }
            SummaryFigure shown = f;
            shown.scale = 1;
            t.columns[m] = {f.used() ? columnKey(f) : kInfo[m].key, f.used() ? f.label + " (" + f.unit + ")" : "",
                            f.maximise, shown};
            for (TableRow& r : t.rows) r.metrics[m] = f.used() ? r.metrics[m] * f.scale : std::nan("");
        }
    }
    return t;
}

std::vector<PointColumn> pointColumns(const Table& table) {
    std::vector<PointColumn> out;
    for (std::size_t a = 0; a < table.axes.size(); ++a)
        if (table.varies(static_cast<int>(a))) out.push_back({PointColumn::Axis, a});
    for (std::size_t m = 0; m < kMetricCount; ++m) out.push_back({PointColumn::Metric, m});
    for (std::size_t a = 0; a < table.axes.size(); ++a)
        if (!table.varies(static_cast<int>(a))) out.push_back({PointColumn::Axis, a});
    out.push_back({PointColumn::Status, 0});
    out.push_back({PointColumn::Run, 0});
    return out;
}

CsvTable tableCsv(const Table& table) {
    CsvTable csv;
    const std::vector<PointColumn> columns = pointColumns(table);
    for (const PointColumn& c : columns) {
        if (c.kind == PointColumn::Axis) csv.header.push_back(table.axes[c.index]);
        else if (c.kind == PointColumn::Metric) csv.header.push_back(table.columns[c.index].key);
        else csv.header.push_back(c.kind == PointColumn::Status ? "status" : "run_id");
    }
    for (const TableRow& r : table.rows) {
        std::vector<std::string> cells;
        for (const PointColumn& c : columns) {
            if (c.kind == PointColumn::Axis) {
                cells.push_back(r.axes[c.index]);
            } else if (c.kind == PointColumn::Metric) {
                const double v = r.metrics[c.index];
                cells.push_back(!finite(v) ? "" : table.columns[c.index].yes_no ? (v != 0 ? "yes" : "no") : formatNumber(v));
            } else if (c.kind == PointColumn::Status) {
                cells.push_back(r.ok() ? "stored" : "failed: " + r.error);
            } else {
                cells.push_back(r.run_id ? std::to_string(r.run_id) : "");
            }
        }
        csv.rows.push_back(std::move(cells));
    }
    return csv;
}

Json tableJson(const Table& table) {
    Json columns = Json::array(), points = Json::array(), varying = Json::array();
    for (const MetricColumn& c : table.columns)
        columns.push_back({{"key", c.key}, {"label", c.label}, {"maximise", c.maximise},
                           {"type", c.yes_no ? "boolean" : "number"}});
    for (std::size_t a = 0; a < table.axes.size(); ++a)
        if (table.varies(static_cast<int>(a))) varying.push_back(table.axes[a]);
    for (const TableRow& r : table.rows) {
        Json p = Json::object();
        for (std::size_t a = 0; a < table.axes.size(); ++a)
            if (!r.axes[a].empty()) p[table.axes[a]] = r.axes[a];
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const double v = r.metrics[m];
            p[table.columns[m].key] = !finite(v) ? Json(nullptr) : table.columns[m].yes_no ? Json(v != 0) : Json(v);
        }
        if (!r.ok()) p["error"] = r.error;
        p["run_id"] = r.run_id;
        points.push_back(std::move(p));
    }
    return {{"sweeps", table.sweeps()}, {"axes", table.axes}, {"varying_axes", varying}, {"columns", columns},
            {"points", points}};
}

Table readTable(const ResultsDb& db, const std::string& sweep) { return makeTable(db.sweepPoints(sweep)); }

std::vector<std::size_t> paretoFront(const std::vector<double>& x, const std::vector<double>& y, bool maximise_x,
                                     bool maximise_y) {
    // Both minimised: sorted by x then y, a point is on the front when it has the least y of its
    // x and that y is strictly below every y at a smaller x (an equal y there dominates it).
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
        if (finite(x[i]) && finite(y[i])) order.push_back(i);
    const auto X = [&](std::size_t i) { return maximise_x ? -x[i] : x[i]; };
    const auto Y = [&](std::size_t i) { return maximise_y ? -y[i] : y[i]; };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return X(a) != X(b) ? X(a) < X(b) : Y(a) < Y(b);
    });
    std::vector<std::size_t> front;
    bool any = false;
    double best_before = 0;  // least y over smaller x
    for (std::size_t k = 0; k < order.size();) {
        std::size_t end = k;
        while (end < order.size() && X(order[end]) == X(order[k])) ++end;
        const double least = Y(order[k]);
        if (!any || least < best_before)
            for (std::size_t j = k; j < end && Y(order[j]) == least; ++j) front.push_back(order[j]);
        if (!any || least < best_before) best_before = least;
        any = true;
        k = end;
    }
    return front;
}

std::vector<std::size_t> paretoFront(const Table& table, const std::vector<std::size_t>& rows, Metric x, Metric y) {
    std::vector<double> xs, ys;
    std::vector<std::size_t> ok;
    for (std::size_t r : rows) {
        if (!table.rows[r].ok()) continue;
        ok.push_back(r);
        xs.push_back(table.rows[r].metric(x));
        ys.push_back(table.rows[r].metric(y));
    }
    std::vector<std::size_t> front = paretoFront(xs, ys, table.column(x).maximise, table.column(y).maximise);
    for (std::size_t& i : front) i = ok[i];
    return front;
}

std::vector<std::string> axisValues(const Table& table, int axis, std::vector<double>* numbers) {
    std::vector<std::string> values;
    for (const TableRow& r : table.rows) {
        const std::string& v = r.axes[static_cast<std::size_t>(axis)];
        if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
    std::vector<double> parsed;
    for (const std::string& v : values) {
        std::size_t used = 0;
        double d = 0;
        try {
            d = std::stod(v, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (v.empty() || used != v.size()) {
            std::sort(values.begin(), values.end());
            return values;
        }
        parsed.push_back(d);
    }
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return parsed[a] < parsed[b]; });
    std::vector<std::string> sorted;
    std::vector<double> sorted_numbers;
    for (std::size_t i : order) {
        sorted.push_back(values[i]);
        sorted_numbers.push_back(parsed[i]);
    }
    if (numbers) *numbers = std::move(sorted_numbers);
    return sorted;
}

std::vector<Group> groupBy(const Table& table, const std::vector<std::size_t>& rows, int axis) {
    const std::vector<std::string> values = axisValues(table, axis);
    std::map<std::string, std::size_t> slot;
    for (std::size_t i = 0; i < values.size(); ++i) slot[values[i]] = i;
    std::vector<Group> groups(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) groups[i].value = values[i];
    for (std::size_t r : rows) groups[slot.at(table.rows[r].axes[static_cast<std::size_t>(axis)])].rows.push_back(r);
    std::erase_if(groups, [](const Group& g) { return g.rows.empty(); });
    const double nan = std::nan("");
    for (Group& g : groups) {
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const bool maximise = table.columns[m].maximise;
            double best = nan, sum = 0;
            std::size_t n = 0;
            for (std::size_t r : g.rows) {
                const TableRow& row = table.rows[r];
                const double v = row.metrics[m];
                if (!row.ok() || !finite(v)) continue;
                if (std::isnan(best) || (maximise ? v > best : v < best)) best = v;
                sum += v;
                ++n;
            }
            g.best[m] = best;
            g.mean[m] = n ? sum / static_cast<double>(n) : nan;
        }
        g.failed = static_cast<std::size_t>(
            std::count_if(g.rows.begin(), g.rows.end(), [&](std::size_t r) { return !table.rows[r].ok(); }));
    }
    return groups;
}

}  // namespace partita::sweep
