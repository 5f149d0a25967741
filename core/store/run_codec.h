#pragma once
// The JSON the results database keeps for a run's grids and exploration
// request. Grids: {"layers": N, "rows": ["0011", ...], "ratios": [[...], ...]},
// "ratios" present only when some cell is not 1/2 (doubles round-trip exactly).
// Requests: {"cells": [[level, layer], ...], "radix": 2, "base": grid}.
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/partition/grid.h"
#include "core/search/explore.h"

namespace partita::store {

Json gridToJson(const Grid& grid);
// Throws InputError naming `source` and the JSON pointer.
Grid readGridJson(const Json& json, const std::string& source, const std::string& pointer);

struct StoredRequest {
    std::vector<CellRef> cells;
    int radix = 2;
    Grid base;
};

// `base` is the grid the exploration's codes apply to.
Json exploreRequestToJson(const ExploreResult& result, const Grid& base);
StoredRequest readExploreRequestJson(const Json& json, const std::string& source);

}  // namespace partita::store
