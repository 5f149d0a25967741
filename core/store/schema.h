#pragma once
// Opening a results database: checks that leave foreign, damaged or newer
// files untouched, then the forward migrations (docs/formats/results-database.md).
#include <string>

struct sqlite3;

namespace partita::store {

// Written to PRAGMA application_id so a Partita file is recognisable ("PRTA").
inline constexpr int kApplicationId = 0x50525441;

// Returns a read-write connection with foreign keys on, in WAL mode, at
// ResultsDb::kSchemaVersion. Throws StoreError; nothing is written to a file
// that is refused.
// Opens (creating if absent), checks integrity and migrates. With `read_only` set, or when the
// file or its folder is not writable (then `read_only` is set), opens read-only without migrating.
sqlite3* openResultsDb(const std::string& path, bool& read_only);

// Throws StoreError naming the path unless `path` and any -wal, -shm or -journal file beside it is a
// regular file or absent: SQLite's open() of a FIFO waits for a writer forever.
void refuseNonFiles(const std::string& path);

// The schema version in the file's header (PRAGMA user_version), read without SQLite, so nothing is
// created beside the file; -1 when it is not a readable regular file with an SQLite header.
int schemaVersionOf(const std::string& path);

// Every table of this version has exactly this version's columns, in order: a StoreError names the
// file, the table and the first column that differs. (Merging copies rows column by column.)
void checkColumns(sqlite3* db, const std::string& path);

}  // namespace partita::store
