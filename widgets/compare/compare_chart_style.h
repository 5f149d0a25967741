#pragma once
// The comparison charts' shared look (CompareView's and the LLM comparison's): each run's colour,
// an axis unit chosen from the largest value, bars outlined a shade darker, the legend in a row of
// its own above the axes.
#include <QColor>
#include <QString>

class QCPBars;
class QCustomPlot;

namespace partita {

QColor compareRunColour(int i);  // run i's colour in every comparison chart

struct AxisUnit {
    double scale = 1;
    QString name;
};
AxisUnit timeAxisUnit(double max_s);  // s, ms, us or ns

void styleCompareBars(QCPBars* bars, const QColor& colour);
// `columns` entries per row: the legend never hides a bar or a label at any height.
void compareLegendAbove(QCustomPlot* plot, int columns);

}  // namespace partita
