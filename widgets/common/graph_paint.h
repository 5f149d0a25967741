#pragma once
// The drawing pieces of a graph of labelled boxes, shared by the Network tab's graph and the network
// editor (and their figure exports): fonts in pixel sizes (a layout measured once holds on every
// device), node boxes sized to their lines, edges as splines with arrowheads.
#include <vector>

#include <QColor>
#include <QFont>
#include <QPainterPath>
#include <QPen>
#include <QStringList>

#include "widgets/geometry/graph_layout.h"

class QPainter;

namespace partita::graphpaint {

struct Fonts {
    QFont name, detail, title, legend;
};
Fonts fonts(const QFont& base);

inline constexpr double kLineGap = 2;  // between a node's text lines (underscores stay clear)

// The ink both graphs draw with (the editor looks like the Network tab's graph), and a figure's margin.
inline const QColor kEdge(140, 140, 140), kPlain(255, 255, 255), kInputFill(232, 232, 232), kBorder(120, 120, 120),
    kPlainBorder(170, 170, 170), kMuted(110, 110, 110);
inline constexpr double kMargin = 12;

// A box for these lines (the first in the name font, the rest in the detail font), padded, in points.
QSizeF nodeSize(const QStringList& lines, const Fonts& f);

// A rounded box with its lines centred (elided to the box); `text` false draws the box only.
void drawNode(QPainter& p, const QRectF& box, const QStringList& lines, const QColor& fill, const QPen& border,
              const Fonts& f, bool text);

// An edge with the painter's pen; its arrowhead from `base` to `tip` in the pen's colour.
void drawEdge(QPainter& p, const QPainterPath& path, QPointF base, QPointF tip, bool arrowhead);

// Graphviz's spline (p0, then c1, c2, p per segment) as a path.
QPainterPath splinePath(const std::vector<view::Point>& points);

// A cosmetic pen (the same width at any zoom).
QPen cosmeticPen(const QColor& colour, double width);

// Device scale below which a graph is drawn as plain boxes (fitted large graphs), and whether
// text is large enough to read at the painter's scale.
bool coarse(const QPainter& p);
bool textReadable(const QPainter& p, const Fonts& f);

}  // namespace partita::graphpaint
