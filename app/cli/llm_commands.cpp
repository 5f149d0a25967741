// partita-cli llm: training plans for dense transformers (docs/methods/llm.md): evaluate one plan, search the plan space, validate against measured runs, calibrate a
// profile, list the built-in profiles and models.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include "app/cli/commands.h"
#include "app/cli/report.h"
#include "core/io/network_io.h"
#include "core/llm/calibrate.h"
#include "core/llm/calculon_model.h"
#include "core/llm/search.h"
#include "core/llm/validate.h"
#include "core/partition/grid.h"
#include "core/sim/transformer_network.h"
#include "core/sim/llm_lowering.h"
#include "core/sim/trace.h"
#include "core/run/method_run.h"
#include "core/topology/topology.h"
#include "core/store/results_db.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::cli {

namespace {

constexpr double kGiB = 1073741824.0;

std::string gib(double bytes) { return fixed(bytes / kGiB, 2) + " GiB"; }
std::string llmPercent(double x) { return fixed(100 * x, 1) + " %"; }

struct Inputs {
    llm::Transformer model;
    llm::ModelSource source;
    bool model_given = false;
    llm::ModelKind kind = llm::ModelKind::Partita;
    llm::Profile profile;
};

// --topology: a file or a built-in preset's name (partita-cli topology presets).
sim::Topology topologyArg(const Options& a) {
    const std::string name = a.get("topology");
    const auto presets = sim::builtinTopologyNames();
    if (!std::filesystem::exists(name) && std::find(presets.begin(), presets.end(), name) != presets.end())
        return sim::builtinTopology(name);
    return sim::loadTopology(name);
}

// --model values: calculon / partita choose the cost model; anything else is the transformer.
Inputs readInputs(const Options& a, bool need_model) {
    Inputs in;
    std::vector<std::string> models = a.all("model");
    for (const auto& t : a.all("transformer")) models.push_back(t);
    const std::int64_t seq = a.has("seq") ? a.integer64("seq", 0) : 0;
    for (const auto& v : models) {
        if (v == "calculon" || v == "partita") {
            in.kind = llm::parseModelKind(v);
            continue;
        }
        if (in.model_given) throw UsageError("--model: two transformers given ('" + in.model.name + "' and '" + v + "')");
        in.model = usage("model", [&] { return llm::loadTransformer(v, seq, &in.source); });
        in.model_given = true;
    }
    if (need_model && !in.model_given) throw UsageError("option --model PRESET|F is required (partita-cli llm models)");
    if (in.model_given && seq > 0) in.model.seq = seq;
    in.profile = usage("profile", [&] { return llm::loadProfile(a.get("profile", "a100-sxm4-80gb")); });
    if (a.has("topology")) in.profile = llm::profileFromTopology(in.profile, topologyArg(a));
    llm::ClusterOverrides o;
    if (a.has("gpus-per-node")) o.gpus_per_node = a.integer64("gpus-per-node", 0);
    if (a.has("intra-node-GBps")) o.intra_node_GBps = a.positiveNumber("intra-node-GBps", 0, 1e9);
    if (a.has("inter-node-Gbps")) o.inter_node_Gbps_per_node = a.positiveNumber("inter-node-Gbps", 0, 1e9);
    in.profile = llm::applyOverrides(in.profile, o);
    return in;
}

bool onOff(const Options& a, const std::string& name) {
    const std::string v = a.get(name);
    if (v == "on" || v == "true") return true;
    if (v == "off" || v == "false") return false;
    throw UsageError("--" + name + " expects on or off, got '" + v + "'");
}

llm::Plan readPlanArgs(const Options& a) {
    llm::Plan p;
    p.tp = a.integer64("tp", 1);
    p.pp = a.integer64("pp", 1);
    p.cp = a.integer64("cp", 1);
    if (a.has("gpus") && !a.has("dp")) {
        const std::int64_t gpus = a.integer64("gpus", 1);
        if (gpus % (p.tp * p.pp * p.cp) != 0)
            throw UsageError("--gpus " + std::to_string(gpus) + " is not a multiple of tp x pp x cp = " +
                             std::to_string(p.tp * p.pp * p.cp));
        p.dp = gpus / (p.tp * p.pp * p.cp);
    } else {
        p.dp = a.integer64("dp", 1);
        if (a.has("gpus") && a.integer64("gpus", 1) != p.tp * p.pp * p.dp * p.cp)
            throw UsageError("--gpus differs from tp x pp x dp x cp = " + std::to_string(p.tp * p.pp * p.dp * p.cp));
    }
    p.micro_batch = a.integer64("micro-batch", 1);
    if (!a.has("global-batch")) throw UsageError("option --global-batch B is required");
    p.global_batch = a.integer64("global-batch", 1);
    p.sequence_parallel = a.flag("sp");
    p.interleave = a.integer64("interleave", 1);
    p.schedule = p.interleave > 1 ? llm::Schedule::Interleaved : llm::Schedule::OneF1B;
    if (a.has("schedule")) p.schedule = usage("schedule", [&] { return llm::parseSchedule(a.get("schedule")); });
    if (a.has("recompute")) p.recompute = usage("recompute", [&] { return llm::parseRecompute(a.get("recompute")); });
    p.zero = static_cast<int>(a.integer64("zero", 0));
    p.distributed_optimizer = a.flag("dist-opt");
    if (a.has("precision")) p.precision = usage("precision", [&] { return llm::parseDtype(a.get("precision")); });
    if (a.has("ag-redo")) p.ag_redo = onOff(a, "ag-redo");
    if (a.has("scatter-gather")) p.scatter_gather = onOff(a, "scatter-gather");
    if (a.has("tp-overlap")) p.tp_overlap = usage("tp-overlap", [&] { return llm::parseTpOverlap(a.get("tp-overlap")); });
    if (a.has("dp-overlap")) p.dp_overlap = onOff(a, "dp-overlap");
    p.pp_overlap = a.flag("pp-overlap");
    p.uneven_split = a.flag("uneven-split");
    p.tp_tier = static_cast<int>(a.integer64("tp-tier", -1));
    p.pp_tier = static_cast<int>(a.integer64("pp-tier", -1));
    p.dp_tier = static_cast<int>(a.integer64("dp-tier", -1));
    return p;
}

std::string planText(const llm::Plan& p) {
    std::string s = "tp " + std::to_string(p.tp) + ", pp " + std::to_string(p.pp) + ", dp " + std::to_string(p.dp) +
                    ", micro-batch " + std::to_string(p.micro_batch) + ", global batch " + std::to_string(p.global_batch);
    if (p.pp > 1) s += ", " + std::string(llm::scheduleName(p.schedule));
    if (p.interleave > 1) s += " x" + std::to_string(p.interleave);
    s += ", recompute " + std::string(llm::recomputeName(p.recompute));
    if (p.sequence_parallel) s += ", SP";
    if (p.sequence_parallel && p.agRedo()) s += " + AG redo";
    if (p.zero > 0) s += ", ZeRO-" + std::to_string(p.zero);
    if (p.distributed_optimizer) s += ", distributed optimizer";
    if (p.tp_overlap != llm::TpOverlap::None) s += ", TP overlap " + std::string(llm::tpOverlapName(p.tp_overlap));
    if (p.dp > 1 && p.dpOverlap()) s += ", DP overlap";
    return s;
}

Json termsJson(const llm::TimeTerms& t) {
    Json j = Json::object();
    for (const llm::NamedTerm& term : llm::namedTerms(t)) j[term.key] = term.seconds;
    return j;
}

Json llmEvaluationJson(const llm::Transformer& m, const llm::Plan& p, const llm::Profile& prof, const llm::Evaluation& e) {
    Json stages = Json::array();
    for (size_t i = 0; i < e.stages.size(); ++i) {
        const llm::StageMemory& s = e.stages[i];
        Json j = {{"stage", s.stage}, {"layers", s.layers}, {"params", s.params}};
        for (const llm::NamedBytes& term : llm::namedMemory(s)) j[std::string(term.key) + "_gib"] = term.bytes / kGiB;
        j["total_gib"] = s.total() / kGiB;
        if (i < e.stage_time_s.size()) j["micro_batch_s"] = e.stage_time_s[i];
        stages.push_back(j);
    }
    return {{"model", m.name},
            {"cost_model", modelKindName(e.model)},
            {"profile", prof.name},
            {"plan", llm::planToJson(p)},
            {"gpus", p.gpus()},
            {"micro_batches", e.micro_batches},
            {"iteration_s", e.iteration_s},
            {"time_s", termsJson(e.time)},
            {"memory_gib", e.peak_bytes / kGiB},
            {"peak_stage", e.peak_stage},
            {"capacity_gib", e.capacity_bytes / kGiB},
            {"fits", e.fits},
            {"cut", e.cut},
            {"stages", stages},
            {"mfu", e.mfu},
            {"hfu", e.hfu},
            {"tokens_per_s", e.tokens_per_s},
            {"tokens_per_s_per_gpu", e.tokens_per_s / static_cast<double>(p.gpus())},
            {"model_flops", e.model_flops},
            {"notes", e.notes}};
}

void printBreakdown(std::ostream& out, const llm::Evaluation& e) {
    TextTable t({"term", "time", "share"});
    for (const llm::NamedTerm& term : llm::namedTerms(e.time))
        if (term.seconds != 0) t.add({term.label, seconds(term.seconds), llmPercent(term.seconds / e.iteration_s)});
    t.add({"iteration", seconds(e.iteration_s), "100.0 %"});
    t.print(out);
}

void printStages(std::ostream& out, const llm::Evaluation& e) {
    std::vector<std::string> header{"stage", "layers"};
    for (const llm::NamedBytes& term : llm::namedMemory({})) header.push_back(term.key);
    header.push_back("total");
    TextTable t(header);
    auto row = [&](const llm::StageMemory& s) {
        std::vector<std::string> cells{std::to_string(s.stage), std::to_string(s.layers)};
        for (const llm::NamedBytes& term : llm::namedMemory(s)) cells.push_back(gib(term.bytes));
        cells.push_back(gib(s.total()) + (static_cast<std::int64_t>(s.stage) == e.peak_stage ? " *" : ""));
        t.add(cells);
    };
    // Long pipelines: the first two, the peak and the last stage.
    const size_t n = e.stages.size();
    for (size_t i = 0; i < n; ++i)
        if (n <= 6 || i < 2 || i + 1 == n || static_cast<std::int64_t>(i) == e.peak_stage) row(e.stages[i]);
    t.print(out);
}

void printEvaluation(std::ostream& out, const llm::Transformer& m, const llm::Plan& p, const llm::Profile& prof, const llm::Evaluation& e) {
    out << m.name << " on " << p.gpus() << " x " << prof.name << " (" << modelKindName(e.model) << " model)\n";
    out << "plan: " << planText(p) << "; " << e.micro_batches << " micro-batches per pipeline\n\n";
    printBreakdown(out, e);
    out << "\nmemory per GPU (* = the peak, stage " << e.peak_stage << "): " << gib(e.peak_bytes) << " of "
        << gib(e.capacity_bytes) << (e.fits ? " - fits" : " - DOES NOT FIT") << "\n";
    printStages(out, e);
    if (!e.fits) out << "cut: " << e.cut << "\n";
    out << "\nMFU " << llmPercent(e.mfu) << ", HFU " << llmPercent(e.hfu) << ", " << withCommas(std::round(e.tokens_per_s))
        << " tokens/s (" << withCommas(std::round(e.tokens_per_s / static_cast<double>(p.gpus()))) << " per GPU)\n";
    for (const auto& n : e.notes) out << "note: " << n << "\n";
}

// One line saying what was recognised in an ONNX model; nothing for presets and model files.
void printSource(std::ostream& out, const Inputs& in) {
    if (in.source.onnx) out << llm::onnxSummary(*in.source.onnx) << "\n";
}

// With --db, the plan stored as an "llm" run (its settings, evaluated again when opened); its id, else 0.
std::int64_t storeRun(const Options& a, const Inputs& in, const llm::Plan& plan, const llm::Evaluation& e, bool searched) {
    if (!a.has("db")) return 0;
    LlmSettings s;
    s.model_name = in.source.name.empty() ? in.model.name : in.source.name;
    s.model = in.model;
    s.profile_name = a.has("topology") ? in.profile.name : a.get("profile", "a100-sxm4-80gb");
    s.profile = in.profile;
    s.plan = plan;
    s.kind = in.kind;
    s.searched = searched;
    return ResultsDb(a.get("db")).storeMethod(methodRun(s, e));
}

int llmEvaluate(const Options& a, std::ostream& out) {
    const Inputs in = readInputs(a, true);
    const llm::Plan plan = readPlanArgs(a);
    const llm::Evaluation e = evaluate(in.model, plan, in.profile, in.kind);
    const std::int64_t id = storeRun(a, in, plan, e, false);
    if (a.flag("json")) {
        Json j = llmEvaluationJson(in.model, plan, in.profile, e);
        j["model_source"] = llm::modelSourceJson(in.source);
        if (id) j["run_id"] = id;
        out << j.dump(2) << "\n";
        return 0;
    }
    printSource(out, in);
    printEvaluation(out, in.model, plan, in.profile, e);
    if (id) out << "\nStored as run " << id << " in " << a.get("db") << "\n";
    return 0;
}

// llm simulate: the plan lowered onto a topology and list-scheduled (docs/methods/llm.md#on-the-simulator).
int llmSimulate(const Options& a, std::ostream& out) {
    if (!a.has("topology")) throw UsageError("option --topology F|PRESET is required");
    const Inputs in = readInputs(a, true);
    if (in.kind != llm::ModelKind::Partita) throw UsageError("--model calculon: the simulator lowers Partita's model only");
    const llm::Plan plan = readPlanArgs(a);
    const sim::Topology topo = topologyArg(a);
    // profileFromTopology plans mixed GPUs on the slowest: that is the speed the slot times are at.
    sim::LlmSimOptions o;
    o.reference_flops = 1e300;
    for (const auto& dv : topo.devices) o.reference_flops = std::min(o.reference_flops, dv.peak_flops * dv.efficiency);
    const sim::LlmSimulation s = sim::simulateLlmPlan(in.model, plan, in.profile, topo, o);
    if (a.has("trace")) {
        writeOutputFile(a.get("trace"), sim::chromeTraceJson(s.graph, s.result));
    }
    const double ratio = s.analytic_s > 0 ? s.simulated_s / s.analytic_s : 0;
    if (a.flag("json")) {
        Json stages = Json::array();
        for (const auto& st : s.stages)
            stages.push_back({{"stage", st.stage},
                              {"slowest_device", topo.devices[static_cast<size_t>(st.slowest_device)].name},
                              {"speed", st.speed},
                              {"tp_ratio", st.tp_ratio},
                              {"dp_ratio", st.dp_ratio},
                              {"compute_s", st.compute_s},
                              {"analytic_compute_s", st.analytic_compute_s},
                              {"pipeline_end_s", st.end_s}});
        Json j = {{"topology", topo.name},
                  {"plan", llm::planToJson(plan)},
                  {"simulated_s", s.simulated_s},
                  {"analytic_s", s.analytic_s},
                  {"ratio", ratio},
                  {"tasks", s.graph.taskCount()},
                  {"stages", stages},
                  {"reasons", s.reasons}};
        out << jsonText(j) << "\n";
        return 0;
    }
    out << "Plan: " << planText(plan) << "\n";
    out << "Topology: " << topo.name << " (" << topo.deviceCount() << " devices, " << topo.links.size() << " links); "
        << s.graph.taskCount() << " tasks\n";
    out << "Simulated iteration: " << fixed(s.simulated_s, 4) << " s\n";
    out << "Analytic iteration:  " << fixed(s.analytic_s, 4) << " s\n";
    out << "Ratio: " << fixed(ratio, 4) << " (" << (ratio >= 1 ? "+" : "") << fixed(100 * (ratio - 1), 2) << " %)\n";
    TextTable t({"stage", "slowest GPU", "speed", "TP x", "DP x", "compute s", "analytic s", "pipeline end s"});
    for (const auto& st : s.stages)
        t.add({std::to_string(st.stage), topo.devices[static_cast<size_t>(st.slowest_device)].name,
               llmPercent(st.speed), fixed(st.tp_ratio, 3), fixed(st.dp_ratio, 3), fixed(st.compute_s, 4),
               fixed(st.analytic_compute_s, 4), fixed(st.end_s, 4)});
    out << "\n";
    t.print(out);
    if (plan.pp > 1)
        out << "\nOne PP message: " << fixed(s.pp_send_s * 1e3, 3) << " ms on the topology (bottleneck hop), "
            << fixed(s.pp_send_analytic_s * 1e3, 3) << " ms in the analytic model\n";
    out << "\nDifferences, largest first:\n";
    if (s.reasons.empty()) out << "  none: uniform devices, collectives at the profile's tier times, no link contention\n";
    for (const auto& r : s.reasons) out << "  " << r << "\n";
    if (a.has("trace")) out << "\nChrome trace written to " << a.get("trace") << "\n";
    return 0;
}

Json pointJson(const llm::PlanPoint& p) {
    return {{"plan", llm::planToJson(p.plan)},
            {"iteration_s", p.iteration_s},
            {"memory_gib", p.peak_bytes / kGiB},
            {"peak_stage", p.peak_stage},
            {"mfu", p.mfu}};
}

int llmSearch(const Options& a, std::ostream& out) {
    const Inputs in = readInputs(a, true);
    llm::SearchOptions o;
    o.model = in.kind;
    if (!a.has("gpus")) throw UsageError("option --gpus N is required");
    if (!a.has("global-batch")) throw UsageError("option --global-batch B is required");
    o.gpus = a.integer64("gpus", 1);
    o.global_batch = a.integer64("global-batch", 1);
    o.top = static_cast<std::size_t>(a.integer64("top", 10));
    o.max_micro_batch = a.integer64("max-micro-batch", 0);
    o.tp_overlap = !a.flag("no-tp-overlap");
    o.dp_overlap = !a.flag("no-dp-overlap");
    if (a.flag("no-zero")) o.zero_stages = {0};
    const llm::SearchResult r = search(in.model, in.profile, o);
    const std::int64_t id = r.found ? storeRun(a, in, r.best.plan, evaluate(in.model, r.best.plan, in.profile, in.kind), true) : 0;
    if (a.flag("json")) {
        Json pareto = Json::array(), ranked = Json::array();
        for (const auto& p : r.pareto) pareto.push_back(pointJson(p));
        for (const auto& p : r.ranked) ranked.push_back(pointJson(p));
        Json j = {{"best", r.found ? pointJson(r.best) : Json(nullptr)},
                  {"pareto", pareto},
                  {"ranked", ranked},
                  {"evaluated", r.evaluated},
                  {"feasible", r.feasible},
                  {"pruned", r.pruned},
                  {"model", in.model.name},
                  {"model_source", llm::modelSourceJson(in.source)},
                  {"cost_model", llm::modelKindName(in.kind)},
                  {"profile", in.profile.name}};
        if (id) j["run_id"] = id;
        out << j.dump(2) << "\n";
        return 0;
    }
    printSource(out, in);
    out << in.model.name << " on " << o.gpus << " x " << in.profile.name << ", global batch " << o.global_batch << ": "
        << withCommas(static_cast<double>(r.evaluated)) << " plans evaluated, "
        << withCommas(static_cast<double>(r.feasible)) << " fit, " << withCommas(static_cast<double>(r.pruned))
        << " skipped by the memory bounds\n";
    if (!r.found) {
        out << "no plan fits in " << gib(in.profile.device.hbm_bytes) << " per GPU\n";
        return 1;
    }
    out << "\nbest: " << planText(r.best.plan) << "\n";
    const llm::Evaluation e = evaluate(in.model, r.best.plan, in.profile, in.kind);
    printBreakdown(out, e);
    out << "\nmemory per GPU: " << gib(e.peak_bytes) << " of " << gib(e.capacity_bytes) << " (stage " << e.peak_stage
        << ")\n";
    printStages(out, e);
    out << "MFU " << llmPercent(e.mfu) << ", " << withCommas(std::round(e.tokens_per_s)) << " tokens/s\n";
    auto table = [&](const std::vector<llm::PlanPoint>& pts) {
        TextTable t({"plan", "iteration", "memory", "MFU"});
        for (const auto& p : pts) t.add({planText(p.plan), seconds(p.iteration_s), gib(p.peak_bytes), llmPercent(p.mfu)});
        t.print(out);
    };
    out << "\nPareto front (iteration time, peak memory per GPU):\n";
    table(r.pareto);
    if (o.top > 0) {
        out << "\nthe " << r.ranked.size() << " fastest:\n";
        table(r.ranked);
    }
    if (id) out << "\nStored the best plan as run " << id << " in " << a.get("db") << "\n";
    return 0;
}

std::vector<llm::Run> readRunsArgs(const Options& a) {
    const auto files = a.all("runs");
    if (files.empty()) throw UsageError("option --runs F.json is required");
    std::vector<llm::Run> runs;
    for (const auto& f : files) {
        auto more = llm::loadRuns(f);
        runs.insert(runs.end(), more.begin(), more.end());
    }
    return runs;
}

std::string optFixed(const std::optional<double>& v, int digits, const char* unit) {
    return v ? fixed(*v, digits) + unit : "-";
}

int llmValidate(const Options& a, std::ostream& out) {
    llm::ModelKind kind = llm::ModelKind::Partita;
    if (a.has("model")) kind = usage("model", [&] { return llm::parseModelKind(a.get("model")); });
    const std::vector<llm::Run> runs = readRunsArgs(a);
    std::optional<llm::Profile> profile;
    if (a.has("profile")) profile = usage("profile", [&] { return llm::loadProfile(a.get("profile")); });
    const llm::ValidationReport rep = validateRuns(runs, profile ? &*profile : nullptr, kind);
    if (a.flag("json")) {
        Json list = Json::array();
        for (const auto& r : rep.runs) {
            Json j = {{"name", r.name}, {"source", r.source}};
            if (!r.error.empty()) {
                j["error"] = r.error;
            } else {
                j["predicted_iteration_s"] = r.predicted_s;
                j["measured_iteration_s"] = r.measured_s ? Json(*r.measured_s) : Json(nullptr);
                j["error_pct"] = r.error_pct ? Json(*r.error_pct) : Json(nullptr);
                j["memory_gib"] = r.memory_gib;
                j["fits"] = r.fits;
            }
            list.push_back(j);
        }
        Json by = Json::object();
        for (const auto& [s, v] : rep.mape_by_source) by[s] = v;
        out << Json{{"runs", list}, {"mape_pct", rep.mape_pct ? Json(*rep.mape_pct) : Json(nullptr)}, {"mape_by_source", by}}
                   .dump(2)
            << "\n";
        return 0;
    }
    TextTable t({"run", "predicted", "measured", "error", "memory", "fits"});
    for (const auto& r : rep.runs) {
        if (!r.error.empty()) {
            t.add({r.name, "error: " + r.error, "", "", "", ""});
            continue;
        }
        t.add({r.name, fixed(r.predicted_s, 3) + " s", optFixed(r.measured_s, 3, " s"),
               r.error_pct ? (*r.error_pct >= 0 ? "+" : "") + fixed(*r.error_pct, 1) + " %" : "-",
               fixed(r.memory_gib, 1) + " GiB", r.fits ? "yes" : "no"});
    }
    t.print(out);
    out << "\n";
    for (const auto& [s, v] : rep.mape_by_source) out << "MAPE " << fixed(v, 1) << " %  " << s << "\n";
    out << "MAPE " << optFixed(rep.mape_pct, 1, " %") << " over "
        << std::count_if(rep.runs.begin(), rep.runs.end(), [](const llm::RunPrediction& r) { return r.error_pct.has_value(); })
        << " runs with a measured time\n";
    return 0;
}

int llmCalibrate(const Options& a, std::ostream& out) {
    const std::string dest = a.required("out");
    const std::vector<llm::Run> runs = readRunsArgs(a);
    const llm::Profile base = usage("profile", [&] { return llm::loadProfile(a.required("profile")); });
    llm::ModelKind kind = llm::ModelKind::Partita;
    if (a.has("model")) kind = usage("model", [&] { return llm::parseModelKind(a.get("model")); });
    std::string fit_set;
    for (const auto& f : a.all("runs")) fit_set += (fit_set.empty() ? "" : ", ") + std::filesystem::path(f).filename().string();
    std::vector<std::string> fit;
    for (const std::string& list : a.all("fit"))
        for (const std::string& name : Grid::splitList(list)) fit.push_back(name);
    const llm::CalibrationResult res = usage("fit", [&] { return calibrate(runs, base, fit_set, kind, fit); });
    const std::string text = llm::profileToJson(res.profile).dump(2) + "\n";
    {
        std::ofstream f(dest, std::ios::binary);
        if (!f) throw InputError(dest, "", "cannot write the file");
        f << text;
        if (!f) throw InputError(dest, "", "cannot write the file");
    }
    if (a.flag("json")) {
        Json params = Json::array();
        for (const auto& p : res.parameters)
            params.push_back({{"name", p.name}, {"factor", p.factor}, {"value", p.value}, {"fitted", p.fitted}});
        out << Json{{"out", dest},
                    {"runs", res.runs_used},
                    {"parameters", params},
                    {"mape_before_pct", res.mape_before},
                    {"mape_after_pct", res.mape_after},
                    {"rms_log_before", res.rms_log_before},
                    {"rms_log_after", res.rms_log_after}}
                   .dump(2)
            << "\n";
        return 0;
    }
    out << "calibrated " << base.name << " on " << res.runs_used << " runs (" << fit_set << ")\n";
    TextTable t({"parameter", "scales", "factor", "value", "fitted"});
    for (const auto& p : res.parameters)
        t.add({p.name, p.what, fixed(p.factor, 4), fixed(p.value, 3),
               p.fitted ? "yes" : p.asked ? "no (no run depends on it)" : "no (not in --fit)"});
    t.print(out);
    out << "fit error: MAPE " << fixed(res.mape_before, 1) << " % -> " << fixed(res.mape_after, 1) << " %, RMS log error "
        << fixed(res.rms_log_before, 4) << " -> " << fixed(res.rms_log_after, 4) << "\nwrote " << dest << "\n";
    return 0;
}

// llm network: the model as a SOAP network (one token per sample) and, with --tp/--dp, Megatron's
// plan as a SOAP strategy, for `simulate` and `mcmc` (docs/methods/flexflow.md#megatron-tensor-parallelism-on-gpt-blocks).
int llmNetwork(const Options& a, std::ostream& out) {
    const Inputs in = readInputs(a, true);
    const std::int64_t layers = a.integer64("layers", 0);
    const std::string path = a.required("out");
    const bool plan = a.has("tp") || a.has("dp");
    if (a.has("strategy-out") != plan) throw UsageError("give --strategy-out with --tp and --dp (and only then)");
    const sim::TransformerNetwork transformer =
        usage("model", [&] { return sim::transformerNetwork(in.model, layers, !a.flag("no-head")); });
    const Network& net = transformer.network;
    // Everything is checked before either file is written.
    const int tp = static_cast<int>(a.integer64("tp", 1)), dp = static_cast<int>(a.integer64("dp", 1));
    const std::int64_t sequences = a.integer64("global-batch", dp);
    const std::int64_t tokens = sequences * in.model.seq;
    std::optional<sim::SoapStrategy> strategy;
    if (plan) {
        if (tokens > limits::kBatch)
            throw UsageError("--global-batch: " + withCommas(sequences) + " sequences of " + withCommas(in.model.seq) +
                             " tokens exceed simulate's batch limit of " + withCommas(limits::kBatch) + " samples");
        strategy = usage("tp", [&] { return sim::megatronStrategy(transformer, tokens, tp, dp); });
    }
    writeOutputFile(path, writeNetworkJson(net));
    out << "Network   " << net.name << ": " << net.ops.size() << " operators, one token per sample -> " << path << "\n";
    if (!strategy) return 0;
    writeOutputFile(a.get("strategy-out"), sim::writeSoapJson(*strategy, net));
    out << "Strategy  Megatron TP " << tp << " x DP " << dp << " with sequence parallelism on " << tp * dp
        << " devices -> " << a.get("strategy-out") << "\n";
    out << "Simulate  partita-cli simulate --network " << path << " --strategy " << a.get("strategy-out")
        << " --batch " << tokens << " --topology T [--profile P]\n";
    return 0;
}

int llmProfiles(const Options& a, std::ostream& out) {
    if (a.has("show")) {
        out << llm::profileToJson(usage("show", [&] { return llm::loadProfile(a.get("show")); })).dump(2) << "\n";
        return 0;
    }
    Json list = Json::array();
    TextTable t({"profile", "device", "peak bf16", "HBM", "tiers", "provenance"});
    for (const auto& name : llm::profilePresetNames()) {
        const llm::Profile p = llm::profilePreset(name);
        const double peak = p.device.unit(true, llm::Dtype::Bf16).peak_flops;
        std::string tiers;
        Json tj = Json::array();
        for (const auto& tier : p.tiers) {
            tiers += (tiers.empty() ? "" : "; ") + tier.name + " " + fixed(tier.bandwidth_Bps / 1e9, 0) + " GB/s";
            if (tier.size < limits::kLlmGpus) tiers += " x" + std::to_string(tier.size);
            tj.push_back({{"name", tier.name}, {"size", tier.size}, {"bandwidth_gbps", tier.bandwidth_Bps / 1e9}});
        }
        t.add({name, p.name, fixed(peak / 1e12, 0) + " TFLOP/s", fixed(p.device.hbm_bytes / kGiB, 0) + " GiB, " +
                                                                   fixed(p.device.hbm_Bps / 1e9, 0) + " GB/s",
               tiers, p.provenance});
        list.push_back({{"name", name},
                        {"device", p.name},
                        {"peak_tflops", peak / 1e12},
                        {"hbm_gib", p.device.hbm_bytes / kGiB},
                        {"hbm_gbps", p.device.hbm_Bps / 1e9},
                        {"tiers", tj},
                        {"provenance", p.provenance}});
    }
    if (a.flag("json")) out << Json{{"profiles", list}}.dump(2) << "\n";
    else t.print(out);
    return 0;
}

int llmModels(const Options& a, std::ostream& out) {
    Json list = Json::array();
    TextTable t({"model", "parameters", "layers", "hidden", "heads", "kv", "ffn", "seq", "vocab", "blocks", "provenance"});
    for (const auto& m : llm::modelPresets()) {
        const double params = static_cast<double>(llm::modelParameters(m).total());
        t.add({m.name, fixed(params / 1e9, 2) + " B", std::to_string(m.layers), std::to_string(m.hidden),
               std::to_string(m.heads), std::to_string(m.kv_heads), std::to_string(m.ffn), std::to_string(m.seq),
               std::to_string(m.vocab), std::string(llm::mlpName(m.mlp)) + "/" + llm::normName(m.norm), m.provenance});
        Json j = llm::transformerToJson(m);
        j["parameters"] = params;
        list.push_back(j);
    }
    if (a.flag("json")) out << Json{{"models", list}}.dump(2) << "\n";
    else t.print(out);
    return 0;
}

// model and hardware: every llm subcommand that evaluates a plan reads these.
void addModelOptions(CLI::App& c) {
    value(c, "model", "PRESET|F",
          "the transformer: a preset (partita-cli llm models), a model JSON file (the\n"
          "keys of a runs file's \"model\"), a Calculon application file, or an ONNX model\n"
          "(F.onnx) whose transformer blocks are recognised (docs/methods/llm.md#from-an-onnx-model);\n"
          "or calculon|partita: the cost model (default partita); repeat --model to give both");
    value(c, "transformer", "PRESET|F", "the transformer alone (as --model PRESET|F)");
    value(c, "seq", "S", "override the model's sequence length (required for an ONNX model whose is dynamic)")->check(integerIn(1, limits::kLlmSeq));
    value(c, "profile", "P",
          "a preset (a100-sxm4-40gb, a100-sxm4-80gb, h100-sxm5-80gb), a partita-llm-hw/1\n"
          "file or a Calculon system file (default a100-sxm4-80gb)");
    value(c, "topology", "F|PRESET", "derive the profile's tiers from a topology file or preset (largest uniform island = tier 0)");
    value(c, "gpus-per-node", "N", "cluster override")->check(integerIn(1, limits::kLlmGpus));
    value(c, "intra-node-GBps", "X", "cluster override");
    value(c, "inter-node-Gbps", "X", "cluster override (per node)");
    flag(c, "json", "one JSON object on stdout");
}

// The plan's keys (evaluate and simulate).
void addPlanOptions(CLI::App& c) {
    value(c, "tp", "T", "tensor parallelism (1)")->check(integerIn(1, limits::kLlmGpus));
    value(c, "pp", "P", "pipeline stages (1)")->check(integerIn(1, limits::kLlmGpus));
    value(c, "dp", "D", "data parallelism (1, or --gpus N / (tp x pp x cp))")->check(integerIn(1, limits::kLlmGpus));
    value(c, "cp", "C", "context parallelism (1)")->check(integerIn(1, limits::kLlmGpus));
    value(c, "gpus", "N", "GPUs (instead of --dp)")->check(integerIn(1, limits::kLlmGpus));
    value(c, "micro-batch", "b", "micro-batch (1)")->check(integerIn(1, limits::kLlmBatch));
    value(c, "global-batch", "B", "global batch (required)")->check(integerIn(1, limits::kLlmBatch));
    flag(c, "sp", "sequence parallelism");
    value(c, "interleave", "V", "model chunks per stage (1; > 1 selects the interleaved schedule)")
        ->check(integerIn(1, limits::kLlmLayers));
    value(c, "schedule", "gpipe|1f1b|interleaved", "the pipeline schedule (1f1b)");
    value(c, "recompute", "none|selective|full", "activation recomputation (none)");
    value(c, "zero", "0..3", "ZeRO stage (0)")->check(integerIn(0, 3));
    flag(c, "dist-opt", "Megatron's distributed optimizer");
    value(c, "precision", "bf16|fp16|fp8|fp32", "(the profile's)");
    value(c, "ag-redo", "on|off", "re-gather the sharded LN output in backward (default: on with SP + selective)");
    value(c, "scatter-gather", "on|off", "PP sends 1/tp of the activation without SP (on)");
    value(c, "tp-overlap", "none|ring|pipe", "TP communication overlap (none)");
    value(c, "dp-overlap", "on|off", "DP communication overlap (on with dist-opt / ZeRO)");
    flag(c, "pp-overlap", "overlap pipeline sends with compute");
    flag(c, "uneven-split", "allow pp not dividing the layers");
    for (const char* t : {"tp-tier", "pp-tier", "dp-tier"})
        value(c, t, "K", "the tier of this dimension (placed by rank order)")->check(integerIn(0, limits::kLlmTiers - 1));
}

// validate and calibrate: measured runs, a profile, the cost model.
void addRunsOptions(CLI::App& c, const std::string& profile_help) {
    value(c, "runs", "F.json", "a partita-llm-runs/1 file (required; repeatable)");
    value(c, "profile", "P", profile_help);
    value(c, "model", "calculon|partita", "the cost model (partita)");
    flag(c, "json", "one JSON object on stdout");
}

// An impossible plan or model names the field and exits 1 like other input errors.
CLI::App* llmCommand(CLI::App& llm, RunContext& ctx, const std::string& name, const std::string& description,
                     int (*f)(const Options&, std::ostream&)) {
    return command(llm, ctx, name, description, Handler([f](const Options& a, std::ostream& out, std::ostream&) {
                       try {
                           return f(a, out);
                       } catch (const llm::FieldError& e) {
                           throw Error(std::string("impossible plan: ") + e.what());
                       }
                   }));
}

}  // namespace

