#pragma once
// The sweep view (issue 18 item 5): a sweep's points from a results database as a table (filter,
// sortable columns, group by any axis with aggregates) beside two figures: the scatter of any two
// metrics with the Pareto front, and small multiples of a metric against an axis per method.
// Choosing a point (a table row, a dot) emits its run id; the application opens the run.
#include <memory>
#include <vector>

#include <QWidget>

#include "core/io/csv.h"
#include "core/sweep/table.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTabWidget;
class QTableView;

namespace partita {

class SweepFilter;
class SweepMultiples;
class SweepScatter;
class SweepTableModel;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);
    // A new table (a database opened, points arrived): choices that still apply are kept.
    void setTable(std::shared_ptr<const sweep::Table> table, const QString& source);
    std::shared_ptr<const sweep::Table> table() const { return table_; }
    QString source() const { return source_; }

    void setFilterText(const QString& text);
    void setGroupAxis(const QString& axis);  // "" for one row per point
    void setScatterMetrics(sweep::Metric x, sweep::Metric y);  // the user's choice: kept while it applies
    // The network the figures show ("" for all networks). A front across networks is the smallest
    // network's, so the figures show one network at a time, the first of the filtered points by default.
    void setNetwork(const QString& network);
    QString network() const;
    QComboBox* networkBox() const { return network_box_; }
    QComboBox* xBox() const { return x_box_; }
    QComboBox* yBox() const { return y_box_; }
    QString summary() const;
    void setMultiples(sweep::Metric metric, const QString& axis);
    void showFigure(int index);  // 0: the scatter, 1: the small multiples
    // The points the filter keeps (indices into table()->rows), in the table's order.
    std::vector<std::size_t> filteredRows() const;
    // Those of them the figures show: the chosen network's.
    std::vector<std::size_t> figureRows() const;

    QTableView* tableView() const { return table_view_; }
    SweepTableModel* model() const { return model_; }
    SweepFilter* filter() const { return filter_; }
    SweepScatter* scatter() const { return scatter_; }
    SweepMultiples* multiples() const { return multiples_; }
    CsvTable csv() const;  // the table as shown: filtered, sorted, grouped

signals:
    void runChosen(qint64 run_id);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refilter();
    void refigure();  // the figures and the summary, after the rows or the network changed
    void fillAxisCombos();
    // Until the user drags the splitter: the table as wide as its shown columns need (an LLM sweep's
    // tp ... fits at 1024 pixels), the figures keeping at least 40 % and their minimum.
    void fitTable();
    void fillNetworkBox(const std::vector<std::size_t>& rows);
    // Metrics no shown point has are disabled; unless the user chose, the axes are the preferred
    // metrics that every shown point has.
    void chooseMetrics(const std::vector<std::size_t>& rows);

    std::shared_ptr<const sweep::Table> table_;
    std::vector<std::size_t> filtered_;  // filteredRows() as of the last refilter
    QString source_;
    SweepTableModel* model_ = nullptr;
    SweepFilter* filter_ = nullptr;
    QTableView* table_view_ = nullptr;
    QLineEdit* filter_edit_ = nullptr;
    QComboBox* group_box_ = nullptr;
    QComboBox* network_box_ = nullptr;
    QLabel* network_label_ = nullptr;
    bool metrics_chosen_ = false;  // the user picked the scatter's metrics
    bool multiples_chosen_ = false;  // the user picked the small multiples' metric
    QComboBox* x_box_ = nullptr;
    QComboBox* y_box_ = nullptr;
    QComboBox* multi_metric_box_ = nullptr;
    QComboBox* multi_axis_box_ = nullptr;
    QLabel* summary_ = nullptr;
    QTabWidget* figures_ = nullptr;
    QSplitter* split_ = nullptr;
    bool split_by_user_ = false;
    SweepScatter* scatter_ = nullptr;
    SweepMultiples* multiples_ = nullptr;
};

}  // namespace partita
