// EditorCanvas's painting (the widget and figure export share paintScene), tooltips and DOT text.
#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainter>

#include "core/util/format.h"
#include "widgets/common/op_text.h"
#include "widgets/common/qt_text.h"
#include "widgets/network_editor/editor_canvas.h"
#include "widgets/geometry/palette.h"

namespace partita {

namespace {
using graphpaint::kBorder, graphpaint::kEdge, graphpaint::kInputFill, graphpaint::kMargin, graphpaint::kMuted,
    graphpaint::kPlain, graphpaint::kPlainBorder;
const QColor kProblemFill(255, 214, 214), kProblem(176, 0, 32);
const QColor kSelectedOperator = qcolor(view::okabeIto(5));  // blue, as in the network graph
constexpr double kPortRadius = 4.5;
}  // namespace

QColor EditorCanvas::nodeFill(NodeId id) const {
    if (id == edit::kNetworkInput) return kInputFill;
    return hasProblem(id) ? kProblemFill : kPlain;
}

void EditorCanvas::paintScene(QPainter& p, const QRectF& clip, double scale, QPointF offset, bool interactive) const {
    p.save();
    p.setClipRect(clip);
    p.translate(offset);
    p.scale(scale, scale);
    const bool coarse = graphpaint::coarse(p);
    const bool highlight = interactive && (!selection_.empty() || edge_);
    const auto touchesSelection = [&](const Edge& e) {
        return (edge_ && edge_->first == e.from && edge_->second == e.to) ||
               (!edge_ && (selection_.count(e.from) || selection_.count(e.to)));
    };
    for (int pass = 0; pass < 2; ++pass) {  // the selection's edges last, on top
        p.setPen(graphpaint::cosmeticPen(pass ? kSelectedOperator : kEdge, pass ? 2.2 : 1.2));
        for (const Edge& e : edges_) {
            if (!items_.count(e.from) || (highlight && touchesSelection(e)) != (pass == 1)) continue;
            const QPainterPath path = edgePath(e);
            const QPointF end = inputSlot(e.to, e.slot);
            graphpaint::drawEdge(p, path, end - QPointF(0, 8), end, !coarse);
        }
    }
    const graphpaint::Fonts f = fonts();
    const bool text = graphpaint::textReadable(p, f);
    for (const auto& [id, item] : items_) {
        const QRectF r = nodeBox(id);
        const bool weighted = id != edit::kNetworkInput && hasWeights(doc_->node(id)->op.type);
        QPen border = graphpaint::cosmeticPen(item.problem ? kProblem : weighted ? kBorder : kPlainBorder,
                                              item.problem ? 2.0 : weighted ? 1.0 : 0.8);
        graphpaint::drawNode(p, r, item.lines.mid(0, 2), nodeFill(id), border, f, text && !coarse);
        if (item.problem && text && !coarse && item.lines.size() > 2) {  // the reason, in red
            const QFontMetricsF name(f.name), detail(f.detail);
            const double y = r.top() + 5 + name.height() + detail.height() + 2 * graphpaint::kLineGap;
            p.setPen(kProblem);
            p.setFont(f.detail);
            p.drawText(QRectF(r.left() + 2, y, r.width() - 4, detail.height()), Qt::AlignHCenter | Qt::AlignVCenter,
                       detail.elidedText(item.lines[2], Qt::ElideRight, r.width() - 6));
        }
        if (!interactive || coarse) continue;
        p.setPen(graphpaint::cosmeticPen(kBorder, 1));
        p.setBrush(Qt::white);
        const double radius = kPortRadius / std::max(scale, 0.5);
        p.drawEllipse(QPointF(r.center().x(), r.bottom()), radius, radius);  // the output port
        if (id == edit::kNetworkInput) continue;
        const int count = static_cast<int>(doc_->node(id)->inputs.size());
        p.setBrush(kBorder);
        for (int k = 0; k < count; ++k) p.drawEllipse(inputSlot(id, k), radius * 0.6, radius * 0.6);
    }
    if (interactive) {
        QPen mark = graphpaint::cosmeticPen(kSelectedOperator, 3);
        p.setPen(mark);
        p.setBrush(Qt::NoBrush);
        const double gap = 3 / scale;
        for (NodeId id : selection_) p.drawRoundedRect(nodeBox(id).adjusted(-gap, -gap, gap, gap), 7, 7);
    }
    p.restore();
}

void EditorCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(rect(), Qt::white);
    if (const QRectF hint = emptyHint(); !hint.isEmpty()) {
        p.setFont(fonts().legend);
        p.setPen(kMuted);
        p.drawText(hint, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, emptyHintText());
    }
    paintScene(p, rect(), scale_, offset_, true);
    if (drag_ == Drag::Connect && connect_from_ && drag_moved_) {
        QPen pen(kSelectedOperator, 2, Qt::DashLine);
        p.setPen(pen);
        p.drawLine(outputPort(*connect_from_), pointer_);
        if (const auto target = nodeAt(pointer_); target && *target != *connect_from_ && *target != edit::kNetworkInput) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(kSelectedOperator, 2));
            p.drawRoundedRect(nodeRect(*target).adjusted(-3, -3, 3, 3), 7, 7);
        }
    }
    if (drag_ == Drag::Band && drag_moved_) {
        p.setPen(QPen(kSelectedOperator, 1));
        p.setBrush(QColor(0, 114, 178, 30));
        p.drawRect(QRectF(press_, pointer_).normalized());
    }
    paintOverview(p);
    if (layoutPending()) {  // the provisional column, until dot's layout arrives from the worker
        p.setFont(fonts().legend);
        const QString note = tr("Laying out %1 operators with Graphviz dot…").arg(doc_ ? doc_->ids().size() : 0);
        const QRectF box(8, 8, QFontMetricsF(p.font()).horizontalAdvance(note) + 16, QFontMetricsF(p.font()).height() + 8);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 248, 220));
        p.drawRoundedRect(box, 4, 4);
        p.setPen(kMuted);
        p.drawText(box, Qt::AlignCenter, note);
    }
}

