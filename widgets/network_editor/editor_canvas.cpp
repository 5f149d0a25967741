// EditorCanvas: what is drawn where (items, positions, auto layout) and the mouse and keyboard.
// Painting, tooltips and DOT are in editor_canvas_paint.cpp.
#include "widgets/network_editor/editor_canvas.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QApplication>
#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainterPathStroker>
#include <QPointer>
#include <QThreadPool>

#include "widgets/common/op_text.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/graph_layout.h"

namespace partita {

namespace {
constexpr double kPortGrab = 9, kInputGap = 46, kNewRow = 90;
constexpr double kFreeGap = 16;  // between a new node and those already there
// Ranks wider apart than the network graph's: a node grows by a line when it has a problem.
constexpr double kRankSep = 44;
constexpr double kMaxReasonWidth = 260;
}  // namespace

EditorCanvas::EditorCanvas(QWidget* parent) : GraphCanvas(parent) {
    setObjectName("editor-canvas");
    setAcceptDrops(true);
    setToolTip(tr("The network: drag nodes to move them, drag from a node's bottom port to another node to "
                  "connect them, drag on empty ground to select; middle button or Alt+drag pans, wheel zooms"));
}

void EditorCanvas::setDocument(const edit::Document* doc) {
    doc_ = doc;
    auto_.clear();
    selection_.clear();
    edge_.reset();
    documentChanged();
    relayoutView();
}

void EditorCanvas::documentChanged() {
    items_.clear();
    edges_.clear();
    if (doc_) {
        const graphpaint::Fonts f = fonts();
        std::set<NodeId> problems;
        for (const edit::Problem& p : doc_->problems()) problems.insert(p.node);
        const Shape& in = doc_->header().input;
        items_[edit::kNetworkInput] = {{tr("input"), shapeText(in)}, graphpaint::nodeSize({tr("input"), shapeText(in)}, f), false};
        for (NodeId id : doc_->ids()) {
            const edit::Node& n = *doc_->node(id);
            const std::optional<Shape> shape = doc_->outputShape(id);
            Item item;
            item.problem = problems.count(id) > 0;
            item.lines = {q(n.op.name), opKindText(n.op) + QStringLiteral(" · ") + (shape ? shapeText(*shape) : QStringLiteral("?"))};
            item.size = graphpaint::nodeSize(item.lines, f);
            if (item.problem) {  // the reason as a third line, elided to the box
                item.lines << QStringLiteral("⚠ ") + tr("see tooltip");
                item.size.rheight() += f.detail.pixelSize() + graphpaint::kLineGap + 3;
            }
            items_[id] = item;
            for (size_t k = 0; k < n.inputs.size(); ++k) edges_.push_back({n.inputs[k], id, static_cast<int>(k)});
        }
        const QFontMetricsF detail(f.detail);
        for (const edit::Problem& p : doc_->problems())
            if (auto it = items_.find(p.node); it != items_.end() && it->second.lines.size() > 2) {
                it->second.lines[2] = QStringLiteral("⚠ ") + q(p.reason);
                // Wide enough for a short reason (a long one is elided; the tooltip has it whole).
                const double w = std::min(kMaxReasonWidth, std::ceil(detail.horizontalAdvance(it->second.lines[2]) + 16));
                it->second.size.setWidth(std::max(it->second.size.width(), w));
            }
    }
    // Gone nodes leave the selection; nodes without a position get one.
    for (auto it = selection_.begin(); it != selection_.end();)
        it = items_.count(*it) ? std::next(it) : selection_.erase(it);
    if (edge_ && (!items_.count(edge_->first) || !items_.count(edge_->second))) edge_.reset();
    for (auto it = auto_.begin(); it != auto_.end();)
        it = items_.count(it->first) ? std::next(it) : auto_.erase(it);
    bool missing = false;
    if (doc_)
        for (NodeId id : doc_->ids()) missing = missing || (!doc_->node(id)->position && !auto_.count(id));
    if (missing) autoLayout(false);
    clampOffset();
    update();
}

void EditorCanvas::autoLayout(bool all) {
    if (!doc_) return;
    const std::vector<NodeId> ids = shownNodes();
    view::GraphSpec spec;
    for (NodeId id : ids) {
        const Item& item = items_.at(id);
        std::vector<std::string> label;
        for (const QString& line : item.lines) label.push_back(line.toStdString());
        spec.nodes.push_back({id == edit::kNetworkInput ? "input" : doc_->node(id)->op.name, label,
                              item.size.width(), item.size.height(), {}});
    }
    std::map<NodeId, int> index;
    for (size_t i = 0; i < ids.size(); ++i) index[ids[i]] = static_cast<int>(i);
    for (const Edge& e : edges_)
        if (index.count(e.from)) spec.edges.push_back({index[e.from], index[e.to]});
    spec.rank_sep = kRankSep;
    // dot's centres by node, or nullopt when it cannot lay the graph out (too large).
    const auto run = [](const view::GraphSpec& s, const std::vector<NodeId>& order) -> std::optional<std::map<NodeId, QPointF>> {
        try {
            const view::GraphLayout layout = view::layoutGraph(s);
            std::map<NodeId, QPointF> out;
            for (size_t i = 0; i < order.size(); ++i) {
                const view::Box& b = layout.nodes[i];
                out[order[i]] = QPointF(b.x + b.w / 2, b.y + b.h / 2);
            }
            return out;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    };
    const std::uint64_t generation = ++layout_generation_;
    if (spec.nodes.size() <= kSyncLayoutNodes || spec.nodes.size() > view::kMaxLayoutNodes) {
        layout_pending_ = 0;
        return place(ids, run(spec, ids), all);
    }
    // Meanwhile the nodes that need a place stand in one column, in id order.
    std::vector<NodeId> waiting;
    for (NodeId id : ids)
        if (id == edit::kNetworkInput || (!doc_->node(id)->position && (all || !auto_.count(id) || provisional_.count(id))))
            waiting.push_back(id);
    place(ids, std::nullopt, all);
    provisional_.insert(waiting.begin(), waiting.end());
    layout_pending_ = generation;
    QPointer<EditorCanvas> self(this);
    QThreadPool::globalInstance()->start([self, generation, spec = std::move(spec), ids, all, run] {
        auto centres = run(spec, ids);
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, ids, all, centres = std::move(centres)] {
                if (!self || generation != self->layout_generation_) return;  // superseded or gone
                self->layout_pending_ = 0;
                self->place(ids, centres, all);
            },
            Qt::QueuedConnection);
    });
}

