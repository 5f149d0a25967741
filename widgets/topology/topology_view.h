#pragma once
// The topology view (issue 17, item 1): a device graph drawn read-only. Devices are boxes coloured
// by kind, switches grey hexagons; a duplex cable is one edge (a one-way link gets an arrow), its
// width by bandwidth on a log scale and its colour by link kind. Placement (topology_layout.h):
// a circle for a ring, a regular grid for meshes and tori, a multi-node machine as node boxes in a
// grid (devices inside, the switches between nodes above), a Graphviz dot tree for other graphs
// with switches, Graphviz neato otherwise. Painting skips what is outside the window, and a fitted
// large machine drops each node's inside links and the devices' text until zoomed in. After a
// simulation the devices and links are coloured by utilisation or by bytes moved (viridis, as the
// communication heatmap; C switches). Hover gives every figure with units; a click on a device
// selects it and says so (the Timeline follows, wired by the app). Zoom, pan and the overview are
// GraphCanvas's.
#include <memory>
#include <vector>

#include <QColor>
#include <QPainterPath>

#include "core/io/csv.h"
#include "core/run/simulation.h"
#include "widgets/common/figure_export.h"
#include "widgets/common/graph_canvas.h"
#include "widgets/topology/topology_layout.h"

namespace partita {

class TopologyView : public GraphCanvas, public FigureSource {
    Q_OBJECT
public:
    enum class Colouring { Kind, Utilisation, Bytes };

    explicit TopologyView(QWidget* parent = nullptr);

    // A topology without a run (kind colours); nullptr clears.
    void setTopology(std::shared_ptr<const sim::Topology> topology);
    // A simulated run: its topology, coloured by its load (utilisation). nullptr keeps the topology
    // and drops the load.
    void setSimulation(std::shared_ptr<const SimulationResult> result);
    const sim::Topology* topology() const { return topology_.get(); }
    const SimulationResult* simulation() const { return result_.get(); }
    bool hasLoad() const { return result_ != nullptr; }

    void setColouring(Colouring colouring);  // Utilisation and Bytes need a run (else Kind is shown)
    Colouring colouring() const { return hasLoad() ? colouring_ : Colouring::Kind; }

    // What is drawn: one vertex per device and switch, one edge per duplex cable or one-way link.
    int vertexCount() const { return static_cast<int>(placement_.centre.size()); }
    int edgeCount() const { return static_cast<int>(edges_.size()); }
    const std::vector<view::TopologyEdge>& edges() const { return edges_; }
    const view::TopologyPlacement& placement() const { return placement_; }
    bool isSwitch(int vertex) const { return topology_ && vertex >= topology_->deviceCount(); }
    int edgeOfLink(int link) const;    // -1 when no such link
    double linkBytes(int link) const;  // after a run: the bytes its transfers moved; else 0
    QRectF vertexRect(int vertex) const;  // widget coordinates (tests click there)
    QRectF machineRect(int machine) const;  // a node's box (placement().machines), widget coordinates
    QPointF edgeMidpoint(int edge) const;  // widget coordinates, on the drawn edge
    QColor vertexFill(int vertex) const;
    QColor edgeColour(int edge) const;
    double edgeWidth(int edge) const;  // pixels, by bandwidth
    int selectedDevice() const { return selected_; }
    int selectedLink() const { return selected_link_; }
    QString problem() const { return problem_; }  // why nothing is drawn ("" when something is)
    // After a run whose strategy does not fit (docs/methods/flexflow.md#memory-per-device): its devices
    // over capacity get a red border, the header a red note ("" when it fits).
    bool overMemory(int vertex) const;
    QString memoryNote() const;

    QString vertexToolTip(int vertex) const;
    QString edgeToolTip(int edge) const;
    CsvTable csv() const;  // one row per link: endpoints, kind, bandwidth, latency, and the run's load

    QSize sizeHint() const override { return {480, 300}; }
    QSize minimumSizeHint() const override { return {320, 240}; }
    QSize figureSize() const override;
    void paintFigure(QPainter& painter, const QRect& area) const override;

public slots:
    void selectDevice(int device);  // brings it into view; -1 clears; no signal
    void selectLink(int link);      // its cable is marked and brought into view; -1 clears; no signal

signals:
    void deviceClicked(int device);
    void linkClicked(int link);  // a cable was clicked: its a->b link (or its only one)
    // After every recolouring (a topology, a run, setColouring or the C key): what is shown now.
    void colouringChanged(Colouring shown);

protected:
    void paintEvent(QPaintEvent* event) override;
    QRectF sceneRect() const override { return scene_; }
    double headerHeight(double width) const override;
    void paintOverviewScene(QPainter& p) const override;
    QString toolTipAt(QPointF pos, QRect* area) const override;
    void clicked(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;  // C: the next colouring
    void initialView() override;  // fitted: a machine is read as a whole, then zoomed into
    void resizeEvent(QResizeEvent* event) override;  // node boxes re-gridded to the window's shape

private:
    struct LegendItem {
        enum class Type { Box, Switch, Line, Ramp } type = Type::Box;
        QColor colour;
        double width = 0;  // Line: pixels
        QString text;      // Ramp: the caption; low and high follow
        QString low, high;
    };
    struct Group {
        QRectF box;  // scene
        QString label;
    };

    void rebuild();   // edges, placement, paths, groups from topology_
    void recolour();     // fillColours, then says so
    void fillColours();  // fills, edge colours and the legend for the colouring and load
    void buildPaths();
    QRectF box(int vertex) const;  // scene
    double areaAspect() const;     // width / height of where the drawing goes
    int vertexAt(QPointF scene) const;
    int edgeAt(QPointF scene) const;
    QStringList vertexLines(int vertex) const;
    double widthFor(double bandwidth) const;
    // Legend items flowed into rows of `width`; the band's height follows.
    std::vector<std::vector<int>> legendRows(double width) const;
    double paintHeader(QPainter& p, const QRectF& area) const;
    void paintScene(QPainter& p, bool interactive) const;
    void paintAll(QPainter& p, const QRectF& area, double scale, QPointF offset, bool interactive) const;
    QString linkLoadLines(int link) const;

    std::shared_ptr<const sim::Topology> topology_;
    std::shared_ptr<const SimulationResult> result_;
    view::TopologyLoad load_;
    Colouring colouring_ = Colouring::Utilisation;
    std::vector<view::TopologyEdge> edges_;
    std::vector<int> edge_of_link_;
    view::TopologyPlacement placement_;
    std::vector<QPainterPath> paths_;   // per edge, scene
    std::vector<QPointF> tips_, bases_;  // per edge: the arrowhead of a one-way link
    std::vector<QRectF> bounds_;         // per edge, scene: what painting culls by
    std::vector<char> beneath_;          // per edge: drawn under the node boxes (a link between nodes)
    std::vector<Group> groups_;
    std::vector<QColor> fills_, edge_colours_;
    std::vector<LegendItem> legend_;
    double min_bw_ = 0, max_bw_ = 0;
    QRectF scene_;
    QString problem_;
    int selected_ = -1;       // device
    int selected_link_ = -1;  // link id; its edge is marked
};

}  // namespace partita
