// The results database: run round trips (search, edited, explore), listing,
// renaming, removal, content-hash sharing, and files it must refuse untouched.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "core/io/array_io.h"
#include "core/io/params_json.h"
#include "core/store/results_db.h"
#include "store_test_util.h"

namespace partita {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using test::inputs;
using test::query;
using test::scalar;
using test::execRaw;
using test::bytes;
using test::writeBytes;
using test::expectRefused;


void expectSameRun(const Run& a, const Run& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.reference, b.reference);
    EXPECT_EQ(a.eval().total_elements, b.eval().total_elements);
    EXPECT_EQ(a.eval().level_comm, b.eval().level_comm);
    EXPECT_EQ(a.eval().time_step_s, b.eval().time_step_s);
    EXPECT_EQ(a.reference_eval.total_elements, b.reference_eval.total_elements);
    EXPECT_EQ(a.perfVsDp(), b.perfVsDp());
    EXPECT_EQ(a.created_utc, b.created_utc);
    EXPECT_EQ(a.app_version, b.app_version);
    EXPECT_EQ(a.job_ms, b.job_ms);
    EXPECT_EQ(a.inputs->network.name, b.inputs->network.name);
    EXPECT_EQ(a.inputs->array.name, b.inputs->array.name);
    EXPECT_EQ(a.inputs->network_origin, b.inputs->network_origin);
    EXPECT_EQ(a.inputs->array_origin, b.inputs->array_origin);
    EXPECT_EQ(paramsToJson(a.inputs->params), paramsToJson(b.inputs->params));
}

