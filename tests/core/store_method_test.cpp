// MPT and Learn-to-Scale evaluations in the results database (schema 3): stored
// as settings, listed, renamed and removed like any run, re-opened with the
// engine's same numbers; the migration from schema 2; damaged settings.
#include "core/io/network_io.h"
#include "core/run/method_run.h"
#include "core/store/method_codec.h"
#include "core/store/results_db.h"
#include "store_test_util.h"

namespace partita {
namespace {

using namespace test;

// WRN-40-10 under w_mp+ with one layer forced off dynamic clustering's pick.
MptSettings mptSettings() {
    MptSettings s;
    s.workload = "wrn-40-10";
    s.network_json = writeNetworkJson(loadNetwork(example("networks/wrn-40-10.json")));
    s.scenario = mpt::Scenario::WMpPlus;
    s.model.objective = mpt::Objective::TotalTime;
    s.model.passes = 1;
    const mpt::Evaluation e = evaluateMpt(s);
    s.overrides.assign(e.layers.size(), std::nullopt);
    for (size_t l = 0; l < e.layers.size(); ++l) {
        const mpt::LayerResult& r = e.layers[l];
        for (size_t k = 0; r.mpt && k < r.options.size(); ++k)
            if (static_cast<int>(k) != r.chosen && r.options[k].buildable) {
                s.overrides[l] = r.options[k].grid;
                return s;
            }
    }
    ADD_FAILURE() << "no layer to override";
    return s;
}

// ConvNet, grouped scenario, with the second boundary changed to another scheme.
L2sSettings l2sSettings() {
    L2sSettings s;
    s.preset = "convnet";
    s.network_json = writeNetworkJson(loadNetwork(example("networks/" + l2s::preset("convnet").network_file)));
    s.cores = 16;
    s.scenario = L2sScenario::Grouped;
    const auto ev = l2sEvaluator(s);
    s.schemes = schemesOf(l2sStrategies(*ev, l2sPreset(s.preset, ev->layers()), s.scenario).shown);
    s.schemes[1] = s.schemes[1] == l2s::Scheme::Sparse ? l2s::Scheme::Traditional : l2s::Scheme::Sparse;
    return s;
}

std::vector<int> chosen(const mpt::Evaluation& e) {
    std::vector<int> out;
    for (const auto& l : e.layers) out.push_back(l.chosen);
    return out;
}

void expectError(const ResultsDb& db, std::int64_t id, const std::vector<std::string>& words) {
    try {
        db.loadMethod(id);
        ADD_FAILURE() << "run " << id << " loaded";
    } catch (const StoreError& e) {
        for (const std::string& w : words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
    }
}

TEST(StoreMethod, MptRoundTripsWithItsOverride) {
    TempDir tmp;
    ResultsDb db(tmp.file("runs.db"));
    const MptSettings s = mptSettings();
    const mpt::Evaluation e = evaluateMpt(s);
    const MethodRun run = methodRun(s, e);
    const std::int64_t id = db.storeMethod(run);

    const std::vector<RunSummary> list = db.list();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].method, "mpt");
    EXPECT_EQ(list[0].kind, RunKind::Evaluate);
    EXPECT_EQ(list[0].name, run.name);
    EXPECT_EQ(list[0].array_name, "256 NDP workers");
    EXPECT_EQ(list[0].accelerators, 256);
    EXPECT_EQ(list[0].time_step_s, e.totals.total_s);
    EXPECT_EQ(list[0].perf_vs_dp, e.speedupVsWdp());
    EXPECT_EQ(db.methods(), std::vector<std::string>{"mpt"});
    EXPECT_TRUE(db.isMethodRun(id));

