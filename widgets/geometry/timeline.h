#pragma once
// Timeline (Gantt) geometry: a time axis mapped onto pixels with zoom and pan,
// and the bars of each lane culled to the visible range and merged when they
// are narrower than a pixel, so 10^5 bars draw as a few thousand rectangles.
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace partita::view {

struct TimeAxis {
    double t0 = 0, t1 = 1;  // visible time range, seconds
    double x0 = 0, x1 = 1;  // pixel range it maps onto

    double toPixel(double t) const { return x0 + (t - t0) * (x1 - x0) / (t1 - t0); }
    double toTime(double x) const { return t0 + (x - x0) * (t1 - t0) / (x1 - x0); }
    double pixelsPerSecond() const { return (x1 - x0) / (t1 - t0); }
    // factor > 1 zooms in; the time under pixel `anchor_x` stays where it is.
    void zoom(double factor, double anchor_x);
    void pan(double dx_pixels);  // drag right (dx > 0) shows earlier times
    // Shows [tmin, tmax] with `margin` (fraction of the span) on each side.
    void fit(double tmin, double tmax, double margin = 0.02);
};

struct Bar {
    double start = 0, end = 0;  // seconds
    int lane = 0;
    int color_key = 0;          // phase or layer, chosen by the view
};

// A rectangle to paint: one bar, or several merged ones.
struct DrawRect {
    double x0 = 0, x1 = 0;  // pixels
    int lane = 0;
    int first = 0;          // index of the first bar (in the lane's sorted order)
    int count = 1;          // bars merged into this rectangle
    int color_key = 0;      // -1 when the merged bars differ
};

// Bars of one lane, sorted by start, not overlapping (one task at a time).
// Returns the rectangles of the visible bars; neighbours closer than `min_px`
// merge, and every rectangle is at least `min_px` wide.
std::vector<DrawRect> layoutLane(std::span<const Bar> lane_bars, const TimeAxis& axis, double min_px = 1.0);

// Index of the bar under time t in a sorted lane, allowing `slack` seconds.
std::optional<int> barAt(std::span<const Bar> lane_bars, double t, double slack = 0);

// Rows of lanes with collapsible groups (e.g. devices per node, links per level).
struct LaneGroup {
    std::string name;
    int first_lane = 0, lane_count = 0;
    bool collapsed = false;
};

class LaneLayout {
public:
    LaneLayout(std::vector<LaneGroup> groups, double row_height, double header_height);
    // The y of a lane's row top, or nullopt when its group is collapsed.
    std::optional<double> laneTop(int lane) const;
    // Lane under pixel y (a collapsed group's header maps to its first lane).
    std::optional<int> laneAt(double y) const;
    // What is under pixel y: a group's header (lane -1) or one of its lanes.
    struct RowHit {
        int group = -1, lane = -1;
        bool operator==(const RowHit&) const = default;
    };
    std::optional<RowHit> rowAt(double y) const;
    double groupTop(int group) const { return group_top_.at(static_cast<size_t>(group)); }
    double rowHeight() const { return row_height_; }
    double headerHeight() const { return header_height_; }
    int visibleLaneCount() const;  // lanes of expanded groups
    double height() const { return height_; }
    const std::vector<LaneGroup>& groups() const { return groups_; }
    void setCollapsed(int group, bool collapsed);

private:
    void relayout();
    std::vector<LaneGroup> groups_;
    double row_height_, header_height_, height_ = 0;
    std::vector<double> lane_top_;  // NaN when hidden
    std::vector<double> group_top_;
};

}  // namespace partita::view