TEST(Store, ContentHashIsSha256Hex) {
    EXPECT_EQ(contentHash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(contentHash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Store, ParamsJsonRoundTripsAndIsStrict) {
    CostParams p;
    p.batch = 64;
    p.comm.w_intra = 1;
    p.comm.out_size = OutSize::PrePool;
    p.bytes_per_element = 2;
    p.include_sram_energy = true;
    const CostParams q = readParamsJson(paramsToJson(p), "t", "");
    EXPECT_EQ(paramsToJson(q), paramsToJson(p));
    EXPECT_EQ(q.comm.out_size, OutSize::PrePool);
    try {
        readParamsJson(Json{{"batch", 8}, {"batchsize", 8}}, "t.json", "/params");
        FAIL() << "unknown key accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.place(), "/params/batchsize");
    }
    EXPECT_THROW(readParamsJson(Json{{"out_size", "mid"}}, "t", ""), InputError);
    EXPECT_THROW(readParamsJson(Json{{"batch", -1}}, "t", ""), InputError);
}

TEST(Store, SearchRunRoundTrips) {
    TempDir tmp;
    CostParams p;
    p.batch = 128;
    p.comm.out_size = OutSize::PrePool;
    const partita::Run run = planRun(inputs("lenet-c", "hmc-htree-16", p), Method::HyPar);
    ResultsDb db(tmp.file("runs.db"));
    const auto id = db.store(run);
    EXPECT_GT(id, 0);
    const partita::Run back = db.load(id);
    EXPECT_EQ(back.id, id);
    expectSameRun(run, back);
    EXPECT_FALSE(back.exploration);
    EXPECT_THROW(db.load(id + 100), StoreError);
    EXPECT_EQ(scalar(tmp.file("runs.db"), "SELECT count(*) FROM run_levels WHERE run_id = " + std::to_string(id)),
              run.inputs->array.levels);
}

TEST(Store, EditedRunKeepsReferenceAndRatios) {
    TempDir tmp;
    const partita::Run hypar = planRun(inputs(), Method::HyPar);
    Grid edited = hypar.grid;
    edited.at(0, 1).split = edited.at(0, 1).split == Split::Batch ? Split::Input : Split::Batch;
    edited.at(1, 2).ratio = 0.1 + 0.2;  // not a short decimal: must survive exactly
    const partita::Run run = gridRun(hypar.inputs, edited, RunKind::Edited, "hypar", &hypar.grid);
    ASSERT_TRUE(run.edited());
    ResultsDb db(tmp.file("runs.db"));
    const partita::Run back = db.load(db.store(run));
    expectSameRun(run, back);
    EXPECT_TRUE(back.edited());
    EXPECT_EQ(back.grid.at(1, 2).ratio, 0.1 + 0.2);
}

TEST(Store, ExploreRunRoundTrips) {
    TempDir tmp;
    const auto in = inputs();
    ExploreRequest req;
    req.cells = levelCells({0, 3}, 4);
    req.threads = 2;
    const partita::Run run = exploreRun(in, req);
    ASSERT_EQ(run.exploration->size(), 256u);
    ResultsDb db(tmp.file("runs.db"));
    const partita::Run back = db.load(db.store(run));
    expectSameRun(run, back);
    ASSERT_TRUE(back.exploration);
    const ExploreResult& a = *run.exploration;
    const ExploreResult& b = *back.exploration;
    EXPECT_EQ(b.cells, a.cells);
    EXPECT_EQ(b.radix, a.radix);
    EXPECT_EQ(b.total_elements, a.total_elements);
    EXPECT_EQ(b.time_step_s, a.time_step_s);
    EXPECT_EQ(b.time_step_dp_s, a.time_step_dp_s);
    EXPECT_EQ(b.base_code, a.base_code);
    EXPECT_EQ(b.best_comm_code, a.best_comm_code);
    EXPECT_EQ(b.best_time_code, a.best_time_code);
    EXPECT_EQ(b.grid(back.grid, b.base_code), back.reference);  // the base was HyPar's grid
}

// Its speed is BM_StoreLoadExploration's (tests/bench/run_bench.cpp).
TEST(Store, LargeExplorationRoundTrips) {
    TempDir tmp;
    ExploreRequest req;
    req.cells = levelCells({0, 1, 2, 3}, 4);
    req.threads = 2;
    const partita::Run run = exploreRun(inputs(), req);
    ASSERT_EQ(run.exploration->size(), 65536u);
    ResultsDb db(tmp.file("runs.db"));
    const partita::Run back = db.load(db.store(run));
    EXPECT_EQ(back.exploration->time_step_s, run.exploration->time_step_s);
}

TEST(Store, ListsNewestFirstWithFilters) {
    TempDir tmp;
    ResultsDb db(tmp.file("runs.db"));
    const auto lenet = inputs();
    const partita::Run hypar = planRun(lenet, Method::HyPar);
    const auto a = db.store(hypar);
    const auto b = db.store(planRun(lenet, Method::DataParallel));
    const auto c = db.store(planRun(inputs("lenet-c", "hmc-torus-16"), Method::HyPar));
    const auto d = db.store(planRun(inputs("cifar-c"), Method::HyPar));
    const auto all = db.list();
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0].id, d);
    EXPECT_EQ(all[3].id, a);
    const RunSummary& s = all[3];
    EXPECT_EQ(s.name, hypar.name);
    EXPECT_EQ(s.kind, RunKind::Search);
    EXPECT_EQ(s.method, "hypar");
    EXPECT_EQ(s.network_name, "Lenet-c");
    EXPECT_EQ(s.network_hash, contentHash(writeNetworkJson(lenet->network)));
    EXPECT_EQ(s.array_hash, contentHash(writeArrayJson(lenet->array)));
    EXPECT_EQ(s.accelerators, 16);
    EXPECT_EQ(s.batch, 256);
    EXPECT_EQ(s.total_elements, hypar.eval().total_elements);
    EXPECT_EQ(s.time_step_s, hypar.eval().time_step_s);
    EXPECT_EQ(s.perf_vs_dp, hypar.perfVsDp());
    EXPECT_EQ(s.created_utc, hypar.created_utc);

    EXPECT_EQ(db.list({"Lenet-c", "", ""}).size(), 3u);
    EXPECT_EQ(db.list({"", lenet->array.name, ""}).size(), 3u);
    const auto dp = db.list({"", "", "dp"});
    ASSERT_EQ(dp.size(), 1u);
    EXPECT_EQ(dp[0].id, b);
    const auto both = db.list({"Lenet-c", "", "hypar"});
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0].id, c);
    EXPECT_TRUE(db.list({"no such network", "", ""}).empty());

    EXPECT_EQ(db.methods(), (std::vector<std::string>{"dp", "hypar"}));
    const auto networks = db.networkNames();
    ASSERT_EQ(networks.size(), 2u);
    EXPECT_LT(networks[0], networks[1]);
    EXPECT_EQ(db.arrayNames().size(), 2u);
}

TEST(Store, RenameAndRemove) {
    TempDir tmp;
    const std::string path = tmp.file("runs.db");
    ResultsDb db(path);
    ExploreRequest req;
    req.cells = levelCells({0}, 4);
    const auto keep = db.store(planRun(inputs(), Method::HyPar));
    const auto gone = db.store(exploreRun(inputs("cifar-c"), req));
    db.rename(keep, "baseline — ünïcode");
    EXPECT_EQ(db.load(keep).name, "baseline — ünïcode");
    EXPECT_EQ(db.list().back().name, "baseline — ünïcode");
    EXPECT_THROW(db.rename(9999, "x"), StoreError);

    db.remove(gone);
    EXPECT_THROW(db.load(gone), StoreError);
    EXPECT_THROW(db.remove(gone), StoreError);
    ASSERT_EQ(db.list().size(), 1u);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM run_levels WHERE run_id = " + std::to_string(gone)), 0);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM explorations"), 0);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM networks"), 1);  // cifar-c went with its last run
    EXPECT_EQ(db.networkNames(), (std::vector<std::string>{"Lenet-c"}));
    EXPECT_GT(db.store(planRun(inputs(), Method::ModelParallel)), gone);  // ids are not reused
}

