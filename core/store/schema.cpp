#include "core/store/schema.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include <sqlite3.h>

#include "core/store/results_db.h"
#include "core/store/sqlite_util.h"
#include "core/util/input_file.h"

namespace partita::store {

namespace {

// Version 1 (docs/formats/results-database.md). Networks and arrays are keyed by the SHA-256 of their
// canonical JSON; blobs hold one float64 (little-endian) per exploration point.
void migrate0to1(sqlite3* db, const std::string& path) {
    exec(db, path, R"sql(
CREATE TABLE networks (
    hash TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    json TEXT NOT NULL
);
CREATE TABLE arrays (
    hash TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    accelerators INTEGER NOT NULL,
    json TEXT NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('search', 'evaluate', 'edited', 'explore')),
    method TEXT NOT NULL,
    network_hash TEXT NOT NULL REFERENCES networks(hash),
    array_hash TEXT NOT NULL REFERENCES arrays(hash),
    params_json TEXT NOT NULL,
    batch REAL NOT NULL,
    grid_json TEXT NOT NULL,
    reference_json TEXT NOT NULL,
    total_elements REAL NOT NULL,
    time_step_s REAL NOT NULL,
    perf_vs_dp REAL NOT NULL,
    energy_j REAL NOT NULL,
    created_utc TEXT NOT NULL,
    app_version TEXT NOT NULL,
    job_ms REAL NOT NULL,
    network_origin TEXT NOT NULL,
    array_origin TEXT NOT NULL
);
CREATE INDEX runs_by_network ON runs(network_hash);
CREATE INDEX runs_by_array ON runs(array_hash);
CREATE TABLE run_levels (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    level INTEGER NOT NULL,
    comm_elements REAL NOT NULL,
    time_s REAL NOT NULL,
    PRIMARY KEY (run_id, level)
) WITHOUT ROWID;
CREATE TABLE explorations (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    request_json TEXT NOT NULL,
    total_elements BLOB NOT NULL,
    time_step_s BLOB NOT NULL,
    time_step_dp_s REAL NOT NULL,
    base_code INTEGER NOT NULL,
    best_comm_code INTEGER NOT NULL,
    best_time_code INTEGER NOT NULL
);
)sql");
    exec(db, path, "PRAGMA application_id = " + std::to_string(kApplicationId));
}

// Version 2: simulated runs (Simulate and MCMC). Topologies are keyed like
// networks; a run's strategy and options stay with its simulation row.
void migrate1to2(sqlite3* db, const std::string& path) {
    exec(db, path, R"sql(
CREATE TABLE topologies (
    hash TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    devices INTEGER NOT NULL,
    json TEXT NOT NULL
);
CREATE TABLE simulations (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    source TEXT NOT NULL,
    topology_hash TEXT NOT NULL REFERENCES topologies(hash),
    topology_origin TEXT NOT NULL,
    strategy_origin TEXT NOT NULL,
    strategy_json TEXT NOT NULL,
    options_json TEXT NOT NULL,
    search_json TEXT NOT NULL,
    makespan_s REAL NOT NULL
);
)sql");
}

// Version 3: MPT and Learn-to-Scale evaluations. Each also has a `runs` row
// (kind 'evaluate', method 'mpt'/'l2s') so the runs list, rename and delete
// need no second path; this row holds what determines and summarises it.
void migrate2to3(sqlite3* db, const std::string& path) {
    exec(db, path, R"sql(
CREATE TABLE method_runs (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    settings_json TEXT NOT NULL,
    time_s REAL NOT NULL,
    speedup REAL NOT NULL,
    traffic_b REAL NOT NULL,
    energy_j REAL NOT NULL
);
)sql");
}

// Version 4: sweep points. A point is keyed by the hash of its inputs, method, parameters and app
// version; it refers to the run it stored, or keeps the error that made it fail (exactly one of the
// two), so a rerun of its sweep skips it.
void migrate3to4(sqlite3* db, const std::string& path) {
    exec(db, path, R"sql(
CREATE TABLE sweep_points (
    key TEXT PRIMARY KEY NOT NULL,
    run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    error TEXT,
    sweep TEXT NOT NULL,
    point_json TEXT NOT NULL,
    created_utc TEXT NOT NULL,
    app_version TEXT NOT NULL,
    CHECK ((run_id IS NULL) <> (error IS NULL))
);
CREATE INDEX sweep_points_by_run ON sweep_points(run_id);
)sql");
}

// kMigrations[v] takes a database from version v to v + 1; a new version is
// one more function here and a bump of ResultsDb::kSchemaVersion.
using Migration = void (*)(sqlite3*, const std::string&);
constexpr Migration kMigrations[] = {&migrate0to1, &migrate1to2, &migrate2to3, &migrate3to4};
static_assert(std::size(kMigrations) == ResultsDb::kSchemaVersion, "one migration per schema version");

// Tables the current version needs.
constexpr const char* kTables[] = {"networks",   "arrays",      "runs",       "run_levels", "explorations",
                                   "topologies", "simulations", "method_runs", "sweep_points"};

int pragmaInt(sqlite3* db, const std::string& path, const std::string& name) {
    Statement s(db, path, "PRAGMA " + name);
    return s.step() ? static_cast<int>(s.integer(0)) : 0;
}

std::string missingTable(sqlite3* db, const std::string& path) {
    Statement s(db, path, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1");
    for (const char* table : kTables) {
        s.reset();
        s.bind(1, std::string(table));
        if (s.step() && s.integer(0) == 0) return table;
    }
    return {};
}

void checkTables(sqlite3* db, const std::string& path) {
    const std::string missing = missingTable(db, path);
    if (!missing.empty())
        throw StoreError(path + ": the results database is damaged: table '" + missing +
                         "' is missing (schema version " + std::to_string(ResultsDb::kSchemaVersion) +
                         "); not modified");
}

[[noreturn]] void refuseNewer(const std::string& path, int version) {
    throw StoreError(path + ": written by a newer Partita (schema " + std::to_string(version) +
                     ", this build reads up to " + std::to_string(ResultsDb::kSchemaVersion) + "); not modified");
}

struct Connection {
    sqlite3* db = nullptr;
    ~Connection() { sqlite3_close(db); }
    sqlite3* release() { return std::exchange(db, nullptr); }
};

void open(Connection& c, const std::string& target, const std::string& path, int flags) {
    const int rc = sqlite3_open_v2(target.c_str(), &c.db, flags, nullptr);
    if (rc != SQLITE_OK) {
        if (c.db) fail(c.db, path, "cannot open the results database");
        fail(rc, sqlite3_errstr(rc), path, "cannot open the results database");
    }
}

// A read-only URI; immutable mode reads the file without creating -wal/-shm beside it.
std::string readOnlyUri(const std::string& path, bool immutable) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string uri = path.starts_with('/') ? "file://" : "file:";  // an empty authority before an absolute path
    for (unsigned char ch : path) {
        if (std::isalnum(ch) || ch == '/' || ch == '-' || ch == '.' || ch == '_' || ch == '~') {
            uri += static_cast<char>(ch);
        } else {
            uri += '%';
            uri += kHex[ch >> 4];
            uri += kHex[ch & 0xf];
        }
    }
    return uri + (immutable ? "?immutable=1" : "?mode=ro");
}

// A damaged file is refused before anything writes to it. integrity_check reads every page and
// index; above 64 MiB the cheaper quick_check (no index cross-check) keeps opening fast.
void checkIntegrity(sqlite3* db, const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    const bool small = !ec && size < (std::uintmax_t{64} << 20);
    std::string first;
    try {
        Statement s(db, path, small ? "PRAGMA integrity_check(20)" : "PRAGMA quick_check(20)");
        if (s.step()) first = s.text(0);
    } catch (const StoreError& e) {
        first = e.what();
    }
    if (first != "ok")
        throw StoreError(path + ": the results database is damaged (" + (small ? "integrity" : "quick") + " check: " +
                         first.substr(0, 200) + "); not modified. Restore it from a backup, or choose another file " +
                         "(--db PATH)");
}

// Looks at an existing file without writing to it (not even the journal-mode
// switch): first its raw header, then through a read-only connection.
void probe(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw StoreError(path + ": cannot read the file");
    unsigned char header[100] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (in.gcount() == 0) return;  // an empty file becomes a new database
    if (in.gcount() < 100 || std::memcmp(header, "SQLite format 3", 16) != 0)
        throw StoreError(path + ": not a Partita results database (not an SQLite file, or its header is damaged); "
                                "not modified");
    // user_version: 4 bytes big-endian at offset 60 of the header.
    const auto raw = std::uint32_t{header[60]} << 24 | std::uint32_t{header[61]} << 16 |
                     std::uint32_t{header[62]} << 8 | std::uint32_t{header[63]};
    if (raw > 0x7fffffffu)
        throw StoreError(path + ": not a Partita results database (negative user_version); not modified");
    if (raw > static_cast<std::uint32_t>(ResultsDb::kSchemaVersion)) refuseNewer(path, static_cast<int>(raw));

    // Without a -wal file no connection is open, so the main file alone is the database.
    Connection c;
    std::error_code ec;
    const bool immutable = !std::filesystem::exists(path + "-wal", ec);
    open(c, readOnlyUri(path, immutable), path, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    const int version = pragmaInt(c.db, path, "user_version");
    if (version > ResultsDb::kSchemaVersion) refuseNewer(path, version);
    if (version == 0) {
        Statement s(c.db, path, "SELECT count(*) FROM sqlite_master");
        if (s.step() && s.integer(0) > 0)
            throw StoreError(path + ": an SQLite database of another program, not a Partita results database; "
                                    "not modified");
        return;
    }
    if (version == ResultsDb::kSchemaVersion) checkTables(c.db, path);
    if (pragmaInt(c.db, path, "application_id") != kApplicationId)
        throw StoreError(path + ": not a Partita results database (foreign application id); not modified");
    checkIntegrity(c.db, path);
}

void migrate(sqlite3* db, const std::string& path) {
    if (pragmaInt(db, path, "user_version") == ResultsDb::kSchemaVersion) return;
    Transaction t(db, path);
    // Read again under the write lock: another process may have migrated meanwhile.
    const int version = pragmaInt(db, path, "user_version");
    if (version > ResultsDb::kSchemaVersion) refuseNewer(path, version);
    if (version < 0) throw StoreError(path + ": not a Partita results database (negative user_version)");
    for (int v = version; v < ResultsDb::kSchemaVersion; ++v) kMigrations[v](db, path);
    exec(db, path, "PRAGMA user_version = " + std::to_string(ResultsDb::kSchemaVersion));
    t.commit();
}

}  // namespace

// Only regular files are opened (and their -wal, -shm and -journal companions): SQLite's open() of a
// FIFO waits for a writer forever, and a folder or a device is no database.
void refuseNonFiles(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw StoreError(path + ": is a folder, not a results database");
    if (const std::string why = notARegularFile(path, true); !why.empty())
        throw StoreError(path + ": " + why + "; a results database is a regular file; not opened");
    for (const char* suffix : {"-wal", "-shm", "-journal"})
        if (const std::string why = notARegularFile(path + suffix, true); !why.empty())
            throw StoreError(path + suffix + ": " + why + " (beside the results database " + path + "); not opened");
}

int schemaVersionOf(const std::string& path) {
    if (!notARegularFile(path).empty()) return -1;
    std::ifstream in(path, std::ios::binary);
    unsigned char header[100] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (in.gcount() < 100 || std::memcmp(header, "SQLite format 3", 16) != 0) return -1;
    const auto raw = std::uint32_t{header[60]} << 24 | std::uint32_t{header[61]} << 16 |
                     std::uint32_t{header[62]} << 8 | std::uint32_t{header[63]};
    return raw > 0x7fffffffu ? -1 : static_cast<int>(raw);
}

namespace {

std::vector<std::string> columnNames(sqlite3* db, const std::string& path, const std::string& table) {
    Statement s(db, path, "PRAGMA table_info(" + table + ")");
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.text(1));
    return out;
}

// Each table's columns as the migrations make them, built once in memory.
const std::vector<std::vector<std::string>>& expectedColumns() {
    static const std::vector<std::vector<std::string>> columns = [] {
        Connection c;
        open(c, ":memory:", ":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        for (const Migration m : kMigrations) m(c.db, ":memory:");
        std::vector<std::vector<std::string>> out;
        for (const char* table : kTables) out.push_back(columnNames(c.db, ":memory:", table));
        return out;
    }();
    return columns;
}

}  // namespace

void checkColumns(sqlite3* db, const std::string& path) {
    const auto& expected = expectedColumns();
    for (size_t t = 0; t < std::size(kTables); ++t) {
        const std::vector<std::string> found = columnNames(db, path, kTables[t]);
        const std::vector<std::string>& want = expected[t];
        for (size_t c = 0; c < std::max(found.size(), want.size()); ++c) {
            if (c < found.size() && c < want.size() && found[c] == want[c]) continue;
            const std::string table = std::string("table '") + kTables[t] + "'";
            const std::string schema = " (schema " + std::to_string(ResultsDb::kSchemaVersion) + ")";
            const bool unknown = c < found.size() && std::find(want.begin(), want.end(), found[c]) == want.end();
            if (unknown || c >= want.size())  // no duplicate names: past `want`, found[c] is unknown
                throw StoreError(path + ": " + table + " has a column '" + found[c] + "' this version does not know" +
                                 schema + "; not a database this version wrote");
            throw StoreError(path + ": " + table + " lacks the column '" + want[c] + "' at position " +
                             std::to_string(c + 1) + schema + "; not a database this version wrote");
        }
    }
}

sqlite3* openResultsDb(const std::string& path, bool& read_only) {
    refuseNonFiles(path);
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    // A file this process may not write opens read-only rather than failing at the first store.
    if (exists && (::access(path.c_str(), W_OK) != 0 ||
                   ::access(std::filesystem::path(path).parent_path().empty()
                                ? "."
                                : std::filesystem::path(path).parent_path().c_str(),
                            W_OK) != 0))
        read_only = true;
    if (read_only) {
        if (!exists) throw StoreError(path + ": cannot open a database that does not exist read-only");
        probe(path);
        Connection c;
        open(c, readOnlyUri(path, !std::filesystem::exists(path + "-wal", ec)), path,
             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
        const int version = pragmaInt(c.db, path, "user_version");
        if (version != ResultsDb::kSchemaVersion)
            throw StoreError(path + ": schema " + std::to_string(version) + " needs an upgrade to " +
                             std::to_string(ResultsDb::kSchemaVersion) + ", which a read-only file does not allow");
        return c.release();
    }
    if (exists) {
        probe(path);
    } else {
        const auto parent = std::filesystem::path(path).parent_path();
        if (!parent.empty()) std::filesystem::create_directories(parent, ec);  // a failure shows up in open()
    }
    Connection c;
    open(c, path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3_busy_timeout(c.db, 5000);  // the GUI and the CLI may share a file
    exec(c.db, path, "PRAGMA foreign_keys = ON");
    exec(c.db, path, "PRAGMA journal_mode = WAL");
    exec(c.db, path, "PRAGMA synchronous = NORMAL");  // safe under WAL: a crash loses at most the last run
    migrate(c.db, path);
    checkTables(c.db, path);
    return c.release();
}

}  // namespace partita::store
