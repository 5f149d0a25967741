#pragma once
// A sweep as a table (issue 18 item 5, the sweep view's data without Qt): one row per point of a
// results database with its axis values (network, array, method, then the sweep's axes) and its
// run's metrics; the Pareto front of any two metrics; rows grouped by one axis with aggregates.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/csv.h"
#include "core/io/json_fields.h"
#include "core/run/method_registry.h"
#include "core/store/sweep_rows.h"

namespace partita {
class ResultsDb;
}

namespace partita::sweep {

enum class Metric { StepTime, Energy, Communication, Speedup };
inline constexpr Metric kMetrics[] = {Metric::StepTime, Metric::Energy, Metric::Communication, Metric::Speedup};
inline constexpr std::size_t kMetricCount = std::size(kMetrics);

struct MetricInfo {
    const char* key;    // CSV column stem, e.g. "time_step_s"
    const char* label;  // with its unit, e.g. "Step time (s)"
    bool maximise;      // speed-up is better larger; the others smaller
};
const MetricInfo& metricInfo(Metric metric);

// A metric as one table names it: metricInfo's, or a settings method's summary figure
// (SummaryLabels: "iteration (s)", key "iteration_s").
struct MetricColumn {
    std::string key, label;
    bool maximise = false;
    // A settings method's figure, its scale 1 (the table's values are in its unit): figure->value(v)
    // reads "51.26 %"; none for metricInfo's columns.
    std::optional<SummaryFigure> figure = {};
    // A yes/no column (1 yes, 0 no; SummaryLabels::verdict): an LLM plan's "fits" in memory.
    bool yes_no = false;
};

// metricInfo's columns, by kMetrics order.
std::array<MetricColumn, kMetricCount> metricColumns();

struct TableRow {
    std::string key, sweep, error;
    std::int64_t run_id = 0;                 // 0 for a failed point
    std::vector<std::string> axes;           // by Table::axes ("" where the point has no such axis)
    // By kMetrics order; NaN for a failed point and for a metric the point does not have (a simulated
    // point has no energy or element count).
    std::array<double, kMetricCount> metrics{};
    std::string method = {};                 // the run's method key ("" for a failed point)
    double metric(Metric m) const { return metrics[static_cast<std::size_t>(m)]; }
    bool has(Metric m) const { return ok() && std::isfinite(metric(m)); }
    bool ok() const { return error.empty() && run_id != 0; }
};

struct Table {
    // "network", "array", ["topology",] "method", then the axes in the order the points name them.
    std::vector<std::string> axes;
    std::vector<TableRow> rows;
    // Each metric's column: metricInfo's; when every stored row is of one settings method, that
    // method's summary figures (the rows' values scaled to the figures' units; a figure it leaves
    // unused is NaN throughout, its label empty).
    std::array<MetricColumn, kMetricCount> columns = metricColumns();
    const MetricColumn& column(Metric m) const { return columns[static_cast<std::size_t>(m)]; }
    int axisIndex(const std::string& name) const;  // -1 when absent
    // The sweeps' names, in the order rows first name them.
    std::vector<std::string> sweeps() const;
    // Whether the rows hold more than one value of axis `axis`.
    bool varies(int axis) const;
    // A stored row whose yes/no column reads no: an LLM plan that does not fit in memory.
    bool unfit(const TableRow& row) const;
};

// One of a point row's columns, in pointColumns' order.
struct PointColumn {
    enum Kind { Axis, Metric, Status, Run } kind;
    std::size_t index;  // into Table::axes or kMetrics
};
// The order the sweep view and the exports give a point's columns: the axes that vary (what a reader
// compares: "tp pp micro_batch -> time, MFU, memory"), the metrics, the constant axes, status, run.
std::vector<PointColumn> pointColumns(const Table& table);


// Rows from the database's point listing; a number in a point's JSON becomes its shortest exact text.
// A generated array ("levels=4") on a point with a levels axis reads "H-tree" or "torus", a file's
// "<name> at the levels axis": the axis decided their levels.
Table makeTable(const std::vector<store::SweepPointListing>& points);
Table readTable(const ResultsDb& db, const std::string& sweep = {});

// The rows as a CSV (pointColumns' order: varying axes, the metric columns by key, constant axes,
// status, run_id; a missing value is an empty cell, a yes/no column reads yes or no) and as JSON
// {"sweeps": [names], "axes": [...], "varying_axes": [...], "columns": [...], "points": [{axis: value,
// ..., key: number, true/false or null, "error", "run_id"}]} (docs/guide/sweeps.md#the-sweep-table).
CsvTable tableCsv(const Table& table);
Json tableJson(const Table& table);

// Indices of the points no other point dominates, for x and y each minimised or maximised:
// q dominates p when q is at least as good in both and strictly better in one. Identical points do
// not dominate each other, so duplicates on the front are all kept. Points with a NaN or infinite
// coordinate are left out. Ordered by x (better first), then by index.
std::vector<std::size_t> paretoFront(const std::vector<double>& x, const std::vector<double>& y, bool maximise_x,
                                     bool maximise_y);
// The front of the table's rows `rows` (failed rows are left out): indices into table.rows.
std::vector<std::size_t> paretoFront(const Table& table, const std::vector<std::size_t>& rows, Metric x, Metric y);

// The rows `rows` grouped by the value of axis `axis`: groups ordered numerically when every value
// is a number, else as text; per group the row indices, its failed points and, over its stored
// points, each metric's best (metricInfo's direction) and arithmetic mean (NaN without one).
struct Group {
    std::string value;
    std::vector<std::size_t> rows;
    std::size_t failed = 0;
    std::array<double, kMetricCount> best{}, mean{};
};
std::vector<Group> groupBy(const Table& table, const std::vector<std::size_t>& rows, int axis);

// The axis's values in groupBy's order, and whether they are all numbers (then `numbers` holds them).
std::vector<std::string> axisValues(const Table& table, int axis, std::vector<double>* numbers = nullptr);

}  // namespace partita::sweep