    const MethodRun back = db.loadMethod(id);
    EXPECT_EQ(back.name, run.name);
    EXPECT_EQ(store::mptSettingsToJson(back.mpt), store::mptSettingsToJson(s));
    EXPECT_EQ(back.mpt.network_json, s.network_json);
    const mpt::Evaluation again = evaluateMpt(back.mpt);
    EXPECT_EQ(again.totals.total_s, e.totals.total_s);
    EXPECT_EQ(again.totals.comm_bytes, e.totals.comm_bytes);
    EXPECT_EQ(chosen(again), chosen(e));
    EXPECT_THROW(db.load(id), StoreError);  // not a grid run
}

TEST(StoreMethod, MptLayerStudyNeedsNoNetworkFile) {
    TempDir tmp;
    ResultsDb db(tmp.file("runs.db"));
    MptSettings s;
    s.workload = "layers-5x5";
    const std::int64_t id = db.storeMethod(methodRun(s, evaluateMpt(s)));
    EXPECT_EQ(db.list()[0].network_name, "Table II layers 5x5");
    const MethodRun back = db.loadMethod(id);
    EXPECT_TRUE(back.mpt.network_json.empty());
    EXPECT_EQ(back.summary.time_s, evaluateMpt(s).totals.total_s);
}

TEST(StoreMethod, MptModelOptionsAreStoredAndOlderRowsReadTheA9Model) {
    TempDir tmp;
    ResultsDb db(tmp.file("runs.db"));
    MptSettings s;
    s.model.array_dim = 96;
    s.model.transform_unit = mpt::TransformUnit::Vector;
    s.model.vector_flops_per_cycle = 1024;
    s.model.overlap = mpt::Overlap::Sum;
    s.model.bytes_per_element = 2;
    const mpt::Evaluation e = evaluateMpt(s);
    EXPECT_NE(e.totals.total_s, evaluateMpt(MptSettings{}).totals.total_s);  // the options matter
    const MethodRun back = db.loadMethod(db.storeMethod(methodRun(s, e)));
    EXPECT_EQ(back.mpt.model, s.model);
    EXPECT_EQ(back.summary.time_s, e.totals.total_s);
    // A row written before the MPT model options (docs/methods/mpt.md#stored-runs-keep-their-model; no transform unit, overlap or wire width; before that no
    // array or vector rate): it re-opens with the model it was evaluated with, the a9 preset.
    for (const char* gone : {"", "array_dim"}) {
        Json old = store::mptSettingsToJson(MptSettings{});
        for (const char* key : {"transform_unit", "overlap", "bytes_per_element", "vector_flops_per_cycle", gone})
            old.erase(key);
        if (std::string(gone).empty()) old["array_dim"] = 64;
        const MptSettings read = store::readMptSettingsJson(old, "t");
        EXPECT_EQ(read.model, mpt::presetOptions(mpt::Preset::A9)) << gone;
        EXPECT_EQ(mpt::presetOf(read.model), mpt::Preset::A9);
        // ... and gives the old numbers: the vector unit at 64 FLOP/cycle, phases summed.
        mpt::ScenarioParams old_params;
        old_params.model.worker.transform_unit = mpt::TransformUnit::Vector;
        old_params.model.worker.overlap = mpt::Overlap::Sum;
        EXPECT_EQ(evaluateMpt(read).totals.total_s,
                  mpt::evaluate(mpt::layerStudy(), mpt::Scenario::WMpPlusStar, old_params).totals.total_s);
    }
}

TEST(StoreMethod, L2sRoundTripsWithAChangedBoundary) {
    TempDir tmp;
    ResultsDb db(tmp.file("runs.db"));
    const L2sSettings s = l2sSettings();
    const L2sResult r = evaluateL2s(s);
    const std::int64_t id = db.storeMethod(methodRun(s, r));
    const RunSummary summary = db.list().at(0);
    EXPECT_EQ(summary.method, "l2s");
    EXPECT_EQ(summary.array_name, "4x4 mesh");
    EXPECT_EQ(summary.accelerators, 16);
    EXPECT_EQ(summary.time_step_s, r.eval.time_s);

    const MethodRun back = db.loadMethod(id);
    EXPECT_EQ(store::l2sSettingsToJson(back.l2s), store::l2sSettingsToJson(s));
    EXPECT_EQ(back.l2s.schemes, s.schemes);
    const L2sResult again = evaluateL2s(back.l2s);
    EXPECT_EQ(again.eval.time_s, r.eval.time_s);
    EXPECT_EQ(again.eval.volume_B, r.eval.volume_B);
    ASSERT_EQ(again.eval.rows.size(), r.eval.rows.size());
    for (size_t l = 0; l < r.eval.rows.size(); ++l) EXPECT_EQ(again.eval.rows[l].scheme, r.eval.rows[l].scheme);
}

TEST(StoreMethod, RenameFilterAndRemoveLikeAnyRun) {
    TempDir tmp;
    const std::string path = tmp.file("runs.db");
    ResultsDb db(path);
    const std::int64_t a = db.storeMethod(methodRun(mptSettings(), evaluateMpt(mptSettings())));
    const std::int64_t b = db.storeMethod(methodRun(l2sSettings(), evaluateL2s(l2sSettings())));
    db.store(planRun(inputs(), Method::HyPar));
    EXPECT_EQ(db.list({"", "", "l2s"}).size(), 1u);
    EXPECT_EQ(db.list({"", "4x4 mesh", ""}).at(0).id, b);
    db.rename(a, "wide layers");
    EXPECT_EQ(db.loadMethod(a).name, "wide layers");
    db.remove(a);
    db.remove(b);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM method_runs"), 0);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM runs"), 1);
    EXPECT_EQ(db.arrayNames().size(), 1u);  // the hardware rows went with their runs
    EXPECT_THROW(db.loadMethod(a), StoreError);
}

