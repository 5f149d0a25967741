#pragma once
// Whether stored run `id` holds the same exploration as `run` (both absent, or `run` null and none
// stored, counts as the same): part of what store::findIdenticalRows compares.
#include <cstdint>
#include <string>

#include "core/run/run.h"

struct sqlite3;

namespace partita::store {

bool sameExploration(sqlite3* db, const std::string& path, std::int64_t id, const Run* run);

}  // namespace partita::store
