#include "widgets/geometry/timeline.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace partita::view {

void TimeAxis::zoom(double factor, double anchor_x) {
    const double anchor_t = toTime(anchor_x);
    t0 = anchor_t - (anchor_t - t0) / factor;
    t1 = anchor_t + (t1 - anchor_t) / factor;
}

void TimeAxis::pan(double dx_pixels) {
    const double dt = dx_pixels / pixelsPerSecond();
    t0 -= dt;
    t1 -= dt;
}

void TimeAxis::fit(double tmin, double tmax, double margin) {
    double span = tmax - tmin;
    if (!(span > 0)) span = std::max(std::fabs(tmax), 1e-9);
    t0 = tmin - margin * span;
    t1 = tmin + span + margin * span;
}

std::vector<DrawRect> layoutLane(std::span<const Bar> bars, const TimeAxis& axis, double min_px) {
    std::vector<DrawRect> out;
    bool last_is_run = false;  // the last rectangle collects sub-pixel bars
    // First bar that ends after the visible start: bars do not overlap, so ends are sorted too.
    auto it = std::lower_bound(bars.begin(), bars.end(), axis.t0, [](const Bar& b, double t) { return b.end < t; });
    for (; it != bars.end() && it->start <= axis.t1; ++it) {
        const double a = axis.toPixel(it->start);
        const double b = axis.toPixel(it->end);
        const int idx = static_cast<int>(it - bars.begin());
        if (b - a >= min_px) {
            out.push_back({a, b, it->lane, idx, 1, it->color_key});
            last_is_run = false;
        } else if (last_is_run && a <= out.back().x1 + min_px) {
            DrawRect& r = out.back();
            r.x1 = std::max(r.x1, b);
            r.count += 1;
            if (r.color_key != it->color_key) r.color_key = -1;
        } else {
            out.push_back({a, a + min_px, it->lane, idx, 1, it->color_key});
            last_is_run = true;
        }
    }
    return out;
}

std::optional<int> barAt(std::span<const Bar> bars, double t, double slack) {
    auto it = std::lower_bound(bars.begin(), bars.end(), t - slack, [](const Bar& b, double v) { return b.end < v; });
    if (it == bars.end() || it->start > t + slack) return std::nullopt;
    return static_cast<int>(it - bars.begin());
}

LaneLayout::LaneLayout(std::vector<LaneGroup> groups, double row_height, double header_height)
    : groups_(std::move(groups)), row_height_(row_height), header_height_(header_height) {
    relayout();
}

void LaneLayout::setCollapsed(int group, bool collapsed) {
    groups_.at(static_cast<size_t>(group)).collapsed = collapsed;
    relayout();
}

void LaneLayout::relayout() {
    int lanes = 0;
    for (const auto& g : groups_) lanes = std::max(lanes, g.first_lane + g.lane_count);
    lane_top_.assign(static_cast<size_t>(lanes), std::numeric_limits<double>::quiet_NaN());
    group_top_.clear();
    double y = 0;
    for (const auto& g : groups_) {
        group_top_.push_back(y);
        y += header_height_;
        if (g.collapsed) continue;
        for (int l = 0; l < g.lane_count; ++l) {
            lane_top_[static_cast<size_t>(g.first_lane + l)] = y;
            y += row_height_;
        }
    }
    height_ = y;
}

std::optional<double> LaneLayout::laneTop(int lane) const {
    if (lane < 0 || lane >= static_cast<int>(lane_top_.size()) || std::isnan(lane_top_[static_cast<size_t>(lane)]))
        return std::nullopt;
    return lane_top_[static_cast<size_t>(lane)];
}

std::optional<int> LaneLayout::laneAt(double y) const {
    for (size_t g = 0; g < groups_.size(); ++g) {
        const double top = group_top_[g];
        const auto& grp = groups_[g];
        const double bottom = top + header_height_ + (grp.collapsed ? 0 : grp.lane_count * row_height_);
        if (y < top || y >= bottom) continue;
        if (y < top + header_height_ || grp.collapsed) return grp.first_lane;
        return grp.first_lane + static_cast<int>((y - top - header_height_) / row_height_);
    }
    return std::nullopt;
}

std::optional<LaneLayout::RowHit> LaneLayout::rowAt(double y) const {
    for (size_t g = 0; g < groups_.size(); ++g) {
        const double top = group_top_[g];
        const auto& grp = groups_[g];
        const double bottom = top + header_height_ + (grp.collapsed ? 0 : grp.lane_count * row_height_);
        if (y < top || y >= bottom) continue;
        if (y < top + header_height_) return RowHit{static_cast<int>(g), -1};
        return RowHit{static_cast<int>(g),
                      grp.first_lane + std::min(grp.lane_count - 1, static_cast<int>((y - top - header_height_) / row_height_))};
    }
    return std::nullopt;
}

int LaneLayout::visibleLaneCount() const {
    int n = 0;
    for (const auto& g : groups_)
        if (!g.collapsed) n += g.lane_count;
    return n;
}

}  // namespace partita::view
