#pragma once
// merge-db (issue 18): runs, their inputs and sweep points of one results database added to
// another without duplicates, in one transaction (ResultsDb::merge).
#include <string>

#include "core/store/results_db.h"

struct sqlite3;

namespace partita::store {

// Every check a merge makes of `in_path` before it writes: a regular file, not `out_path` itself,
// this schema version with exactly its columns, intact, and every reference inside it (sweep points
// to runs, runs to their inputs) resolved. IN is read without creating or changing anything beside
// it (with a -wal file beside it, from a private copy). Throws StoreError naming `in_path` and the place.
void checkMergeInput(const std::string& in_path, const std::string& out_path);

// `out` is a writable connection at the current schema (ResultsDb's); `in_path` is checked as above
// before anything is written. Two runs are the same when their kind, method, network and array
// hashes, parameters, grid and reference, and any exploration request, simulation (source, topology
// hash, strategy, options) or MPT/L2S settings agree: what ResultsDb::findIdentical compares, taken
// from the stored rows.
ResultsDb::MergeCount mergeDatabase(sqlite3* out, const std::string& out_path, const std::string& in_path);

}  // namespace partita::store
