// Sweeps against the results database: a point is stored as the same run started alone would be,
// keys are stable, a stop lets in-flight points finish, failures are recorded, and merging refuses
// databases of another schema without touching the output.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <set>

#include "core/io/network_io.h"
#include "core/sim/compute_cost.h"
#include "core/store/results_db.h"
#include "core/sweep/runner.h"
#include "store_test_util.h"

namespace partita::sweep {
namespace {

using test::TempDir;

Spec namedSpec(const std::string& body) {
    return readSpec(R"({"format": "partita-sweep/1", "name": "t", )" + body + "}", "s.json", "", PARTITA_EXAMPLES_DIR);
}

constexpr const char* kTen = R"("networks": ["lenet-c", "vgg-a"], "methods": ["hypar", "accpar"],
                                 "axes": {"levels": [1, 2, 3, 4, 5]}, "exclude": [{"method": "accpar", "network": "vgg-a"}])";

Report sweepInto(ResultsDb& db, const Spec& s, Options o = {}, const std::function<bool()>& stop = {}) {
    const PointInputs inputs(s);
    return run(inputs, plan(inputs, db.sweepPointStates(), o), db, o, {}, stop);
}

TEST(SweepRun, APointIsTheRunStartedAloneWithItsInputsAndParameters) {
    TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    const Spec s = namedSpec(R"("networks": ["lenet-c"], "methods": ["hypar"], "axes": {"levels": [3], "batch": [64]})");
    const Report r = sweepInto(db, s);
    EXPECT_EQ(r.ran, 1u);
    EXPECT_EQ(r.failed, 0u);
    const auto runs = db.list();
    ASSERT_EQ(runs.size(), 1u);
    // The same run from the application: the built-in network, HyPar's default array at H = 3, batch 64.
    CostParams params;
    params.batch = 64;
    const std::string path = test::example("networks/lenet-c.json");
    const partita::Run alone = planRun(makeInputs(loadNetwork(path), defaultArray(3), params, path), Method::HyPar);
    EXPECT_EQ(db.findIdentical(alone), runs[0].id);
    EXPECT_EQ(runs[0].network_hash, contentHash(writeNetworkJson(alone.inputs->network)));
    EXPECT_EQ(runs[0].name, "HyPar · Lenet-c · 8 acc");
    EXPECT_EQ(runs[0].batch, 64);
    EXPECT_EQ(db.load(runs[0].id).eval().total_elements, alone.eval().total_elements);
    // Storing the run alone afterwards is re-selecting it, and a sweep over a run stored alone
    // links its point to that run instead of storing a second copy.
    TempDir other;
    ResultsDb first(other.file("r.sqlite"));
    const std::int64_t id = first.store(alone);
    sweepInto(first, s);
    EXPECT_EQ(first.list().size(), 1u);
    EXPECT_EQ(test::scalar(other.file("r.sqlite"), "SELECT run_id FROM sweep_points"), id);
}

TEST(SweepRun, KeysAreStableAndSeparateEveryInputAndParameter) {
    const Spec s = namedSpec(kTen);
    const PointInputs a(s), b(s);
    const auto points = expand(s);
    ASSERT_EQ(points.size(), 15u);
    std::set<std::string> keys;
    for (const Point& p : points) {
        const std::string key = a.prepare(p).key;
        EXPECT_EQ(key, b.prepare(p).key);
        EXPECT_EQ(key.size(), 64u);
        keys.insert(key);
    }
    EXPECT_EQ(keys.size(), points.size());
    // The same content by another name is the same point.
    const Spec renamed = namedSpec(R"("networks": [")" + test::example("networks/lenet-c.json") +
                              R"("], "methods": ["hypar"], "axes": {"levels": [1]})");
    EXPECT_EQ(PointInputs(renamed).prepare(expand(renamed)[0]).key, a.prepare(points[0]).key);
}

