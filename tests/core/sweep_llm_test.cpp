// The LLM planner in sweeps (issue 28 item 4, docs/guide/sweeps.md#llm-axes): plan dimensions as axes
// over an entry's base settings; every point is llm::evaluate of its plan, an invalid point fails alone
// naming its field, and an axis llm does not know is refused when the spec is read.
#include <gtest/gtest.h>

#include "core/llm/evaluate.h"
#include "core/llm/numbers.h"
#include "core/llm/runs.h"
#include "core/store/results_db.h"
#include "core/sweep/runner.h"
#include "core/sweep/table.h"
#include "store_test_util.h"

namespace partita::sweep {
namespace {

using test::TempDir;

constexpr const char* kBase =
    R"({"method": "llm", "settings": {"model": "gpt3-1.3b", "profile": "a100-sxm4-80gb", "gpus": 16,
        "plan": {"global_batch": 64, "micro_batch": 1, "recompute": "selective"}}})";

Spec llmSpec(const std::string& axes, const std::string& method = kBase) {
    return readSpec(R"({"format": "partita-sweep/1", "name": "llm", "methods": [)" + method + R"(], "axes": )" + axes +
                        "}",
                    "s.json", "", PARTITA_EXAMPLES_DIR);
}

std::string llmSpecError(const std::string& axes, const std::string& method = kBase) {
    try {
        llmSpec(axes, method);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(accepted)";
}

Report llmSweepInto(ResultsDb& db, const Spec& s) {
    const PointInputs inputs(s);
    const Options o;
    return run(inputs, plan(inputs, db.sweepPointStates(), o), db, o);
}

// The plan `llm evaluate --tp T --pp P --gpus 16 --global-batch 64 --recompute selective` evaluates.
llm::Evaluation llmAlone(std::int64_t tp, std::int64_t pp) {
    llm::Plan p;
    p.tp = tp;
    p.pp = pp;
    p.dp = 16 / (tp * pp);
    p.global_batch = 64;
    p.recompute = llm::Recompute::Selective;
    return llm::evaluate(llm::modelPreset("gpt3-1.3b"), p, llm::profilePreset("a100-sxm4-80gb"));
}

TEST(SweepLlm, EveryPointOfATpByPpSweepIsLlmEvaluateOfItsPlanExactly) {
    const Spec s = llmSpec(R"({"tp": [1, 2, 4], "pp": [1, 2, 4]})");
    const auto points = expand(s);
    ASSERT_EQ(points.size(), 9u);
    // No network or array: the point is its method and plan axes.
    EXPECT_EQ(points[5].describe(s), (Json{{"method", "llm"}, {"tp", 2}, {"pp", 4}}));
    TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    const Report r = llmSweepInto(db, s);
    EXPECT_EQ(r.ran, 9u);
    EXPECT_EQ(r.failed, 0u);
    const Table t = readTable(db);
    ASSERT_EQ(t.rows.size(), 9u);
    EXPECT_EQ(t.axes, (std::vector<std::string>{"method", "tp", "pp"}));
    const int tp = t.axisIndex("tp"), pp = t.axisIndex("pp");
    for (const TableRow& row : t.rows) {
        ASSERT_TRUE(row.ok()) << row.error;
        const llm::Evaluation e = llmAlone(std::stoll(row.axes[static_cast<std::size_t>(tp)]),
                                        std::stoll(row.axes[static_cast<std::size_t>(pp)]));
        // The stored run, opened again (and so evaluated again), and the table: the same numbers.
        const MethodRun stored = db.loadMethod(row.run_id);
        EXPECT_EQ(stored.summary.time_s, e.iteration_s);
        EXPECT_EQ(stored.summary.traffic_B, e.peak_bytes);
        EXPECT_EQ(stored.summary.energy_J, e.mfu);
        EXPECT_EQ(row.metric(Metric::StepTime), e.iteration_s);
        EXPECT_EQ(row.metric(Metric::Communication), e.peak_bytes / llm::kGiB);
        EXPECT_EQ(row.metric(Metric::Energy), 100 * e.mfu);
        EXPECT_EQ(row.metric(Metric::Speedup), e.fits ? 1 : 0);  // llm's verdict in the speed-up's place
    }
    // The table names the metrics by llm's summary labels (SummaryLabels), in the exports too.
    EXPECT_EQ(t.column(Metric::StepTime).label, "iteration (s)");
    EXPECT_EQ(t.column(Metric::Communication).label, "peak memory (GiB)");
    EXPECT_EQ(t.column(Metric::Energy).label, "MFU (%)");
    EXPECT_TRUE(t.column(Metric::Energy).maximise);
    const CsvTable csv = tableCsv(t);
    EXPECT_EQ(csv.header, (std::vector<std::string>{"tp", "pp", "iteration_s", "mfu_pct", "peak_memory_gib", "fits",
                                                    "method", "status", "run_id"}));
    const Json j = tableJson(t);
    EXPECT_EQ(j["points"][0]["iteration_s"], llmAlone(1, 1).iteration_s);
    EXPECT_EQ(j["points"][0]["fits"], true);
    // A rerun finds every point stored.
    EXPECT_EQ(llmSweepInto(db, s).ran, 0u);
}

// Issue 28 follow-up: whether each plan fits is a column of its own (yes/no, sortable as 1/0), and the
// axes that vary come before the metrics (constant ones after), in the CSV and the JSON.
TEST(SweepLlm, TheTableSaysWhetherEachPlanFitsAndPutsTheVaryingAxesFirst) {
    const Spec s = llmSpec(R"({"tp": [1, 8], "pp": [1, 2]})",
                           R"({"method": "llm", "settings": {"model": "gpt3-13b", "gpus": 16,
                               "plan": {"global_batch": 64, "recompute": "selective"}}})");
    TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    ASSERT_EQ(llmSweepInto(db, s).failed, 0u);
    const Table t = readTable(db);
    ASSERT_EQ(t.rows.size(), 4u);
    const MetricColumn& fits = t.column(Metric::Speedup);
    EXPECT_TRUE(fits.yes_no);
    EXPECT_EQ(fits.key, "fits");
    EXPECT_EQ(fits.label, "fits");
    int yes = 0;
    for (const TableRow& row : t.rows) {
        llm::Plan p;
        p.tp = std::stoll(row.axes[static_cast<std::size_t>(t.axisIndex("tp"))]);
        p.pp = std::stoll(row.axes[static_cast<std::size_t>(t.axisIndex("pp"))]);
        p.dp = 16 / (p.tp * p.pp);
        p.global_batch = 64;
        p.recompute = llm::Recompute::Selective;
        const llm::Evaluation e = llm::evaluate(llm::modelPreset("gpt3-13b"), p, llm::profilePreset("a100-sxm4-80gb"));
        EXPECT_EQ(row.metric(Metric::Speedup), e.fits ? 1.0 : 0.0);
        yes += e.fits ? 1 : 0;
    }
    EXPECT_EQ(yes, 2);  // tp = 1, pp = 1 and tp = 1, pp = 2 hold all 13B weights and optimizer state: no
    EXPECT_TRUE(t.varies(t.axisIndex("tp")));
    EXPECT_FALSE(t.varies(t.axisIndex("method")));
    const CsvTable csv = tableCsv(t);
    EXPECT_EQ(csv.header, (std::vector<std::string>{"tp", "pp", "iteration_s", "mfu_pct", "peak_memory_gib", "fits",
                                                    "method", "status", "run_id"}));
    EXPECT_EQ(csv.rows[0][0], "1");
    EXPECT_EQ(csv.rows[0][5], "no");
    EXPECT_EQ(csv.rows[3][5], "yes");
    const Json j = tableJson(t);
    EXPECT_EQ(j["varying_axes"], (Json{"tp", "pp"}));
    EXPECT_EQ(j["points"][0]["fits"], false);
    EXPECT_EQ(j["points"][3]["fits"], true);
    EXPECT_EQ(j["columns"][3], (Json{{"key", "fits"}, {"label", "fits"}, {"maximise", true}, {"type", "boolean"}}));
}

