#include "core/store/run_codec.h"

#include <stdexcept>

#include "core/model/array.h"

namespace partita::store {

Json gridToJson(const Grid& grid) {
    Json j{{"layers", grid.layers()}, {"rows", grid.toStrings()}};
    bool half = true;
    Json ratios = Json::array();
    for (int h = 0; h < grid.levels(); ++h) {
        Json row = Json::array();
        for (const Cell& c : grid.row(h)) {
            row.push_back(c.ratio);
            half = half && c.ratio == 0.5;
        }
        ratios.push_back(std::move(row));
    }
    if (!half) j["ratios"] = std::move(ratios);
    return j;
}

Grid readGridJson(const Json& json, const std::string& source, const std::string& pointer) {
    Fields f(json, pointer, source);
    const int layers = static_cast<int>(f.integerIn("layers", 0, 1 << 20));
    const Json& rows = f.raw("rows");
    if (!rows.is_array() || rows.size() > static_cast<size_t>(Array::kMaxLevels))
        f.fail("rows", "expected a list of at most " + std::to_string(Array::kMaxLevels) + " per-level strings");
    std::vector<std::string> text;
    for (const auto& r : rows) {
        if (!r.is_string()) f.fail("rows", "expected per-level strings, found " + excerpt(r));
        text.push_back(r.get<std::string>());
    }
    Grid grid(0, layers);
    if (!text.empty()) {
        try {
            grid = Grid::fromStrings(text, layers);
        } catch (const std::invalid_argument& e) {
            f.fail("rows", e.what());
        }
    }
    if (f.has("ratios")) {
        const Json& ratios = f.raw("ratios");
        if (!ratios.is_array() || ratios.size() != text.size()) f.fail("ratios", "expected one list per level");
        for (int h = 0; h < grid.levels(); ++h) {
            const Json& row = ratios[static_cast<size_t>(h)];
            if (!row.is_array() || row.size() != static_cast<size_t>(layers))
                f.fail("ratios", "level H" + std::to_string(h + 1) + " needs one ratio per layer");
            for (int l = 0; l < layers; ++l) {
                const Json& r = row[static_cast<size_t>(l)];
                if (!r.is_number() || !(r.get<double>() > 0 && r.get<double>() < 1))
                    f.fail("ratios", "level H" + std::to_string(h + 1) + ", layer " + std::to_string(l + 1) +
                                         ": expected a ratio strictly between 0 and 1, found " + excerpt(r));
                grid.at(h, l).ratio = r.get<double>();
            }
        }
    }
    f.finish();
    return grid;
}

Json exploreRequestToJson(const ExploreResult& result, const Grid& base) {
    Json cells = Json::array();
    for (const CellRef& c : result.cells) cells.push_back({c.level, c.layer});
    return Json{{"cells", std::move(cells)}, {"radix", result.radix}, {"base", gridToJson(base)}};
}

StoredRequest readExploreRequestJson(const Json& json, const std::string& source) {
    Fields f(json, "", source);
    StoredRequest r;
    r.radix = static_cast<int>(f.integerIn("radix", 2, kSplitCount));
    r.base = readGridJson(f.raw("base"), source, f.pointer("base"));
    const Json& cells = f.raw("cells");
    if (!cells.is_array() || cells.empty()) f.fail("cells", "expected a non-empty list of [level, layer] pairs");
    for (const auto& c : cells) {
        if (!c.is_array() || c.size() != 2 || !c[0].is_number_integer() || !c[1].is_number_integer())
            f.fail("cells", "expected [level, layer] pairs, found " + excerpt(c));
        const CellRef cell{c[0].get<int>(), c[1].get<int>()};
        if (cell.level < 0 || cell.level >= r.base.levels() || cell.layer < 0 || cell.layer >= r.base.layers())
            f.fail("cells", "cell " + excerpt(c) + " is outside the base grid");
        r.cells.push_back(cell);
    }
    f.finish();
    return r;
}

}  // namespace partita::store
