#pragma once
// The network editor's canvas (issue 16): the document's nodes as boxes (name, op kind and output
// shape; red, with the reason, for a node with a problem) at their layout hints or else at Graphviz
// dot's positions, and edges from a node's output port (bottom) to its input slots (top). GraphCanvas
// zooms and pans (the middle button or Alt+drag pans). A left drag moves the selection, from an output
// port connects, on empty ground selects by rubber band; Ctrl-click toggles a node; Delete deletes.
// The canvas changes nothing itself: it emits what the user asked for and the editor turns that into
// one undoable patch.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <QPainterPath>
#include <QStringList>

#include "core/edit/document.h"
#include "widgets/common/figure_export.h"
#include "widgets/common/graph_canvas.h"
#include "widgets/common/graph_paint.h"

namespace partita {

class EditorCanvas : public GraphCanvas, public FigureSource {
    Q_OBJECT
public:
    using NodeId = edit::NodeId;
    static constexpr const char* kMime = "application/x-partita-palette";  // a palette entry's key

    explicit EditorCanvas(QWidget* parent = nullptr);

    // The document drawn (not owned); documentChanged() after every change re-reads it.
    void setDocument(const edit::Document* doc);
    void documentChanged();
    // Graphviz dot positions for every node without a hint (all: a new layout; else only the nodes that
    // have no position yet keep theirs), then the view fitted (all) or kept. Above kSyncLayoutNodes
    // the nodes stand in a provisional grid while dot runs in a worker, so the window never freezes.
    void autoLayout(bool all);
    static constexpr std::size_t kSyncLayoutNodes = 150;
    bool layoutPending() const { return layout_pending_ != 0; }
    bool waitForLayout(int timeout_ms);  // tests: until a worker's layout has arrived
    // A block of new nodes (a template) laid out by dot on its own: centres relative to its top centre.
    std::map<NodeId, QPointF> layoutBlock(const edit::Patch& patch) const;

    // Free space for new nodes: `box` (scene) moved the least, sideways first, so that it keeps a gap to
    // every node shown; unchanged when it overlaps none.
    QRectF freeSpace(const QRectF& box) const;
    QSizeF newNodeSize(const Operator& op) const;  // a new node's box, its shape not known yet
    // Where the empty canvas's hint is drawn (widget coordinates), clear of the input node; empty
    // when the graph has operators.
    QRectF emptyHint() const;
    static QString emptyHintText();

    std::vector<NodeId> shownNodes() const;     // the input, then the document's ids
    QPointF position(NodeId id) const;          // a node's centre, scene points
    QRectF nodeBox(NodeId id) const;            // scene points; empty for an unknown id
    QRectF nodeRect(NodeId id) const;           // widget coordinates (tests click there)
    QPointF outputPort(NodeId id) const;        // widget coordinates
    QStringList nodeLines(NodeId id) const;
    QColor nodeFill(NodeId id) const;
    bool hasProblem(NodeId id) const;
    QString nodeToolTip(NodeId id) const;
    QPointF viewCentre() const { return toScene(graphArea().center()); }

    const std::set<NodeId>& selection() const { return selection_; }
    void setSelection(const std::set<NodeId>& ids);
    std::optional<NodeId> current() const;       // the one selected node, if exactly one is
    std::optional<std::pair<NodeId, NodeId>> selectedEdge() const { return edge_; }
    void focusNode(NodeId id);                   // selects it and brings it into view
    void reveal(const std::set<NodeId>& ids);    // new nodes into view (all of a graph that was empty)

    QString dot() const;   // the drawing as DOT text (positions left to dot)
    CsvTable csv() const;  // one row per node: operator, kind, inputs, shape, problem, centre, whether a hint
    QSize figureSize() const override;
    void paintFigure(QPainter& painter, const QRect& area) const override;
    QSize sizeHint() const override { return {480, 320}; }
    QSize minimumSizeHint() const override { return {240, 200}; }

signals:
    void selectionChanged();
    // During a drag of the selection, the new centres; `drag` numbers the drag so its moves merge.
    void moveRequested(const std::map<edit::NodeId, edit::Point>& to, int drag);
    void connectRequested(edit::NodeId from, edit::NodeId to);
    void disconnectRequested(edit::NodeId from, edit::NodeId to);
    void deleteRequested();
    void dropRequested(const QString& key, QPointF scene, std::optional<edit::NodeId> onto);
    void activated(edit::NodeId id);  // double-clicked: the editor offers its name for editing

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    QRectF sceneRect() const override;
    void paintOverviewScene(QPainter& p) const override;
    QString toolTipAt(QPointF pos, QRect* area) const override;
    bool startsPan(const QMouseEvent& event) const override;

private:
    struct Item {
        QStringList lines;
        QSizeF size;
        bool problem = false;
    };
    struct Edge {
        NodeId from, to;
        int slot;
    };
    enum class Drag { None, Move, Connect, Band };

    graphpaint::Fonts fonts() const { return graphpaint::fonts(font()); }
    std::optional<NodeId> nodeAt(QPointF pos) const;       // widget coordinates
    std::optional<NodeId> outputPortAt(QPointF pos) const;
    std::optional<std::pair<NodeId, NodeId>> edgeAt(QPointF pos) const;
    QPointF inputSlot(NodeId id, int slot) const;          // scene
    QPainterPath edgePath(const Edge& e) const;            // scene
    QPointF inputPosition() const;                          // above its consumers
    void paintScene(QPainter& p, const QRectF& clip, double scale, QPointF offset, bool interactive) const;
    void select(const std::set<NodeId>& ids, bool notify);
    // dot's centres (nullopt: too large for dot) given to the shown nodes `ids` that need them.
    void place(const std::vector<NodeId>& ids, const std::optional<std::map<NodeId, QPointF>>& centres, bool all);

    const edit::Document* doc_ = nullptr;
    std::map<NodeId, Item> items_;
    std::vector<Edge> edges_;
    std::map<NodeId, QPointF> auto_;  // dot's centres for nodes without a hint
    std::set<NodeId> provisional_;    // in auto_ only until the worker's layout arrives
    std::uint64_t layout_generation_ = 0, layout_pending_ = 0;  // the latest request; the one in a worker
    std::set<NodeId> selection_;
    std::optional<std::pair<NodeId, NodeId>> edge_;
    Drag drag_ = Drag::None;
    QPointF press_, pointer_;  // widget coordinates
    std::map<NodeId, QPointF> drag_start_;
    std::optional<NodeId> connect_from_;
    int drag_serial_ = 0;
    bool drag_moved_ = false;
};

}  // namespace partita