QString EditorCanvas::emptyHintText() {
    return tr("Double-click an operator or a template in the palette, or drag it here, to add it");
}

void EditorCanvas::paintOverviewScene(QPainter& p) const {
    p.setPen(graphpaint::cosmeticPen(QColor(170, 170, 170), 0.8));
    p.setBrush(Qt::NoBrush);
    for (const Edge& e : edges_)
        if (items_.count(e.from)) p.drawPath(edgePath(e));
    p.setPen(Qt::NoPen);
    for (const auto& [id, item] : items_) {
        p.setBrush(item.problem ? kProblem : selection_.count(id) ? kSelectedOperator : kPlainBorder);
        p.drawRect(nodeBox(id));
    }
}

QSize EditorCanvas::figureSize() const {
    const QRectF s = sceneRect();
    if (s.isEmpty()) return {640, 400};
    const double k = std::min(1.0, 6000 / std::max(s.width(), s.height()));  // as the network graph's
    return QSize(static_cast<int>(std::ceil(std::max(320.0, s.width() * k + 2 * kMargin))),
                 static_cast<int>(std::ceil(s.height() * k + 2 * kMargin)));
}

void EditorCanvas::paintFigure(QPainter& painter, const QRect& area) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(area, Qt::white);
    const QRectF s = sceneRect();
    if (!s.isEmpty()) {
        const QRectF a = QRectF(area).adjusted(kMargin, kMargin, -kMargin, -kMargin);
        const double k = std::min({1.0, a.width() / s.width(), a.height() / s.height()});
        const QPointF offset = a.center() - s.center() * k;
        paintScene(painter, area, k, offset, false);
    }
    painter.restore();
}

QString EditorCanvas::nodeToolTip(NodeId id) const {
    if (!doc_ || !items_.count(id)) return {};
    if (id == edit::kNetworkInput)
        return tr("<b>input</b><br>%1 per sample (C×H×W); drag from its bottom port to feed an operator")
            .arg(shapeText(doc_->header().input));
    const edit::Node& n = *doc_->node(id);
    QStringList in;
    for (NodeId from : n.inputs)
        in << (from == edit::kNetworkInput ? QStringLiteral("input")
                                           : doc_->node(from) ? q(doc_->node(from)->op.name).toHtmlEscaped() : QStringLiteral("?"));
    QString html = tr("<b>%1</b> (%2)<br>inputs: %3").arg(q(n.op.name).toHtmlEscaped(), opKindText(n.op),
                                                          in.isEmpty() ? tr("none") : in.join(", "));
    if (const auto shape = doc_->outputShape(id)) html += tr("<br>output %1 (C×H×W)").arg(shapeText(*shape));
    for (const edit::Problem& p : doc_->problems())
        if (p.node == id) html += tr("<br><span style='color:#b00020'><b>Problem:</b> %1</span>").arg(q(p.reason).toHtmlEscaped());
    return html;
}

QString EditorCanvas::toolTipAt(QPointF pos, QRect* area) const {
    if (const auto node = nodeAt(pos)) {
        *area = nodeRect(*node).toAlignedRect();
        return nodeToolTip(*node);
    }
    return toolTip();
}

QString EditorCanvas::dot() const {
    if (!doc_) return {};
    view::GraphSpec spec;
    std::map<NodeId, int> index;
    for (NodeId id : shownNodes()) {
        index[id] = static_cast<int>(spec.nodes.size());
        const Item& item = items_.at(id);
        std::vector<std::string> label;
        for (const QString& line : item.lines) label.push_back(line.toStdString());
        spec.nodes.push_back({id == edit::kNetworkInput ? "input" : doc_->node(id)->op.name, label, item.size.width(),
                              item.size.height(), nodeFill(id).name(QColor::HexRgb).toStdString()});
    }
    for (const Edge& e : edges_)
        if (index.count(e.from)) spec.edges.push_back({index[e.from], index[e.to]});
    return q(view::graphDot(spec, doc_->header().name));
}

CsvTable EditorCanvas::csv() const {
    CsvTable t;
    t.header = {"node", "operator", "type", "inputs", "out_shape_CxHxW", "problem", "x_pt", "y_pt", "hint"};
    if (!doc_) return t;
    for (NodeId id : shownNodes()) {
        const QPointF p = position(id);
        std::vector<std::string> row{std::to_string(id)};
        if (id == edit::kNetworkInput) {
            row.insert(row.end(), {"input", "input", "", shapeText(doc_->header().input).toStdString(), ""});
        } else {
            const edit::Node& n = *doc_->node(id);
            std::string in;
            for (NodeId from : n.inputs)
                in += (in.empty() ? "" : " ") +
                      (from == edit::kNetworkInput ? std::string("input") : doc_->node(from) ? doc_->node(from)->op.name : "?");
            const auto shape = doc_->outputShape(id);
            std::string problem;
            for (const edit::Problem& x : doc_->problems())
                if (x.node == id) problem = x.reason;
            row.insert(row.end(), {n.op.name, opTypeName(n.op.type), in, shape ? shapeText(*shape).toStdString() : "",
                                   problem});
        }
        row.push_back(formatNumber(p.x()));
        row.push_back(formatNumber(p.y()));
        const edit::Node* n = id == edit::kNetworkInput ? nullptr : doc_->node(id);
        row.push_back(n && n->position ? "yes" : "no");
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace partita
