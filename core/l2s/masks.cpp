#include "core/l2s/masks.h"

#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

#include "core/util/error.h"
#include "core/util/format.h"

namespace partita::l2s {

namespace {

void requireSquare(const Matrix& m, size_t n, const char* what) {
    if (m.size() != n) throw std::invalid_argument(std::string(what) + ": expected " + std::to_string(n) + " rows");
    for (const auto& row : m)
        if (row.size() != n) throw std::invalid_argument(std::string(what) + ": rows must have " + std::to_string(n) + " entries");
}

// A uniform double in [0, 1) from the top 53 bits, so results do not depend on
// the standard library's distribution implementation.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

}  // namespace

Mask fullMask(int n) {
    return Mask(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(n), 1));
}

Matrix strengthMatrix(const Matrix& distance, bool distance_weighted, double eps) {
    if (!(eps >= 0)) throw std::invalid_argument("mask strength: eps must not be negative");
    Matrix m = distance;
    for (auto& row : m)
        for (double& v : row) v = distance_weighted ? v + eps : 1.0;
    return m;
}

double groupLassoPenalty(const Matrix& norms, const Matrix& strength) {
    requireSquare(strength, norms.size(), "group-Lasso strength");
    requireSquare(norms, norms.size(), "group norms");
    double sum = 0;
    for (size_t i = 0; i < norms.size(); ++i)
        for (size_t j = 0; j < norms.size(); ++j) sum += strength[i][j] * norms[i][j];
    return sum;
}

Matrix groupNorms(const std::vector<double>& weights, const std::vector<int>& out_counts,
                  const std::vector<int>& in_counts, int kernel_area) {
    if (out_counts.size() != in_counts.size() || out_counts.empty())
        throw std::invalid_argument("group norms: producer and consumer core counts differ");
    if (kernel_area < 1) throw std::invalid_argument("group norms: kernel area must be positive");
    size_t outs = 0, ins = 0;
    for (size_t c = 0; c < out_counts.size(); ++c) {
        if (out_counts[c] < 0 || in_counts[c] < 0) throw std::invalid_argument("group norms: negative block size");
        outs += static_cast<size_t>(out_counts[c]);
        ins += static_cast<size_t>(in_counts[c]);
    }
    const size_t k = static_cast<size_t>(kernel_area);
    if (weights.size() != outs * ins * k)
        throw std::invalid_argument("group norms: " + std::to_string(weights.size()) + " weights, expected " +
                                    std::to_string(outs * ins * k) + " (out x in x kernel area)");
    const size_t n = out_counts.size();
    std::vector<size_t> owner_in, owner_out;  // core of each input / output index
    for (size_t c = 0; c < n; ++c) {
        owner_in.insert(owner_in.end(), static_cast<size_t>(in_counts[c]), c);
        owner_out.insert(owner_out.end(), static_cast<size_t>(out_counts[c]), c);
    }
    Matrix sq(n, std::vector<double>(n, 0.0));
    for (size_t o = 0; o < outs; ++o)
        for (size_t i = 0; i < ins; ++i)
            for (size_t r = 0; r < k; ++r) {
                const double w = weights[(o * ins + i) * k + r];
                sq[owner_in[i]][owner_out[o]] += w * w;
            }
    for (auto& row : sq)
        for (double& v : row) v = std::sqrt(v);
    return sq;
}

Mask thresholdMask(const Matrix& norms, double tau) {
    if (!(tau >= 0)) throw std::invalid_argument("threshold tau must not be negative");
    requireSquare(norms, norms.size(), "group norms");
    Mask m(norms.size(), std::vector<int>(norms.size(), 0));
    for (size_t i = 0; i < norms.size(); ++i)
        for (size_t j = 0; j < norms.size(); ++j) m[i][j] = norms[i][j] >= tau ? 1 : 0;
    return m;
}

Matrix keepMatrix(const Matrix& distance, const std::vector<double>& keep) {
    if (keep.empty()) throw std::invalid_argument("keep probabilities: at least d0 is needed");
    for (double p : keep)
        if (!(p >= 0 && p <= 1)) throw std::invalid_argument("keep probabilities must lie in [0, 1]");
    Matrix m = distance;
    for (auto& row : m)
        for (double& v : row) v = keep[std::min(static_cast<size_t>(v), keep.size() - 1)];
    return m;
}

Mask whatIfMask(const Matrix& distance, const std::vector<double>& keep, std::uint64_t seed) {
    const Matrix p = keepMatrix(distance, keep);
    std::mt19937_64 rng(seed);
    Mask m(p.size(), std::vector<int>(p.size(), 0));
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = 0; j < p.size(); ++j) {
            const double u = unit(rng);  // always drawn, so one entry's change never shifts the others
            m[i][j] = u < p[i][j] ? 1 : 0;
        }
    return m;
}

