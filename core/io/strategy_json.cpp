#include <stdexcept>

#include "core/io/strategy_io.h"
#include "core/util/error.h"

namespace partita {

Strategy readStrategyJson(const std::string& text, const std::string& source) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-strategy/1");
    Strategy s;
    s.network = f.string("network", "");
    s.method = f.string("method", "user");
    const Json& layers = f.raw("layers");
    if (!layers.is_array() || layers.empty()) f.fail("layers", "expected a non-empty list of layer names");
    for (const auto& l : layers) {
        if (!l.is_string()) f.fail("layers", "expected layer names, found " + excerpt(l));
        s.layers.push_back(l.get<std::string>());
    }
    const Json& grid = f.raw("grid");
    if (!grid.is_array() || grid.empty()) f.fail("grid", "expected a list of per-level strings such as \"0011\"");
    std::vector<std::string> rows;
    for (const auto& r : grid) {
        if (!r.is_string()) f.fail("grid", "expected per-level strings, found " + excerpt(r));
        rows.push_back(r.get<std::string>());
    }
    if (rows.size() > static_cast<size_t>(12)) f.fail("grid", "at most 12 levels are supported");
    try {
        s.grid = Grid::fromStrings(rows, static_cast<int>(s.layers.size()));
    } catch (const std::invalid_argument& e) {
        f.fail("grid", e.what());
    }
    if (f.has("ratios")) {
        const Json& ratios = f.raw("ratios");
        if (!ratios.is_array() || ratios.size() != rows.size())
            f.fail("ratios", "expected one list of ratios per level");
        for (size_t h = 0; h < rows.size(); ++h) {
            if (!ratios[h].is_array() || ratios[h].size() != s.layers.size())
                f.fail("ratios", "level H" + std::to_string(h + 1) + " needs one ratio per layer");
            for (size_t l = 0; l < s.layers.size(); ++l) {
                const Json& r = ratios[h][l];
                if (!r.is_number() || !(r.get<double>() > 0 && r.get<double>() < 1))
                    f.fail("ratios", "level H" + std::to_string(h + 1) + ", layer " + std::to_string(l + 1) +
                                         ": a ratio must lie strictly between 0 and 1, found " + excerpt(r));
                s.grid.at(static_cast<int>(h), static_cast<int>(l)).ratio = r.get<double>();
            }
        }
    }
    f.finish();
    return s;
}

Strategy loadStrategy(const std::string& path) { return readStrategyJson(readTextFile(path), path); }

Json strategyToJson(const Strategy& s) {
    Json j{{"format", "partita-strategy/1"}, {"network", s.network}, {"method", s.method},
           {"layers", s.layers},             {"grid", s.grid.toStrings()}};
    bool half = true;
    Json ratios = Json::array();
    for (int h = 0; h < s.grid.levels(); ++h) {
        Json row = Json::array();
        for (int l = 0; l < s.grid.layers(); ++l) {
            row.push_back(s.grid.at(h, l).ratio);
            half = half && s.grid.at(h, l).ratio == 0.5;
        }
        ratios.push_back(row);
    }
    if (!half) j["ratios"] = ratios;
    return j;
}

std::string writeStrategyJson(const Strategy& s) { return strategyToJson(s).dump(2) + "\n"; }

Strategy makeStrategy(const LayerTable& layers, const Grid& grid, const std::string& method) {
    Strategy s;
    s.network = layers.network;
    s.method = method;
    for (const auto& l : layers.layers) s.layers.push_back(l.name);
    s.grid = grid;
    return s;
}

void checkStrategyFits(const Strategy& s, const LayerTable& layers, const std::string& source) {
    if (s.layers.size() != layers.size())
        throw InputError(source, "/layers", "the strategy has " + std::to_string(s.layers.size()) +
                                                " layers, the network has " + std::to_string(layers.size()));
    for (size_t l = 0; l < layers.size(); ++l)
        if (s.layers[l] != layers[l].name)
            throw InputError(source, "/layers/" + std::to_string(l),
                             "layer '" + s.layers[l] + "' does not match the network's '" + layers[l].name + "'");
}

}  // namespace partita
