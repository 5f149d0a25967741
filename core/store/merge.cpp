#include "core/store/merge.h"

#include <filesystem>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <sqlite3.h>
#include <stdlib.h>

#include "core/store/schema.h"
#include "core/store/sqlite_util.h"

namespace partita::store {

namespace {

struct Closer {
    sqlite3* db = nullptr;
    ~Closer() { sqlite3_close_v2(db); }
};

// A prepared statement over the raw API: merging copies values of any type (blobs included)
// from one connection to the other with sqlite3_bind_value.
class Raw {
public:
    Raw(sqlite3* db, std::string path, const std::string& sql) : db_(db), path_(std::move(path)) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr) != SQLITE_OK) fail(db_, path_, "database error");
    }
    ~Raw() { sqlite3_finalize(s_); }
    Raw(const Raw&) = delete;
    Raw& operator=(const Raw&) = delete;
    sqlite3_stmt* get() const { return s_; }
    bool step() {
        const int rc = sqlite3_step(s_);
        if (rc == SQLITE_ROW) return true;
        if (rc != SQLITE_DONE) fail(db_, path_, "cannot merge the databases");
        return false;
    }
    void bindValue(int i, sqlite3_value* v) {
        if (sqlite3_bind_value(s_, i, v) != SQLITE_OK) fail(db_, path_, "cannot store a value");
    }
    void bindInt(int i, std::int64_t v) {
        if (sqlite3_bind_int64(s_, i, v) != SQLITE_OK) fail(db_, path_, "cannot store a value");
    }
    void reset() {
        sqlite3_reset(s_);
        sqlite3_clear_bindings(s_);
    }

private:
    sqlite3* db_;
    std::string path_;
    sqlite3_stmt* s_ = nullptr;
};

std::vector<std::string> columns(sqlite3* db, const std::string& path, const std::string& table) {
    Statement s(db, path, "PRAGMA table_info(" + table + ")");
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.text(1));
    return out;
}

// Copies the rows of `table` in `in` that `where` selects (its ?1 bound to `id` when given) into
// `out` with `verb` ("INSERT", "INSERT OR IGNORE", "INSERT OR REPLACE"): column `skip` is left
// out (AUTOINCREMENT assigns it) and column `remap`, when named, takes the value `to`.
// Returns the last inserted rowid.
std::int64_t copyRows(sqlite3* in, const std::string& in_path, sqlite3* out, const std::string& out_path,
                      const std::string& table, const std::string& where, std::optional<std::int64_t> id,
                      const std::string& verb, const std::string& skip = {}, const std::string& remap = {},
                      std::int64_t to = 0) {
    const std::vector<std::string> cols = columns(in, in_path, table);
    std::string names, marks;
    for (const auto& c : cols) {
        if (c == skip) continue;
        names += (names.empty() ? "" : ", ") + c;
        marks += (marks.empty() ? "?" : ", ?");
    }
    Raw select(in, in_path, "SELECT " + names + " FROM " + table + (where.empty() ? "" : " WHERE " + where));
    if (id) sqlite3_bind_int64(select.get(), 1, *id);
    Raw insert(out, out_path, verb + " INTO " + table + " (" + names + ") VALUES (" + marks + ")");
    std::int64_t last = 0;
    while (select.step()) {
        insert.reset();
        int i = 0;
        for (const auto& c : cols) {
            if (c == skip) continue;
            if (c == remap) insert.bindInt(i + 1, to);
            else insert.bindValue(i + 1, sqlite3_column_value(select.get(), i));
            ++i;
        }
        insert.step();
        last = sqlite3_last_insert_rowid(out);
    }
    return last;
}

// Run id -> the hash of what makes two runs the same (see mergeDatabase).
std::vector<std::pair<std::int64_t, std::string>> identities(sqlite3* db, const std::string& path) {
    Statement s(db, path, R"sql(
SELECT r.id, r.kind, r.method, r.network_hash, r.array_hash, r.params_json, r.grid_json, r.reference_json,
       x.request_json, m.source, m.topology_hash, m.strategy_json, m.options_json, e.settings_json
FROM runs r LEFT JOIN explorations x ON x.run_id = r.id LEFT JOIN simulations m ON m.run_id = r.id
     LEFT JOIN method_runs e ON e.run_id = r.id
ORDER BY r.id)sql");
    std::vector<std::pair<std::int64_t, std::string>> out;
    while (s.step()) {
        std::string text;
        for (int c = 1; c <= 13; ++c) {
            const std::string field = s.text(c);
            text += std::to_string(field.size()) + ':' + field + ';';  // lengths keep fields apart
        }
        out.emplace_back(s.integer(0), contentHash(text));
    }
    return out;
}

}  // namespace