void addLlmCommands(CLI::App& app, RunContext& ctx) {
    CLI::App* llm = app.add_subcommand("llm", "LLM training plans for dense transformers (docs/methods/llm.md)");
    CLI::App* e = llmCommand(*llm, ctx, "evaluate", "one plan: iteration time by term, memory per stage, MFU/HFU, tokens/s",
                             llmEvaluate);
    e->footer("plan: the keys of partita-llm-runs/1 (docs/formats/llm-runs.md)");
    addModelOptions(*e);
    addPlanOptions(*e);
    value(*e, "db", "F", "store the run in this results database (created if absent)");

    CLI::App* sim = llmCommand(*llm, ctx, "simulate",
                               "one plan lowered onto a topology and simulated: simulated vs analytic iteration time,\n"
                               "per stage, and why they differ (docs/methods/llm.md#on-the-simulator)",
                               llmSimulate);
    sim->footer("plan: the keys of partita-llm-runs/1 (docs/formats/llm-runs.md); ranks in Megatron's order on devices 0..N-1");
    addModelOptions(*sim);
    addPlanOptions(*sim);
    value(*sim, "trace", "F.json", "write the simulated timeline as a Chrome trace (Perfetto)");

    CLI::App* s = llmCommand(*llm, ctx, "search",
                             "every plan for a model on N GPUs: the fastest that fits, the Pareto front of\n"
                             "(iteration time, peak memory per GPU), the --top N fastest (docs/methods/llm.md#search)",
                             llmSearch);
    addModelOptions(*s);
    value(*s, "gpus", "N", "GPUs (required)")->check(integerIn(1, limits::kLlmGpus));
    value(*s, "global-batch", "B", "global batch (required)")->check(integerIn(1, limits::kLlmBatch));
    value(*s, "top", "N", "how many of the fastest plans to list (10)")->check(integerIn(0, 1000));
    value(*s, "max-micro-batch", "b", "the largest micro-batch tried")->check(integerIn(1, limits::kLlmBatch));
    flag(*s, "no-tp-overlap", "leave TP overlap out of the space");
    flag(*s, "no-dp-overlap", "leave DP overlap out of the space");
    value(*s, "db", "F", "store the best plan as a run in this results database (created if absent)");
    flag(*s, "no-zero", "ZeRO stage 0 only");

    CLI::App* v = llmCommand(*llm, ctx, "validate",
                             "predicted beside measured for partita-llm-runs/1 files: the error per run and the mean\n"
                             "absolute percentage error, over all runs and per source",
                             llmValidate);
    addRunsOptions(*v, "replaces every run's cluster.profile (the run's own overrides still apply)");

    CLI::App* c = llmCommand(*llm, ctx, "calibrate",
                             "fit four efficiency multipliers of profile P to measured runs by least squares on log\n"
                             "time; print the fitted values and the fit error; write the calibrated profile",
                             llmCalibrate);
    addRunsOptions(*c, "the profile to calibrate (required)");
    value(*c, "out", "P2.json", "the calibrated profile to write (usable as --profile; required)");
    value(*c, "fit", "LIST", "the parameters to fit: matrix, memory, tier0, tier1, overhead (the framework's\n"
                             "time per layer per micro-batch), comma-separated (default: the first four)");

    CLI::App* n = llmCommand(*llm, ctx, "network",
                             "the model as a SOAP network (one token per sample) for simulate and mcmc, and with\n"
                             "--tp/--dp Megatron's plan as a SOAP strategy (docs/methods/flexflow.md#megatron-tensor-parallelism-on-gpt-blocks)",
                             llmNetwork);
    value(*n, "model", "PRESET|F", "the transformer (partita-cli llm models; no grouped-query attention)");
    value(*n, "seq", "S", "override the model's sequence length")->check(integerIn(1, limits::kDimension));
    value(*n, "layers", "N", "layers (default: the model's)")->check(integerIn(1, 100000));
    flag(*n, "no-head", "leave out the final norm, LM head and loss");
    value(*n, "out", "F.json", "the partita-network/1 file to write (required)");
    value(*n, "tp", "T", "tensor parallelism of the strategy")->check(integerIn(1, limits::kTopologyDevices));
    value(*n, "dp", "D", "data parallelism of the strategy")->check(integerIn(1, limits::kTopologyDevices));
    value(*n, "global-batch", "B", "sequences per step (default D); simulate with --batch B x sequence length")
        ->check(integerIn(1, limits::kLlmBatch));
    value(*n, "strategy-out", "F.json", "the partita-soap/1 strategy to write");

    CLI::App* p = llmCommand(*llm, ctx, "profiles", "the built-in hardware profiles", llmProfiles);
    value(*p, "show", "NAME", "print one as partita-llm-hw/1");
    flag(*p, "json", "one JSON object on stdout");
    CLI::App* m = llmCommand(*llm, ctx, "models", "the built-in transformers", llmModels);
    flag(*m, "json", "one JSON object on stdout");
}

}  // namespace partita::cli