// "kernels" prices a simulated point's compute by an LLM profile's curves, as `simulate --profile P
// --precision D` does (docs/formats/sweep.md): the prepared options are useKernelCurves', the profile
// is part of the point's key, and the stored run keeps the profile and precision.
TEST(SweepRun, KernelCurvesAreAMethodOptionOfSimulatedPoints) {
    const Spec s = namedSpec(R"("networks": ["lenet-c"], "topologies": ["p100-16"], "methods": [
        {"method": "simulate", "label": "peaks"},
        {"method": "simulate", "label": "a100-bf16", "kernels": {"profile": "a100-sxm4-80gb", "precision": "bf16"}},
        {"method": "simulate", "label": "h100", "kernels": {"profile": "h100-sxm5-80gb"}}],
        "axes": {"batch": [64]})");
    const PointInputs inputs(s);
    const auto points = expand(s);
    ASSERT_EQ(points.size(), 3u);
    std::vector<Prepared> prepared;
    for (const Point& p : points) prepared.push_back(inputs.prepare(p));
    EXPECT_EQ(prepared[0].sim.options.kernels, nullptr);
    sim::SimOptions expected;
    sim::useKernelCurves(expected, llm::profilePreset("a100-sxm4-80gb"), llm::Dtype::Bf16, "a100-sxm4-80gb");
    ASSERT_NE(prepared[1].sim.options.kernels, nullptr);
    EXPECT_EQ(prepared[1].sim.options.kernels->profile, "a100-sxm4-80gb");
    EXPECT_EQ(prepared[1].sim.options.kernels->dtype, llm::Dtype::Bf16);
    EXPECT_EQ(prepared[1].sim.options.element_bytes, expected.element_bytes);
    EXPECT_EQ(prepared[1].sim.options.gradient_bytes, expected.gradient_bytes);
    // Without a precision, the profile's parameter dtype (as simulate --profile).
    EXPECT_EQ(prepared[2].sim.options.kernels->dtype, llm::profilePreset("h100-sxm5-80gb").precision.param);
    EXPECT_NE(prepared[0].key, prepared[1].key);
    EXPECT_NE(prepared[1].key, prepared[2].key);
    TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    const Report r = sweepInto(db, s);
    EXPECT_EQ(r.ran, 3u);
    EXPECT_EQ(r.failed, 0u);
    std::map<std::string, double> makespan;
    for (const auto& row : db.list()) {
        const partita::Run run = db.load(row.id);
        ASSERT_TRUE(run.isSimulation());
        const auto& k = run.simulation->spec.options.kernels;
        makespan[k ? k->profile + "/" + llm::dtypeName(k->dtype) : "peaks"] = run.simulation->makespan_s;
    }
    ASSERT_EQ(makespan.size(), 3u);
    EXPECT_TRUE(makespan.contains("a100-sxm4-80gb/bf16"));
    // The curves, not the P100s' peaks, priced compute.
    EXPECT_NE(makespan["a100-sxm4-80gb/bf16"], makespan["peaks"]);
}

TEST(SweepRun, AStopLetsInFlightPointsFinishAndARerunCompletesTheSweep) {
    TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    const Spec s = namedSpec(kTen);
    std::atomic<int> asked{0};
    const Report first = sweepInto(db, s, {}, [&] { return ++asked > 4; });  // four points start
    EXPECT_TRUE(first.stopped);
    EXPECT_EQ(first.ran, 4u);
    EXPECT_EQ(db.list().size(), 4u);
    const PointInputs inputs(s);
    const Plan rest = plan(inputs, db.sweepPointStates(), {});
    EXPECT_EQ(rest.stored, 4u);
    EXPECT_EQ(rest.todo.size(), 11u);
    EXPECT_EQ(rest.todo.front(), 4u);
    const Report second = run(inputs, rest, db, {});
    EXPECT_FALSE(second.stopped);
    EXPECT_EQ(second.ran, 11u);
    EXPECT_EQ(db.list().size(), 15u);
    EXPECT_EQ(plan(inputs, db.sweepPointStates(), {}).todo.size(), 0u);
}

TEST(SweepRun, FailuresAreRecordedSkippedOnRerunAndRetriedOnRequest) {
    TempDir dir;
    const std::string path = dir.file("r.sqlite");
    ResultsDb db(path);
    // HyPar cannot plan ResNet-18 (it branches); the file does not exist.
    const Spec s = namedSpec(R"("networks": ["lenet-c", "resnet-18", "no/such.json"], "methods": ["hypar"])");
    const Report r = sweepInto(db, s, {2, 0, 1, false});
    EXPECT_EQ(r.ran, 3u);
    EXPECT_EQ(r.failed, 2u);
    ASSERT_EQ(r.failures.size(), 2u);
    EXPECT_EQ(r.failures[0].index, 1u);
    EXPECT_EQ(r.failures[0].error.substr(r.failures[0].error.find(": ") + 2, 49),
              "HyPar needs a chain of weighted layers, but the g");
    EXPECT_EQ(r.failures[1].point, R"({"array":"levels=4","method":"hypar","network":"no/such.json"})");
    EXPECT_EQ(r.failures[1].error, "no/such.json: cannot open the file");
    EXPECT_EQ(db.list().size(), 1u);
    EXPECT_EQ(test::scalar(path, "SELECT count(*) FROM sweep_points WHERE error IS NOT NULL AND run_id IS NULL"), 2);
    EXPECT_EQ(test::query(path, "SELECT point_json FROM sweep_points WHERE error LIKE 'no/such%'"),
              R"({"array":"levels=4","method":"hypar","network":"no/such.json"})");
    const Report again = sweepInto(db, s);
    EXPECT_EQ(again.ran, 0u);
    ASSERT_EQ(again.failures.size(), 2u);
    EXPECT_TRUE(again.failures[0].earlier);
    const Report retried = sweepInto(db, s, {1, 0, 1, true});
    EXPECT_EQ(retried.ran, 2u);
    EXPECT_EQ(retried.failed, 2u);
    EXPECT_EQ(test::scalar(path, "SELECT count(*) FROM sweep_points"), 3);
}

