#include "widgets/geometry/heatmap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace partita::view {

double ColorScale::normalize(double v) const {
    double a = lo, b = hi, x = v;
    if (log) {
        if (!(x > 0)) return 0.0;
        a = std::log10(lo);
        b = std::log10(hi);
        x = std::log10(x);
    }
    if (!(b > a)) return x >= b ? 1.0 : 0.0;
    return std::clamp((x - a) / (b - a), 0.0, 1.0);
}

ColorScale ColorScale::fit(const std::vector<double>& values, bool log) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : values) {
        if (!std::isfinite(v) || (log && !(v > 0))) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (!std::isfinite(lo)) return {log ? 1.0 : 0.0, log ? 10.0 : 1.0, log};
    return {lo, hi, log};
}

HeatmapLayout::HeatmapLayout(int rows, int cols, double x, double y, double width, double height)
    : rows_(rows), cols_(cols), x_(x), y_(y), cw_(width / std::max(cols, 1)), ch_(height / std::max(rows, 1)) {}

CellRect HeatmapLayout::cell(int row, int col) const { return {x_ + col * cw_, y_ + row * ch_, cw_, ch_}; }

std::optional<std::pair<int, int>> HeatmapLayout::cellAt(double px, double py) const {
    if (px < x_ || py < y_) return std::nullopt;
    const int c = static_cast<int>((px - x_) / cw_), r = static_cast<int>((py - y_) / ch_);
    if (r >= rows_ || c >= cols_) return std::nullopt;
    return std::make_pair(r, c);
}

std::vector<double> binMatrix(const std::vector<double>& m, int rows, int cols, int out_rows, int out_cols) {
    if (out_rows < 1 || out_cols < 1 || out_rows > rows || out_cols > cols ||
        m.size() != static_cast<size_t>(rows) * static_cast<size_t>(cols))
        throw std::invalid_argument("binMatrix: bad sizes");
    std::vector<double> out(static_cast<size_t>(out_rows) * static_cast<size_t>(out_cols), 0.0);
    for (int r = 0; r < rows; ++r) {
        const int br = static_cast<int>(static_cast<long long>(r) * out_rows / rows);
        for (int c = 0; c < cols; ++c) {
            const int bc = static_cast<int>(static_cast<long long>(c) * out_cols / cols);
            out[static_cast<size_t>(br) * static_cast<size_t>(out_cols) + static_cast<size_t>(bc)] +=
                m[static_cast<size_t>(r) * static_cast<size_t>(cols) + static_cast<size_t>(c)];
        }
    }
    return out;
}

std::pair<int, int> binRange(int bin, int n, int out) {
    // binMatrix puts source i into bin floor(i * out / n): bin k starts at ceil(k * n / out).
    auto start = [&](long long k) { return static_cast<int>((k * n + out - 1) / out); };
    return {start(bin), start(static_cast<long long>(bin) + 1)};
}

int binCount(int n, double extent, double min_cell) {
    if (n < 1) return 0;
    if (!(min_cell > 0) || extent / n >= min_cell) return n;
    return std::clamp(static_cast<int>(extent / min_cell), 1, n);
}

int labelStride(double cell_extent, double label_extent) {
    if (!(cell_extent > 0)) return 1 << 30;
    return std::max(1, static_cast<int>(std::ceil(label_extent / cell_extent - 1e-9)));
}

HeatmapFrame layoutHeatmap(const HeatmapFrameSpec& s) {
    constexpr double kGap = 6, kBarW = 16, kMargin = 8;
    HeatmapFrame f;
    const double left = s.x + s.line * 1.5 + s.row_label + kGap;          // rotated row title, labels
    const double right = s.x + s.width - kMargin - s.bar_label - kGap - kBarW - 2 * kGap;
    const double top = s.y + s.heading + s.line * 1.4;                     // headings, column title
    const double bottom = s.y + s.height - kMargin - s.line / 2;  // the bar's last tick label is centred on the edge
    const double avail_w = std::max(1.0, right - left);
    // Rotated column labels take their length in height; decide with the narrowest cells we may get.
    for (int pass = 0; pass < 2; ++pass) {
        const double band = f.rotate_cols ? s.col_label + kGap : s.line + 4;
        const double avail_h = std::max(1.0, bottom - top - band);
        double ext_w = avail_w, ext_h = avail_h;
        if (s.square && s.rows > 0 && s.cols > 0) {  // both axes bin at the square cell's size
            const double side = std::min(avail_w / s.cols, avail_h / s.rows);
            ext_w = side * s.cols;
            ext_h = side * s.rows;
        }
        f.shown_cols = binCount(s.cols, ext_w, s.min_cell);
        f.shown_rows = binCount(s.rows, ext_h, s.min_cell);
        double cw = avail_w / std::max(f.shown_cols, 1), ch = avail_h / std::max(f.shown_rows, 1);
        if (s.square) cw = ch = std::min(cw, ch);
        // Square cells leave width over: centre the labelled plot and its colour bar.
        const double shift = s.square ? (avail_w - cw * f.shown_cols) / 2 : 0;
        f.plot = {left + shift, top + band, cw * f.shown_cols, ch * f.shown_rows};
        f.row_title_x = s.x + shift + 2;
        f.col_labels_top = top;
        f.col_stride = labelStride(cw, f.rotate_cols ? s.line + 2 : s.col_label + kGap);
        f.row_stride = labelStride(ch, s.line + 1);
        if (f.rotate_cols || cw >= s.col_label + kGap) break;
        f.rotate_cols = true;
    }
    f.bar = {f.plot.x + f.plot.w + 2 * kGap, f.plot.y, kBarW, f.plot.h};
    return f;
}

namespace {
int power(int radix, int digits) {
    int v = 1;
    for (int i = 0; i < digits; ++i) v *= radix;
    return v;
}
}  // namespace

int SurfaceIndex::rows() const { return power(radix, row_digits); }
int SurfaceIndex::cols() const { return power(radix, col_digits); }

unsigned long long SurfaceIndex::code(int row, int col) const {
    return static_cast<unsigned long long>(row) * static_cast<unsigned long long>(cols()) +
           static_cast<unsigned long long>(col);
}

std::pair<int, int> SurfaceIndex::position(unsigned long long code) const {
    const auto c = static_cast<unsigned long long>(cols());
    return {static_cast<int>(code / c), static_cast<int>(code % c)};
}

int surfaceRowDigits(const std::vector<std::pair<int, int>>& cells) {
    const int n = static_cast<int>(cells.size());
    if (n < 2) return n;
    const bool by_layer = cells[0].second == cells[1].second;
    int run = 1;
    while (run < n && (by_layer ? cells[static_cast<size_t>(run)].second == cells[0].second
                                : cells[static_cast<size_t>(run)].first == cells[0].first))
        ++run;
    return run == n ? n / 2 : run;
}

std::vector<unsigned long long> bestCodes(const std::vector<double>& values, bool lower_is_better,
                                          double relative_tolerance) {
    if (values.empty()) return {};
    const double best = lower_is_better ? *std::min_element(values.begin(), values.end())
                                        : *std::max_element(values.begin(), values.end());
    std::vector<unsigned long long> out;
    for (size_t k = 0; k < values.size(); ++k)
        if (std::abs(values[k] - best) <= relative_tolerance * std::abs(best)) out.push_back(k);
    return out;
}

}  // namespace partita::view