TEST(Store, IdenticalInputsShareOneRow) {
    TempDir tmp;
    const std::string path = tmp.file("runs.db");
    CostParams small;
    small.batch = 32;
    {
        ResultsDb db(path);
        db.store(planRun(inputs(), Method::HyPar));
        db.store(planRun(inputs(), Method::DataParallel));  // loaded again: same content
        db.store(planRun(inputs("lenet-c", "hmc-htree-16", small), Method::HyPar));
    }
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM runs"), 3);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM networks"), 1);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM arrays"), 1);
}

TEST(Store, SchemaVersionAndReopen) {
    TempDir tmp;
    const std::string path = tmp.file("sub/dir/my runs?#%.db");  // folders are created; the name needs URI escapes
    std::int64_t id = 0;
    {
        ResultsDb db(path);
        id = db.store(planRun(inputs(), Method::HyPar));
    }
    EXPECT_EQ(scalar(path, "PRAGMA user_version"), ResultsDb::kSchemaVersion);
    ResultsDb again(path);
    EXPECT_EQ(again.load(id).id, id);
    ResultsDb second(path);  // a second connection (the CLI beside the GUI) sees the same runs
    const auto other = second.store(planRun(inputs(), Method::DataParallel));
    EXPECT_EQ(again.list().front().id, other);

    const std::string empty = tmp.file("empty.db");
    writeBytes(empty, "");  // an empty file is migrated from version 0
    ResultsDb fresh(empty);
    EXPECT_TRUE(fresh.list().empty());
    EXPECT_EQ(scalar(empty, "PRAGMA user_version"), ResultsDb::kSchemaVersion);
    EXPECT_EQ(query(empty, "PRAGMA journal_mode"), "wal");
}

TEST(Store, NewerSchemaIsRefusedUntouched) {
    TempDir tmp;
    const std::string path = tmp.file("newer.db");
    test::oneRunDatabase(path, "PRAGMA user_version = 99");
    expectRefused(path, "written by a newer Partita (schema 99, this build reads up to " +
                            std::to_string(ResultsDb::kSchemaVersion) + "); not modified");
}

TEST(Store, DamagedOrForeignFilesAreRefusedUntouched) {
    TempDir tmp;
    std::mt19937 rng(7);
    std::string noise(8192, '\0');
    for (char& ch : noise) ch = static_cast<char>(rng());
    writeBytes(tmp.file("noise.db"), noise);
    expectRefused(tmp.file("noise.db"), "not a Partita results database");

    writeBytes(tmp.file("notes.txt"), "These are my notes, not a database.\n");
    expectRefused(tmp.file("notes.txt"), "not a Partita results database");

    const std::string good = tmp.file("good.db");
    { ResultsDb(good).store(planRun(inputs(), Method::HyPar)); }
    const std::string whole = bytes(good);
    writeBytes(tmp.file("header.db"), whole.substr(0, 50));
    expectRefused(tmp.file("header.db"), "header is damaged");
    writeBytes(tmp.file("half.db"), whole.substr(0, whole.size() / 2));
    expectRefused(tmp.file("half.db"), "corrupt");

    execRaw(tmp.file("other.db"), "CREATE TABLE notes (text TEXT)");
    expectRefused(tmp.file("other.db"), "another program");

    execRaw(good, "DROP TABLE explorations");
    expectRefused(good, "table 'explorations' is missing");
}

TEST(Store, TamperedMetricsAreReported) {
    TempDir tmp;
    const std::string path = tmp.file("runs.db");
    ResultsDb db(path);
    const auto id = db.store(planRun(inputs(), Method::HyPar));
    execRaw(path, "UPDATE runs SET total_elements = total_elements + 1");
    try {
        db.load(id);
        FAIL() << "tampered run loaded";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("run " + std::to_string(id) + ": stored metrics do not match the "
                                             "engine's recomputation"),
                  std::string::npos)
            << e.what();
    }
}

