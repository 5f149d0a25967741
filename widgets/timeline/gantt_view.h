#pragma once
// Gantt timeline of a simulated run (issue 6, item 1): a lane per compute
// device and per link in collapsible groups (by node, by link kind), bars
// coloured by phase or by layer, wheel zoom about the cursor, drag pan, fit
// all, tooltips, the critical path, and a click on a bar reporting its
// operator. The view never simulates: its owner hands it a view::GanttInput.
#include <memory>
#include <utility>

#include <QWidget>

#include "core/io/csv.h"
#include "widgets/common/figure_export.h"
#include "widgets/geometry/gantt_model.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace partita {

class GanttCanvas;

class GanttView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit GanttView(QWidget* parent = nullptr);

    // Shows a run and fits it; nullptr clears. Build the input on a worker with
    // view::ganttInput(graph, result, topology) (it computes the critical path).
    void setInput(std::shared_ptr<const view::GanttInput> input);
    const view::GanttModel& model() const;
    GanttCanvas* canvas() const { return canvas_; }

    void setColouring(view::GanttColouring colouring);
    view::GanttColouring colouring() const;
    void setCriticalPathShown(bool shown);
    bool criticalPathShown() const;
    // On by default: a cluster has many links a strategy never uses.
    void setIdleLinksHidden(bool hidden);
    bool idleLinksHidden() const;
    // Highlights an operator's bars (e.g. the layer selected in the grid); emits nothing.
    void selectOperator(int op);
    int selectedOperator() const;
    // Tints a lane by resource id (compute device d; links follow the devices); -1 clears. Emits nothing.
    void selectResource(int resource);
    int selectedResource() const;

    void fitAll();
    std::pair<double, double> visibleRange() const;  // seconds
    void setGroupCollapsed(int group, bool collapsed);
    int visibleLaneCount() const;

    // The red line under the controls when the strategy does not fit ("" when it fits).
    QString memoryNote() const;

    QSize figureSize() const override { return {1280, 800}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;
    // Every bar: lane, group, layer, phase, part, task, start, end, duration, bytes.
    CsvTable csv() const;

signals:
    // The user clicked a bar of this operator (an index into Network::ops).
    void operatorClicked(int op);
    // The user clicked a lane's name: its resource id.
    void resourceClicked(int resource);

private:
    void syncControls();

    GanttCanvas* canvas_;
    QComboBox* colouring_;
    QCheckBox* critical_;
    QCheckBox* idle_;
    QLabel* memory_;
};

}  // namespace partita
