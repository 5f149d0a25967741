#pragma once
// The network drawn as a graph (issue 15 item 5): one node for the network input and one per
// operator, one edge per operator input, laid out by Graphviz dot (view::layoutGraph) and drawn
// with QPainter. Nodes show the name, op type, output shape and (weighted layers) MACs; they are
// coloured by the shown run's choice at one level, by MACs, by weights or by communication, with a
// legend. Wheel or +/- zooms, dragging pans, 0 or F fits. A click selects a node; a weighted
// layer's node reports its layer so the grid can follow. Large graphs are laid out in a worker.
// A run of repeated blocks (core/model/repeats.h) can be collapsed into one node (double-click, the
// context menu, or every run at once) and expanded again; the graph is then laid out anew.
// Zoom, pan and the overview are GraphCanvas's; the boxes and edges are drawn with graphpaint.
#include <cstdint>
#include <vector>

#include <QColor>
#include <QPainterPath>
#include <QStringList>

#include "core/model/repeats.h"
#include "core/run/run.h"
#include "widgets/common/figure_export.h"
#include "widgets/common/graph_canvas.h"
#include "widgets/common/graph_paint.h"
#include "widgets/geometry/graph_layout.h"

class QMenu;

namespace partita {

class NetworkGraphView : public GraphCanvas, public FigureSource {
    Q_OBJECT
public:
    enum class ColourMode { Partition, Macs, Weights, Communication };
    // Graphs with more nodes than this are laid out in a worker (the GUI shows "Laying out…").
    static constexpr int kSyncLayoutNodes = 150;

    explicit NetworkGraphView(QWidget* parent = nullptr);

    // The network to draw. The layout is redone only when the drawing changes (a new network, not
    // new parameters); nullptr clears.
    void setInputs(const InputsPtr& inputs);
    InputsPtr inputs() const { return inputs_; }
    // The run whose grid and communication colour the nodes (ignored unless it is on the same network).
    void setRun(const RunPtr& run);
    RunPtr run() const { return run_; }

    void setColourMode(ColourMode mode);
    ColourMode colourMode() const { return mode_; }
    // Partition and Communication need a run with a grid (and, for communication, per-layer amounts).
    bool colourModeAvailable(ColourMode mode) const;
    static QString colourModeName(ColourMode mode);  // "Partition", "MACs", ...
    void setLevel(int level);                        // the level Partition shows (0 = H1)
    int level() const { return level_; }
    int levels() const;                              // of the run's grid; 0 without a usable run

    bool layingOut() const { return pending_ != 0; }
    bool waitForLayout(int timeout_ms = 60000);  // runs the event loop until the layout is in
    QString problem() const { return problem_; }  // why there is no drawing ("" when there is)

    // What is drawn: node 0 is the network input, then the operators in order, a collapsed run as
    // one node (all operators expanded: node i + 1 is operator i).
    int nodeCount() const { return static_cast<int>(nodes_.size()); }
    int edgeCount() const { return static_cast<int>(edges_.size()); }
    int nodeOfOperator(int op) const;   // the node drawing it (its run's, when collapsed); -1: none
    int nodeOfLayer(int layer) const;   // -1 when no such weighted layer
    int layerOfNode(int node) const;    // -1 for the input, unweighted operators and collapsed runs
    int layerOfOperator(int op) const;  // -1 for unweighted operators
    int operatorOfNode(int node) const; // a collapsed run's first operator; -1 for the input

    // Runs of repeated blocks; each is drawn expanded or collapsed into one node.
    const std::vector<RepeatedRun>& repeats() const { return runs_; }
    bool collapsed(int run) const;
    void setCollapsed(int run, bool collapsed);  // lays the graph out again
    bool allCollapsed() const;                   // false without runs
    // Collapses (or expands) every run, in this network and in those shown later.
    void setCollapseRepeats(bool collapse);
    bool collapseRepeats() const { return collapse_all_; }
    int runOfNode(int node) const;     // the run a collapsed node stands for, or -1
    int runOfOperator(int op) const;   // the run an operator is in (collapsed or not), or -1
    QString runName(int run) const;    // "3 × residual block", "2 × conv"
    std::vector<QColor> nodeStripes(int node) const;  // a collapsed run's members' colours, in order
    // What a right click on `node` (-1: the background) offers; the caller owns the menu.
    QMenu* contextMenuFor(int node);
    QStringList nodeLines(int node) const { return nodes_.at(static_cast<size_t>(node)).lines; }
    QRectF nodeRect(int node) const;    // widget coordinates (tests click there); empty before layout
    QColor nodeFill(int node) const;    // in the current colour mode
    const view::GraphLayout& graphLayout() const { return layout_; }
    const view::GraphSpec& graphSpec() const { return spec_; }  // what the layout was made from
    int selectedNode() const { return selected_; }
    int selectedLayer() const { return selected_ < 0 ? -1 : layerOfNode(selected_); }  // -1 for a run

    QString dot() const;   // the graph as DOT text, nodes filled as currently coloured
    CsvTable csv() const;  // one row per node: operator, shapes, weights, MACs, choice, position
    QString nodeToolTip(int node) const;

