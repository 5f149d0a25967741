// NetworkGraphView's colours and paint routine, shared by the widget and figure export.
#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainter>

#include "core/study/plots.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/palette.h"
#include "widgets/network/network_graph.h"

namespace partita {

namespace {

using graphpaint::kBorder, graphpaint::kEdge, graphpaint::kInputFill, graphpaint::kMargin, graphpaint::kMuted,
    graphpaint::kPlain, graphpaint::kPlainBorder;
const QColor kNetworkInk(40, 40, 40);
const QColor kSelectedNode = qcolor(view::okabeIto(5));  // blue
constexpr double kSwatch = 18, kRampW = 180;


// A strip of equal parts, one per colour; nothing when every part would look alike.
void paintStripes(QPainter& p, const QRectF& strip, const std::vector<QColor>& colours) {
    if (colours.empty() || std::all_of(colours.begin(), colours.end(), [&](const QColor& c) { return c == colours[0]; }))
        return;
    p.save();
    p.setPen(Qt::NoPen);
    p.fillRect(strip, Qt::white);
    const double w = strip.width() / static_cast<double>(colours.size());
    const double gap = std::min(1.5, w / 4);  // white between parts: two alike layers stay two
    for (size_t k = 0; k < colours.size(); ++k)
        p.fillRect(QRectF(strip.left() + w * static_cast<double>(k) + gap / 2, strip.top(), w - gap, strip.height()),
                   colours[k]);
    QPen frame(kBorder, 1);  // seen on a fill of one of its own colours
    frame.setCosmetic(true);
    p.setPen(frame);
    p.setBrush(Qt::NoBrush);
    p.drawRect(strip);
    p.restore();
}

}  // namespace

// ---- colours -------------------------------------------------------------------------------------

std::vector<double> NetworkGraphView::opValues() const {
    std::vector<double> v(layer_of_op_.size(), 0.0);
    const LayerComm comm = mode_ == ColourMode::Communication ? layerComm(*run_) : LayerComm{};
    for (size_t op = 0; op < v.size(); ++op) {
        const int layer = layer_of_op_[op];
        if (mode_ == ColourMode::Macs) v[op] = nodeMacs(static_cast<int>(op), layer);
        else if (layer < 0) continue;
        else if (mode_ == ColourMode::Weights) v[op] = inputs_->layers[static_cast<size_t>(layer)].weights();
        else v[op] = comm.layerTotal(layer);
    }
    return v;
}

// An operator's node takes its colour; a collapsed run takes its members' coloured operators as
// stripes, filled with the commonest of them (the first on a tie).
void NetworkGraphView::fillNodes(const std::vector<QColor>& op_colours) {
    for (size_t i = 1; i < nodes_.size(); ++i) {
        const Node& n = nodes_[i];
        if (n.run < 0) {
            fills_[i] = op_colours[static_cast<size_t>(n.op)];
            continue;
        }
        const RepeatedRun& r = runs_[static_cast<size_t>(n.run)];
        std::vector<QColor>& stripes = stripes_[i];
        for (int op = r.first_op; op <= r.lastOp(); ++op)
            if (op_colours[static_cast<size_t>(op)] != kPlain) stripes.push_back(op_colours[static_cast<size_t>(op)]);
        long best = 0;
        for (const QColor& c : stripes)
            if (const long k = std::count(stripes.begin(), stripes.end(), c); k > best) {
                best = k;
                fills_[i] = c;
            }
    }
}

void NetworkGraphView::recolour() {
    mode_ = colourModeAvailable(preferred_) ? preferred_ : ColourMode::Macs;
    fills_.assign(nodes_.size(), kPlain);
    stripes_.assign(nodes_.size(), {});
    if (!fills_.empty()) fills_[0] = kInputFill;
    legend_ = {};
    if (!inputs_) return update();
    // The chosen mode the shown run cannot give (a method that made no grid, such as HyPar on a ResNet).
    const QString missing = mode_ == preferred_ ? QString()
                            : run_              ? tr(" · %1 has no %2 to colour by").arg(q(run_->name), colourModeName(preferred_).toLower())
                                                : tr(" · no run to colour by its %1").arg(colourModeName(preferred_).toLower());
    const QString network = q(inputs_->network.name);
    if (!colourModeAvailable(mode_)) {
        legend_.title = tr("%1 · no run to colour by its %2: run a method")
                            .arg(network, colourModeName(mode_).toLower());
        return update();
    }
    if (mode_ == ColourMode::Partition) {
        const Grid& g = run_->grid;
        bool type3 = false;
        for (int h = 0; h < g.levels(); ++h)
            for (int l = 0; l < g.layers(); ++l) type3 = type3 || g.split(h, l) == Split::Output;
        std::vector<QColor> colours(layer_of_op_.size(), kPlain);
        for (size_t op = 0; op < colours.size(); ++op)
            if (const int l = layer_of_op_[op]; l >= 0) colours[op] = qcolor(view::splitColour(index(g.split(level_, l))));
        fillNodes(colours);
        legend_.title = tr("Coloured by the H%1 choice of %2").arg(level_ + 1).arg(runLabel());  // names the network
        legend_.items = {{qcolor(view::splitColour(0)), tr("dp — Type-I, split the batch"), {}},
                         {qcolor(view::splitColour(1)), tr("mp — Type-II, split the input dimension"), {}}};
        if (type3) legend_.items.push_back({qcolor(view::splitColour(2)), tr("III — Type-III, split the output dimension"), {}});
        legend_.items.push_back({kPlain, tr("no weights: not partitioned"), {}});
        addRunLegend(legend_.items[1].colour, legend_.items[0].colour);
        return update();
    }
    const std::vector<double> values = opValues();
    double lo = 0, hi = 0;
    for (double v : values)
        if (v > 0) {
            lo = lo > 0 ? std::min(lo, v) : v;
            hi = std::max(hi, v);
        }
    // Log scale: MACs, weights and traffic span several orders of magnitude within one network.
    const auto t = [&](double v) { return hi > lo ? std::log(v / lo) / std::log(hi / lo) : 1.0; };
    std::vector<QColor> colours(values.size(), kPlain);
    for (size_t op = 0; op < values.size(); ++op)
        if (values[op] > 0) colours[op] = qcolor(view::viridis(t(values[op])));
    fillNodes(colours);
    legend_.title = (mode_ == ColourMode::Macs      ? tr("%1 · coloured by MACs per sample (log scale)").arg(network)
                     : mode_ == ColourMode::Weights ? tr("%1 · coloured by weights (log scale)").arg(network)
                                                    : tr("Coloured by the communication of %1 (log scale)").arg(runLabel())) +
                    missing;
    legend_.ramp = hi > 0;
    const bool bytes = mode_ == ColourMode::Communication;
    legend_.low = bytes ? byteText(lo) : prefixed(lo);
    legend_.high = bytes ? byteText(hi) : prefixed(hi);
    legend_.items.push_back({kPlain, mode_ == ColourMode::Macs      ? tr("no multiply-accumulates")
                                     : mode_ == ColourMode::Weights ? tr("no weights")
                                                                    : tr("no weights: not partitioned"),
                             {}});
    addRunLegend(qcolor(view::viridis(0.6)), qcolor(view::viridis(0.2)));
    update();
}

void NetworkGraphView::addRunLegend(const QColor& fill, const QColor& other) {
    for (const Node& n : nodes_)
        if (n.run >= 0) {
            legend_.items.push_back({fill, tr("collapsed run: its layers' commonest colour, each layer's in the strip"),
                                     {fill, other, fill}});
            return;
        }
}

QColor NetworkGraphView::nodeFill(int node) const {
    return node >= 0 && static_cast<size_t>(node) < fills_.size() ? fills_[static_cast<size_t>(node)] : QColor();
}

// ---- the band above the graph: legend title, then swatches (or the ramp), wrapped --------------

double NetworkGraphView::headerHeight(double width) const {
    if (legend_.title.isEmpty()) return 0;
    const graphpaint::Fonts f = fonts();
    const QFontMetricsF title(f.title), label(f.legend);
    const double line = std::max(label.height(), kSwatch) + 6;
    double x = kMargin + (legend_.ramp ? label.horizontalAdvance(legend_.low) + kRampW + label.horizontalAdvance(legend_.high) + 40 : 0);
    int rows = legend_.ramp || !legend_.items.empty() ? 1 : 0;
    for (const LegendItem& item : legend_.items) {
        const double w = kSwatch + 6 + label.horizontalAdvance(item.text) + 18;
        if (x + w > width - kMargin && x > kMargin) {
            ++rows;
            x = kMargin;
        }
        x += w;
    }
    return kMargin / 2 + title.height() + 4 + rows * line + 4;
}

double NetworkGraphView::paintHeader(QPainter& p, const QRectF& area) const {
    const double height = headerHeight(area.width());
    if (height <= 0) return 0;
    const graphpaint::Fonts f = fonts();
    const QFontMetricsF title(f.title), label(f.legend);
    p.setPen(kNetworkInk);
    p.setFont(f.title);
    const QRectF title_box(area.left() + kMargin, area.top() + kMargin / 2, area.width() - 2 * kMargin, title.height());
    p.drawText(title_box, Qt::AlignLeft | Qt::AlignVCenter,
               title.elidedText(legend_.title, Qt::ElideRight, title_box.width()));
    const double line = std::max(label.height(), kSwatch) + 6;
    double y = title_box.bottom() + 4, x = area.left() + kMargin;
    p.setFont(f.legend);
    if (legend_.ramp) {
        const double low_w = label.horizontalAdvance(legend_.low);
        p.drawText(QRectF(x, y, low_w, line), Qt::AlignLeft | Qt::AlignVCenter, legend_.low);
        x += low_w + 6;
        QLinearGradient ramp(x, 0, x + kRampW, 0);
        for (int k = 0; k <= 8; ++k) ramp.setColorAt(k / 8.0, qcolor(view::viridis(k / 8.0)));
        p.setPen(Qt::NoPen);
        p.setBrush(ramp);
        p.drawRect(QRectF(x, y + (line - kSwatch) / 2, kRampW, kSwatch));
        x += kRampW + 6;
        p.setPen(kNetworkInk);
        p.drawText(QRectF(x, y, label.horizontalAdvance(legend_.high) + 1, line), Qt::AlignLeft | Qt::AlignVCenter,
                   legend_.high);
        x += label.horizontalAdvance(legend_.high) + 28;
    }
    for (const LegendItem& item : legend_.items) {
        const double w = kSwatch + 6 + label.horizontalAdvance(item.text) + 18;
        if (x + w > area.right() - kMargin && x > area.left() + kMargin) {
            y += line;
            x = area.left() + kMargin;
        }
        const QRectF swatch(x, y + (line - kSwatch) / 2, kSwatch, kSwatch);
        p.setPen(QPen(item.colour == kPlain ? kPlainBorder : item.colour.darker(130), 1));
        p.setBrush(item.colour);
        if (item.stripes.empty()) {
            p.drawRoundedRect(swatch, 3, 3);
        } else {  // a small collapsed run: two cards behind, a strip on the front one
            const QRectF card = swatch.adjusted(0, 4, -4, 0);
            for (int k = 2; k >= 0; --k) p.drawRoundedRect(card.translated(2 * k, -2 * k), 2, 2);
            paintStripes(p, QRectF(card.left() + 2, card.bottom() - 6, card.width() - 4, 4), item.stripes);
        }
        p.setPen(kNetworkInk);
        p.drawText(QRectF(swatch.right() + 6, y, w - kSwatch - 6, line), Qt::AlignLeft | Qt::AlignVCenter, item.text);
        x += w;
    }
    p.setPen(QPen(QColor(220, 220, 220), 1));
    p.drawLine(QPointF(area.left(), area.top() + height - 0.5), QPointF(area.right(), area.top() + height - 0.5));
    return height;
}

// ---- the graph -----------------------------------------------------------------------------------


void NetworkGraphView::paintGraph(QPainter& p, const QRectF& clip, double scale, QPointF offset,
                                  bool interactive) const {
    p.save();
    p.setClipRect(clip);
    p.translate(offset);
    p.scale(scale, scale);
    const QRectF visible = QRectF((clip.topLeft() - offset) / scale, clip.size() / scale).adjusted(-4, -4, 4, 4);
    const bool selection = interactive && selected_ >= 0;
    // A whole large graph fitted: nodes a few pixels tall are drawn as plain boxes, without arrowheads.
    const bool coarse = graphpaint::coarse(p);
    if (coarse) p.setRenderHint(QPainter::Antialiasing, false);  // restored with the painter

    // Edges, then arrowheads; the selected node's edges last and darker.
    const auto drawEdge = [&](size_t i) {
        const view::EdgeRoute& e = layout_.edges[i];
        // Padded: a straight vertical edge has an empty rectangle, which intersects nothing.
        if (!paths_[i].controlPointRect().adjusted(-1, -1, 1, 1).intersects(visible)) return;
        graphpaint::drawEdge(p, paths_[i], QPointF(e.points.back().x, e.points.back().y), QPointF(e.tip.x, e.tip.y),
                             !coarse);
    };
    p.setPen(graphpaint::cosmeticPen(kEdge, 1.2));
    for (size_t i = 0; i < layout_.edges.size() && i < paths_.size(); ++i) {
        const view::EdgeRoute& e = layout_.edges[i];
        if (selection && (e.from == selected_ || e.to == selected_)) continue;
        drawEdge(i);
    }
    if (selection) {
        p.setPen(graphpaint::cosmeticPen(kSelectedNode, 2.2));
        for (size_t i = 0; i < layout_.edges.size() && i < paths_.size(); ++i)
            if (layout_.edges[i].from == selected_ || layout_.edges[i].to == selected_) drawEdge(i);
    }

    // Nodes; text only where it is large enough to read.
    const graphpaint::Fonts f = fonts();
    const bool text = graphpaint::textReadable(p, f);
    for (size_t i = 0; i < layout_.nodes.size() && i < nodes_.size(); ++i) {
        const view::Box& b = layout_.nodes[i];
        const QRectF r(b.x, b.y, b.w, b.h);
        if (!r.intersects(visible)) continue;
        const QColor fill = i < fills_.size() ? fills_[i] : kPlain;
        const bool run = nodes_[i].run >= 0;
        const bool weighted = nodes_[i].layer >= 0 || run;
        if (coarse) {
            p.fillRect(r, fill == kPlain ? kPlainBorder : fill);
            continue;
        }
        const QPen border = graphpaint::cosmeticPen(weighted ? kBorder : kPlainBorder, weighted ? 1.0 : 0.8);
        // A collapsed run: a stack of cards, the front one bottom-left, with its members' colours.
        const QRectF card = run ? r.adjusted(0, 2 * kStack, -2 * kStack, 0) : r;
        if (run) {
            p.setPen(border);
            p.setBrush(fill);
            for (int k = 2; k >= 1; --k) p.drawRoundedRect(card.translated(k * kStack, -k * kStack), 5, 5);
        }
        graphpaint::drawNode(p, card, nodes_[i].lines, fill, border, f, text);
        if (run) paintStripes(p, QRectF(card.left() + 8, card.bottom() - kStrip - 5, card.width() - 16, kStrip), stripes_[i]);
    }
    if (selection && static_cast<size_t>(selected_) < layout_.nodes.size()) {
        const view::Box& b = layout_.nodes[static_cast<size_t>(selected_)];
        QPen mark(kSelectedNode, 3);
        mark.setCosmetic(true);
        p.setPen(mark);
        p.setBrush(Qt::NoBrush);
        const double gap = 3 / scale;
        p.drawRoundedRect(QRectF(b.x, b.y, b.w, b.h).adjusted(-gap, -gap, gap, gap), 7, 7);
    }
    p.restore();
}

void NetworkGraphView::paintAll(QPainter& p, const QRectF& area, double scale, QPointF offset, bool interactive) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(area, Qt::white);
    const double band = paintHeader(p, area);
    const QRectF below = area.adjusted(0, band, 0, 0);
    QString message;
    if (!inputs_) message = tr("Open a network to see its graph");
    else if (pending_ != 0) message = tr("Laying out %1 operators…").arg(nodes_.size() - 1);
    else if (!problem_.isEmpty()) message = problem_;
    if (!message.isEmpty() || layout_.empty()) {
        p.setFont(fonts().legend);
        p.setPen(kMuted);
        p.drawText(below.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, message);
    } else {
        paintGraph(p, below, scale, offset, interactive);
    }
    p.restore();
}