bool EditorCanvas::waitForLayout(int timeout_ms) {
    QElapsedTimer timer;
    timer.start();
    while (layout_pending_ != 0 && timer.elapsed() < timeout_ms) QApplication::processEvents(QEventLoop::AllEvents, 20);
    return layout_pending_ == 0;
}

void EditorCanvas::place(const std::vector<NodeId>& ids, const std::optional<std::map<NodeId, QPointF>>& centres, bool all) {
    // Nodes deleted meanwhile are skipped, and so are nodes the user has placed since (a hint).
    const auto placeable = [&](NodeId id) {
        return items_.count(id) && (id == edit::kNetworkInput || !doc_->node(id)->position);
    };
    std::map<NodeId, QPointF> placed;
    if (centres) {
        for (NodeId id : ids)
            if (placeable(id) && centres->count(id)) placed[id] = centres->at(id);
    } else {
        double y = 0;
        for (NodeId id : ids)
            if (placeable(id)) placed[id] = QPointF(0, std::exchange(y, y + kNewRow));
    }
    if (all) {
        for (const auto& [id, at] : placed) auto_[id] = at;
        for (NodeId id : ids) provisional_.erase(id);
    } else {
        // New nodes go below everything already placed, where dot would put them relative to each other.
        const auto waiting = [&](NodeId id) {
            return placed.count(id) && id != edit::kNetworkInput && (!auto_.count(id) || provisional_.count(id));
        };
        double bottom = -1e300, top = 1e300;
        bool any_placed = false;
        for (NodeId id : shownNodes())
            if (id != edit::kNetworkInput && !waiting(id) && (doc_->node(id)->position || auto_.count(id))) {
                bottom = std::max(bottom, position(id).y() + items_.at(id).size.height() / 2);
                any_placed = true;
            }
        for (NodeId id : ids)
            if (waiting(id)) top = std::min(top, placed[id].y());
        for (NodeId id : ids)
            if (waiting(id)) {
                auto_[id] = placed[id] + QPointF(0, any_placed ? bottom + kNewRow - top : 0);
                provisional_.erase(id);
            }
    }
    if (all) relayoutView();
    update();
}

QSizeF EditorCanvas::newNodeSize(const Operator& op) const {
    // Shapes are not known before the node is in: the widest usual shape text stands in.
    return graphpaint::nodeSize({q(op.name), opKindText(op) + QStringLiteral(" · 1024×224×224")}, fonts());
}