    // Small: the tab sits in a scroll area that sizes it by height-for-width from the hints, and
    // the graph takes whatever room there is (it zooms and pans rather than growing).
    QSize sizeHint() const override { return {480, 300}; }
    QSize minimumSizeHint() const override { return {320, 240}; }
    QSize figureSize() const override;
    void paintFigure(QPainter& painter, const QRect& area) const override;

public slots:
    // Selects (and brings into view) the node of a weighted layer, or of an operator; no signal.
    void selectLayer(int layer);
    void selectOperator(int op);

signals:
    void layerSelected(int layer);  // the user clicked a weighted layer's node
    void operatorSelected(int op);  // the user clicked any operator's node (-1: the input)
    void layoutFinished();
    void collapsedChanged();  // a run was collapsed or expanded
    void runChanged();  // the colour modes and levels available may have changed

protected:
    void paintEvent(QPaintEvent* event) override;
    QRectF sceneRect() const override;
    double headerHeight(double width) const override;  // title and legend band above the graph
    void paintOverviewScene(QPainter& p) const override;
    QString toolTipAt(QPointF pos, QRect* area) const override;
    void clicked(QMouseEvent* event) override;
    double anchorX() const override;  // the input node
    void initialView() override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;  // collapses or expands the node's run
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    // A collapsed run is drawn as a stack of cards this far apart, with a strip of its members' colours.
    static constexpr double kStack = 3, kStrip = 7;
    struct Node {
        int op = -1;     // -1: the network input; a collapsed run's first operator
        int layer = -1;  // weighted layer index, or -1
        int run = -1;    // the collapsed run this node stands for, or -1
        QStringList lines;  // name, type and output shape, MACs (weighted layers)
    };
    struct LegendItem {
        QColor colour;
        QString text;
        std::vector<QColor> stripes;  // drawn as a collapsed run (a stack with this strip) when not empty
    };
    struct Legend {
        QString title;
        std::vector<LegendItem> items;           // swatches
        bool ramp = false;                       // a viridis ramp from low to high
        QString low, high;
    };

    graphpaint::Fonts fonts() const { return graphpaint::fonts(font()); }
    QStringList nodeLinesFor(const Node& node) const;  // name, "type C×H×W", MACs
    QStringList runLines(int run) const;               // "3 × residual block", kinds and shape, totals
    QString runToolTip(int run) const;
    void findRuns();                      // runs_ and run_of_op_; keeps collapsed_ for the same runs
    void buildNodes();                    // nodes_, edges_ and the layout spec from inputs_ and collapsed_
    void rebuild();                       // after collapsing: nodes, layout, colours; keeps the selection
    view::GraphSpec layoutSpec() const;   // measured with fonts(); fills left empty
    void startLayout();
    void applyLayout(std::uint64_t generation, view::GraphLayout layout, QString problem);
    void buildPaths();                    // edge paths in scene coordinates
    void recolour();                      // fills_ and legend_ for the mode, level and run
    bool runMatches() const;
    double nodeMacs(int op, int layer) const;  // the weighted layer's, else the operator's (a matmul's)
    std::vector<double> opValues() const;      // per operator, for the value modes (0: not coloured)
    void fillNodes(const std::vector<QColor>& op_colours);  // fills_ and stripes_ from the operators'
    void addRunLegend(const QColor& fill, const QColor& other);  // when a run is collapsed
    double runWeights(int run) const;
    double runMacs(int run) const;
    QString runLabel() const;
    void ensureVisible(int node);
    int nodeAt(QPointF pos) const;
    void select(int node, bool notify);
    // One routine for screen and export: the band (title, legend) in `area`, then the graph drawn
    // through scene -> device `scale` and `offset`, culled to `area`; `interactive` adds the selection.
    void paintAll(QPainter& p, const QRectF& area, double scale, QPointF offset, bool interactive) const;
    double paintHeader(QPainter& p, const QRectF& area) const;
    void paintGraph(QPainter& p, const QRectF& clip, double scale, QPointF offset, bool interactive) const;

    InputsPtr inputs_;
    RunPtr run_;
    ColourMode mode_ = ColourMode::Partition;       // shown
    ColourMode preferred_ = ColourMode::Partition;  // chosen; shown whenever the run allows
    int level_ = 0;
    std::vector<Node> nodes_;
    std::vector<view::GraphEdgeSpec> edges_;
    std::vector<int> node_of_op_;   // [op + 1]: the node drawing it
    std::vector<int> layer_of_op_;  // [op]: its weighted layer, or -1
    std::vector<RepeatedRun> runs_;
    std::vector<int> run_of_op_;    // [op]: its run, or -1
    std::vector<bool> collapsed_;   // per run
    bool collapse_all_ = false;     // the choice for networks shown later
    view::GraphSpec spec_;       // what layout_ was (or is being) made from
    view::GraphLayout layout_;
    std::vector<QPainterPath> paths_;  // per edge, scene coordinates
    std::vector<QColor> fills_;        // per node
    std::vector<std::vector<QColor>> stripes_;  // per node: a collapsed run's members' colours
    Legend legend_;
    QString problem_;
    std::uint64_t generation_ = 0;  // of the latest layout request
    std::uint64_t pending_ = 0;     // the generation being laid out in a worker, 0 when none
    int selected_ = -1;
    static constexpr int kNoOp = -2;
    int selected_op_ = kNoOp;  // the operator selected (-1: the input), inside selected_ when it is a run
};

}  // namespace partita
