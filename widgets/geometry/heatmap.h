#pragma once
// Heatmap geometry: cell rectangles and hit-testing, colour scales with a
// linear or log mapping, and binning of a large matrix onto fewer cells.
#include <optional>
#include <utility>
#include <vector>

namespace partita::view {

struct ColorScale {
    double lo = 0, hi = 1;
    bool log = false;  // log10 mapping; values <= 0 map below the scale
    // Position in [0, 1] (clamped); NaN-free. With log, lo must be > 0.
    double normalize(double v) const;
    // A scale covering the positive finite values (min..max), for log or linear.
    static ColorScale fit(const std::vector<double>& values, bool log);
};

struct CellRect {
    double x = 0, y = 0, w = 0, h = 0;
};

class HeatmapLayout {
public:
    // rows x cols cells filling the rectangle (x, y, width, height).
    HeatmapLayout(int rows, int cols, double x, double y, double width, double height);
    CellRect cell(int row, int col) const;
    std::optional<std::pair<int, int>> cellAt(double px, double py) const;  // (row, col)
    int rows() const { return rows_; }
    int cols() const { return cols_; }

private:
    int rows_, cols_;
    double x_, y_, cw_, ch_;
};

// Sums a row-major rows x cols matrix into out_rows x out_cols bins (bin k of
// an axis takes source indices [k*n/out, (k+1)*n/out)). Out counts may not
// exceed the source counts.
std::vector<double> binMatrix(const std::vector<double>& m, int rows, int cols, int out_rows, int out_cols);

// Source indices [first, last) that binMatrix sums into bin `bin` of an axis
// of n cells binned onto `out`.
std::pair<int, int> binRange(int bin, int n, int out);
// How many cells an axis of n cells shows over `extent` pixels: n while each
// gets at least `min_cell` pixels, else as many bins as fit (at least 1).
int binCount(int n, double extent, double min_cell);
// Label every k-th cell so labels `label_extent` long (plus nothing else)
// never overlap on cells `cell_extent` apart: the smallest k >= 1 with
// k * cell_extent >= label_extent.
int labelStride(double cell_extent, double label_extent);

// A labelled heatmap's frame: row title and labels on the left, column title
// and labels on top (rotated when they do not fit across), the colour bar and
// its tick labels on the right (its title goes above it, on the column-title
// line). All lengths in pixels.
struct HeatmapFrameSpec {
    double x = 0, y = 0, width = 0, height = 0;  // the whole figure
    int rows = 0, cols = 0;                      // source cells
    double line = 16;                            // text line height
    double heading = 0;                          // height above everything (titles)
    double row_label = 0, col_label = 0;         // widest row and column label
    double bar_label = 0;                        // widest colour-bar tick label
    bool square = false;                         // square cells (device x device), centred across
    double min_cell = 3;                         // bin axes whose cells would be thinner
};
struct HeatmapFrame {
    CellRect plot, bar;             // the cells, the colour bar
    double col_labels_top = 0;      // column labels occupy [col_labels_top, plot.y)
    double row_title_x = 0;         // left edge of the rotated row title
    int shown_rows = 0, shown_cols = 0;
    int row_stride = 1, col_stride = 1;
    bool rotate_cols = false;       // column labels drawn vertically
};
HeatmapFrame layoutHeatmap(const HeatmapFrameSpec& spec);

// Two groups of digits (rows = first group, most significant) of an
// exploration code; maps between (row, col) and the code.
struct SurfaceIndex {
    int radix = 2;
    int row_digits = 0, col_digits = 0;

    int rows() const;
    int cols() const;
    unsigned long long code(int row, int col) const;
    std::pair<int, int> position(unsigned long long code) const;  // (row, col)
};

// How many leading cells of an exploration form the surface's rows. Cells are
// (level, layer) pairs, most significant first; the rows are the leading run
// sharing the first cell's layer (layer-major order: "conv5_2 at H1-H4") or
// else its level ("H1: every layer"). When that run is every cell (one level
// or one layer explored), the first half.
int surfaceRowDigits(const std::vector<std::pair<int, int>>& cells);

// The codes whose value equals the best (max, or min with `lower_is_better`)
// within a relative tolerance: a peak shared by ties shows as several points.
std::vector<unsigned long long> bestCodes(const std::vector<double>& values, bool lower_is_better,
                                          double relative_tolerance = 1e-12);

}  // namespace partita::view