// A schema-2 file (before these evaluations) is migrated in place and keeps its runs.
TEST(StoreMethod, SchemaTwoIsMigrated) {
    TempDir tmp;
    const std::string path = tmp.file("v2.sqlite");
    const std::int64_t old_id = oneRunDatabase(path, "DROP TABLE method_runs; DROP TABLE sweep_points; PRAGMA user_version = 2");
    ResultsDb db(path);
    EXPECT_EQ(scalar(path, "PRAGMA user_version"), ResultsDb::kSchemaVersion);
    EXPECT_EQ(db.load(old_id).grid.toStrings(), kLenetHyparGrid);
    EXPECT_FALSE(db.isMethodRun(old_id));
    MptSettings s;
    const std::int64_t id = db.storeMethod(methodRun(s, evaluateMpt(s)));
    EXPECT_EQ(db.loadMethod(id).summary.time_s, evaluateMpt(s).totals.total_s);
    EXPECT_EQ(db.list().size(), 2u);
}

TEST(StoreMethod, NewerSchemaIsStillRefusedUntouched) {
    TempDir tmp;
    const std::string path = tmp.file("newer.db");
    { ResultsDb(path).storeMethod(methodRun(MptSettings{}, evaluateMpt(MptSettings{}))); }
    execRaw(path, "PRAGMA user_version = 5");
    expectRefused(path, "schema 5, this build reads up to 4); not modified");
}

TEST(StoreMethod, L2sRowsFromBeforeTheModelOptionsReopenWithTheOldModels) {
    // A run evaluated with the old models (docs/methods/l2s.md#model-options: channel-only, ideal, neighbours-only SS_Mask),
    // its settings row then written in the old form, without the model-option fields.
    TempDir tmp;
    const std::string path = tmp.file("runs.db");
    ResultsDb db(path);
    L2sSettings old = l2sSettings();
    old.scenario = L2sScenario::SsMask;
    old.schemes.clear();
    old.compute = l2s::ComputeModel::ChannelOnly;
    old.comm = l2s::CommModel::Ideal;
    old.hop_keep = {1, 0, 0};
    const L2sResult r = evaluateL2s(old);
    L2sSettings fresh;
    fresh.preset = old.preset;
    fresh.network_json = old.network_json;
    fresh.scenario = old.scenario;
    EXPECT_NE(r.eval.time_s, evaluateL2s(fresh).eval.time_s);  // the models matter
    const std::int64_t id = db.storeMethod(methodRun(old, r));
    execRaw(path, "UPDATE method_runs SET settings_json = json_remove(settings_json, '$.compute', '$.comm', "
                  "'$.burst_rate', '$.hop_keep')");
    const MethodRun back = db.loadMethod(id);  // recomputed and checked against the stored numbers
    EXPECT_EQ(back.l2s.compute, l2s::ComputeModel::ChannelOnly);
    EXPECT_EQ(back.l2s.comm, l2s::CommModel::Ideal);
    EXPECT_EQ(back.l2s.hop_keep, (std::vector<double>{1, 0, 0}));
    EXPECT_EQ(evaluateL2s(back.l2s).eval.time_s, r.eval.time_s);
    // The old JSON form read alone (a run file of before): the same old models.
    const L2sSettings read = store::readL2sSettingsJson(
        Json::parse(R"({"preset": "lenet", "cores": 16, "scenario": "ss_mask", "schemes": []})"), "t");
    EXPECT_EQ(read.compute, l2s::ComputeModel::ChannelOnly);
    EXPECT_EQ(read.comm, l2s::CommModel::Ideal);
    EXPECT_EQ(read.hop_keep, (std::vector<double>{1, 0, 0}));
    // New settings store every field, the preset's hop keep resolved.
    fresh.preset = "lenet";
    const Json now = store::l2sSettingsToJson(fresh);
    EXPECT_EQ(now.at("compute"), "lane-filling");
    EXPECT_EQ(now.at("comm"), "burst");
    EXPECT_EQ(now.at("burst_rate"), 0.4);
    EXPECT_EQ(now.at("hop_keep"), (std::vector<double>{1, 0.106, 0}));
    Json bad = now;
    bad["hop_keep"] = {1, 2, 0};
    EXPECT_THROW(store::readL2sSettingsJson(bad, "t"), InputError);
}

