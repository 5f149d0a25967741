#pragma once
// 2-4 stored LLM runs side by side (docs/methods/llm.md#views): the LlmComparison as a table (a column
// per run, then each later run's difference from the first) above a grouped bar chart of the time
// terms, one bar per run. Rows no run has (a zero term) are hidden; the CSV keeps them.
#include <vector>

#include <QWidget>

#include "widgets/llm/llm_comparison.h"

class QCPBarsGroup;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace partita {

class LlmCompareView : public QWidget {
    Q_OBJECT
public:
    explicit LlmCompareView(QWidget* parent = nullptr);

    void setRuns(std::vector<LlmComparedRun> runs);
    const LlmComparison& comparison() const { return comparison_; }
    bool empty() const { return comparison_.runs().empty(); }

    QTableWidget* table() const { return table_; }  // column 0 the labels, then runs, then Δ columns
    QCustomPlot* chart() const { return chart_; }
    QString heading() const;  // the line above the table
    // The table row showing `key` (LlmComparison::Row::key), or -1.
    int tableRow(const std::string& key) const;
    CsvTable csv() const { return comparison_.csv(); }

private:
    void fillTable();
    void fillChart();

    LlmComparison comparison_;
    QLabel* heading_ = nullptr;
    QTableWidget* table_ = nullptr;
    QCustomPlot* chart_ = nullptr;
    QCPBarsGroup* group_ = nullptr;  // owned by chart_
};

}  // namespace partita
