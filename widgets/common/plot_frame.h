#pragma once
// What the QCustomPlot figures of the method views share: a plot filling its
// owner with a bold title row and a legend, and figure export through a
// recorded picture (QCustomPlot paints only through its own painter).
#include <QRect>
#include <QString>

class QCustomPlot;
class QPainter;
class QWidget;

namespace partita {

QCustomPlot* makeTitledPlot(QWidget* owner);
void setPlotTitle(QCustomPlot* plot, const QString& title);
// Draws the plot at `area`'s size into any painter (SVG and PDF receive vectors), then restores it on screen.
void paintPlotFigure(QCustomPlot* plot, QPainter& painter, const QRect& area);

}  // namespace partita