TEST(StoreMethod, DamagedSettingsAreReportedWithTheRunAndPlace) {
    TempDir tmp;
    const std::string path = tmp.file("runs.db");
    ResultsDb db(path);
    const std::int64_t mpt_id = db.storeMethod(methodRun(mptSettings(), evaluateMpt(mptSettings())));
    const std::int64_t l2s_id = db.storeMethod(methodRun(l2sSettings(), evaluateL2s(l2sSettings())));
    const std::string run = "run " + std::to_string(mpt_id);

    execRaw(path, "UPDATE method_runs SET settings_json = replace(settings_json, 'w_mp+', 'w_mp?') WHERE run_id = " +
                      std::to_string(mpt_id));
    expectError(db, mpt_id, {path, run, "/scenario", "w_mp?"});
    execRaw(path, "UPDATE method_runs SET settings_json = '{\"workload\": ' WHERE run_id = " + std::to_string(mpt_id));
    expectError(db, mpt_id, {run, "line 1"});
    execRaw(path, "UPDATE method_runs SET settings_json = "
                  "replace(settings_json, '\"cores\":16', '\"cores\":16,\"x\":1') WHERE run_id = " +
                      std::to_string(l2s_id));
    expectError(db, l2s_id, {"run " + std::to_string(l2s_id), "/x", "unknown key"});
    execRaw(path, "UPDATE method_runs SET settings_json = replace(settings_json, '\"sparse\"', '\"dense\"') "
                  "WHERE run_id = " + std::to_string(l2s_id));
    execRaw(path, "UPDATE method_runs SET settings_json = replace(settings_json, ',\"x\":1', '') WHERE run_id = " +
                      std::to_string(l2s_id));
    expectError(db, l2s_id, {"/schemes/", "dense"});
}

TEST(StoreMethod, TamperedNumbersAreReported) {
    TempDir tmp;
    const std::string path = tmp.file("runs.db");
    ResultsDb db(path);
    const std::int64_t id = db.storeMethod(methodRun(l2sSettings(), evaluateL2s(l2sSettings())));
    execRaw(path, "UPDATE method_runs SET time_s = time_s * 2");
    expectError(db, id, {"run " + std::to_string(id), "do not match the engine's recomputation"});
}

TEST(StoreMethod, OverridesAreReadStrictly) {
    const Json good = store::mptSettingsToJson(mptSettings());
    EXPECT_EQ(store::mptSettingsToJson(store::readMptSettingsJson(good, "t")), good);
    Json bad = good;
    bad["overrides"][0] = Json{0, 16};
    try {
        store::readMptSettingsJson(bad, "t");
        FAIL() << "accepted [0, 16]";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("/overrides/0"), std::string::npos) << e.what();
    }
    bad = good;
    bad["passes"] = 3;
    EXPECT_THROW(store::readMptSettingsJson(bad, "t"), InputError);
}

}  // namespace
}  // namespace partita
