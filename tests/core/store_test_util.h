#pragma once
// Shared by the results-database tests: a temporary folder, example inputs,
// and raw SQL through a connection of the test's own.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>

#include <sqlite3.h>

#include "core/io/array_io.h"
#include "core/run/run.h"
#include "test_util.h"

namespace partita::test {

namespace fs = std::filesystem;

struct TempDir {
    fs::path dir;
    TempDir() {
        static std::atomic<int> counter{0};
        dir = fs::temp_directory_path() /
              ("partita-store-" + std::to_string(std::random_device{}()) + "-" + std::to_string(counter++));
        fs::create_directories(dir);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string file(const std::string& name) const { return (dir / name).string(); }
};

inline InputsPtr inputs(const std::string& network = "lenet-c", const std::string& array = "hmc-htree-16",
                 CostParams params = {}) {
    const std::string n = test::example("networks/" + network + ".json");
    const std::string a = test::example("arrays/" + array + ".json");
    return makeInputs(loadNetwork(n), loadArray(a), params, n, a);
}

// The first column of the first row, through a connection of the test's own.
inline std::string query(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    std::string v = "(no row)";
    if (sqlite3_step(s) == SQLITE_ROW) v = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

inline std::int64_t scalar(const std::string& path, const std::string& sql) { return std::stoll(query(path, sql)); }

inline void execRaw(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

}  // namespace partita::test
