// partita-cli mpt: Winograd x data-parallel training on a 2-D worker grid (docs/methods/mpt.md). Every number comes from core/mpt; paper numbers only appear in labelled columns.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>

#include "app/cli/network_input.h"
#include "app/cli/commands.h"
#include "app/cli/mpt_commands.h"
#include "app/cli/report.h"
#include "core/io/csv.h"
#include "core/io/network_io.h"
#include "core/mpt/options.h"
#include "core/mpt/scenario.h"
#include "core/run/mpt_paper.h"

namespace partita::cli {

namespace {


std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, sep);) out.push_back(item);
    return out;
}

int mptPositive(const Options& a, const std::string& name, int fallback) {
    return static_cast<int>(a.integerIn(name, fallback, 1, 1'000'000'000));
}

mpt::GridConfig parseGrid(const std::string& text) {
    const auto parts = split(text, 'x');
    try {
        if (parts.size() == 2) return {std::stoi(parts[0]), std::stoi(parts[1])};
    } catch (const std::exception&) {
    }
    throw UsageError("--override: expected a grid NgxNc such as 16x16, got '" + text + "'");
}

struct MptSetup {
    std::vector<mpt::MptLayer> layers;
    std::string source;
    bool study = false, five = false;
    mpt::ModelOptions options;
    mpt::ScenarioParams params;
};

// "Model     fit (not a reproduction): transforms on the vector unit at 192 FLOP/cycle, ..."
std::string modelText(const MptSetup& s) { return mptModelText(s.options, s.study); }

MptSetup readMptSetup(const Options& a) {
    MptSetup s;
    if (a.has("network") && a.has("layers")) throw UsageError("give --layers or --network, not both");
    if (a.has("network")) {
        const Network net = readNetworkArg(a, a.get("network"));
        s.layers = mpt::layersFromNetwork(net);
        s.source = net.name;
    } else {
        const std::string l = a.get("layers", "study");
        if (l != "study" && l != "study5") throw UsageError("--layers must be study or study5, got '" + l + "'");
        s.study = true;
        s.five = l == "study5";
        s.layers = mpt::layerStudy(s.five ? 5 : 3);
        s.source = s.five ? "Table II layers, 5x5" : "Table II layers";
    }
    s.options = readMptOptions(a);
    mpt::applyOptions(s.options, s.study, s.params);
    mpt::MptParams& m = s.params.model;
    m.p = mptPositive(a, "p", 256);
    m.batch = mptPositive(a, "batch", 256);
    const std::string domain = a.get("weight-domain", "spatial");
    if (domain != "spatial" && domain != "winograd") throw UsageError("--weight-domain must be spatial or winograd");
    m.single_group_weight_domain = domain == "spatial" ? mpt::WeightDomain::Spatial : mpt::WeightDomain::Winograd;
    mpt::ReductionFactors& f = m.factors;
    for (auto [name, field] : {std::pair{"gather-2d", &f.gather_2d}, std::pair{"scatter-2d", &f.scatter_2d},
                               std::pair{"gather-1d", &f.gather_1d}, std::pair{"scatter-1d", &f.scatter_1d}})
        if (a.has(name)) {
            *field = a.number(name, 0);
            f.paper_reported = false;
        }
    f.charge_prediction_bits = a.flag("charge-prediction-bits");
    const std::string prediction = a.get("prediction", "factor");
    if (prediction != "factor" && prediction != "functional") throw UsageError("--prediction must be factor or functional");
    if (prediction == "functional") {
        const double sigma = a.number("tile-sigma", 1.0);
        if (!(sigma > 0)) throw UsageError("--tile-sigma must be positive");
        f = mpt::functionalFactors(f, a.number("tile-mean", -0.5), sigma);
    }
    m.source_side_1d = a.flag("source-side-1d");
    m.winograd_domain_join = a.flag("winograd-join");
    const std::string configs = a.get("configs", "paper");
    if (configs != "paper" && configs != "extended") throw UsageError("--configs must be paper or extended");
    s.params.configs = configs == "paper" ? mpt::ConfigSet::Paper : mpt::ConfigSet::Extended;
    const std::string transform = a.get("transform", "per-config");
    if (transform != "per-config" && transform != "paper-formula")
        throw UsageError("--transform must be per-config or paper-formula");
    s.params.transform = transform == "per-config" ? mpt::TransformRule::PerConfig : mpt::TransformRule::PaperFormula;
    try {
        mpt::checkParams(m);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return s;
}

std::vector<std::optional<mpt::GridConfig>> readOverrides(const Options& a, const std::vector<mpt::MptLayer>& layers) {
    if (!a.has("override")) return {};
    std::vector<std::optional<mpt::GridConfig>> out(layers.size());
    for (const std::string& item : split(a.get("override"), ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos) throw UsageError("--override: expected LAYER=NgxNc, got '" + item + "'");
        const std::string name = item.substr(0, eq);
        size_t k = 0;
        while (k < layers.size() && layers[k].name != name) ++k;
        if (k == layers.size()) throw UsageError("--override: no layer named '" + name + "'");
        out[k] = parseGrid(item.substr(eq + 1));
    }
    return out;
}

std::string us(double s) { return fixed(s * 1e6, 2); }
std::string ratio(double x) { return fixed(x, 3) + "x"; }

Json costJson(const mpt::LayerCost& c, double bpe) {
    return {{"grid", {c.grid.n_g, c.grid.n_c}}, {"transform", c.winograd ? c.f.name() : "direct"},
            {"data_parallel", c.data_parallel}, {"buildable", c.buildable}, {"line_predictable", c.line_predictable},
            {"reduced", c.reduced}, {"weight_elements", c.volume.weight},
            {"tile_elements", {c.volume.scatter_x, c.volume.gather_y, c.volume.scatter_dy, c.volume.gather_dx}},
            {"comm_bytes", c.commBytes(bpe)}, {"macs", c.macs}, {"compute_s", c.compute_s},
            {"weight_comm_s", c.weight_comm_s}, {"tile_comm_s", c.tile_comm_s}, {"total_s", c.total_s},
            {"energy_J", {{"compute", c.energy.compute_J}, {"sram", c.energy.sram_J}, {"dram", c.energy.dram_J},
                          {"link", c.energy.link_J}}},
            {"warnings", c.warnings}};
}

Json modelJson(const MptSetup& s) { return mptModelJson(s.options, s.study); }

Json paperJson() {
    Json out = Json::array();
    for (const mpt::PaperNumber& n : mpt::paperNumbers())
        out.push_back({{"id", n.id}, {"quantity", n.quantity}, {"value", n.value}, {"unit", n.unit},
                       {"baseline", n.baseline}, {"paper_reported", true}});
    return out;
}

void emitCsv(const Options& a, const TextTable&, const CsvTable& csv) {
    if (a.has("csv")) writeCsvFile(csv, a.get("csv"));
}

int winogradCommand(const Options& a, std::ostream& out) {
    const auto mr = split(a.get("winograd"), ',');
    const auto shape = split(a.get("shape", "640,640,8,8"), ',');
    mpt::WinogradSize f;
    std::vector<double> dims;
    try {
        if (mr.size() != 2 || shape.size() != 4) throw std::invalid_argument("");
        f = {std::stoi(mr[0]), std::stoi(mr[1])};
        for (const auto& d : shape) dims.push_back(std::stod(d));
        mpt::checkSize(f);
    } catch (const std::exception&) {
        throw UsageError("--winograd expects m,r (e.g. 4,3; T = m + r - 1 <= 12) and --shape I,J,H,W");
    }
    const double batch = mptPositive(a, "batch", 256);
    mpt::WinogradCounts c;
    try {
        c = mpt::winogradCounts(f, batch, dims[0], dims[1], dims[2], dims[3]);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const mpt::WinogradMatrices m = winogradMatrices(f);
    const mpt::SelfTest t = selfTest(f);
    auto matrix = [](const mpt::RMatrix& x) {
        Json rows = Json::array();
        for (const auto& row : x) {
            Json r = Json::array();
            for (const mpt::Rational& v : row) r.push_back(v.str());
            rows.push_back(r);
        }
        return rows;
    };
    const Json j{{"transform", f.name()}, {"T", f.tile()}, {"tiles_per_channel", c.tiles},
                 {"input_tile_elements", c.input_tiles}, {"output_tile_elements", c.output_tiles},
                 {"winograd_weights", c.weights}, {"spatial_weights", c.spatial_weights},
                 {"weight_inflation", c.inflation}, {"data_expansion", c.data_expansion},
                 {"mac_reduction", c.mac_reduction}, {"macs_per_phase", c.macs_per_phase},
                 {"AT", matrix(m.AT)}, {"G", matrix(m.G)}, {"BT", matrix(m.BT)},
                 {"self_test", {{"trials", t.trials}, {"mismatches", t.mismatches}, {"exact", t.exact()}}}};
    if (a.flag("json")) {
        out << jsonText(j) << "\n";
        return t.exact() ? 0 : 1;
    }
    out << "Winograd " << f.name() << " on I,J,H,W = " << a.get("shape", "640,640,8,8") << ", batch " << batch << "\n";
    TextTable tt({"quantity", "value"});
    tt.add({"T (tile side)", std::to_string(f.tile())});
    tt.add({"t (tiles per channel per image)", withCommas(c.tiles)});
    tt.add({"|X| (elements)", withCommas(c.input_tiles)});
    tt.add({"|Y| (elements)", withCommas(c.output_tiles)});
    tt.add({"|W| (elements)", withCommas(c.weights)});
    tt.add({"|w| (elements)", withCommas(c.spatial_weights)});
    tt.add({"weight inflation |W|/|w|", fixed(c.inflation, 3)});
    tt.add({"data expansion T^2/m^2", fixed(c.data_expansion, 3)});
    tt.add({"MAC reduction m^2 r^2/T^2", fixed(c.mac_reduction, 3)});
    tt.print(out);
    for (auto [name, x] : {std::pair{"A^T", &m.AT}, std::pair{"G", &m.G}, std::pair{"B^T", &m.BT}}) {
        out << name << " =\n";
        for (const auto& row : *x) {
            out << "  [";
            for (size_t k = 0; k < row.size(); ++k) out << (k ? ", " : "") << row[k].str();
            out << "]\n";
        }
    }
    out << "Self-test vs direct correlation: " << t.trials << " random tiles, " << t.mismatches << " mismatches ("
        << (t.exact() ? "exact" : "FAILED") << ")\n";
    return t.exact() ? 0 : 1;
}


// Evaluate one scenario: a row per layer with the cost of every allowed grid.
int scenarioCommand(const Options& a, const MptSetup& s, std::ostream& out) {
    mpt::Scenario sc;
    mpt::Evaluation e;
    try {
        sc = mpt::parseScenario(a.get("scenario", "w_mp+*"));
        e = mpt::evaluate(s.layers, sc, s.params, readOverrides(a, s.layers));
    } catch (const std::invalid_argument& x) {
        throw UsageError(x.what());
    }
    const double bpe = s.params.model.bytes_per_element;
    const mpt::Objective obj = s.params.objective;
    std::vector<mpt::GridConfig> grids;  // the union of option grids, for the per-config columns
    for (const mpt::LayerResult& r : e.layers)
        for (const mpt::LayerCost& c : r.options)
            if (std::find(grids.begin(), grids.end(), c.grid) == grids.end()) grids.push_back(c.grid);
    std::sort(grids.begin(), grids.end(), [](const mpt::GridConfig& x, const mpt::GridConfig& y) { return x.n_g < y.n_g; });
    const std::string unit = obj == mpt::Objective::CommVolume ? " [MB]" : " [us]";
    auto objText = [&](const mpt::LayerCost& c) {
        const double v = objectiveValue(c, obj, bpe);
        return obj == mpt::Objective::CommVolume ? fixed(v / 1e6, 3) : us(v);
    };
    if (a.flag("json")) {
        Json layers = Json::array();
        for (const mpt::LayerResult& r : e.layers) {
            Json options = Json::array();
            for (const mpt::LayerCost& c : r.options) options.push_back(costJson(c, bpe));
            layers.push_back({{"name", r.name}, {"mpt", r.mpt}, {"chosen", r.chosen}, {"overridden", r.overridden},
                              {"cost", costJson(r.cost, bpe)}, {"options", options}});
        }
        const mpt::Totals& t = e.totals;
        const Json j{{"source", s.source}, {"scenario", mpt::scenarioName(sc)}, {"p", s.params.model.p},
                     {"batch", s.params.model.batch}, {"objective", mpt::objectiveName(obj)},
                     {"collective_passes", s.params.model.collective_passes},
                     {"factors_paper_reported", s.params.model.factors.paper_reported}, {"layers", layers},
                     {"totals", {{"compute_s", t.compute_s}, {"weight_comm_s", t.weight_comm_s},
                                 {"tile_comm_s", t.tile_comm_s}, {"total_s", t.total_s},
                                 {"comm_bytes_per_worker", t.comm_bytes}, {"energy_J", t.energy.total()}}},
                     {"w_dp_s", e.w_dp_s}, {"one_worker_s", e.one_worker_s},
                     {"speedup_vs_w_dp", e.speedupVsWdp()}, {"speedup_vs_one_worker", e.speedupVsOne()},
                     {"averages_vs_w_dp", mptAveragesJson(e.vsWdp())}, {"averages_vs_one_worker", mptAveragesJson(e.vsOne())},
                     {"model", modelJson(s)}};
        out << jsonText(j) << "\n";
        return 0;
    }
    std::vector<std::string> header{"layer", "grid (N_g,N_c)", "transform", "compute [us]", "weight comm [us]",
                                    "tile comm [us]", "total [us]", "comm [MB/worker]"};
    for (const mpt::GridConfig& g : grids) header.push_back(std::string(objectiveName(obj)) + " " + g.label() + unit);
    TextTable t(header);
    CsvTable csv{header, {}};
    for (const mpt::LayerResult& r : e.layers) {
        const mpt::LayerCost& c = r.cost;
        std::vector<std::string> row{r.name, c.grid.label() + (r.overridden ? " (override)" : ""),
                                     c.winograd ? c.f.name() : "direct", us(c.compute_s), us(c.weight_comm_s),
                                     us(c.tile_comm_s), us(c.total_s), fixed(c.commBytes(bpe) / 1e6, 3)};
        for (const mpt::GridConfig& g : grids) {
            std::string cell = "-";
            for (const mpt::LayerCost& o : r.options)
                if (o.grid == g) cell = objText(o) + (o.buildable ? "" : " (!)");
            row.push_back(cell);
        }
        csv.rows.push_back(row);
        t.add(row);
    }
    out << "MPT " << mpt::scenarioName(sc) << " on " << s.source << ": p = " << s.params.model.p << ", batch "
        << s.params.model.batch << "\nModel     " << modelText(s) << "\n\n";
    t.print(out);
    const mpt::Totals& tt = e.totals;
    out << "\nTotal     " << seconds(tt.total_s) << " per iteration (compute " << seconds(tt.compute_s)
        << ", weight comm " << seconds(tt.weight_comm_s) << ", tile comm " << seconds(tt.tile_comm_s) << ")\n";
    out << "Comm      " << fixed(tt.comm_bytes / 1e6, 3) << " MB per worker; energy " << joules(tt.energy.total())
        << " per worker\n";
    out << "Speedup   " << ratio(e.speedupVsWdp()) << " vs w_dp, " << ratio(e.speedupVsOne())
        << " vs 1 worker (total-time ratios)\n";
    out << "Per layer vs w_dp: geometric mean " << ratio(e.vsWdp().geomean) << ", arithmetic mean "
        << ratio(e.vsWdp().mean) << "; vs 1 worker: " << ratio(e.vsOne().geomean) << ", " << ratio(e.vsOne().mean) << "\n";
    if (s.params.model.factors.paper_reported && (sc == mpt::Scenario::WMpPlus || sc == mpt::Scenario::WMpPlusStar))
        out << "Note      prediction/zero-skip factors are paper-reported (34.0/78.1/39.3/64.7 %)\n";
    out << "(!) = not buildable on the paper's hardware\n";
    emitCsv(a, t, csv);
    return 0;
}

// The paper-reported number set beside a scenario for this input (never computed).
std::string paperColumn(mpt::Scenario sc, const MptSetup& s) { return paperFigure(sc, s.study, s.five); }

int compareCommand(const Options& a, const MptSetup& s, std::ostream& out) {
    std::vector<mpt::Evaluation> evals;
    try {
        for (mpt::Scenario sc : mpt::allScenarios()) evals.push_back(evaluate(s.layers, sc, s.params));
    } catch (const std::invalid_argument& x) {
        throw UsageError(x.what());
    }
    std::vector<std::string> header{"scenario", "total [ms]", "compute [ms]", "weight comm [ms]", "tile comm [ms]",
                                    "comm [MB/worker]", "energy [mJ/worker]", "vs w_dp", "geomean", "mean",
                                    "vs 1 worker", "paper-reported (baseline)"};
    TextTable t(header);
    CsvTable csv{header, {}};
    Json rows = Json::array();
    for (const mpt::Evaluation& e : evals) {
        const mpt::Totals& tt = e.totals;
        const std::string paper = paperColumn(e.scenario, s);
        std::vector<std::string> row{scenarioName(e.scenario), fixed(tt.total_s * 1e3, 3), fixed(tt.compute_s * 1e3, 3),
                                     fixed(tt.weight_comm_s * 1e3, 3), fixed(tt.tile_comm_s * 1e3, 3),
                                     fixed(tt.comm_bytes / 1e6, 3), fixed(tt.energy.total() * 1e3, 3),
                                     ratio(e.speedupVsWdp()), ratio(e.vsWdp().geomean), ratio(e.vsWdp().mean),
                                     ratio(e.speedupVsOne()), paper.empty() ? "-" : paper};
        t.add(row);
        csv.rows.push_back(row);
        rows.push_back({{"scenario", scenarioName(e.scenario)}, {"total_s", tt.total_s}, {"compute_s", tt.compute_s},
                        {"weight_comm_s", tt.weight_comm_s}, {"tile_comm_s", tt.tile_comm_s},
                        {"comm_bytes_per_worker", tt.comm_bytes}, {"energy_J", tt.energy.total()},
                        {"speedup_vs_w_dp", e.speedupVsWdp()}, {"speedup_vs_one_worker", e.speedupVsOne()},
                        {"averages_vs_w_dp", mptAveragesJson(e.vsWdp())}, {"averages_vs_one_worker", mptAveragesJson(e.vsOne())},
                        {"paper_reported", paper}});
    }
    if (a.flag("json")) {
        out << jsonText(Json{{"source", s.source}, {"p", s.params.model.p}, {"batch", s.params.model.batch},
                    {"model", modelJson(s)}, {"scenarios", rows}, {"paper_reported", paperJson()}})
            << "\n";
        return 0;
    }
    out << "MPT scenarios on " << s.source << ": p = " << s.params.model.p << ", batch " << s.params.model.batch
        << " (speedups from this engine; the last column is paper-reported, not computed)\n";
    out << "Model     " << modelText(s) << "\n";
    out << "vs w_dp: total-time ratio; geomean / mean: of the per-layer ratios (the paper's \"on average\" is undefined)\n\n";
    t.print(out);
    out << "\nEvery paper figure beside the engine's, with ratio and the reason for each gap: partita-cli mpt --compare --paper\n";
    emitCsv(a, t, csv);
    return 0;
}

int sweepCommand(const Options& a, const MptSetup& s, std::ostream& out) {
    const bool plus = a.get("scenario", "w_mp+*").find('+') != std::string::npos;
    std::vector<mpt::SweepRow> rows;
    try {
        rows = mpt::sweep(s.layers, s.params, plus);
    } catch (const std::invalid_argument& x) {
        throw UsageError(x.what());
    }
    std::vector<std::string> header{"p", "fixed grid", "w_dp comm [MB/worker]", "fixed comm [MB/worker]",
                                    "dynamic comm [MB/worker]", "w_dp speedup vs 1", "fixed speedup vs 1",
                                    "dynamic speedup vs 1"};
    TextTable t(header);
    CsvTable csv{header, {}};
    Json j = Json::array();
    for (const mpt::SweepRow& r : rows) {
        std::vector<std::string> row{std::to_string(r.p), r.fixed.label(), fixed(r.w_dp_bytes / 1e6, 3),
                                     fixed(r.fixed_bytes / 1e6, 3), fixed(r.dynamic_bytes / 1e6, 3),
                                     ratio(r.w_dp_speedup), ratio(r.fixed_speedup), ratio(r.dynamic_speedup)};
        t.add(row);
        csv.rows.push_back(row);
        j.push_back({{"p", r.p}, {"fixed_grid", {r.fixed.n_g, r.fixed.n_c}}, {"w_dp_bytes", r.w_dp_bytes},
                     {"fixed_bytes", r.fixed_bytes}, {"dynamic_bytes", r.dynamic_bytes},
                     {"w_dp_speedup", r.w_dp_speedup}, {"fixed_speedup", r.fixed_speedup},
                     {"dynamic_speedup", r.dynamic_speedup}});
    }
    if (a.flag("json")) {
        out << jsonText(Json{{"source", s.source}, {"prediction", plus}, {"rows", j}}) << "\n";
        return 0;
    }
    out << "MPT scaling on " << s.source << ", batch " << s.params.model.batch
        << (plus ? " (with prediction/zero-skip)" : "") << ": fixed = N_g = N_c = sqrt(p), dynamic = per-layer choice\n\n";
    t.print(out);
    emitCsv(a, t, csv);
    return 0;
}

int cmdMptTables(const Options& a, const MptSetup& s, std::ostream& out) {
    if (a.flag("compare") && a.flag("sweep")) throw UsageError("give --compare or --sweep, not both");
    if (a.flag("compare") && a.flag("paper")) return mptPaperCommand(s.options, a.flag("json"), a.get("csv", ""), out);
    if (a.flag("paper")) throw UsageError("--paper goes with --compare");
    if (a.flag("compare")) return compareCommand(a, s, out);
    if (a.flag("sweep")) return sweepCommand(a, s, out);
    return scenarioCommand(a, s, out);
}

int cmdMpt(const Options& a, std::ostream& out) {
    if (a.has("winograd")) return winogradCommand(a, out);
    if (a.flag("reference")) {
        if (a.flag("json")) {
            out << jsonText(Json{{"paper_reported", paperJson()}}) << "\n";
            return 0;
        }
        TextTable t({"quantity", "paper-reported", "baseline"});
        for (const mpt::PaperNumber& n : mpt::paperNumbers()) t.add({n.quantity, formatNumber(n.value) + " " + n.unit, n.baseline});
        t.print(out);
        return 0;
    }
    return cmdMptTables(a, readMptSetup(a), out);
}

}  // namespace

void addMptCommand(CLI::App& app, RunContext& ctx) {
    CLI::App* c = command(app, ctx, "mpt",
                          "MPT: Winograd x data-parallel training on a 2-D worker grid (docs/methods/mpt.md);\n"
                          "by default one scenario per layer: the chosen (N_g,N_c), the cost of every allowed\n"
                          "grid, time split compute / weight comm / tile comm, totals and speedups",
                          [](const Options& a, std::ostream& out, std::ostream&) { return cmdMpt(a, out); });
    value(*c, "layers", "study|study5", "the paper's layer study (study, the default) or its five-layer variant");
    addNetworkOptions(*c);
    flag(*c, "compare",
         "all six scenarios (d_dp w_dp w_mp w_mp+ w_mp* w_mp+*) normalised to w_dp\n"
         "(total-time ratio, per-layer geometric and arithmetic means), beside the paper");
    flag(*c, "paper",
         "with --compare: every paper figure beside the engine's: layer studies and the three\n"
         "networks (examples/networks), ratio, three averages, the fit preset and a gap reason each\n"
         "(docs/methods/mpt.md#the-paper-against-the-engine)");
    flag(*c, "sweep", "p = 1, 4, 16, 64, 256: per-worker comm and speedup vs one worker");
    value(*c, "winograd", "m,r", "Winograd calculator and exact self-test");
    value(*c, "shape", "I,J,H,W", "the --winograd shape (640,640,8,8)");
    flag(*c, "reference", "the paper-reported numbers with their baselines");
    value(*c, "preset", "default|fit|a9",
          "the model options below at once (default: the current model; fit: a calibration\n"
          "against the paper's figures, never a reproduction; a9: the first model, as runs stored\n"
          "before it changed were evaluated); single options override it");
    value(*c, "transform-unit", "dedicated|vector", "dedicated (default): transforms never limit throughput");
    value(*c, "vector-flops", "F", "the vector unit's transform rate (64 FLOP/cycle; implies --transform-unit vector)");
    value(*c, "overlap", "max|sum", "max (default): double-buffered inputs");
    value(*c, "passes", "1|2", "passes (2)");
    value(*c, "array-dim", "S", "the array side (64 for the layer study, 96 for networks)");
    value(*c, "bytes-per-element", "B", "bytes on the wire (4 for the layer study, 2 for networks: an assumption)");
    value(*c, "scenario", "S", "the scenario (w_mp+*)");
    value(*c, "p", "N", "workers (256)");
    value(*c, "batch", "B", "samples per step (256)");
    value(*c, "objective", "comm_volume|comm_time|total_time", "what the grid choice minimises (comm_time)");
    value(*c, "configs", "paper|extended", "the grids allowed (paper)");
    value(*c, "transform", "per-config|paper-formula", "per-config (default): F(2,3) if N_g > 1 else F(4,3)");
    value(*c, "weight-domain", "spatial|winograd", "spatial (default; the (1,p) grid)");
    for (const char* f : {"gather-2d", "scatter-2d", "gather-1d", "scatter-1d"})
        value(*c, f, "F", "skip fraction (0.340/0.393/0.781/0.647 for 2-D/1-D gather/scatter, paper-reported)");
    value(*c, "prediction", "factor|functional",
          "functional (default): gather skip fractions from the quantiser and interval\n"
          "model on normal(--tile-mean, --tile-sigma) F(2,3) output tiles");
    value(*c, "tile-mean", "X", "the output tiles' mean (-0.5)");
    value(*c, "tile-sigma", "X", "the output tiles' standard deviation (1)");
    flag(*c, "charge-prediction-bits", "charge the prediction bits to communication");
    flag(*c, "source-side-1d", "1-D skips decided at the source");
    flag(*c, "winograd-join", "joins in the Winograd domain");
    value(*c, "override", "L=NgxNc,...", "force a grid for named layers (e.g. Late-2=1x256)");
    flag(*c, "json", "one JSON object");
    value(*c, "csv", "FILE", "the table as CSV, units in column names");
}

}  // namespace partita::cli
