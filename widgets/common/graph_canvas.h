#pragma once
// A drawing in scene points (y down) that zooms and pans, shared by the Network tab's graph and the
// network editor. Scene points map to widget pixels as p * scale + offset, below a band the subclass
// may draw (a legend). The wheel or +/- zooms, arrows pan, 0 or F fits, a drag pans (which press
// starts one is the subclass's choice), and an overview in the top-right corner shows the part in
// view when the drawing is larger than the widget (click or drag in it to move there).
#include <QWidget>

class QMouseEvent;

namespace partita {

class GraphCanvas : public QWidget {
    Q_OBJECT
public:
    void zoomBy(double factor, QPointF anchor);
    void zoomIn();
    void zoomOut();
    void fit();  // the whole drawing in the widget (enlarged at most to 100 %)
    double scale() const { return scale_; }
    double fitScale() const;
    void panBy(QPointF delta);
    void centreOn(QPointF scene);  // a scene point to the middle of the view
    QRectF overviewRect() const;   // widget coordinates; empty when the whole drawing is in view
    QPointF toScene(QPointF widget) const { return (widget - offset_) / scale_; }
    QRectF toWidget(const QRectF& scene) const;

protected:
    explicit GraphCanvas(QWidget* parent);

    virtual QRectF sceneRect() const = 0;  // what is drawn, scene points; empty when nothing is
    virtual double headerHeight(double /*width*/) const { return 0; }  // the band above the drawing
    virtual void paintOverviewScene(QPainter& p) const = 0;  // `p` maps scene points into the overview
    virtual QString toolTipAt(QPointF /*pos*/, QRect* /*area*/) const { return {}; }
    virtual bool startsPan(const QMouseEvent& event) const;  // default: the left button
    virtual void clicked(QMouseEvent*) {}                    // a press released without a pan
    // The first view of a new drawing: fitted when that reads, else readable at its top, centred on
    // `anchorX` (scene) when too wide.
    virtual double anchorX() const { return sceneRect().center().x(); }
    virtual void initialView();

    QRectF graphArea() const;  // the widget below the band
    void clampOffset();
    void ensureVisible(const QRectF& scene);
    void paintOverview(QPainter& p) const;
    void relayoutView();  // a new drawing: the initial view, kept through resizes until the user moves

    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

    double scale_ = 1;
    QPointF offset_;
    // What a resize does: redo the initial view (until the user zooms or pans), fit again (after
    // Fit), or keep the scale and position.
    enum class Follow { Initial, Fit, None } follow_ = Follow::Initial;

private:
    double overviewScale() const;
    QPoint press_pos_;
    QPointF press_offset_;
    QCursor rest_cursor_;
    bool pressed_ = false, panning_ = false, in_overview_ = false;
};

}  // namespace partita