// AccPar runs keep their model options and re-open with the same plan: a search
// on the mixed TPU array (re-searched on load) and an edit (priced as given).
TEST(Store, AccParRunsRoundTrip) {
    TempDir tmp;
    const std::string n = test::example("networks/alexnet.json");
    const std::string a = test::example("arrays/tpu-mixed-128.json");
    AccParParams options;
    options.ratio_model = RatioModel::P;
    options.balanced_baselines = true;
    const InputsPtr in = makeInputs(loadNetwork(n), loadArray(a), CostParams{}, n, a, options);
    EXPECT_FALSE(in->hyparApplies());
    const partita::Run searched = accparRun(in);
    Grid grid = searched.grid;
    grid.at(0, 0).split = Split::Output;
    const partita::Run edited = accparRun(in, &grid, RunKind::Edited, &searched.grid);

    ResultsDb db(tmp.file("r.sqlite"));
    const std::int64_t a_id = db.store(searched), b_id = db.store(edited);
    const partita::Run a_back = db.load(a_id), b_back = db.load(b_id);
    EXPECT_EQ(a_back.inputs->accpar.ratio_model, RatioModel::P);
    EXPECT_TRUE(a_back.inputs->accpar.balanced_baselines);
    EXPECT_EQ(a_back.grid, searched.grid);
    EXPECT_EQ(a_back.stepTime(), searched.stepTime());
    EXPECT_EQ(b_back.grid, edited.grid);
    EXPECT_EQ(b_back.reference, searched.grid);
    EXPECT_EQ(b_back.stepTime(), edited.stepTime());
    EXPECT_EQ(b_back.reference_step_s, searched.stepTime());
    EXPECT_EQ(db.list().front().perf_vs_dp, edited.accpar->speedupVsDp());
}

}  // namespace
}  // namespace partita

namespace partita::test {
namespace {

// A database with a few runs whose main file holds everything (closing checkpoints the WAL).
std::string goodDatabase(const TempDir& tmp, const std::string& name) {
    const std::string path = tmp.file(name);
    ResultsDb db(path);
    for (Method m : {Method::HyPar, Method::DataParallel, Method::ModelParallel}) db.store(planRun(inputs(), m));
    return path;
}

// Overwrites bytes at `offset` inside an existing file (after dropping the empty -wal/-shm the test's
// own read-only queries left, so that expectRefused sees only what ResultsDb does).
void damage(const std::string& path, std::int64_t offset, const std::string& with) {
    fs::remove(path + "-wal");
    fs::remove(path + "-shm");
    std::string all = bytes(path);
    ASSERT_LE(offset + static_cast<std::int64_t>(with.size()), static_cast<std::int64_t>(all.size()));
    all.replace(static_cast<size_t>(offset), with.size(), with);
    writeBytes(path, all);
}

TEST(StoreIntegrity, DamagedPagesAreRefusedBeforeAnyWrite) {
    TempDir tmp;
    // 1. The runs table's root page gets an invalid b-tree page type.
    const std::string table = goodDatabase(tmp, "table.db");
    const std::int64_t page = scalar(table, "PRAGMA page_size");
    const std::int64_t root = scalar(table, "SELECT rootpage FROM sqlite_master WHERE name = 'runs'");
    damage(table, (root - 1) * page, std::string(1, '\x07'));
    expectRefused(table, "the results database is damaged");

    // 2. Garbage in the middle of an index page: the rows no longer match their index.
    const std::string index = goodDatabase(tmp, "index.db");
    const std::int64_t index_root =
        scalar(index, "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs' LIMIT 1");
    damage(index, (index_root - 1) * page + page - 64, std::string(48, '\x5a'));
    expectRefused(index, "damaged");
}

TEST(StoreIntegrity, ReadOnlyDatabasesListAndLoadButNeverWrite) {
    TempDir tmp;
    const std::string path = goodDatabase(tmp, "ro.db");
    const std::string before = bytes(path);
    ResultsDb db(path, /*read_only=*/true);
    EXPECT_TRUE(db.readOnly());
    const auto runs = db.list();
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(db.load(runs.front().id).id, runs.front().id);
    try {
        db.store(planRun(inputs(), Method::HyPar));
        ADD_FAILURE() << "stored into a read-only database";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("open read-only; runs are not being stored"), std::string::npos) << e.what();
    }
    EXPECT_THROW(db.rename(runs.front().id, "x"), StoreError);
    EXPECT_THROW(db.remove(runs.front().id), StoreError);
    EXPECT_EQ(bytes(path), before);
    EXPECT_FALSE(fs::exists(path + "-wal"));
    EXPECT_THROW(ResultsDb(tmp.file("absent.db"), true), StoreError);
}

}  // namespace
}  // namespace partita::test
