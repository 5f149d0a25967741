#pragma once
// The Gantt chart's paint routine, shared by the interactive canvas, figure
// export and the paint benchmark. All geometry comes from view::TimeAxis,
// view::LaneLayout and view::GanttModel; this only turns it into pixels.
#include <QFont>
#include <QRect>

#include "widgets/geometry/gantt_model.h"

class QPainter;

namespace partita {

// Where things go inside the painted area.
struct GanttFrame {
    QRect title;   // top-left corner: the makespan
    QRect axis;    // above the lanes: ticks with units
    QRect labels;  // left column: group headers and lane names
    QRect lanes;   // bars
    QRect legend;  // bottom strip
    double row_height = 20, header_height = 22;
};

// Sizes follow the font; the label column fits the longest lane name (at most 35 % of the width).
GanttFrame ganttFrame(const QRect& area, const view::GanttModel& model, const QFont& font);

struct GanttPaintState {
    view::TimeAxis axis;           // x0/x1 are the lanes' pixel range
    double scroll = 0;             // pixels of lanes scrolled above the top
    int selected_op = -1;          // its bars outlined, the others faded
    int selected_resource = -1;    // its lane's row tinted (a device picked in the topology view)
    bool show_critical = false;    // critical bars outlined, the others faded
    bool whole_rows = false;       // figures: leave out rows the area cuts
};

// The lanes' pixel range inside a frame: a small inset so edge bars stay visible.
void fitAxisToFrame(view::TimeAxis& axis, const GanttFrame& frame);

void paintGantt(QPainter& painter, const view::GanttModel& model, const view::LaneLayout& layout,
                const GanttFrame& frame, const GanttPaintState& state, const QFont& font);

}  // namespace partita
