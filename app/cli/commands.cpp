#include "app/cli/commands.h"
#include "app/cli/network_input.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/report.h"
#include "core/accpar/accpar.h"
#include "core/io/array_io.h"
#include "core/io/csv.h"
#include "core/io/network_io.h"
#include "core/io/strategy_io.h"
#include "core/run/method_registry.h"
#include "core/run/run.h"
#include "core/settings/array_fields.h"
#include "core/settings/cost_fields.h"
#include "core/search/explore.h"
#include "core/store/results_db.h"
#include "core/study/studies.h"
#include "core/sweep/axes.h"
#include "core/util/error.h"

namespace partita::cli {

namespace {

using Json = nlohmann::json;

// The array's numeric settings as options: each field of the array's table (docs/formats/array.md)
// whose value is a number, named as its key with '-' for '_', with the field's help, default and range.
std::vector<const Field<Array>*> arrayNumberFields() {
    std::vector<const Field<Array>*> out;
    for (const Field<Array>& f : arrayFields())
        if (f.type == FieldType::Number) out.push_back(&f);
    return out;
}

// The HyPar model's options that table --study accpar (the AccPar model) does not read: the array's
// HyPar-only fields, and the cost model's mode, output size and SRAM switch.
std::vector<std::string> notInStudy() {
    std::vector<std::string> out{"mode", "out-size", "sram-energy"};
    for (const Field<Array>& f : arrayFields())
        if (f.models == FieldModels::HyPar) out.push_back(f.option());
    return out;
}

struct Setup {
    Array array;
    CostParams params;
};

Setup readSetup(const Options& a) {
    Setup s;
    if (a.has("array") && a.has("machine")) throw UsageError("give --array or --machine, not both");
    if (a.has("machine") && a.has("levels")) throw UsageError("--levels cannot resize a --machine; its devices decide");
    const bool given = a.has("array") || a.has("machine");
    if (a.has("array")) s.array = loadArray(a.get("array"));
    if (a.has("machine")) s.array = machineArray(a.get("machine"));
    if (!s.array.hyparCompatible())
        throw UsageError("array: '" + s.array.name + "' is not 2^H identical accelerators, which HyPar's model needs; "
                         "use 'partita-cli accpar' or 'partita-cli table --study accpar'");
    if (!s.array.groups.empty() && a.has("levels"))
        throw UsageError("--levels cannot resize an array given as accelerator groups; edit its counts");
    if (a.has("levels") || !given) {
        const int levels = a.integer("levels", given ? s.array.levels : 4);
        if (levels < 1 || levels > Array::kMaxLevels)
            throw UsageError("--levels must be between 1 and " + std::to_string(Array::kMaxLevels) + ", got " +
                             std::to_string(levels));
        if (given) s.array.levels = levels;
        else s.array = defaultArray(levels);
    }
    if (a.has("topology")) {
        const std::string t = a.get("topology");
        if (t != "htree" && t != "torus") throw UsageError("--topology must be htree or torus, got '" + t + "'");
        s.array.topology = t == "htree" ? Topology::HTree : Topology::Torus;
        if (!given) s.array = defaultArray(s.array.levels, s.array.topology);
    }
    for (const Field<Array>* f : arrayNumberFields())
        f->set(s.array, a.numberIn(f->option(), f->get(s.array), f->range));
    try {
        validate(s.array);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("array: ") + e.what());
    }
    s.params.batch = static_cast<double>(a.integer64("batch", 256));
    const std::string mode = a.get("mode", "cal");
    if (mode != "cal" && mode != "lit") throw UsageError("--mode must be cal or lit, got '" + mode + "'");
    s.params.comm.w_intra = mode == "cal" ? 2.0 : 1.0;
    const std::string out_size = a.get("out-size", "post");
    if (out_size != "post" && out_size != "pre") throw UsageError("--out-size must be post or pre, got '" + out_size + "'");
    s.params.comm.out_size = out_size == "post" ? OutSize::PostPool : OutSize::PrePool;
    const Field<CostParams>& bytes = *findField(costFields(), "bytes_per_element");
    s.params.bytes_per_element = a.numberIn(bytes.option(), bytes.defaultValue(), bytes.range);
    s.params.include_sram_energy = a.flag("sram-energy");
    return s;
}

LayerTable readLayers(const Options& a, const std::string& path) {
    return weightedLayers(readNetworkArg(a, path));
}

std::string modeName(const CostParams& p) { return p.comm.w_intra == 2.0 ? "cal" : p.comm.w_intra == 1.0 ? "lit" : "custom"; }

Json setupJson(const LayerTable& layers, const Setup& s) {
    Json names = Json::array();
    for (const auto& l : layers.layers) names.push_back(l.name);
    return Json{{"network", layers.network},
                {"layers", names},
                {"array", s.array.name},
                {"topology", topologyName(s.array.topology)},
                {"levels", s.array.levels},
                {"accelerators", s.array.count()},
                {"batch", s.params.batch},
                {"mode", modeName(s.params)},
                {"out_size", s.params.comm.out_size == OutSize::PostPool ? "post" : "pre"}};
}

Json evaluationJson(const Grid& grid, const Assessment& a) {
    const Evaluation& e = a.eval;
    return Json{{"grid", grid.toStrings()},
                {"level_comm_elements", e.level_comm},
                {"total_comm_elements", e.total_elements},
                {"total_comm_GB", e.totalGB()},
                {"time_compute_s", e.time_compute_s},
                {"time_comm_s", e.time_comm_s},
                {"time_step_s", e.time_step_s},
                {"energy_j", e.energy_j},
                {"perf_vs_dp", a.perfVs(a.dp)},
                {"energy_vs_dp", a.energyVs(a.dp)},
                {"perf_vs_mp", a.perfVs(a.mp)},
                {"energy_vs_mp", a.energyVs(a.mp)},
                {"perf_vs_owt", a.perfVs(a.owt)},
                {"energy_vs_owt", a.energyVs(a.owt)}};
}

void printSetup(std::ostream& out, const LayerTable& layers, const Setup& s) {
    out << "Network   " << layers.network << " (" << layers.size() << " weighted layers), batch "
        << withCommas(s.params.batch) << "\n";
    out << "Array     " << s.array.name << ": " << s.array.count() << " accelerators, " << s.array.levels << " levels, "
        << topologyName(s.array.topology) << "\n";
    out << "Model     " << modeName(s.params) << " (w_intra = " << s.params.comm.w_intra << "), "
        << (s.params.comm.out_size == OutSize::PostPool ? "post-pool" : "pre-pool") << " output size\n\n";
}

void printAssessment(std::ostream& out, const LayerTable& layers, const Grid& grid, const Assessment& a) {
    const Evaluation& e = a.eval;
    printGrid(out, layers, grid, e.level_comm);
    out << "\nTotal communication  " << withCommas(e.total_elements) << " elements (" << fixed(e.totalGB(), 4)
        << " GB)\n";
    out << "Step time            " << seconds(e.time_step_s) << " = compute " << seconds(e.time_compute_s)
        << " + communication " << seconds(e.time_comm_s) << "\n";
    out << "Energy               " << joules(e.energy_j) << "\n\n";
    TextTable t({"against", "perf (x)", "energy eff. (x)", "their comm (elements)"});
    t.add({"DP", fixed(a.perfVs(a.dp), 3), fixed(a.energyVs(a.dp), 3), withCommas(a.dp.total_elements)});
    t.add({"MP", fixed(a.perfVs(a.mp), 3), fixed(a.energyVs(a.mp), 3), withCommas(a.mp.total_elements)});
    t.add({"OWT", fixed(a.perfVs(a.owt), 3), fixed(a.energyVs(a.owt), 3), withCommas(a.owt.total_elements)});
    t.print(out);
}

void writeGridCsv(const std::string& path, const LayerTable& layers, const Grid& grid, const Evaluation& e) {
    CsvTable t;
    t.header = {"level", "layer", "choice", "ratio", "intra_elements", "inter_elements"};
    for (int h = 0; h < grid.levels(); ++h)
        for (int l = 0; l < grid.layers(); ++l)
            t.rows.push_back({"H" + std::to_string(h + 1), layers[static_cast<size_t>(l)].name,
                              splitShortName(grid.split(h, l)), formatNumber(grid.at(h, l).ratio),
                              formatNumber(e.intra(h, l)), formatNumber(e.inter(h, l))});
    writeCsvFile(t, path);
}

int report(const Options& a, std::ostream& out, const LayerTable& layers, const Setup& s, const Grid& grid) {
    const Assessment as = assess(layers, s.array, s.params, grid);
    if (a.has("csv")) writeGridCsv(a.get("csv"), layers, grid, as.eval);
    if (a.flag("json")) {
        Json j = setupJson(layers, s);
        j.update(evaluationJson(grid, as));
        out << jsonText(j) << "\n";
        return 0;
    }
    printSetup(out, layers, s);
    printAssessment(out, layers, grid, as);
    return 0;
}

std::vector<std::string> commaList(const std::string& text) { return Grid::splitList(text); }

std::string familyName(MethodFamily f) {
    switch (f) {
        case MethodFamily::GridPlan: return "grid plan";
        case MethodFamily::AccPar: return "AccPar plan";
        case MethodFamily::Simulated: return "simulated";
        case MethodFamily::Settings: return "own settings";
    }
    return "?";
}

// Where a method that `run` cannot start is run instead.
std::string commandOf(const MethodInfo& m) {
    switch (m.family()) {
        case MethodFamily::GridPlan: return "run " + m.key();
        case MethodFamily::AccPar: return "accpar";
        case MethodFamily::Simulated: return m.sweep().mcmc_options ? "mcmc" : "simulate";  // its search options
        case MethodFamily::Settings: return m.key();
    }
    return m.key();
}

// Every registered method, as the GUI's selector, sweeps and the runs list know them
// (docs/guide/command-line.md#methods).
int cmdMethods(const Options& a, std::ostream& out) {
    if (a.flag("json")) {
        Json list = Json::array();
        for (const MethodInfo* m : allMethods())
            list.push_back(Json{{"key", m->key()}, {"label", m->label()}, {"family", familyName(m->family())},
                                {"command", "partita-cli " + commandOf(*m)}, {"in_sweeps", m->sweep().in_sweeps},
                                {"sweep_axes", sweep::axesRead(*m)}, {"description", m->toolTip()}});
        out << jsonText(Json{{"methods", list}}) << "\n";
        return 0;
    }
    TextTable t({"key", "method", "kind", "command", "sweeps"});
    for (const MethodInfo* m : allMethods())
        t.add({m->key(), m->label(), familyName(m->family()), "partita-cli " + commandOf(*m),
               m->sweep().in_sweeps ? "yes" : "no"});
    t.print(out);
    return 0;
}

// Any grid-plan method on the network and array, reported as hypar is; --db stores the run as the
// GUI and sweeps do (docs/guide/command-line.md#run-any-method).
int cmdRun(const Options& a, std::ostream& out) {
    const std::string key = a.required("method");
    const MethodInfo* m = findMethod(key);
    if (!m) throw UsageError("unknown method '" + key + "': partita-cli methods lists them");
    if (m->family() != MethodFamily::GridPlan)
        throw UsageError("method '" + key + "' is not a plan on the array alone: run it with partita-cli " +
                         commandOf(*m));
    const Setup s = readSetup(a);
    const std::string network_path = a.required("network");
    const InputsPtr inputs =
        makeInputs(readNetworkArg(a, network_path), s.array, s.params, network_path, a.get("array"));
    Run run = m->runPoint(inputs, SimulationSpec{}, {});
    if (run.name.empty()) run.name = defaultRunName(run);
    std::int64_t id = 0;
    if (a.has("db")) id = ResultsDb(a.get("db")).store(run);
    const Assessment as = assess(inputs->layers, s.array, s.params, run.grid);
    if (a.has("csv")) writeGridCsv(a.get("csv"), inputs->layers, run.grid, as.eval);
    if (a.flag("json")) {
        Json j{{"method", m->key()}, {"label", m->label()}};
        j.update(setupJson(inputs->layers, s));
        j.update(evaluationJson(run.grid, as));
        if (id) j["run_id"] = id;
        out << jsonText(j) << "\n";
        return 0;
    }
    out << "Method    " << m->label() << " (" << m->key() << ")\n";
    printSetup(out, inputs->layers, s);
    printAssessment(out, inputs->layers, run.grid, as);
    if (id) out << "\nStored as run " << id << " in " << a.get("db") << "\n";
    return 0;
}

int cmdHypar(const Options& a, std::ostream& out) {
    const Setup s = readSetup(a);
    const LayerTable layers = readLayers(a, a.required("network"));
    const Grid grid = hyparSearch(layers, s.array.levels, s.params);
    if (a.has("export")) {
        std::ofstream f(a.get("export"));
        f << writeStrategyJson(makeStrategy(layers, grid, "hypar"));
        if (!f) throw Error(a.get("export") + ": cannot write the strategy file");
    }
    return report(a, out, layers, s, grid);
}

int cmdEvaluate(const Options& a, std::ostream& out) {
    const Setup s = readSetup(a);
    const LayerTable layers = readLayers(a, a.required("network"));
    const int given = static_cast<int>(a.has("grid")) + a.has("strategy") + a.has("method");
    if (given != 1) throw UsageError("give exactly one of --grid, --strategy or --method");
    Grid grid;
    if (a.has("grid")) {
        try {
            grid = Grid::fromStrings(commaList(a.get("grid")), static_cast<int>(layers.size()), Split::Input);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--grid: ") + e.what());
        }
    } else if (a.has("strategy")) {
        const Strategy st = loadStrategy(a.get("strategy"));
        checkStrategyFits(st, layers, a.get("strategy"));
        grid = st.grid;
    } else {
        grid = planFor(usage("method", [&] { return parseMethod(a.get("method")); }), layers, s.array.levels, s.params);
    }
    if (grid.levels() != s.array.levels)
        throw UsageError("the grid has " + std::to_string(grid.levels()) + " levels but the array has " +
                         std::to_string(s.array.levels) + " (use --levels)");
    return report(a, out, layers, s, grid);
}

int cmdExplore(const Options& a, std::ostream& out) {
    const Setup s = readSetup(a);
    const LayerTable layers = readLayers(a, a.required("network"));
    const int L = static_cast<int>(layers.size());
    const int H = s.array.levels;
    const Method base_method = usage("base", [&] { return parseMethod(a.get("base", "hypar")); });
    const Grid hypar = hyparSearch(layers, H, s.params);
    ExploreRequest req;
    req.base = planFor(base_method, layers, H, s.params);
    req.threads = static_cast<int>(a.integer64("threads", 0));
    // Cells come in named groups; with two groups the report is a matrix.
    std::vector<std::pair<std::string, int>> groups;  // label, cell count
    const int modes = static_cast<int>(a.has("explore-levels")) + a.has("explore-layers") + a.flag("full");
    if (modes != 1) throw UsageError("give exactly one of --explore-levels, --explore-layers or --full");
    if (a.has("explore-levels")) {
        std::vector<int> levels;
        for (const auto& item : commaList(a.get("explore-levels"))) {
            std::string t = item;
            if (!t.empty() && (t[0] == 'H' || t[0] == 'h')) t = t.substr(1);
            int h = 0;
            try { h = std::stoi(t); } catch (const std::exception&) { h = 0; }
            if (h < 1 || h > H) throw UsageError("--explore-levels: '" + item + "' is not a level H1..H" + std::to_string(H));
            levels.push_back(h - 1);
            groups.push_back({"H" + std::to_string(h), L});
        }
        req.cells = levelCells(levels, L);
    } else if (a.has("explore-layers")) {
        std::vector<int> ids;
        for (const auto& name : commaList(a.get("explore-layers"))) {
            int id = -1;
            for (int l = 0; l < L; ++l)
                if (layers[static_cast<size_t>(l)].name == name) id = l;
            if (id < 0) throw UsageError("--explore-layers: the network has no layer '" + name + "'");
            ids.push_back(id);
            groups.push_back({name, H});
        }
        req.cells = layerCells(ids, H);
    } else {
        std::vector<int> all;
        for (int h = 0; h < H; ++h) {
            all.push_back(h);
            groups.push_back({"H" + std::to_string(h + 1), L});
        }
        req.cells = levelCells(all, L);
    }
    const ExploreResult r = explore(layers, s.array, s.params, req);
    const int k = static_cast<int>(req.cells.size());
    auto pattern = [&](std::uint64_t code) {
        std::string text;
        int first = 0;
        for (const auto& [label, count] : groups) {
            text += (first ? " " : "") + label + "=" + digits(code, r.radix, k, first, count);
            first += count;
        }
        return text;
    };
    const std::uint64_t greedy = codeOf(hypar, req.cells, r.radix);
    // HyPar's answer lies in the space only if the fixed cells agree with it.
    const bool greedy_in_space = r.grid(req.base, greedy) == hypar;
    if (a.has("csv")) {
        CsvTable t;
        t.header = {"code", "pattern", "total_comm_elements", "total_comm_GB", "time_step_s", "perf_vs_dp"};
        for (std::uint64_t c = 0; c < r.size(); ++c)
            t.rows.push_back({std::to_string(c), pattern(c), formatNumber(r.total_elements[c]),
                              formatNumber(r.total_elements[c] * s.params.bytes_per_element / 1e9),
                              formatNumber(r.time_step_s[c]), formatNumber(r.perfVsDp(c))});
        writeCsvFile(t, a.get("csv"));
    }
    auto point = [&](std::uint64_t c) {
        return Json{{"code", c},
                    {"pattern", pattern(c)},
                    {"grid", r.grid(req.base, c).toStrings()},
                    {"total_comm_elements", r.total_elements[c]},
                    {"time_step_s", r.time_step_s[c]},
                    {"perf_vs_dp", r.perfVsDp(c)}};
    };
    if (a.flag("json")) {
        Json j = setupJson(layers, s);
        j["points"] = r.size();
        j["base"] = methodName(base_method);
        j["best_comm"] = point(r.best_comm_code);
        j["best_time"] = point(r.best_time_code);
        if (greedy_in_space) {
            j["hypar"] = point(greedy);
            j["hypar_is_global_optimum"] = r.total_elements[greedy] == r.total_elements[r.best_comm_code];
        }
        out << jsonText(j) << "\n";
        return 0;
    }
    printSetup(out, layers, s);
    out << "Explored " << withCommas(static_cast<double>(r.size())) << " points (" << k << " cells; others fixed to "
        << methodLabel(base_method) << ")\n\n";
    TextTable t({"point", "pattern", "total comm (elements)", "perf vs DP (x)"});
    t.add({"least communication", pattern(r.best_comm_code), withCommas(r.total_elements[r.best_comm_code]),
           fixed(r.perfVsDp(r.best_comm_code), 3)});
    t.add({"fastest", pattern(r.best_time_code), withCommas(r.total_elements[r.best_time_code]),
           fixed(r.perfVsDp(r.best_time_code), 3)});
    if (greedy_in_space)
        t.add({"HyPar (greedy)", pattern(greedy), withCommas(r.total_elements[greedy]), fixed(r.perfVsDp(greedy), 3)});
    t.print(out);
    if (greedy_in_space) {
        const bool optimal = r.total_elements[greedy] == r.total_elements[r.best_comm_code];
        std::size_t ties = 0;
        for (double v : r.total_elements) ties += v == r.total_elements[r.best_comm_code];
        out << "\nHyPar's greedy answer is " << (optimal ? "" : "NOT ") << "a global optimum of this space"
            << (ties > 1 ? " (" + std::to_string(ties) + " points share the least communication)" : "") << ".\n";
    }
    if (groups.size() == 2 && r.radix == 2 && groups[0].second <= 6 && groups[1].second <= 6) {
        const int rows = 1 << groups[0].second, cols = 1 << groups[1].second;
        out << "\nPerformance vs DP (rows " << groups[0].first << ", columns " << groups[1].first << "):\n";
        std::vector<std::string> header{groups[0].first + "\\" + groups[1].first};
        for (int c = 0; c < cols; ++c) header.push_back(digits(static_cast<std::uint64_t>(c), 2, groups[1].second, 0, groups[1].second));
        TextTable m(header);
        for (int rr = 0; rr < rows; ++rr) {
            std::vector<std::string> row{digits(static_cast<std::uint64_t>(rr), 2, groups[0].second, 0, groups[0].second)};
            for (int c = 0; c < cols; ++c)
                row.push_back(fixed(r.perfVsDp(static_cast<std::uint64_t>(rr * cols + c)), 2));
            m.add(row);
        }
        m.print(out);
    }
    return 0;
}

int cmdTable(const Options& a, std::ostream& out) {
    if (a.has("study")) {
        if (a.get("study") != "accpar") throw UsageError("--study must be accpar, got '" + a.get("study") + "'");
        for (const std::string& o : notInStudy())
            if (a.has(o)) throw UsageError("--" + o + " does not apply to --study accpar");
        return cmdAccparStudy(a, out);
    }
    for (const char* o : {"ratio-model", "balanced-baselines"})
        if (a.has(o)) throw UsageError(std::string("--") + o + " applies to --study accpar only");
    const Setup s = readSetup(a);
    std::vector<std::string> paths;
    if (a.has("networks")) {
        paths = commaList(a.get("networks"));
    } else {
        for (const char* n : {"sfc", "sconv", "lenet-c", "cifar-c", "alexnet", "vgg-a", "vgg-b", "vgg-c", "vgg-d", "vgg-e"})
            paths.push_back(examplesDir() + "/networks/" + n + ".json");
    }
    std::vector<Comparison> rows;
    std::vector<LayerTable> tables;
    for (const auto& p : paths) {
        tables.push_back(readLayers(a, p));
        rows.push_back(compareMethods(tables.back(), s.array, s.params));
    }

    const Method order[] = {Method::ModelParallel, Method::OneWeirdTrick, Method::HyPar};
    CsvTable csv;
    csv.header = {"network"};
    for (Method m : order) csv.header.push_back(std::string("perf_") + methodName(m) + "_vs_dp_x");
    for (Method m : order) csv.header.push_back(std::string("energy_") + methodName(m) + "_vs_dp_x");
    for (Method m : {Method::DataParallel, Method::ModelParallel, Method::OneWeirdTrick, Method::HyPar})
        csv.header.push_back(std::string("comm_") + methodName(m) + "_GB");
    csv.header.push_back("perf_hypar_torus_vs_dp_htree_x");
    csv.header.push_back("perf_accpar_vs_dp_x");  // under the AccPar model (docs/methods/accpar.md#step-time)
    std::vector<std::vector<double>> columns(csv.header.size() - 1);
    AccParParams accpar_params;  // AccPar amounts on the table's array, batch and element size
    accpar_params.batch = s.params.batch;
    accpar_params.bytes_per_element = s.params.bytes_per_element;
    for (size_t n = 0; n < rows.size(); ++n) {
        const auto& c = rows[n];
        std::vector<double> v;
        for (Method m : order) v.push_back(c.perfVsDp(m));
        for (Method m : order) v.push_back(c.energyVsDp(m));
        for (Method m : {Method::DataParallel, Method::ModelParallel, Method::OneWeirdTrick, Method::HyPar})
            v.push_back(c.get(m).eval.totalGB());
        v.push_back(c.torusPerfVsDp());
        v.push_back(runAccPar(tables[n], s.array, accpar_params).speedupVsDp());
        std::vector<std::string> cells{c.network};
        for (size_t i = 0; i < v.size(); ++i) {
            columns[i].push_back(v[i]);
            cells.push_back(formatNumber(v[i]));
        }
        csv.rows.push_back(cells);
    }
    std::vector<double> geo;
    for (const auto& col : columns) geo.push_back(geometricMean(col));
    {
        std::vector<std::string> cells{"geomean"};
        for (double g : geo) cells.push_back(formatNumber(g));
        csv.rows.push_back(cells);
    }
    if (a.has("csv")) writeCsvFile(csv, a.get("csv"));
    if (a.flag("json")) {
        Json j = Json::object();
        j["array"] = s.array.name;
        j["batch"] = s.params.batch;
        j["mode"] = modeName(s.params);
        Json nets = Json::array();
        for (const auto& row : csv.rows) {
            Json r{{"network", row[0]}};
            for (size_t i = 1; i < row.size(); ++i) r[csv.header[i]] = std::stod(row[i]);
            nets.push_back(r);
        }
        j["rows"] = nets;
        out << jsonText(j) << "\n";
        return 0;
    }
    out << "HyPar Figs. 6-8 and 12 on " << s.array.name << " (" << s.array.count() << " accelerators), batch "
        << withCommas(s.params.batch) << ", mode " << modeName(s.params) << "\n\n";
    TextTable t({"network", "perf MP", "perf OWT", "perf HyPar", "energy MP", "energy OWT", "energy HyPar", "GB DP",
                 "GB MP", "GB OWT", "GB HyPar", "torus HyPar", "AccPar"});
    auto addRow = [&](const std::string& name, size_t i) {
        const auto& r = csv.rows[i];
        std::vector<std::string> cells{name};
        for (size_t k = 1; k < r.size(); ++k) {
            const double v = std::stod(r[k]);
            cells.push_back(k >= 7 && k <= 10 ? fixed(v, 4) : fixed(v, 3));
        }
        t.add(cells);
    };
    for (size_t i = 0; i < csv.rows.size(); ++i) addRow(csv.rows[i][0], i);
    t.print(out);
    out << "\nperf and energy are normalised to Data Parallelism (x); GB = total communication per step (10^9 B);\n"
           "torus HyPar = HyPar's partition on a 2-D torus, normalised to DP on the H-tree (Fig. 12);\n"
           "AccPar = AccPar's plan over DP, both under the AccPar time model (docs/methods/accpar.md#step-time), same array.\n";
    return 0;
}

int cmdScale(const Options& a, std::ostream& out) {
    const Setup s = readSetup(a);
    const LayerTable layers = readLayers(a, a.required("network"));
    const int max_levels = static_cast<int>(a.integer64("max-levels", 6));
    const auto points = scaleSweep(layers, s.array, s.params, max_levels);
    CsvTable csv;
    csv.header = {"accelerators", "levels", "dp_gain_x", "hypar_gain_x", "dp_total_comm_GB", "hypar_total_comm_GB"};
    for (const auto& p : points)
        csv.rows.push_back({std::to_string(p.accelerators), std::to_string(p.levels), formatNumber(p.dp_gain),
                            formatNumber(p.hypar_gain), formatNumber(p.dp_total_gb), formatNumber(p.hypar_total_gb)});
    if (a.has("csv")) writeCsvFile(csv, a.get("csv"));
    if (a.flag("json")) {
        Json rows = Json::array();
        for (const auto& p : points)
            rows.push_back({{"accelerators", p.accelerators}, {"levels", p.levels}, {"dp_gain", p.dp_gain},
                            {"hypar_gain", p.hypar_gain}, {"dp_total_comm_GB", p.dp_total_gb},
                            {"hypar_total_comm_GB", p.hypar_total_gb}});
        out << jsonText(Json{{"network", layers.network}, {"batch", s.params.batch}, {"points", rows}}) << "\n";
        return 0;
    }
    out << "HyPar Fig. 11: " << layers.network << ", batch " << withCommas(s.params.batch)
        << ", gains normalised to one accelerator\n\n";
    TextTable t({"accelerators", "DP gain (x)", "HyPar gain (x)", "DP comm (GB)", "HyPar comm (GB)"});
    for (const auto& p : points)
        t.add({std::to_string(p.accelerators), fixed(p.dp_gain, 2), fixed(p.hypar_gain, 2), fixed(p.dp_total_gb, 3),
               fixed(p.hypar_total_gb, 3)});
    t.print(out);
    return 0;
}

// A field's option help: its one line, then its unit, default and range ("… (default 1.6e9 bit/s; range …)").
template <class S>
std::string fieldHelp(const Field<S>& f) {
    std::string help = f.help;
    if (!help.empty() && help.back() == '.') help.pop_back();
    help[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(help[0])));
    return help + " (" + fieldSummary(f) + ")";
}

