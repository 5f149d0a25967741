#include "widgets/topology/topology_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <QKeyEvent>
#include <QLineF>
#include <QMouseEvent>
#include <QPainterPathStroker>

#include "widgets/common/qt_text.h"
#include "widgets/geometry/gantt_model.h"  // bytesText
#include "widgets/geometry/palette.h"

namespace partita {

namespace {

constexpr double kBoxW = 80, kBoxH = 36;  // every vertex's box, points
// Beyond these a layout takes too long to wait for (docs/formats/limits.md); the CSV still lists every link.
constexpr int kMaxDrawnVertices = 20'000;
constexpr size_t kMaxDrawnEdges = 100'000;
const QColor kIdle(222, 222, 222);        // no load: outside the colour scale (as the heatmap)

QColor qc(view::Rgb c) { return QColor(c.r, c.g, c.b); }

// Does the segment pass through the box?
bool crosses(const QLineF& line, const QRectF& box) {
    if (box.contains(line.p1()) || box.contains(line.p2())) return true;
    const QLineF sides[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    for (const QLineF& s : sides)
        if (line.intersects(s, nullptr) == QLineF::BoundedIntersection) return true;
    return false;
}

// Where the segment from `from` towards the box's centre first meets the box.
QPointF borderPoint(QPointF from, const QRectF& box) {
    const QLineF line(from, box.center());
    const QLineF sides[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    for (const QLineF& s : sides) {
        QPointF at;
        if (line.intersects(s, &at) == QLineF::BoundedIntersection) return at;
    }
    return box.center();
}

}  // namespace

TopologyView::TopologyView(QWidget* parent) : GraphCanvas(parent) {
    setObjectName("topology");
    problem_ = tr("Choose a topology (Simulate's properties, or --topology) to see it here");
}

void TopologyView::setTopology(std::shared_ptr<const sim::Topology> topology) {
    result_.reset();
    load_ = {};
    if (topology != topology_) {
        topology_ = std::move(topology);
        selected_ = selected_link_ = -1;
        rebuild();
    }
    recolour();
    update();
}

void TopologyView::setSimulation(std::shared_ptr<const SimulationResult> result) {
    if (!result) {
        result_.reset();
        load_ = {};
        recolour();
        update();
        return;
    }
    auto topology = result->spec.topology;
    if (topology != topology_) {
        topology_ = std::move(topology);
        selected_ = selected_link_ = -1;
        rebuild();
    }
    result_ = std::move(result);
    load_ = view::topologyLoad(*result_);
    recolour();
    update();
}

void TopologyView::setColouring(Colouring colouring) {
    colouring_ = colouring;
    recolour();
    update();
}

void TopologyView::rebuild() {
    edges_.clear();
    edge_of_link_.clear();
    placement_ = {};
    paths_.clear();
    groups_.clear();
    scene_ = {};
    if (!topology_) {
        problem_ = tr("Choose a topology (Simulate's properties, or --topology) to see it here");
        relayoutView();
        return;
    }
    problem_.clear();
    edges_ = view::topologyEdges(*topology_);
    edge_of_link_.assign(topology_->links.size(), -1);
    for (size_t e = 0; e < edges_.size(); ++e)
        for (int l : {edges_[e].forward, edges_[e].backward})
            if (l >= 0) edge_of_link_[static_cast<size_t>(l)] = static_cast<int>(e);
    min_bw_ = max_bw_ = 0;
    for (const sim::Link& l : topology_->links) {
        min_bw_ = min_bw_ == 0 ? l.bandwidth_Bps : std::min(min_bw_, l.bandwidth_Bps);
        max_bw_ = std::max(max_bw_, l.bandwidth_Bps);
    }
    if (topology_->vertexCount() > kMaxDrawnVertices || edges_.size() > kMaxDrawnEdges) {
        problem_ = tr("%1 has %2 devices and switches and %3 cables: more than the %4 and %5 this view draws. "
                      "File ▸ Export gives its links as CSV.")
                       .arg(q(topology_->name))
                       .arg(topology_->vertexCount())
                       .arg(edges_.size())
                       .arg(kMaxDrawnVertices)
                       .arg(kMaxDrawnEdges);
        edges_.clear();
        edge_of_link_.assign(edge_of_link_.size(), -1);
        relayoutView();
        return;
    }
    try {
        placement_ = view::placeTopology(*topology_, edges_, kBoxW, kBoxH, areaAspect());
    } catch (const std::exception& e) {
        problem_ = tr("The topology cannot be laid out: %1").arg(q(e.what()));
        edges_.clear();
        edge_of_link_.assign(edge_of_link_.size(), -1);
        relayoutView();
        return;
    }
    buildPaths();
    relayoutView();
}

QRectF TopologyView::box(int v) const {
    const view::Point c = placement_.centre.at(static_cast<size_t>(v));
    return {c.x - kBoxW / 2, c.y - kBoxH / 2, kBoxW, kBoxH};
}

void TopologyView::buildPaths() {
    const int vertices = vertexCount();
    paths_.assign(edges_.size(), {});
    tips_.assign(edges_.size(), {});
    bases_.assign(edges_.size(), {});
    bounds_.assign(edges_.size(), {});
    beneath_.assign(edges_.size(), 0);
    // Checking every edge against every box costs V x E; beyond this edges are drawn straight.
    // Node boxes: a link inside a node is checked against that node's boxes only, and a link to a
    // switch between nodes runs straight, beneath the node boxes it passes.
    const auto& machine_of = placement_.machine_of;
    const bool machines = placement_.shape == view::TopologyShape::Nodes;
    std::vector<std::vector<int>> inside(placement_.machines.size());
    std::vector<int> everything;
    for (int v = 0; v < vertices; ++v) {
        if (machines && machine_of[static_cast<size_t>(v)] >= 0) inside[static_cast<size_t>(machine_of[static_cast<size_t>(v)])].push_back(v);
        everything.push_back(v);
    }
    const bool check = machines || static_cast<double>(vertices) * static_cast<double>(edges_.size()) <= 4e6;
    QRectF all;
    for (int v = 0; v < vertices; ++v) all |= box(v);
    for (size_t e = 0; e < edges_.size(); ++e) {
        const view::TopologyEdge& edge = edges_[e];
        const QPointF a = box(edge.a).center(), b = box(edge.b).center();
        const QLineF line(a, b);
        const int machine = machines ? machine_of[static_cast<size_t>(edge.a)] : -1;
        beneath_[e] = machines && (machine < 0 || machine_of[static_cast<size_t>(edge.b)] < 0);
        const std::vector<int>& near = machine >= 0 ? inside[static_cast<size_t>(machine)] : everything;
        bool blocked = false;
        for (size_t i = 0; check && !beneath_[e] && i < near.size() && !blocked; ++i)
            if (const int v = near[i]; v != edge.a && v != edge.b && crosses(line, box(v).adjusted(-4, -4, 4, 4)))
                blocked = true;
        QPainterPath path(a);
        QPointF last = a;  // the point the arrowhead's line comes from
        if (blocked) {
            // Bent aside (down, or right when vertical), no further than between two rows of boxes.
            QPointF n(-(b - a).y(), (b - a).x());
            n /= std::max(1e-9, std::hypot(n.x(), n.y()));
            if (n.y() < -1e-9 || (std::abs(n.y()) <= 1e-9 && n.x() < 0)) n = -n;
            // A cubic with both control points at h peaks at 0.75 h.
            const double limit = std::abs(n.x()) * placement_.bulge_x + std::abs(n.y()) * placement_.bulge_y;
            const double h = std::min(limit / 0.75, 0.25 * line.length() + kBoxH);
            const QPointF c1 = a + (b - a) / 3 + n * h, c2 = a + (b - a) * 2 / 3 + n * h;
            path.cubicTo(c1, c2, b);
            last = c2;
        } else {
            path.lineTo(b);
        }
        paths_[e] = path;
        // One-way: the arrowhead at the head's border, pointing from where the edge arrives.
        const bool to_b = edge.forward >= 0;
        const QRectF head = box(to_b ? edge.b : edge.a);
        const QPointF from = to_b ? last : (blocked ? path.elementAt(1) : QPointF(b));
        tips_[e] = borderPoint(from, head);
        bases_[e] = from;
        bounds_[e] = path.controlPointRect();
        all |= bounds_[e];
    }
    for (const view::MachineBox& m : placement_.machines) {
        groups_.push_back({QRectF(m.x, m.y, m.w, m.h), tr("node %1").arg(m.node)});
        all |= groups_.back().box;
    }
    // A multi-node cluster drawn as a tree: its nodes as framed groups (devices and the edges among them).
    std::map<int, QRectF> nodes;
    if (placement_.shape == view::TopologyShape::Tree) {
        for (int d = 0; d < topology_->deviceCount(); ++d) nodes[topology_->devices[static_cast<size_t>(d)].node] |= box(d);
        for (size_t e = 0; e < edges_.size(); ++e) {
            const auto& edge = edges_[e];
            if (edge.b < topology_->deviceCount() &&
                topology_->devices[static_cast<size_t>(edge.a)].node == topology_->devices[static_cast<size_t>(edge.b)].node)
                nodes[topology_->devices[static_cast<size_t>(edge.a)].node] |= paths_[e].boundingRect();
        }
    }
    if (nodes.size() > 1)
        for (const auto& [node, r] : nodes) {
            groups_.push_back({r.adjusted(-4, -8, 4, 22), tr("node %1").arg(node)});
            all |= groups_.back().box;
        }
    scene_ = all.adjusted(-12, -12, 12, 12);
}

void TopologyView::recolour() {
    fillColours();
    emit colouringChanged(colouring());
}

void TopologyView::fillColours() {
    fills_.clear();
    edge_colours_.clear();
    legend_.clear();
    if (!topology_ || placement_.centre.empty()) return;
    const sim::Topology& t = *topology_;
    const Colouring mode = colouring();
    // Kinds in order of first appearance (Okabe-Ito; devices and links from separate sequences).
    std::vector<std::string> device_kinds, link_kinds;
    for (const auto& d : t.devices)
        if (std::find(device_kinds.begin(), device_kinds.end(), d.kind) == device_kinds.end()) device_kinds.push_back(d.kind);
    for (const auto& l : t.links)
        if (std::find(link_kinds.begin(), link_kinds.end(), l.kind) == link_kinds.end()) link_kinds.push_back(l.kind);
    static const int kDeviceColours[] = {2, 4, 1, 7, 3, 5};
    static const int kLinkColours[] = {5, 3, 6, 7, 1, 0};
    auto deviceColour = [&](const std::string& kind) {
        const auto i = std::find(device_kinds.begin(), device_kinds.end(), kind) - device_kinds.begin();
        return qc(view::okabeIto(kDeviceColours[i % 6]));
    };
    auto linkColour = [&](const std::string& kind) {
        const auto i = std::find(link_kinds.begin(), link_kinds.end(), kind) - link_kinds.begin();
        return qc(view::okabeIto(kLinkColours[i % 6]));
    };
    const QColor switch_fill(205, 205, 205);
    double device_max = 0, link_max = 0;
    auto edgeValue = [&](const view::TopologyEdge& e) {
        double v = 0;
        for (int l : {e.forward, e.backward})
            if (l >= 0)
                v = std::max(v, mode == Colouring::Bytes ? load_.link_bytes[static_cast<size_t>(l)]
                                                         : load_.link_utilisation[static_cast<size_t>(l)]);
        return v;
    };
    if (mode != Colouring::Kind) {
        for (double u : load_.device_utilisation) device_max = std::max(device_max, u);
        for (const auto& e : edges_) link_max = std::max(link_max, edgeValue(e));
    }
    for (int v = 0; v < vertexCount(); ++v) {
        if (isSwitch(v)) {
            fills_.push_back(switch_fill);
        } else if (mode == Colouring::Kind) {
            fills_.push_back(deviceColour(t.devices[static_cast<size_t>(v)].kind));
        } else {
            const double u = load_.device_utilisation[static_cast<size_t>(v)];
            fills_.push_back(u > 0 && device_max > 0 ? qc(view::viridis(u / device_max)) : kIdle);
        }
    }
    for (const auto& e : edges_) {
        if (mode == Colouring::Kind) {
            edge_colours_.push_back(linkColour(t.links[static_cast<size_t>(e.anyLink())].kind));
        } else {
            const double v = edgeValue(e);
            edge_colours_.push_back(v > 0 && link_max > 0 ? qc(view::viridis(v / link_max)) : kIdle);
        }
    }
    // The legend: kinds (or the load's scales), the switch, then the widths.
    if (mode == Colouring::Kind) {
        for (const auto& k : device_kinds) legend_.push_back({LegendItem::Type::Box, deviceColour(k), 0, q(k), {}, {}});
    } else {
        legend_.push_back({LegendItem::Type::Ramp, {}, 0, tr("device utilisation"), "0 %",
                           QString::number(device_max * 100, 'g', 3) + " %"});
    }
    if (!t.switches.empty()) legend_.push_back({LegendItem::Type::Switch, switch_fill, 0, tr("switch"), {}, {}});
    if (mode == Colouring::Kind) {
        for (const auto& k : link_kinds) legend_.push_back({LegendItem::Type::Line, linkColour(k), 3, q(k), {}, {}});
    } else if (mode == Colouring::Utilisation) {
        legend_.push_back({LegendItem::Type::Ramp, {}, 0, tr("link utilisation (busier direction)"), "0 %",
                           QString::number(link_max * 100, 'g', 3) + " %"});
    } else {
        legend_.push_back({LegendItem::Type::Ramp, {}, 0, tr("bytes moved (busier direction)"), "0 B",
                           q(view::bytesText(link_max))});
    }
    if (mode != Colouring::Kind) legend_.push_back({LegendItem::Type::Box, kIdle, 0, tr("idle"), {}, {}});
    // Widths: each distinct bandwidth when there are few, else the ends and a middle step.
    std::set<double> bws;
    for (const auto& l : t.links) bws.insert(l.bandwidth_Bps);
    std::vector<double> shown(bws.begin(), bws.end());
    if (shown.size() > 4) shown = {min_bw_, std::sqrt(min_bw_ * max_bw_), max_bw_};
    for (double bw : shown)
        legend_.push_back({LegendItem::Type::Line, QColor(90, 90, 90), widthFor(bw),
                           QString::number(bw / 1e9, 'g', 4) + " GB/s", {}, {}});
}

double TopologyView::widthFor(double bandwidth) const {
    // 1.5 px for the slowest link, 7 px for the fastest, logarithmic between.
    if (!(max_bw_ > min_bw_) || !(bandwidth > 0)) return 3;
    return 1.5 + 5.5 * std::log(bandwidth / min_bw_) / std::log(max_bw_ / min_bw_);
}

int TopologyView::edgeOfLink(int link) const {
    return link >= 0 && link < static_cast<int>(edge_of_link_.size()) ? edge_of_link_[static_cast<size_t>(link)] : -1;
}

double TopologyView::linkBytes(int link) const {
    return link >= 0 && link < static_cast<int>(load_.link_bytes.size()) ? load_.link_bytes[static_cast<size_t>(link)] : 0;
}

QRectF TopologyView::vertexRect(int v) const {
    return v >= 0 && v < vertexCount() ? toWidget(box(v)) : QRectF();
}

QRectF TopologyView::machineRect(int m) const {
    if (m < 0 || m >= static_cast<int>(placement_.machines.size())) return {};
    const view::MachineBox& b = placement_.machines[static_cast<size_t>(m)];
    return toWidget(QRectF(b.x, b.y, b.w, b.h));
}

QPointF TopologyView::edgeMidpoint(int e) const {
    if (e < 0 || e >= edgeCount()) return {};
    return offset_ + paths_[static_cast<size_t>(e)].pointAtPercent(0.5) * scale_;
}

QColor TopologyView::vertexFill(int v) const { return fills_.at(static_cast<size_t>(v)); }
QColor TopologyView::edgeColour(int e) const { return edge_colours_.at(static_cast<size_t>(e)); }

double TopologyView::edgeWidth(int e) const {
    return widthFor(topology_->links[static_cast<size_t>(edges_.at(static_cast<size_t>(e)).anyLink())].bandwidth_Bps);
}

int TopologyView::vertexAt(QPointF scene) const {
    for (int v = 0; v < vertexCount(); ++v)
        if (box(v).contains(scene)) return v;
    return -1;
}

int TopologyView::edgeAt(QPointF scene) const {
    QPainterPathStroker stroker;
    stroker.setWidth(8 / scale_);
    for (size_t e = 0; e < paths_.size(); ++e)
        if (paths_[e].controlPointRect().adjusted(-10, -10, 10, 10).contains(scene) &&
            stroker.createStroke(paths_[e]).contains(scene))
            return static_cast<int>(e);
    return -1;
}

QString TopologyView::toolTipAt(QPointF pos, QRect* area) const {
    const QPointF s = toScene(pos);
    if (const int v = vertexAt(s); v >= 0) {
        *area = toWidget(box(v)).toAlignedRect();
        return vertexToolTip(v);
    }
    if (const int e = edgeAt(s); e >= 0) {
        *area = QRect(pos.toPoint() - QPoint(4, 4), QSize(8, 8));
        return edgeToolTip(e);
    }
    return {};
}

void TopologyView::clicked(QMouseEvent* event) {
    const QPointF at = toScene(event->position());
    const int v = vertexAt(at);
    if (v >= 0) {
        if (isSwitch(v)) return;
        selected_ = v;
        selected_link_ = -1;
        update();
        emit deviceClicked(v);
        return;
    }
    if (const int e = edgeAt(at); e >= 0) {
        selected_ = -1;
        selected_link_ = edges_[static_cast<size_t>(e)].anyLink();
        update();
        emit linkClicked(selected_link_);
    }
}

void TopologyView::selectDevice(int device) {
    selected_ = topology_ && device >= 0 && device < topology_->deviceCount() ? device : -1;
    if (selected_ >= 0) {
        selected_link_ = -1;
        ensureVisible(box(selected_));
    }
    update();
}

void TopologyView::selectLink(int link) {
    const int e = edgeOfLink(link);
    selected_link_ = e >= 0 ? link : -1;
    if (e >= 0) {
        selected_ = -1;
        ensureVisible(paths_[static_cast<size_t>(e)].boundingRect());
    }
    update();
}

double TopologyView::areaAspect() const {
    const QRectF a = graphArea();
    return a.width() > 50 && a.height() > 50 ? a.width() / a.height() : 1.6;
}

void TopologyView::resizeEvent(QResizeEvent* event) {
    // While the view follows the window (no zoom or pan yet), node boxes take as many columns as
    // draw them largest in its new shape.
    if (topology_ && placement_.shape == view::TopologyShape::Nodes && follow_ != Follow::None) {
        const auto columns = [](const view::TopologyPlacement& p) {
            int c = 0;
            for (const auto& m : p.machines) c = std::max(c, m.column + 1);
            return c;
        };
        view::TopologyPlacement p = view::placeTopology(*topology_, edges_, kBoxW, kBoxH, areaAspect());
        if (columns(p) != columns(placement_)) {
            placement_ = std::move(p);
            groups_.clear();
            buildPaths();
        }
    }
    GraphCanvas::resizeEvent(event);
}

void TopologyView::initialView() {
    if (scene_.isEmpty()) return update();
    fit();
    follow_ = Follow::Initial;
}

void TopologyView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_C && hasLoad()) {
        setColouring(colouring_ == Colouring::Utilisation ? Colouring::Bytes
                     : colouring_ == Colouring::Bytes     ? Colouring::Kind
                                                          : Colouring::Utilisation);
        return;
    }
    GraphCanvas::keyPressEvent(event);
}

}  // namespace partita
