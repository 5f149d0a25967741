#pragma once
// Strategy files, "partita-strategy/1": a grid of choices per level, with
// optional ratios, named by network and layers so a mismatch is caught.
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/model/layers.h"
#include "core/partition/grid.h"

namespace partita {

struct Strategy {
    std::string network;
    std::string method;              // free text: "hypar", "user", ...
    std::vector<std::string> layers; // weighted layer names, in order
    Grid grid;
};

Strategy readStrategyJson(const std::string& text, const std::string& source);
Strategy loadStrategy(const std::string& path);
Json strategyToJson(const Strategy& s);
std::string writeStrategyJson(const Strategy& s);
Strategy makeStrategy(const LayerTable& layers, const Grid& grid, const std::string& method);
// Throws InputError when the strategy's layers do not match the network's.
void checkStrategyFits(const Strategy& s, const LayerTable& layers, const std::string& source);

}  // namespace partita
