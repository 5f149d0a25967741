#pragma once
// Shared by the sweep CLI tests (local and MPI): a scratch folder per test, and a database's sweep
// content in a comparable form.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <sqlite3.h>
#include <unistd.h>

#include "cli_test_util.h"

namespace partita::cli::test {

namespace fs = std::filesystem;

struct Dir {
    fs::path dir = fs::path(testing::TempDir()) / ("partita-sweep-" + std::to_string(::getpid()) + "-" +
                                                   testing::UnitTest::GetInstance()->current_test_info()->name());
    Dir() {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Dir() { fs::remove_all(dir); }
    std::string file(const std::string& name) const { return (dir / name).string(); }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(file(name)) << text;
        return file(name);
    }
};

// Every point with its run's identity and numbers, by key; and the number of runs.
inline std::vector<std::string> contents(const std::string& path) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    const char* sql = R"sql(
SELECT p.key, coalesce(p.error, ''), r.kind, r.method, r.network_hash, r.array_hash, r.params_json, r.grid_json,
       r.reference_json, r.total_elements, r.time_step_s, r.perf_vs_dp, r.energy_j,
       (SELECT group_concat(l.comm_elements || '/' || l.time_s, ' ') FROM run_levels l WHERE l.run_id = r.id),
       (SELECT m.strategy_json || m.options_json || m.makespan_s FROM simulations m WHERE m.run_id = r.id),
       (SELECT count(*) FROM runs)
FROM sweep_points p LEFT JOIN runs r ON r.id = p.run_id ORDER BY p.key)sql";
    EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &s, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    std::vector<std::string> rows;
    while (sqlite3_step(s) == SQLITE_ROW) {
        std::string row;
        for (int c = 0; c < sqlite3_column_count(s); ++c) {
            if (sqlite3_column_type(s, c) == SQLITE_FLOAT) {
                char number[32];
                std::snprintf(number, sizeof number, "%.17g", sqlite3_column_double(s, c));
                row += number;
            } else if (const auto* t = sqlite3_column_text(s, c)) {
                row += reinterpret_cast<const char*>(t);
            }
            row += '|';
        }
        rows.push_back(row);
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return rows;
}

// Every file of a folder with its bytes, to show that nothing changed (and nothing appeared).
inline std::map<std::string, std::string> listing(const Dir& d) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::directory_iterator(d.dir)) {
        std::ifstream in(e.path(), std::ios::binary);
        files[e.path().filename().string()] =
            e.is_regular_file() ? std::string(std::istreambuf_iterator<char>(in), {}) : "(not a file)";
    }
    return files;
}

inline void sql(const std::string& path, const std::string& statements) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

// Four points: HyPar and DP at two levels on lenet-c.
inline constexpr const char* kSmall = R"({"format": "partita-sweep/1", "name": "small", "networks": ["lenet-c"],
  "methods": ["hypar", "dp"], "axes": {"levels": [2, 3]}})";

}  // namespace partita::cli::test
