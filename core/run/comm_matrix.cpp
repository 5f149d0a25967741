#include "core/run/comm_matrix.h"

#include <cstdint>
#include <numeric>
#include <stdexcept>

#include "core/run/run.h"
#include "core/util/format.h"

namespace partita {

double CommMatrix::total() const { return std::accumulate(bytes.begin(), bytes.end(), 0.0); }

double CommMatrix::pairs(int row) const {
    return kind == Kind::LevelsLayers ? static_cast<double>(std::int64_t{1} << row) : 1.0;
}

CommMatrix deviceCommMatrix(const std::vector<std::vector<double>>& bytes, std::vector<std::string> names) {
    const size_t n = bytes.size();
    if (names.size() != n) throw std::invalid_argument("device traffic: " + std::to_string(n) + " rows but " +
                                                       std::to_string(names.size()) + " device names");
    CommMatrix m;
    m.kind = CommMatrix::Kind::Devices;
    m.rows = m.cols = static_cast<int>(n);
    m.bytes.reserve(n * n);
    for (const auto& row : bytes) {
        if (row.size() != n) throw std::invalid_argument("device traffic: the matrix is not square");
        m.bytes.insert(m.bytes.end(), row.begin(), row.end());
    }
    m.row_names = names;
    m.col_names = std::move(names);
    m.row_title = "from";
    m.col_title = "to";
    return m;
}

CommMatrix levelLayerCommMatrix(const Evaluation& ev, std::vector<std::string> layer_names, double bytes_per_element) {
    if (layer_names.size() != static_cast<size_t>(ev.layers))
        throw std::invalid_argument("level x layer traffic: " + std::to_string(ev.layers) + " layers but " +
                                    std::to_string(layer_names.size()) + " names");
    CommMatrix m;
    m.kind = CommMatrix::Kind::LevelsLayers;
    m.rows = ev.levels;
    m.cols = ev.layers;
    m.bytes_per_element = bytes_per_element;
    m.intra_elements = ev.layer_intra;
    m.inter_elements = ev.layer_inter;
    m.bytes.resize(static_cast<size_t>(m.rows * m.cols));
    // The same weighting as Evaluation::total_elements: level h has 2^h group pairs.
    for (int h = 0; h < m.rows; ++h)
        for (int l = 0; l < m.cols; ++l)
            m.bytes[static_cast<size_t>(h * m.cols + l)] = m.pairs(h) * (ev.intra(h, l) + ev.inter(h, l)) * bytes_per_element;
    for (int h = 0; h < m.rows; ++h) m.row_names.push_back("H" + std::to_string(h + 1));
    m.col_names = std::move(layer_names);
    m.row_title = "level";
    m.col_title = "layer";
    return m;
}

CommMatrix levelLayerCommMatrix(const Run& run) {
    std::vector<std::string> names;
    for (const auto& layer : run.inputs->layers.layers) names.push_back(layer.name);
    const double e = run.isAccPar() ? run.inputs->accpar.bytes_per_element : run.inputs->params.bytes_per_element;
    CommMatrix m = levelLayerCommMatrix(run.shown(), std::move(names), e);
    if (run.grid.levels() == m.rows && run.grid.layers() == m.cols)
        for (int h = 0; h < m.rows; ++h)
            for (int l = 0; l < m.cols; ++l) m.cell_tags.push_back(splitShortName(run.grid.split(h, l)));
    return m;
}

CsvTable commMatrixCsv(const CommMatrix& m) {
    CsvTable t;
    if (m.empty()) return t;
    t.header.push_back(m.row_title + "\\" + m.col_title);
    for (const auto& name : m.col_names) t.header.push_back(name + "_bytes");
    t.header.push_back("total_bytes");
    for (int r = 0; r < m.rows; ++r) {
        std::vector<std::string> row{m.row_names[static_cast<size_t>(r)]};
        double sum = 0;
        for (int c = 0; c < m.cols; ++c) {
            row.push_back(formatNumber(m.at(r, c)));
            sum += m.at(r, c);
        }
        row.push_back(formatNumber(sum));
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace partita