TEST(SweepLlm, BesideOtherMethodsLlmIgnoresNetworksArraysAndTheirAxes) {
    const Spec s = readSpec(std::string(R"({"format": "partita-sweep/1", "name": "mixed", "networks": ["lenet-c", "vgg-a"],
                                            "methods": ["hypar", )") + kBase + R"(], "axes": {"levels": [1, 2], "tp": [1, 2]}})",
                            "s.json", "", PARTITA_EXAMPLES_DIR);
    const auto points = expand(s);
    ASSERT_EQ(points.size(), 6u);  // hypar: 2 networks x 2 levels; llm: 2 tp
    EXPECT_EQ(points[2].describe(s), (Json{{"method", "llm"}, {"tp", 1}}));  // under the first network
    EXPECT_EQ(points[3].describe(s), (Json{{"method", "llm"}, {"tp", 2}}));
    TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    EXPECT_EQ(llmSweepInto(db, s).failed, 0u);
    // Two methods: the table keeps its own metric names, the values as stored.
    const Table t = readTable(db);
    EXPECT_EQ(t.column(Metric::StepTime).label, "Step time (s)");
    EXPECT_EQ(t.rows[3].metric(Metric::Communication), llmAlone(2, 1).peak_bytes);
}

TEST(SweepLlm, AnInvalidPointFailsAloneNamingItsField) {
    // tp = 3 divides neither the 16 heads nor 16 GPUs; pp = 5 does not divide 24 layers.
    const Spec s = llmSpec(R"({"tp": [2, 3], "pp": [2, 5], "dp": [2]})",
                           R"({"method": "llm", "settings": {"model": "gpt3-1.3b", "plan": {"global_batch": 64}}})");
    TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    const Report r = llmSweepInto(db, s);
    EXPECT_EQ(r.ran, 4u);
    ASSERT_EQ(r.failed, 3u);
    EXPECT_EQ(r.failures[0].point, R"({"dp":2,"method":"llm","pp":5,"tp":2})");
    EXPECT_EQ(r.failures[0].error, "pp: pp = 5 must divide layers = 24 (or allow an uneven split)");
    EXPECT_EQ(r.failures[1].error, "tp: tp = 3 must divide heads = 16");
    // The GPU count and the degrees disagree: the point names gpus.
    const Spec g = llmSpec(R"({"gpus": [8, 12], "dp": [2]})");
    const Report rg = llmSweepInto(db, g);
    ASSERT_EQ(rg.failed, 2u);
    EXPECT_EQ(rg.failures[0].error, "gpus: gpus = 8 differs from tp x pp x dp x cp = 2");
    const Spec h = llmSpec(R"({"gpus": [12], "tp": [8]})");
    const Report rh = llmSweepInto(db, h);
    ASSERT_EQ(rh.failed, 1u);
    EXPECT_EQ(rh.failures[0].error, "gpus: gpus = 12 is not a multiple of tp x pp x cp = 8");
}

