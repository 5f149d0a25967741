// The communication heatmap's data and geometry, headless: bin ranges agree
// with binMatrix, label thinning never lets labels overlap, a 64 x 64 matrix
// fits 1280 x 800 unbinned, log ticks, and the level x layer matrix of
// Lenet-c under HyPar carries exactly the Evaluation's numbers.
#include <gtest/gtest.h>

#include <numeric>

#include "core/io/network_io.h"
#include "core/run/comm_matrix.h"
#include "core/run/run.h"
#include "widgets/geometry/heatmap.h"
#include "widgets/geometry/ticks.h"

namespace partita::view {
namespace {

TEST(CommHeatmapGeometry, BinRangesMatchBinMatrix) {
    for (int n : {1, 3, 10, 64, 65})
        for (int out = 1; out <= n; ++out) {
            int next = 0;
            for (int b = 0; b < out; ++b) {
                const auto [first, last] = binRange(b, n, out);
                EXPECT_EQ(first, next) << n << " " << out << " " << b;  // bins tile the axis in order
                EXPECT_GT(last, first);
                for (int i = first; i < last; ++i) EXPECT_EQ(i * out / n, b);  // where binMatrix puts i
                next = last;
            }
            EXPECT_EQ(next, n);
        }
    // 10 cells on 4 bins: {0,1,2} {3,4} {5,6,7} {8,9}; binMatrix sums the same groups.
    EXPECT_EQ(binRange(1, 10, 4), std::make_pair(3, 5));
    EXPECT_EQ(binMatrix({1, 2, 4, 8, 16, 32, 64, 128, 256, 512}, 1, 10, 1, 4), (std::vector<double>{7, 24, 224, 768}));
}

TEST(CommHeatmapGeometry, BinCountAndLabelStride) {
    EXPECT_EQ(binCount(64, 600, 3), 64);
    EXPECT_EQ(binCount(1000, 600, 3), 200);
    EXPECT_EQ(binCount(5, 1, 3), 1);
    EXPECT_EQ(binCount(0, 100, 3), 0);
    EXPECT_EQ(labelStride(9, 20), 3);
    EXPECT_EQ(labelStride(20, 20), 1);
    EXPECT_EQ(labelStride(7.5, 15), 2);
    EXPECT_EQ(labelStride(40, 5), 1);
}

HeatmapFrameSpec spec(int rows, int cols, bool square) {
    HeatmapFrameSpec s;
    s.width = 1280;
    s.height = 800;
    s.rows = rows;
    s.cols = cols;
    s.line = 16;
    s.heading = 28;
    s.row_label = s.col_label = 52;  // "n15.gpu3"
    s.bar_label = 60;
    s.square = square;
    return s;
}

void expectInside(const HeatmapFrame& f, const HeatmapFrameSpec& s) {
    EXPECT_GE(f.row_title_x, s.x);                                       // row title, then labels, then cells
    EXPECT_LE(f.row_title_x + s.line, f.plot.x - s.row_label);
    EXPECT_GE(f.col_labels_top - s.line, s.heading);                     // column title below the heading
    EXPECT_GE(f.plot.y - f.col_labels_top, f.rotate_cols ? s.col_label : s.line);
    EXPECT_LE(f.plot.y + f.plot.h + s.line / 2, s.height);             // room for the bar's last label
    EXPECT_GE(f.bar.x, f.plot.x + f.plot.w);                             // bar right of the cells
    EXPECT_LE(f.bar.x + f.bar.w + 6 + s.bar_label, s.width);             // and its labels inside
}

TEST(CommHeatmapGeometry, SixtyFourDevicesStayReadable) {
    const auto s = spec(64, 64, true);
    const HeatmapFrame f = layoutHeatmap(s);
    EXPECT_EQ(f.shown_rows, 64);  // >= 3 px a cell: no binning
    EXPECT_EQ(f.shown_cols, 64);
    const double cw = f.plot.w / 64, ch = f.plot.h / 64;
    EXPECT_EQ(cw, ch);  // square cells
    EXPECT_TRUE(f.rotate_cols);  // 52 px names do not fit across ~10 px cells
    EXPECT_GE(f.row_stride * ch, s.line + 1);  // thinned labels do not overlap
    EXPECT_GE(f.col_stride * cw, s.line + 2);
    EXPECT_LT((f.row_stride - 1) * ch, s.line + 1);  // but no more thinned than needed
    EXPECT_GT(f.row_stride, 1);
    expectInside(f, s);
}

TEST(CommHeatmapGeometry, FewWideCellsKeepEveryLabelAcross) {
    const auto s = spec(4, 4, false);  // Lenet-c at H1..H4
    const HeatmapFrame f = layoutHeatmap(s);
    EXPECT_FALSE(f.rotate_cols);
    EXPECT_EQ(f.row_stride, 1);
    EXPECT_EQ(f.col_stride, 1);
    EXPECT_GE(f.plot.w / 4, s.col_label);
    expectInside(f, s);
}

TEST(CommHeatmapGeometry, HugeMatricesAreBinned) {
    const auto s = spec(2048, 2048, true);
    const HeatmapFrame f = layoutHeatmap(s);
    EXPECT_LT(f.shown_rows, 2048);
    EXPECT_EQ(f.shown_rows, f.shown_cols);
    EXPECT_GE(f.plot.h / f.shown_rows, s.min_cell - 1e-9);
    expectInside(f, s);
}

TEST(CommHeatmapGeometry, LogTicks) {
    auto values = [](const std::vector<Tick>& ticks) {
        std::vector<double> v;
        for (const auto& t : ticks) v.push_back(t.value);
        return v;
    };
    EXPECT_EQ(values(logTicks(1, 1e6, 10)), (std::vector<double>{1, 10, 100, 1e3, 1e4, 1e5, 1e6}));
    EXPECT_EQ(values(logTicks(1, 1e12, 4)), (std::vector<double>{1, 1e4, 1e8, 1e12}));
    EXPECT_EQ(values(logTicks(3, 40, 5)), (std::vector<double>{5, 10, 20}));  // under two decades: 1-2-5
    EXPECT_EQ(values(logTicks(2.5e6, 9e8, 10)), (std::vector<double>{1e7, 1e8}));
    EXPECT_TRUE(logTicks(0, 10, 5).empty());
}

TEST(CommMatrixData, LevelLayerMatrixOfLenetHyparIsTheEvaluation) {
    const std::string path = std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json";
    const partita::Run run = planRun(makeInputs(loadNetwork(path), defaultArray(4), CostParams{}, path), Method::HyPar);
    const Evaluation& ev = run.shown();
    const CommMatrix m = levelLayerCommMatrix(run);
    ASSERT_EQ(m.kind, CommMatrix::Kind::LevelsLayers);
    ASSERT_EQ(m.rows, 4);
    ASSERT_EQ(m.cols, 4);
    EXPECT_EQ(m.row_names, (std::vector<std::string>{"H1", "H2", "H3", "H4"}));
    EXPECT_EQ(m.col_names[0], run.inputs->layers[0].name);
    EXPECT_EQ(m.bytes_per_element, 4);
    for (int h = 0; h < 4; ++h) {
        double level = 0;
        for (int l = 0; l < 4; ++l) {
            EXPECT_EQ(m.at(h, l), (1 << h) * (ev.intra(h, l) + ev.inter(h, l)) * 4) << h << " " << l;
            level += m.at(h, l);
        }
        EXPECT_EQ(level, (1 << h) * ev.level_comm[static_cast<size_t>(h)] * 4) << h;  // a row is its level
    }
    EXPECT_EQ(m.total(), ev.total_bytes);
    ASSERT_EQ(m.cell_tags.size(), 16u);
    EXPECT_EQ(m.cell_tags[2 * 4 + 1], splitShortName(run.grid.split(2, 1)));
    const CsvTable csv = commMatrixCsv(m);
    EXPECT_EQ(csv.header.front(), "level\\layer");
    EXPECT_EQ(csv.header[1], m.col_names[0] + "_bytes");
    EXPECT_EQ(csv.header.back(), "total_bytes");
    ASSERT_EQ(csv.rows.size(), 4u);
    EXPECT_EQ(csv.rows[3][0], "H4");
    EXPECT_EQ(csv.rows[0][1], formatNumber(m.at(0, 0)));
}

TEST(CommMatrixData, DeviceMatrix) {
    const CommMatrix m = deviceCommMatrix({{0, 8, 0}, {4, 0, 2}, {0, 1e9, 0}}, {"a", "b", "c"});
    EXPECT_EQ(m.rows, 3);
    EXPECT_EQ(m.at(2, 1), 1e9);
    EXPECT_EQ(m.at(0, 1), 8);
    EXPECT_EQ(m.total(), 1e9 + 14);
    EXPECT_EQ(m.pairs(2), 1);
    const CsvTable csv = commMatrixCsv(m);
    EXPECT_EQ(csv.header, (std::vector<std::string>{"from\\to", "a_bytes", "b_bytes", "c_bytes", "total_bytes"}));
    EXPECT_EQ(csv.rows[1], (std::vector<std::string>{"b", "4", "0", "2", "6"}));
    EXPECT_THROW(deviceCommMatrix({{0, 1}, {1, 0}}, {"a"}), std::invalid_argument);
    EXPECT_THROW(deviceCommMatrix({{0, 1}, {1}}, {"a", "b"}), std::invalid_argument);
    EXPECT_TRUE(commMatrixCsv(CommMatrix{}).rows.empty());
}

}  // namespace
}  // namespace partita::view
