#pragma once
// TeachingView's drawing pieces (widgets/teaching/teaching_paint.cpp uses them): the
// style, one tensor block split between the groups, arrows with numbered
// badges, and the five blocks of each phase's band. Internal to widgets/.
#include <array>
#include <vector>

#include <QColor>
#include <QFont>
#include <QPainter>
#include <QString>

#include "core/study/teaching.h"

namespace partita::teaching {

struct Style {
    QColor group[2];   // group A, group B (Okabe-Ito orange, blue)
    QColor ink{30, 30, 30}, mute{150, 150, 150}, band{255, 246, 220};
    QFont title, head, body, small;
    Style();
    Style faded() const;  // for the phases not shown: colours towards white, grey ink
};

// One tensor as drawn: its layout over the groups, and what group A / B receive.
struct Block {
    QString name, dims;
    Layout layout = Layout::Full;
    bool partial = false;             // full-size partial sums on both groups
    std::vector<Region> missing[2];   // received from the other group (hatched)
    int badge = 0;                    // > 0: number of the exchange that acts on it
};

// The five blocks of one phase's band (boundary l-1, L tensor, weights, R
// tensor, boundary l+1), before the exchanges mark them.
struct Band {
    std::array<Block, 5> blk;
    bool present[5] = {true, true, true, true, true};
    QString eq;
};
Band bandFor(const TeachingCell& t, Phase phase);

QString qs(const std::string& s);
// Diagonal lines clipped to r (drawn, not a pattern brush, so SVG keeps them).
void hatch(QPainter& p, const QRectF& r, const QColor& colour, double spacing = 6);
void drawBadge(QPainter& p, QPointF centre, int n, const Style& s);
void drawBlock(QPainter& p, const QRectF& r, const Block& b, double rho, const Style& s);
// Solid with a head and the badge when something moves, dotted otherwise.
void drawArrow(QPainter& p, QPointF from, QPointF to, bool moves, int badge, const Style& s);

}  // namespace partita::teaching