TEST(SweepLlm, AnAxisLlmDoesNotReadIsRefusedWithTheFileAndPointer) {
    EXPECT_EQ(llmSpecError(R"({"tensor_parallel": [2]})").find("s.json: /axes/tensor_parallel: unknown axis "
                                                              "'tensor_parallel' (batch, out_size, "),
              0u);
    EXPECT_EQ(llmSpecError(R"({"tp": [1], "batch": [64]})").substr(0, 98),
              "s.json: /axes/batch: no method of this sweep reads axis 'batch' (llm reads tp, pp, dp, micro_batch");
    EXPECT_EQ(llmSpecError(R"({"schedule": ["1f1b", "zigzag"]})"),
              "s.json: /axes/schedule/1: axis 'schedule' takes \"gpipe\", \"1f1b\" or \"interleaved\", found \"zigzag\"");
    EXPECT_EQ(llmSpecError(R"({"zero": [4]})"), "s.json: /axes/zero/0: axis 'zero' takes integers from 0 to 3, found 4");
    EXPECT_EQ(llmSpecError(R"({"sequence_parallel": ["on"]})"),
              "s.json: /axes/sequence_parallel/0: axis 'sequence_parallel' takes true or false, found \"on\"");
    // The base: settings are required, and their keys checked where they are.
    EXPECT_EQ(llmSpecError(R"({"tp": [1]})", R"("llm")").substr(0, 44), "s.json: /methods/0: llm needs its \"settings\"");
    EXPECT_EQ(llmSpecError(R"({"tp": [1]})", R"({"method": "llm", "settings": {"model": "gpt3-1.3b", "tp": 2}})"),
              "s.json: /methods/0/settings/tp: unknown key 'tp'");
    EXPECT_EQ(llmSpecError(R"({"tp": [1]})", R"({"method": "llm", "settings": {"model": "gpt3-1.3b", "gpus": 8,
                                                 "plan": {"dp": 2}}})"),
              "s.json: /methods/0/settings/gpus: give \"gpus\" or the plan's \"dp\", not both");
}

}  // namespace
}  // namespace partita::sweep