namespace {

// A private folder, removed with what it holds.
struct TempDir {
    std::filesystem::path path;
    ~TempDir() {
        std::error_code ec;
        if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
};

// IN open for reading. A -wal file beside IN holds committed rows (a writer still open, or killed),
// and SQLite reads it only through a -shm index it creates or updates beside the file; so IN and its
// log are then read from a private copy, and nothing beside IN is created or changed.
class MergeInput {
public:
    MergeInput(const std::string& in_path, const std::string& out_path);
    MergeInput(const MergeInput&) = delete;
    MergeInput& operator=(const MergeInput&) = delete;
    sqlite3* db() const { return db_.db; }

private:
    sqlite3* open(const std::string& in_path);
    TempDir copy_;  // declared first: the connection closes before its files go
    Closer db_;
};

sqlite3* MergeInput::open(const std::string& in_path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    bool read_only = true;
    if (!fs::exists(in_path + "-wal", ec)) return openResultsDb(in_path, read_only);
    refuseNonFiles(in_path);  // before anything is read: a FIFO as the -wal would block the copy
    std::string dir = (fs::temp_directory_path(ec) / "partita-merge-XXXXXX").string();
    if (ec || !::mkdtemp(dir.data())) throw StoreError(in_path + ": cannot make a temporary copy to read its -wal file");
    copy_.path = dir;
    const std::string copy = (copy_.path / "in.sqlite").string();
    fs::copy_file(in_path, copy, ec);
    if (!ec) fs::copy_file(in_path + "-wal", copy + "-wal", ec);
    if (ec) throw StoreError(in_path + ": cannot make a temporary copy to read its -wal file (" + ec.message() + ")");
    try {
        return openResultsDb(copy, read_only);
    } catch (const StoreError& e) {
        std::string why = e.what();  // in IN's name, not the copy's
        for (size_t at; (at = why.find(copy)) != std::string::npos;) why.replace(at, copy.size(), in_path);
        throw StoreError(why);
    }
}

MergeInput::MergeInput(const std::string& in_path, const std::string& out_path) {
    std::error_code ec;
    if (!std::filesystem::exists(in_path, ec)) throw StoreError(in_path + ": no such results database");
    if (std::filesystem::equivalent(in_path, out_path, ec))
        throw StoreError(in_path + ": is the output database itself");
    try {
        db_.db = open(in_path);  // refuses non-files, newer, damaged and foreign files
    } catch (const StoreError&) {
        const int version = schemaVersionOf(in_path);
        if (version > 0 && version < ResultsDb::kSchemaVersion)
            throw StoreError(in_path + ": schema " + std::to_string(version) + ", the output has schema " +
                             std::to_string(ResultsDb::kSchemaVersion) +
                             "; migrate it first (partita-cli merge-db " + in_path +
                             " opens it read-write and merges nothing); nothing was merged");
        throw;
    }
    // Rows are copied column by column and run ids remapped: a foreign column or a dangling reference
    // is named here, in IN's terms, before the output is touched.
    checkColumns(db_.db, in_path);
    Statement dangling(db_.db, in_path, "PRAGMA foreign_key_check");
    if (dangling.step())
        throw StoreError(in_path + ": table '" + dangling.text(0) + "', row " + std::to_string(dangling.integer(1)) +
                         ": refers to a row of '" + dangling.text(2) + "' the file does not hold; nothing was merged");
}

}  // namespace

void checkMergeInput(const std::string& in_path, const std::string& out_path) { MergeInput(in_path, out_path); }

ResultsDb::MergeCount mergeDatabase(sqlite3* out, const std::string& out_path, const std::string& in_path) {
    const MergeInput input(in_path, out_path);
    sqlite3* const in = input.db();
    ResultsDb::MergeCount count;
    Transaction t(out, out_path);  // all of IN or nothing
    for (const char* table : {"networks", "arrays", "topologies"})
        copyRows(in, in_path, out, out_path, table, "", std::nullopt, "INSERT OR IGNORE");
    std::map<std::string, std::int64_t> known;
    for (const auto& [id, identity] : identities(out, out_path)) known.emplace(identity, id);
    std::map<std::int64_t, std::int64_t> run_map;  // IN's run id -> OUT's
    for (const auto& [id, identity] : identities(in, in_path)) {
        if (const auto it = known.find(identity); it != known.end()) {
            run_map[id] = it->second;
            ++count.runs_skipped;
            continue;
        }
        const std::int64_t to = copyRows(in, in_path, out, out_path, "runs", "id = ?1", id, "INSERT", "id");
        for (const char* table : {"run_levels", "explorations", "simulations", "method_runs"})
            copyRows(in, in_path, out, out_path, table, "run_id = ?1", id, "INSERT", {}, "run_id", to);
        known.emplace(identity, to);
        run_map[id] = to;
        ++count.runs_added;
    }
    // A point stored in either database stays stored; one that failed in OUT and ran in IN is taken from IN.
    const auto states = sweepPointStates(out, out_path);
    Statement points(in, in_path, "SELECT key, coalesce(run_id, 0) FROM sweep_points ORDER BY key");
    while (points.step()) {
        const std::string key = points.text(0);
        const std::int64_t run = points.integer(1);
        const auto it = states.find(key);
        if (it != states.end() && (it->second.empty() || run == 0)) {
            ++count.points_skipped;
            continue;
        }
        Raw one(in, in_path, "SELECT rowid FROM sweep_points WHERE key = ?1");
        sqlite3_bind_text(one.get(), 1, key.c_str(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
        one.step();
        const std::int64_t rowid = sqlite3_column_int64(one.get(), 0);
        if (run == 0)
            copyRows(in, in_path, out, out_path, "sweep_points", "rowid = ?1", rowid, "INSERT OR REPLACE");
        else if (const auto to = run_map.find(run); to != run_map.end())
            copyRows(in, in_path, out, out_path, "sweep_points", "rowid = ?1", rowid, "INSERT OR REPLACE", {},
                     "run_id", to->second);
        else
            throw StoreError(in_path + ": sweep point " + key.substr(0, 16) + "… refers to run " + std::to_string(run) +
                             ", which the file does not hold; nothing was merged");
        ++count.points_added;
    }
    t.commit();
    return count;
}

}  // namespace partita::store