QRectF EditorCanvas::freeSpace(const QRectF& box) const {
    const auto clear = [&](const QRectF& r) {
        const QRectF padded = r.adjusted(-kFreeGap, -kFreeGap, kFreeGap, kFreeGap);
        return std::none_of(items_.begin(), items_.end(), [&](const auto& item) { return nodeBox(item.first).intersects(padded); });
    };
    // Beside where it was meant to go (right, then left, further each step), then a row further down.
    const double step = box.width() + kFreeGap, row = box.height() + kFreeGap;
    for (int down = 0; down < 50; ++down)
        for (int k = 0; k <= 12; ++k)
            for (const int side : {1, -1}) {
                const QRectF r = box.translated(side * k * step, down * row);
                if (clear(r)) return r;
                if (k == 0) break;
            }
    return box;  // nowhere near: where it was meant to go
}

QRectF EditorCanvas::emptyHint() const {
    if (doc_ && !doc_->ids().empty()) return {};
    const QFontMetricsF metrics(fonts().legend);
    const QRectF input = nodeRect(edit::kNetworkInput), area = graphArea();
    const QRectF band = area.adjusted(24, 0, -24, 0);
    const QRectF text = metrics.boundingRect(band, Qt::AlignHCenter | Qt::TextWordWrap, emptyHintText());
    // Below the input when there is room, else above it.
    QRectF r(band.left(), input.bottom() + 24, band.width(), text.height());
    if (!input.isEmpty() && r.bottom() > area.bottom() - 8) r.moveBottom(input.top() - 24);
    return r;
}

std::map<edit::NodeId, QPointF> EditorCanvas::layoutBlock(const edit::Patch& patch) const {
    view::GraphSpec spec;
    std::map<NodeId, int> index;
    for (const auto& [id, node] : patch.nodes) {
        if (!node) continue;
        index[id] = static_cast<int>(spec.nodes.size());
        const QSizeF size = newNodeSize(node->op);
        spec.nodes.push_back({node->op.name, {}, size.width(), size.height(), {}});
    }
    for (const auto& [id, node] : patch.nodes)
        if (node)
            for (NodeId from : node->inputs)
                if (index.count(from)) spec.edges.push_back({index[from], index[id]});
    std::map<NodeId, QPointF> out;
    if (spec.nodes.empty()) return out;
    spec.rank_sep = kRankSep;
    try {
        const view::GraphLayout layout = view::layoutGraph(spec);
        for (const auto& [id, i] : index) {
            const view::Box& b = layout.nodes[static_cast<size_t>(i)];
            out[id] = QPointF(b.x + b.w / 2 - layout.width / 2, b.y + b.h / 2);
        }
    } catch (const std::exception&) {
        double y = 0;
        for (const auto& [id, i] : index) out[id] = QPointF(0, y += kNewRow);
    }
    return out;
}

std::vector<edit::NodeId> EditorCanvas::shownNodes() const {
    std::vector<NodeId> out;
    if (!doc_) return out;
    out.push_back(edit::kNetworkInput);
    for (NodeId id : doc_->ids()) out.push_back(id);
    return out;
}

QPointF EditorCanvas::inputPosition() const {
    // Above its consumers (the input is not a node of the document and has no hint of its own).
    const std::vector<NodeId> readers = doc_->consumers(edit::kNetworkInput);
    if (readers.empty()) {
        const auto it = auto_.find(edit::kNetworkInput);
        return it != auto_.end() ? it->second : QPointF(0, 0);
    }
    double x = 0, top = 1e300;
    for (NodeId id : readers) {
        const QPointF p = position(id);
        x += p.x();
        top = std::min(top, p.y() - items_.at(id).size.height() / 2);
    }
    const double h = items_.at(edit::kNetworkInput).size.height();
    return {x / static_cast<double>(readers.size()), top - kInputGap - h / 2};
}

QPointF EditorCanvas::position(NodeId id) const {
    if (!doc_) return {};
    if (id == edit::kNetworkInput) return inputPosition();
    if (const edit::Node* n = doc_->node(id); n && n->position) return {n->position->x, n->position->y};
    const auto it = auto_.find(id);
    return it != auto_.end() ? it->second : QPointF();
}

