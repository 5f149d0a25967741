#include "core/store/sqlite_util.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <sqlite3.h>

#include "core/store/results_db.h"

namespace partita::store {

// Blobs of doubles are stored in native byte order; requiring little-endian
// makes the files portable between all the machines we build for.
static_assert(std::endian::native == std::endian::little, "results database blobs assume a little-endian host");

void fail(int code, const std::string& sqlite_message, const std::string& path, const std::string& what) {
    const int primary = code & 0xff;
    if (primary == SQLITE_CONSTRAINT) throw RowError(path + ": " + what + ": " + sqlite_message);
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
        throw StoreError(path + ": not a Partita results database, or the file is corrupt (" + sqlite_message +
                         "); not modified");
    throw StoreError(path + ": " + what + ": " + sqlite_message);
}

void fail(sqlite3* db, const std::string& path, const std::string& what) {
    fail(sqlite3_extended_errcode(db), sqlite3_errmsg(db), path, what);
}

void exec(sqlite3* db, const std::string& path, const std::string& sql) {
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    if (rc == SQLITE_OK) return;
    const std::string text = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    fail(rc, text, path, "cannot update the database");
}

Statement::Statement(sqlite3* db, std::string path, const std::string& sql) : db_(db), path_(std::move(path)) {
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK)
        fail(db_, path_, "cannot read the database");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, const std::string& text) {
    if (sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
        fail(db_, path_, "cannot store a value");
    return *this;
}

Statement& Statement::bind(int index, double value) {
    // SQLite keeps NaN as NULL: a number that is not finite is refused here, by name.
    if (!std::isfinite(value))
        throw RowError(path_ + ": cannot store a value that is not a finite number (" + std::to_string(value) + ")");
    if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail(db_, path_, "cannot store a value");
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail(db_, path_, "cannot store a value");
    return *this;
}

Statement& Statement::bindDoubles(int index, const std::vector<double>& values) {
    const auto bytes = static_cast<sqlite3_uint64>(values.size() * sizeof(double));
    const auto limit = static_cast<sqlite3_uint64>(sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, -1));
    if (bytes > limit)
        throw StoreError(path_ + ": " + std::to_string(values.size()) + " values are too many to store (at most " +
                         std::to_string(limit / sizeof(double)) + ")");
    // Static: the caller's vector outlives the step, and a 2^20-point blob is not worth copying.
    if (sqlite3_bind_blob64(stmt_, index, values.data(), bytes, SQLITE_STATIC) != SQLITE_OK)
        fail(db_, path_, "cannot store a value");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(db_, path_, "database error");
}

void Statement::run() {
    while (step()) {
    }
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

Statement& StatementCache::operator()(const char* sql) {
    auto& slot = statements_[sql];
    if (!slot) slot = std::make_unique<Statement>(db_, path_, sql);
    else slot->reset();
    return *slot;
}

std::string Statement::text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
}

double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }

std::vector<double> Statement::doubles(int column) const {
    const void* p = sqlite3_column_blob(stmt_, column);
    const auto bytes = static_cast<size_t>(sqlite3_column_bytes(stmt_, column));
    if (bytes % sizeof(double) != 0)
        throw StoreError(path_ + ": a stored list of numbers is damaged (" + std::to_string(bytes) + " bytes)");
    std::vector<double> values(bytes / sizeof(double));
    if (bytes > 0) std::memcpy(values.data(), p, bytes);
    return values;
}

Transaction::Transaction(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {
    exec(db_, path_, "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    exec(db_, path_, "COMMIT");
    done_ = true;
}

}  // namespace partita::store
