#pragma once
// Shared by the results-database tests: a temporary folder, example inputs and
// simulation specs, raw SQL and bytes through a connection of the test's own,
// and refused files.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "core/io/array_io.h"
#include "core/run/run.h"
#include "core/run/simulation.h"
#include "core/topology/topology.h"
#include "core/store/results_db.h"
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

inline std::string bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::string& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
}

// A database at `path` with HyPar's run on the default inputs, then `sql` run on the file
// (e.g. to take it back to an older schema); returns the run's id.
inline std::int64_t oneRunDatabase(const std::string& path, const std::string& sql) {
    std::int64_t id = 0;
    { id = ResultsDb(path).store(planRun(inputs(), Method::HyPar)); }
    execRaw(path, sql);
    return id;
}

// HyPar's grid in that run (lenet-c on hmc-htree-16).
inline const std::vector<std::string> kLenetHyparGrid{"0011", "0010", "0000", "0011"};

// `source` simulated on a built-in topology, as the application names it.
inline SimulationSpec simulationSpec(SimSource source, const std::string& preset = "p100-16") {
    SimulationSpec s;
    s.topology = std::make_shared<const sim::Topology>(sim::builtinTopology(preset));
    s.topology_origin = "built-in:" + preset;
    s.source = source;
    return s;
}

// Opening `path` must fail with a StoreError naming it and `words`, leave it
// byte-identical and put no -wal or -shm file beside it.
inline void expectRefused(const std::string& path, const std::string& words) {
    const std::string before = bytes(path);
    try {
        ResultsDb db(path);
        ADD_FAILURE() << "opened " << path;
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_EQ(bytes(path), before);
    EXPECT_FALSE(fs::exists(path + "-wal"));
    EXPECT_FALSE(fs::exists(path + "-shm"));
}

}  // namespace partita::test