Mask exactMask(const Matrix& distance, const std::vector<double>& keep, std::uint64_t seed) {
    const Matrix p = keepMatrix(distance, keep);
    std::map<int, std::vector<std::pair<size_t, size_t>>> classes;  // distance -> blocks, row-major
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = 0; j < p.size(); ++j) classes[static_cast<int>(distance[i][j])].push_back({i, j});
    std::mt19937_64 rng(seed);
    Mask m(p.size(), std::vector<int>(p.size(), 0));
    for (auto& [d, blocks] : classes) {
        // Fisher-Yates with unit(), so the choice does not depend on the library's shuffle.
        for (size_t k = blocks.size(); k > 1; --k)
            std::swap(blocks[k - 1], blocks[static_cast<size_t>(unit(rng) * static_cast<double>(k))]);
        const auto [i0, j0] = blocks.front();
        const auto kept = static_cast<size_t>(std::llround(p[i0][j0] * static_cast<double>(blocks.size())));
        for (size_t k = 0; k < kept; ++k) m[blocks[k].first][blocks[k].second] = 1;
    }
    return m;
}

std::vector<double> parseKeep(const std::string& text) {
    std::map<int, double> byClass;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        const auto eq = item.find('=');
        try {
            if (item.size() < 4 || item[0] != 'd' || eq == std::string::npos) throw std::invalid_argument("form");
            size_t used = 0;
            const int d = std::stoi(item.substr(1, eq - 1), &used);
            if (used != eq - 1 || d < 0) throw std::invalid_argument("class");
            const std::string value = item.substr(eq + 1);
            const double p = std::stod(value, &used);
            if (used != value.size() || !(p >= 0 && p <= 1)) throw std::invalid_argument("value");
            if (!byClass.emplace(d, p).second) throw std::invalid_argument("twice");
        } catch (const std::exception&) {
            throw std::invalid_argument("keep '" + item + "': expected dK=P with K >= 0 given once and P in [0, 1]");
        }
    }
    if (byClass.empty()) throw std::invalid_argument("keep: empty list, expected e.g. d0=1,d1=0.5,d2=0");
    std::vector<double> keep;
    for (int d = 0; d <= byClass.rbegin()->first; ++d) {
        const auto it = byClass.find(d);
        if (it == byClass.end()) throw std::invalid_argument("keep: distance class d" + std::to_string(d) + " is missing");
        keep.push_back(it->second);
    }
    return keep;
}

std::string keepText(const std::vector<double>& keep) {
    std::string s;
    for (size_t d = 0; d < keep.size(); ++d)
        s += (d ? "," : "") + std::string("d") + std::to_string(d) + "=" + formatNumber(keep[d]);
    return s;
}

std::map<std::string, Mask> readMasksJson(const std::string& text, const std::string& source) {
    const Json root = parseJsonText(text, source);
    if (!root.is_object()) throw InputError(source, "", "expected a JSON object");
    Fields top(root, "", source);
    checkFormat(top, "partita-l2s-masks/1");
    const auto n = static_cast<size_t>(top.positiveInt("cores"));
    const Json& layers = top.raw("layers");
    if (!layers.is_object()) top.fail("layers", "expected an object of layer name -> n x n 0/1 matrix");
    top.finish();
    std::map<std::string, Mask> out;
    for (const auto& [name, rows] : layers.items()) {
        const std::string where = "/layers/" + name;
        if (!rows.is_array() || rows.size() != n)
            throw InputError(source, where, "expected " + std::to_string(n) + " rows");
        Mask m(n, std::vector<int>(n, 0));
        for (size_t i = 0; i < n; ++i) {
            const Json& row = rows[i];
            if (!row.is_array() || row.size() != n)
                throw InputError(source, where + "/" + std::to_string(i), "expected " + std::to_string(n) + " entries");
            for (size_t j = 0; j < n; ++j) {
                const Json& v = row[j];
                if (!v.is_number_integer() || (v.get<int>() != 0 && v.get<int>() != 1))
                    throw InputError(source, where + "/" + std::to_string(i) + "/" + std::to_string(j), "expected 0 or 1");
                m[i][j] = v.get<int>();
            }
        }
        out.emplace(name, std::move(m));
    }
    return out;
}

std::map<std::string, Mask> loadMasks(const std::string& path) { return readMasksJson(readTextFile(path), path); }

std::string writeMasksJson(const std::map<std::string, Mask>& masks) {
    Json layers = Json::object();
    size_t n = 0;
    for (const auto& [name, m] : masks) {
        layers[name] = m;
        n = m.size();
    }
    return Json{{"format", "partita-l2s-masks/1"}, {"cores", n}, {"layers", layers}}.dump(1) + "\n";
}

Json strengthJson(const Mesh& mesh, double eps) {
    const Matrix d = mesh.distanceMatrix();
    return Json{{"format", "partita-l2s-strength/1"}, {"cores", mesh.cores()},
                {"mesh", std::to_string(mesh.width()) + "x" + std::to_string(mesh.height())},
                {"eps", eps}, {"distance", d}, {"ss", strengthMatrix(d, false)}, {"ss_mask", strengthMatrix(d, true, eps)}};
}

}  // namespace partita::l2s
