#pragma once
// Whether stored run `id` holds the same exploration / simulation as `run` (both absent counts as
// the same): with the runs row compared by ResultsDb::findIdentical, this decides "identical".
#include <cstdint>
#include <string>

#include "core/run/run.h"

struct sqlite3;

namespace partita::store {

bool sameExploration(sqlite3* db, const std::string& path, std::int64_t id, const Run& run);
bool sameSimulation(sqlite3* db, const std::string& path, std::int64_t id, const Run& run);

}  // namespace partita::store
