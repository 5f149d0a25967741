#pragma once
// Predicted against measured iteration time for a runs file (issue 29, item 6): one point per run,
// the y = x line and ±10 % bands, colour per source, a legend with each source's mean absolute
// percentage error and the overall one, log axes when the times span more than 10×. Clicking a point
// emits runChosen. The table (name, source, measured, predicted, error %) exports as CSV.
#include <optional>

#include <QAbstractTableModel>
#include <QWidget>

#include "core/io/csv.h"
#include "core/llm/validate.h"
#include "widgets/common/figure_export.h"
#include "widgets/llm/scatter_axes.h"

class QTableView;

namespace partita {

// Rows = the report's runs: name, source, measured (s), predicted (s), error %, note (why it could not be planned).
class RunPredictionsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setReport(const llm::ValidationReport* report);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const llm::ValidationReport* report_ = nullptr;
};

class MeasuredPlot;

class MeasuredView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit MeasuredView(QWidget* parent = nullptr);

    void setReport(llm::ValidationReport report);
    const llm::ValidationReport& report() const { return report_; }

    // The legend's lines: "<source>: MAPE 4.2 % (n runs)" per source, then "all: MAPE 5.1 %".
    QStringList legendLines() const;
    static QString mapeText(double pct);  // "5.1 %"
    bool logAxes() const;

    // The run (index into report().runs) under a position of plot(); a run's point position.
    std::optional<int> runAt(const QPointF& plot_pos) const;
    std::optional<QPointF> runPosition(int run) const;
    QString runToolTip(int run) const;
    void chooseRun(int run);  // as a click: emits runChosen

    QWidget* plot() const;
    QTableView* table() const { return table_; }

    QSize figureSize() const override { return {1280, 800}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;  // the plot
    CsvTable csv() const;  // name, source, measured_s, predicted_s, error_pct

signals:
    void runChosen(int run);

private:
    friend class MeasuredPlot;
    llmview::PlotArea plotArea(const QRect& area) const;
    void paintPlot(QPainter& painter, const QRect& area) const;
    int sourceIndex(const std::string& source) const;

    llm::ValidationReport report_;
    std::vector<std::string> sources_;
    int chosen_ = -1;
    RunPredictionsModel model_;
    MeasuredPlot* plot_;
    QTableView* table_;
};

}  // namespace partita