// The array, model and output options of hypar, evaluate, explore, table and scale.
void addSetupOptions(CLI::App& app, bool with_network = true) {
    addNetworkOptions(app, with_network);
    value(app, "array", "F", "partita-array/1 JSON (default: 16 HMC accelerators on an H-tree)");
    value(app, "machine", "T",
          "a topology file or preset as the array: its levels and per-level\n"
          "bandwidths by recursive bisection (2^H identical devices)");
    value(app, "levels", "H", "hierarchy levels, 1..12 (2^H accelerators; overrides the array's)");
    value(app, "topology", "htree|torus", "the array's topology");
    value(app, "batch", "B", "samples per step (256)")->check(integerIn(1, limits::kBatch));
    value(app, "mode", "cal|lit", "cal: w_intra = 2 (default); lit: w_intra = 1");
    value(app, "out-size", "post|pre", "a pooled layer's output size after (default) or before pooling");
    const Field<CostParams>& bytes = *findField(costFields(), "bytes_per_element");
    value(app, bytes.option(), "N", fieldHelp(bytes));
    for (const Field<Array>* f : arrayNumberFields()) value(app, f->option(), "X", fieldHelp(*f));
    flag(app, "sram-energy", "count SRAM accesses in the energy");
    value(app, "csv", "FILE", "the command's table as CSV (units in the column names)");
    flag(app, "json", "one JSON object on stdout");
}

}  // namespace

