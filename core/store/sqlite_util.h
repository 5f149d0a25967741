#pragma once
// Thin RAII over the sqlite3 C API for the results database. Every failure
// becomes a StoreError naming the database file.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace partita::store {

// Throws StoreError "<path>: <what>: <sqlite message>"; a foreign or damaged
// file (SQLITE_NOTADB, SQLITE_CORRUPT) is said so in plain words.
[[noreturn]] void fail(int code, const std::string& sqlite_message, const std::string& path, const std::string& what);
[[noreturn]] void fail(sqlite3* db, const std::string& path, const std::string& what);

// Runs one or more statements that return no rows.
void exec(sqlite3* db, const std::string& path, const std::string& sql);

class Statement {
public:
    Statement(sqlite3* db, std::string path, const std::string& sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Parameters are 1-based, as in SQL.
    Statement& bind(int index, const std::string& text);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    // The values are not copied: they must outlive the next step().
    Statement& bindDoubles(int index, const std::vector<double>& values);

    bool step();  // true while a row is available
    void run();   // a statement that returns no rows
    void reset(); // to run again with new bindings

    // Columns are 0-based.
    std::string text(int column) const;
    double real(int column) const;
    std::int64_t integer(int column) const;
    std::vector<double> doubles(int column) const;  // a blob written by bindDoubles

private:
    sqlite3* db_;
    std::string path_;
    sqlite3_stmt* stmt_ = nullptr;
};

// Statements prepared once and run many times (preparing is most of a small insert's cost): what a
// sweep's writer keeps for a batch of points. Keyed by the SQL literal's address; each statement
// comes back reset, its bindings cleared.
class StatementCache {
public:
    StatementCache(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
    Statement& operator()(const char* sql);
    sqlite3* db() const { return db_; }
    const std::string& path() const { return path_; }

private:
    sqlite3* db_;
    std::string path_;
    std::unordered_map<const char*, std::unique_ptr<Statement>> statements_;
};

// BEGIN IMMEDIATE (takes the write lock up front, so a busy database fails
// before any work); rolls back unless commit() was reached.
class Transaction {
public:
    Transaction(sqlite3* db, std::string path);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    sqlite3* db_;
    std::string path_;
    bool done_ = false;
};

}  // namespace partita::store