QRectF EditorCanvas::nodeBox(NodeId id) const {
    const auto it = items_.find(id);
    if (it == items_.end()) return {};
    const QSizeF s = it->second.size;
    return {position(id) - QPointF(s.width() / 2, s.height() / 2), s};
}

QRectF EditorCanvas::nodeRect(NodeId id) const { return toWidget(nodeBox(id)); }

QPointF EditorCanvas::outputPort(NodeId id) const {
    const QRectF b = nodeBox(id);
    return toWidget(QRectF(QPointF(b.center().x(), b.bottom()), QSizeF())).topLeft();
}

QPointF EditorCanvas::inputSlot(NodeId id, int slot) const {
    const QRectF b = nodeBox(id);
    const edit::Node* n = doc_ ? doc_->node(id) : nullptr;
    const int count = n ? std::max<int>(1, static_cast<int>(n->inputs.size())) : 1;
    return {b.left() + b.width() * (slot + 1) / (count + 1), b.top()};
}

QPainterPath EditorCanvas::edgePath(const Edge& e) const {
    const QRectF from = nodeBox(e.from);
    const QPointF a(from.center().x(), from.bottom()), b = inputSlot(e.to, e.slot);
    const double bend = std::max(30.0, std::abs(b.y() - a.y()) / 2);
    QPainterPath path(a);
    path.cubicTo(a + QPointF(0, bend), b - QPointF(0, bend + 8), b - QPointF(0, 8));  // the arrowhead ends it
    return path;
}

QRectF EditorCanvas::sceneRect() const {
    QRectF r;
    for (const auto& [id, item] : items_) r = r.united(nodeBox(id));
    return r.isEmpty() ? r : r.adjusted(-24, -24, 24, 24);
}

bool EditorCanvas::hasProblem(NodeId id) const {
    const auto it = items_.find(id);
    return it != items_.end() && it->second.problem;
}

QStringList EditorCanvas::nodeLines(NodeId id) const {
    const auto it = items_.find(id);
    return it == items_.end() ? QStringList() : it->second.lines;
}

// ---- selection -----------------------------------------------------------------------------------

void EditorCanvas::select(const std::set<NodeId>& ids, bool notify) {
    selection_.clear();
    for (NodeId id : ids)
        if (items_.count(id)) selection_.insert(id);
    edge_.reset();
    update();
    if (notify) emit selectionChanged();
}

void EditorCanvas::setSelection(const std::set<NodeId>& ids) { select(ids, true); }

std::optional<edit::NodeId> EditorCanvas::current() const {
    if (selection_.size() != 1) return std::nullopt;
    return *selection_.begin();
}

void EditorCanvas::focusNode(NodeId id) {
    if (!items_.count(id)) return;
    select({id}, true);
    centreOn(nodeBox(id).center());
}

void EditorCanvas::reveal(const std::set<NodeId>& ids) {
    if (!doc_ || ids.empty()) return;
    if (ids.size() >= doc_->ids().size()) return relayoutView();  // everything is new
    QRectF r;
    for (NodeId id : ids) r = r.united(nodeBox(id));
    // A block taller than the view: its top.
    r.setHeight(std::min(r.height(), graphArea().height() / scale_ - 40));
    ensureVisible(r);
    update();
}

std::optional<edit::NodeId> EditorCanvas::nodeAt(QPointF pos) const {
    // Topmost first: ids drawn later are on top.
    const std::vector<NodeId> ids = shownNodes();
    for (auto it = ids.rbegin(); it != ids.rend(); ++it)
        if (nodeRect(*it).contains(pos)) return *it;
    return std::nullopt;
}

std::optional<edit::NodeId> EditorCanvas::outputPortAt(QPointF pos) const {
    for (NodeId id : shownNodes()) {
        const QPointF d = outputPort(id) - pos;
        if (std::hypot(d.x(), d.y()) <= kPortGrab) return id;
    }
    return std::nullopt;
}

std::optional<std::pair<edit::NodeId, edit::NodeId>> EditorCanvas::edgeAt(QPointF pos) const {
    const QPointF s = toScene(pos);
    QPainterPathStroker stroker;
    stroker.setWidth(8 / scale_);
    for (const Edge& e : edges_)
        if (items_.count(e.from) && stroker.createStroke(edgePath(e)).contains(s)) return std::pair{e.from, e.to};
    return std::nullopt;
}

// ---- mouse and keyboard ---------------------------------------------------------------------------

bool EditorCanvas::startsPan(const QMouseEvent& event) const {
    return event.button() == Qt::MiddleButton ||
           (event.button() == Qt::LeftButton && (event.modifiers() & Qt::AltModifier));
}

