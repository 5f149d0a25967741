// partita-cli accpar and table --study accpar (docs/methods/accpar.md).
#include <cctype>
#include <filesystem>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli/accpar_report.h"
#include "app/cli/network_input.h"
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/cli/report.h"
#include "core/accpar/accpar.h"
#include "core/accpar/reference.h"
#include "core/io/array_io.h"
#include "core/io/csv.h"
#include "core/io/network_io.h"
#include "core/search/methods.h"

namespace partita::cli {

namespace {

using Json = nlohmann::json;


struct AccParSetup {
    Array array;
    AccParParams params;
};

std::string defaultArrayPath() { return examplesDir() + "/arrays/tpu-mixed-128.json"; }

AccParSetup readAccParSetup(const Options& a) {
    AccParSetup s;
    if (a.has("machine")) {
        if (a.has("array") || a.has("levels")) throw UsageError("--machine replaces --array and --levels");
        s.array = machineArray(a.get("machine"));
    } else if (a.has("array") || !a.has("levels")) {
        s.array = loadArray(a.has("array") ? a.get("array") : defaultArrayPath());
    }
    if (a.has("levels")) {
        const int levels = a.integer("levels", 1);
        if (levels < 1 || levels > Array::kMaxLevels)
            throw UsageError("--levels must be between 1 and " + std::to_string(Array::kMaxLevels) + ", got " +
                             std::to_string(levels));
        if (!a.has("array")) {
            // 2^H TPU-v3 chips, the homogeneous preset's per-chip figures.
            s.array = Array{};
            s.array.name = std::to_string(1 << levels) + " TPU-v3";
            s.array.groups = {tpuV3(1 << levels)};
            deriveFromGroups(s.array);
        } else if (!s.array.groups.empty()) {
            throw UsageError("--levels cannot resize an array given as accelerator groups; edit its counts");
        } else {
            s.array.levels = levels;
        }
    }
    try {
        validate(s.array);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("array: ") + e.what());
    }
    auto& p = s.params;
    p.batch = static_cast<double>(a.integer64("batch", 512));
    p.bytes_per_element = a.numberIn("bytes-per-element", 2, ranges::kBytesPerElement);
    try {
        p.ratio_model = parseRatioModel(a.get("ratio-model", "E"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--ratio-model: ") + e.what());
    }
    if (a.flag("comm-only")) p.objective = Objective::Elements;
    p.balanced_baselines = a.flag("balanced-baselines");
    return s;
}

LayerTable readNetwork(const Options& a, const std::string& path) {
    return weightedLayers(readNetworkArg(a, path));
}

Json namesJson(const LayerTable& layers) {
    Json names = Json::array();
    for (const auto& l : layers.layers) names.push_back(l.name);
    return names;
}

// The authors' program (Oracle E): chains as given, ResNets as their built-in construction.
int referenceMode(const Options& a, std::ostream& out, const LayerTable& layers, const AccParSetup& s) {
    // The program knows only levels (alpha = 1/2, elements); the default preset just supplies H = 7.
    if (a.has("array") && !s.array.hyparCompatible())
        throw UsageError("--reference-compatible models 2^H identical accelerators (alpha = 1/2); this array "
                         "is not");
    ReferenceNetworkKind kind = ReferenceNetworkKind::Plain;
    LayerTable resnet;  // the authors' own construction, when the network is one of their ResNets
    if (!layers.isChain()) {
        std::string name;
        for (char ch : layers.network) name += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        int depth = 0;
        for (int d : {18, 34, 50})
            if (name == "resnet-" + std::to_string(d) || name == "resnet" + std::to_string(d)) depth = d;
        if (depth == 0)
            throw UsageError("--reference-compatible handles chains and the authors' ResNet-18/34/50; '" +
                             layers.network + "' is neither");
        kind = referenceResNetKind(depth);
        resnet = referenceResNet(depth);
    }
    const LayerTable& table = layers.isChain() ? layers : resnet;
    ReferenceOptions o;
    o.levels = s.array.levels;
    o.batch = s.params.batch;
    const ReferenceResult accpar = referencePlan(table, kind, o);
    ReferenceOptions hy = o;
    hy.hypar_types_only = true;
    const ReferenceResult hypar = referencePlan(table, kind, hy);
    const auto dp = referenceCosts(table, kind, baselineGrid(Method::DataParallel, table, o.levels), o);
    const auto owt = referenceCosts(table, kind, baselineGrid(Method::OneWeirdTrick, table, o.levels), o);
    ReferenceReport r{table, accpar.rows, accpar.level_cost, hypar.rows, hypar.level_cost, dp, owt};
    if (a.flag("json")) {
        Json j = referenceJson(r);
        j["network"] = layers.network;
        j["array"] = s.array.name;
        j["batch"] = s.params.batch;
        out << jsonText(j) << "\n";
        return 0;
    }
    printReference(out, r, s.array.name, s.params.batch);
    return 0;
}

int cmdAccpar(const Options& a, std::ostream& out) {
    const AccParSetup s = readAccParSetup(a);
    const LayerTable layers = readNetwork(a, a.required("network"));
    if (a.flag("reference-compatible")) return referenceMode(a, out, layers, s);
    const AccParResult r = runAccPar(layers, s.array, s.params);
    if (a.flag("json")) {
        Json j{{"network", layers.network},
               {"layers", namesJson(layers)},
               {"array", s.array.name},
               {"accelerators", s.array.count()},
               {"levels", s.array.levels},
               {"batch", s.params.batch},
               {"ratio_model", ratioModelName(s.params.ratio_model)},
               {"bytes_per_element", s.params.bytes_per_element},
               {"objective", s.params.objective == Objective::Time ? "time" : "elements"},
               {"balanced_baselines", s.params.balanced_baselines}};
        j.update(planJson(r.accpar));
        j["step_time_s"] = r.accpar.step_time_s;
        j["speedup_vs_dp"] = r.speedupVsDp();
        j["speedup_vs_owt"] = r.speedupVsOwt();
        j["speedup_vs_hypar"] = r.hypar_refused.empty() ? Json(r.speedupVsHypar()) : Json(nullptr);
        j["baselines"] = {{"dp", planJson(r.dp)}, {"owt", planJson(r.owt)},
                          {"hypar", r.hypar_refused.empty() ? planJson(r.hypar) : Json{{"refused", r.hypar_refused}}}};
        j["tree"] = treeJson(r.accpar);
        out << jsonText(j) << "\n";
        return 0;
    }
    printAccPar(out, layers, s.array, s.params, r);
    return 0;
}

}  // namespace

int cmdAccparStudy(const Options& a, std::ostream& out) {
    const AccParSetup s = readAccParSetup(a);
    std::vector<std::string> paths;
    if (a.has("networks")) {
        paths = Grid::splitList(a.get("networks"));
    } else {
        // The study's networks (docs/methods/accpar.md#presets-and-the-study); files that are not in this tree are left out.
        for (const char* n :
             {"alexnet", "vgg-11", "vgg-13", "vgg-16", "vgg-19", "resnet-18", "resnet-34", "resnet-50"}) {
            const std::string p = examplesDir() + "/networks/" + n + ".json";
            if (std::filesystem::exists(p)) paths.push_back(p);
        }
    }
    std::vector<LayerTable> networks;
    for (const auto& p : paths) networks.push_back(readNetwork(a, p));
    const AccParStudy study = accparStudy(networks, s.array, s.params);
    CsvTable csv;
    csv.header = {"network", "perf_owt_vs_dp_x", "perf_hypar_vs_dp_x", "perf_accpar_vs_dp_x", "step_dp_s",
                  "step_accpar_s"};
    for (const auto& r : study.rows)
        csv.rows.push_back({r.network, formatNumber(r.owt), formatNumber(r.hypar), formatNumber(r.accpar),
                            formatNumber(r.step_dp_s), formatNumber(r.step_accpar_s)});
    csv.rows.push_back({"geomean", formatNumber(study.geo_owt), formatNumber(study.geo_hypar),
                        formatNumber(study.geo_accpar), "", ""});
    if (a.has("csv")) writeCsvFile(csv, a.get("csv"));
    if (a.flag("json")) {
        Json rows = Json::array();
        for (const auto& r : study.rows)
            rows.push_back({{"network", r.network}, {"perf_owt_vs_dp_x", r.owt}, {"perf_hypar_vs_dp_x", r.hypar},
                            {"perf_accpar_vs_dp_x", r.accpar}, {"step_dp_s", r.step_dp_s},
                            {"step_accpar_s", r.step_accpar_s}});
        out << jsonText(Json{{"study", "accpar"}, {"array", s.array.name}, {"accelerators", s.array.count()},
                    {"batch", s.params.batch}, {"ratio_model", ratioModelName(s.params.ratio_model)},
                    {"balanced_baselines", s.params.balanced_baselines}, {"rows", rows},
                    {"geomean", {{"perf_owt_vs_dp_x", study.geo_owt}, {"perf_hypar_vs_dp_x", study.geo_hypar},
                                 {"perf_accpar_vs_dp_x", study.geo_accpar}}}})
            << "\n";
        return 0;
    }
    out << "AccPar study on " << s.array.name << " (" << s.array.count() << " accelerators), batch "
        << withCommas(s.params.batch) << ", ratio model " << ratioModelName(s.params.ratio_model)
        << (s.params.balanced_baselines ? ", balanced baselines" : ", baselines at ratio 1/2") << "\n\n";
    TextTable t({"network", "OWT (x)", "HyPar (x)", "AccPar (x)", "DP step", "AccPar step"});
    for (const auto& r : study.rows)
        t.add({r.network, fixed(r.owt, 2), fixed(r.hypar, 2), fixed(r.accpar, 2), seconds(r.step_dp_s),
               seconds(r.step_accpar_s)});
    t.add({"geomean", fixed(study.geo_owt, 2), fixed(study.geo_hypar, 2), fixed(study.geo_accpar, 2), "", ""});
    t.print(out);
    out << "\nspeedups over data parallelism under the AccPar model (docs/methods/accpar.md#step-time); the paper reports geometric-mean\n"
           "2.98x (OWT), 3.78x (HyPar) and 6.30x (AccPar) on its (unpublished) TPU-v2/v3 array.\n";
    return 0;
}

void addAccParOptions(CLI::App& app) {
    value(app, "ratio-model", "E|P", "how AccPar's ratios are chosen (E)");
    flag(app, "balanced-baselines", "DP, OWT and HyPar at balanced ratios too, not at 1/2");
}

void addAccParCommands(CLI::App& app, RunContext& ctx) {
    CLI::App* accpar = command(app, ctx, "accpar",
                               "AccPar's search (types I/II/III with ratios) beside DP, OWT and HyPar under one model",
                               [](const Options& a, std::ostream& out, std::ostream&) { return cmdAccpar(a, out); });
    addNetworkOptions(*accpar);
    value(*accpar, "array", "F", "partita-array/1 JSON (default examples/arrays/tpu-mixed-128.json)");
    value(*accpar, "machine", "T", "a topology file or preset as the array (replaces --array and --levels)");
    value(*accpar, "levels", "H", "hierarchy levels, 1..12; alone: 2^H TPU-v3");
    value(*accpar, "batch", "B", "samples per step (512)")->check(integerIn(1, limits::kBatch));
    value(*accpar, "bytes-per-element", "N", "bytes per tensor element (2)");
    addAccParOptions(*accpar);
    flag(*accpar, "comm-only", "communication only at ratio 1/2 (element counts), as HyPar and the authors' code");
    flag(*accpar, "reference-compatible", "the authors' program (alpha = 1/2, elements, their ResNet handling)");
    flag(*accpar, "json", "one JSON object on stdout");
}

}  // namespace partita::cli
