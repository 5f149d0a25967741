#pragma once
// The interactive part of the Gantt view: wheel zooms about the cursor, drag
// pans (and scrolls lanes), a click on a bar selects its operator, a click on
// a group header collapses it, F/Home fits everything. Shift+wheel and the
// scroll bar move through the lanes. GanttView wraps it with a toolbar.
#include <memory>
#include <optional>
#include <utility>

#include <QAbstractScrollArea>

#include "widgets/timeline/gantt_paint.h"

namespace partita {

class GanttCanvas : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit GanttCanvas(QWidget* parent = nullptr);

    void setInput(std::shared_ptr<const view::GanttInput> input);
    const view::GanttModel& model() const { return model_; }
    const view::LaneLayout& layout() const { return layout_; }

    void setColouring(view::GanttColouring colouring);
    void setCriticalPathShown(bool shown);
    bool criticalPathShown() const { return state_.show_critical; }
    void setIdleLinksHidden(bool hidden);
    bool idleLinksHidden() const { return hide_idle_; }
    void setSelectedOperator(int op);  // -1 clears; no signal
    int selectedOperator() const { return state_.selected_op; }
    // A lane by resource id (a compute device d, or a link as devices + l): tinted and scrolled into
    // view, its group expanded; -1 clears. No signal.
    void setSelectedResource(int resource);
    int selectedResource() const { return state_.selected_resource; }

    void fitAll();
    void zoom(double factor, double anchor_x);  // anchor in viewport pixels
    std::pair<double, double> visibleRange() const { return {state_.axis.t0, state_.axis.t1}; }
    const view::TimeAxis& axis() const { return state_.axis; }
    void setGroupCollapsed(int group, bool collapsed);

    // Bar and header rectangles in viewport coordinates (tests, tooltips).
    std::optional<QRectF> barRect(int lane, int index) const;
    std::optional<QRectF> headerRect(int group) const;
    // The (lane, bar) under a viewport point, with a few pixels of slack.
    std::optional<std::pair<int, int>> barAt(const QPointF& pos) const;
    QString toolTipAt(const QPointF& pos) const;  // empty off the bars

    GanttFrame frame(const QRect& area) const { return ganttFrame(area, model_, font()); }
    void paintInto(QPainter& painter, const QRect& area) const;  // export: fitted to area, unscrolled

signals:
    void operatorClicked(int op);
    void resourceClicked(int resource);  // a lane's name was clicked: its resource id
    void viewChanged();  // range, lanes or highlighting changed

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void rebuild();         // model and layout from input_, keeping collapsed groups by name
    void relayout();        // frame, axis pixels and the scroll bar after a resize or relayout
    void changed();

    std::shared_ptr<const view::GanttInput> input_;
    view::GanttModel model_;
    view::LaneLayout layout_{{}, 20, 22};
    GanttFrame frame_;
    GanttPaintState state_;
    view::GanttColouring colouring_ = view::GanttColouring::Phase;
    bool hide_idle_ = true;
    QPointF press_pos_, last_pos_;
    bool pressed_ = false, dragging_ = false;
};

}  // namespace partita