void EditorCanvas::mousePressEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    if (event->button() != Qt::LeftButton || startsPan(*event) || overviewRect().contains(pos))
        return GraphCanvas::mousePressEvent(event);
    setFocus(Qt::MouseFocusReason);
    press_ = pointer_ = pos;
    drag_moved_ = false;
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    if (const auto port = outputPortAt(pos)) {
        drag_ = Drag::Connect;
        connect_from_ = port;
        return;
    }
    if (const auto node = nodeAt(pos)) {
        if (ctrl) {
            std::set<NodeId> s = selection_;
            if (!s.erase(*node)) s.insert(*node);
            select(s, true);
            return;
        }
        if (!selection_.count(*node)) select({*node}, true);
        drag_ = Drag::Move;
        drag_start_.clear();
        for (NodeId id : selection_)
            if (id != edit::kNetworkInput) drag_start_[id] = position(id);
        return;
    }
    if (const auto edge = edgeAt(pos)) {
        select({}, !selection_.empty());
        edge_ = edge;
        update();
        emit selectionChanged();
        return;
    }
    drag_ = Drag::Band;
    if (!ctrl && (!selection_.empty() || edge_)) select({}, true);
}

void EditorCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (drag_ == Drag::None) return GraphCanvas::mouseMoveEvent(event);
    pointer_ = event->position();
    if (!drag_moved_ && (pointer_ - press_).manhattanLength() < QApplication::startDragDistance()) return;
    drag_moved_ = true;
    if (drag_ == Drag::Move && !drag_start_.empty()) {
        const QPointF delta = (pointer_ - press_) / scale_;
        std::map<NodeId, edit::Point> to;
        for (const auto& [id, start] : drag_start_) to[id] = {std::round(start.x() + delta.x()), std::round(start.y() + delta.y())};
        emit moveRequested(to, drag_serial_);
    }
    update();
}

void EditorCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (drag_ == Drag::None) return GraphCanvas::mouseReleaseEvent(event);
    pointer_ = event->position();
    const Drag done = std::exchange(drag_, Drag::None);
    if (done == Drag::Connect && connect_from_) {
        const auto target = nodeAt(pointer_);
        if (target && *target != *connect_from_ && *target != edit::kNetworkInput)
            emit connectRequested(*connect_from_, *target);
        connect_from_.reset();
    } else if (done == Drag::Band && drag_moved_) {
        const QRectF band = QRectF(press_, pointer_).normalized();
        std::set<NodeId> s = (event->modifiers() & Qt::ControlModifier) ? selection_ : std::set<NodeId>{};
        for (NodeId id : shownNodes())
            if (band.intersects(nodeRect(id))) s.insert(id);
        select(s, true);
    } else if (done == Drag::Move) {
        ++drag_serial_;  // the next drag is a new command
        if (!drag_moved_ && !(event->modifiers() & Qt::ControlModifier))
            if (const auto node = nodeAt(pointer_); node && selection_.size() > 1) select({*node}, true);
    }
    update();
}

void EditorCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    if (const auto node = nodeAt(event->position()); node && *node != edit::kNetworkInput) emit activated(*node);
}

void EditorCanvas::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) {
        if (edge_) emit disconnectRequested(edge_->first, edge_->second);
        else if (!selection_.empty()) emit deleteRequested();
        return;
    }
    if (event->matches(QKeySequence::SelectAll)) {
        std::set<NodeId> all;
        for (NodeId id : shownNodes())
            if (id != edit::kNetworkInput) all.insert(id);
        return select(all, true);
    }
    if (event->key() == Qt::Key_Escape) {
        drag_ = Drag::None;
        connect_from_.reset();
        return select({}, true);
    }
    GraphCanvas::keyPressEvent(event);
}

void EditorCanvas::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasFormat(kMime)) event->acceptProposedAction();
}

void EditorCanvas::dragMoveEvent(QDragMoveEvent* event) {
    if (event->mimeData()->hasFormat(kMime)) event->acceptProposedAction();
}

void EditorCanvas::dropEvent(QDropEvent* event) {
    if (!event->mimeData()->hasFormat(kMime)) return;
    const QString key = QString::fromUtf8(event->mimeData()->data(kMime));
    event->acceptProposedAction();
    emit dropRequested(key, toScene(event->position()), nodeAt(event->position()));
}

}  // namespace partita