void addEngineCommands(CLI::App& app, RunContext& ctx) {
    const auto plain = [](int (*f)(const Options&, std::ostream&)) {
        return [f](const Options& a, std::ostream& out, std::ostream&) { return f(a, out); };
    };
    CLI::App* hypar = command(app, ctx, "hypar", "HyPar's hierarchical search (Algorithms 1 and 2)", plain(cmdHypar));
    addSetupOptions(*hypar);
    value(*hypar, "export", "FILE", "write the strategy as partita-strategy/1 JSON");

    CLI::App* evaluate = command(app, ctx, "evaluate",
                                 "evaluate a given grid, strategy file or baseline (give exactly one)",
                                 plain(cmdEvaluate));
    addSetupOptions(*evaluate);
    value(*evaluate, "grid", "G", "a grid, one string per level: 0011,0010,0000,0011");
    value(*evaluate, "strategy", "F", "a partita-strategy/1 file");
    value(*evaluate, "method", "hypar|dp|mp|owt", "a baseline or HyPar's plan");

    CLI::App* explore = command(app, ctx, "explore", "enumerate a strategy space (give exactly one of the three)",
                                plain(cmdExplore));
    addSetupOptions(*explore);
    value(*explore, "explore-levels", "1,4", "every choice of these levels' cells");
    value(*explore, "explore-layers", "conv5_2,fc1", "every choice of these layers' cells");
    flag(*explore, "full", "every cell");
    value(*explore, "base", "hypar|dp|mp|owt", "the plan the other cells keep (hypar)");
    value(*explore, "threads", "N", "worker threads, 0 = one per core (0)")->check(integerIn(0, 1024));

    CLI::App* table = command(app, ctx, "table",
                              "DP, MP, OWT and HyPar for many networks (HyPar Figs. 6-8, 12), with geometric means;\n"
                              "--study accpar: OWT, HyPar and AccPar over DP for AlexNet, VGG-11..19, ResNet-18..50",
                              plain(cmdTable));
    addSetupOptions(*table, false);
    value(*table, "networks", "F1,F2,...", "networks to compare; default: the ten built-in ones (the study's eight)");
    value(*table, "study", "accpar", "the AccPar study instead of HyPar's table");
    addAccParOptions(*table);

    CLI::App* scale = command(app, ctx, "scale", "1 to 2^N accelerators (HyPar Fig. 11)", plain(cmdScale));
    addSetupOptions(*scale);
    value(*scale, "max-levels", "N", "the largest array, 2^N accelerators (6)")->check(integerIn(1, Array::kMaxLevels));

    CLI::App* methods = command(app, ctx, "methods", "every method: its key, name, kind, the command that runs it, sweeps",
                                plain(cmdMethods));
    flag(*methods, "json", "one JSON object on stdout");

    CLI::App* run = command(app, ctx, "run", "any grid-plan method by its key (partita-cli methods), reported as hypar is",
                            plain(cmdRun));
    positional(*run, "method", "the method's key: hypar, dp, mp, owt, or one a plug-in registered")->required();
    addSetupOptions(*run);
    value(*run, "db", "F", "store the run in this results database (created if absent)");
}

}  // namespace partita::cli