void NetworkGraphView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintAll(p, rect(), scale_, offset_, true);
    paintOverview(p);
}

void NetworkGraphView::paintOverviewScene(QPainter& p) const {
    p.setPen(graphpaint::cosmeticPen(QColor(170, 170, 170), 0.8));
    p.setBrush(Qt::NoBrush);
    for (const QPainterPath& path : paths_) p.drawPath(path);
    p.setPen(Qt::NoPen);
    for (size_t i = 0; i < layout_.nodes.size() && i < fills_.size(); ++i) {
        const view::Box& b = layout_.nodes[i];
        p.setBrush(fills_[i] == kPlain ? kPlainBorder : fills_[i]);
        p.drawRect(QRectF(b.x, b.y, b.w, b.h));
    }
    if (selected_ >= 0 && static_cast<size_t>(selected_) < layout_.nodes.size()) {
        const view::Box& b = layout_.nodes[static_cast<size_t>(selected_)];
        p.setPen(graphpaint::cosmeticPen(kSelectedNode, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(b.x, b.y, b.w, b.h).adjusted(-12, -12, 12, 12));
    }
}

namespace {
// The largest side of an exported figure, pixels at 96 DPI (a 1,000-operator graph is tens of
// thousands of points tall; beyond this it is drawn smaller).
constexpr double kMaxFigureSide = 6000;
}  // namespace

QSize NetworkGraphView::figureSize() const {
    if (layout_.empty()) return {640, 400};
    const double s = std::min(1.0, kMaxFigureSide / std::max(layout_.width, layout_.height));
    const double w = std::max(640.0, layout_.width * s + 2 * kMargin);
    return QSize(static_cast<int>(std::ceil(w)),
                 static_cast<int>(std::ceil(headerHeight(w) + layout_.height * s + 2 * kMargin)));
}

void NetworkGraphView::paintFigure(QPainter& painter, const QRect& area) const {
    const QRectF a = area;
    const QRectF g = a.adjusted(kMargin, headerHeight(a.width()) + kMargin, -kMargin, -kMargin);
    double s = 1;
    if (!layout_.empty())
        s = std::min({1.0, g.width() / std::max(layout_.width, 1.0), g.height() / std::max(layout_.height, 1.0)});
    const QPointF offset(g.center().x() - layout_.width * s / 2, g.top());
    paintAll(painter, a, s, offset, false);
}

}  // namespace partita