TEST(SweepRun, SchemaThreeIsMigratedWithNoPoints) {
    TempDir dir;
    const std::string path = dir.file("v3.sqlite");
    const std::int64_t old_id = test::oneRunDatabase(path, "DROP TABLE sweep_points; PRAGMA user_version = 3");
    ResultsDb db(path);
    EXPECT_EQ(test::scalar(path, "PRAGMA user_version"), 4);
    EXPECT_TRUE(db.sweepPointStates().empty());
    EXPECT_EQ(db.load(old_id).grid.toStrings(), test::kLenetHyparGrid);
    EXPECT_EQ(sweepInto(db, namedSpec(kTen)).ran, 15u);
    EXPECT_EQ(db.list().size(), 16u);  // the old run's array file is named apart from the generated array
}

TEST(SweepRun, MergeRefusesAnotherSchemaNamingTheFileAndChangesNothing) {
    TempDir dir;
    const std::string out = dir.file("out.sqlite"), newer = dir.file("newer.sqlite"), older = dir.file("older.sqlite");
    test::oneRunDatabase(newer, "PRAGMA user_version = 99");
    test::oneRunDatabase(older, "PRAGMA user_version = 3");
    ResultsDb db(out);
    sweepInto(db, namedSpec(kTen));
    EXPECT_EQ(test::errorOf<StoreError>([&] { db.merge(newer); }),
              newer + ": written by a newer Partita (schema 99, this build reads up to 4); not modified");
    EXPECT_EQ(test::errorOf<StoreError>([&] { db.merge(older); }),
              older + ": schema 3, the output has schema 4; migrate it first (partita-cli merge-db " + older +
                      " opens it read-write and merges nothing); nothing was merged");
    EXPECT_EQ(test::errorOf<StoreError>([&] { db.merge(dir.file("none.sqlite")); }),
              dir.file("none.sqlite") + ": no such results database");
    EXPECT_EQ(db.list().size(), 15u);
    EXPECT_EQ(test::scalar(out, "SELECT count(*) FROM sweep_points"), 15);
}

TEST(SweepRun, MergeAddsOnlyWhatIsMissingAndUpgradesAFailedPoint) {
    TempDir dir;
    const std::string a = dir.file("a.sqlite"), b = dir.file("b.sqlite");
    {
        ResultsDb db(a);
        sweepInto(db, namedSpec(kTen), {1, 0, 2, false});  // even points
        ResultsDb other(b);
        sweepInto(other, namedSpec(kTen), {1, 0, 3, false});  // every third point
    }
    ResultsDb db(a);
    const ResultsDb::MergeCount c = db.merge(b);
    EXPECT_EQ(c.runs_added, 2u);    // points 3 and 9 (0, 6 and 12 are even)
    EXPECT_EQ(c.runs_skipped, 3u);
    EXPECT_EQ(c.points_added, 2u);
    EXPECT_EQ(c.points_skipped, 3u);
    EXPECT_EQ(db.list().size(), 10u);
    // A point that failed here and ran there is taken from there.
    test::execRaw(a, "UPDATE sweep_points SET run_id = NULL, error = 'lost' WHERE run_id = (SELECT min(id) FROM runs)");
    const ResultsDb::MergeCount again = db.merge(b);
    EXPECT_EQ(again.runs_added, 0u);
    EXPECT_EQ(again.points_added, 1u);
    EXPECT_EQ(test::scalar(a, "SELECT count(*) FROM sweep_points WHERE error IS NOT NULL"), 0);
}

}  // namespace
}  // namespace partita::sweep
