// partita-cli l2s: Learn-to-Scale single-image inference split by output
// channel across the cores of a 2-D mesh (docs/methods/l2s.md).
#include <cmath>
#include <cstdint>
#include <fstream>
#include <ostream>

#include "app/cli/network_input.h"
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/cli/report.h"
#include "core/io/csv.h"
#include "core/io/network_io.h"
#include "core/l2s/json.h"
#include "core/l2s/paper_gap.h"
#include "core/l2s/presets.h"
#include "core/l2s/study.h"
#include "core/util/error.h"

namespace partita::cli {

namespace {


struct L2sSetup {
    LayerTable layers;
    const l2s::Preset* preset = nullptr;
    l2s::MeshParams mesh;
    l2s::CoreParams core;
    l2s::StrategySpec spec;
    std::vector<double> hop_keep = {1, 0, 0};  // SS_Mask keep at 1, 2, 3 hops
    std::string variant = "custom";  // "Baseline", "SS", "SS_Mask", "grouped", "custom"
};


L2sSetup readL2sSetup(const Options& a) {
    L2sSetup s;
    if (a.has("network") == a.has("preset")) throw UsageError("give exactly one of --network FILE or --preset NAME");
    if (a.has("preset")) {
        s.preset = usage("preset", [&] { return &l2s::preset(a.get("preset")); });
        s.layers = l2s::presetLayers(*s.preset, examplesDir());
    } else {
        s.layers = weightedLayers(readNetworkArg(a, a.get("network")));
    }
    const std::string largest = " (the largest supported mesh: each layer boundary keeps cores x cores matrices)";
    s.mesh.cores = a.integer("cores", 16);
    if (s.mesh.cores < 1 || s.mesh.cores > l2s::kMaxCores)
        throw UsageError("--cores must be between 1 and " + std::to_string(l2s::kMaxCores) + ", got " +
                         std::to_string(s.mesh.cores) + (s.mesh.cores > l2s::kMaxCores ? largest : ""));
    if (a.has("mesh")) {
        std::tie(s.mesh.width, s.mesh.height) = usage("mesh", [&] { return l2s::parseMeshShape(a.get("mesh")); });
        const std::int64_t cores = std::int64_t{s.mesh.width} * s.mesh.height;
        if (cores > l2s::kMaxCores)
            throw UsageError("--mesh " + a.get("mesh") + " holds " + std::to_string(cores) + " cores, more than " +
                             std::to_string(l2s::kMaxCores) + largest);
        if (!a.has("cores")) s.mesh.cores = static_cast<int>(cores);
    }
    s.mesh.e_link_j = a.numberIn("e-link-pj", 10, ranges::kEnergyPj) * 1e-12;
    s.mesh.e_router_j = a.numberIn("e-router-pj", 20, ranges::kEnergyPj) * 1e-12;
    s.core.skip_zero_blocks = a.flag("skip-zero-blocks");
    s.mesh.count_ports = a.flag("ports");
    s.core.compute = usage("compute", [&] { return l2s::parseComputeModel(a.get("compute", "lane-filling")); });
    s.mesh.comm = usage("comm", [&] { return l2s::parseCommModel(a.get("comm", "burst")); });
    s.mesh.burst_rate = a.numberIn("rate", 0.4, ranges::kBurstRate);
    if (s.preset) s.hop_keep = s.preset->hop_keep;
    if (a.has("hop-keep")) s.hop_keep = usage("hop-keep", [&] { return l2s::parseHopKeep(a.get("hop-keep")); });
    s.spec.seed = static_cast<std::uint64_t>(a.integer64("seed", 1));

    const std::string strategy = a.get("strategy", a.has("mask") || a.has("keep") ? "sparse" : "traditional");
    if (strategy.find('=') != std::string::npos)
        s.spec.per_layer = usage("strategy", [&] { return l2s::parsePerLayer(strategy); });
    else
        s.spec.scheme = usage("strategy", [&] { return l2s::parseScheme(strategy); });
    s.variant = strategy == "traditional" ? "Baseline" : strategy == "grouped" ? "grouped" : "custom";
    bool all_grouped = !s.spec.per_layer.empty();
    for (const auto& [name, scheme] : s.spec.per_layer) all_grouped = all_grouped && scheme == l2s::Scheme::Grouped;
    if (all_grouped) s.variant = "grouped";
    const std::string mask = a.get("mask");
    if (mask == "ss") {
        s.spec.keep = l2s::ssKeep(s.preset ? s.preset->ss_keep : 0.5);
        s.variant = "SS";
    } else if (mask == "ss_mask") {
        s.spec.keep = l2s::ssMaskKeep(s.hop_keep);
        s.spec.exact = true;
        s.variant = "SS_Mask";
    } else if (!mask.empty()) {
        s.spec.masks = l2s::loadMasks(mask);
        s.variant = "custom";
    }
    if (a.has("keep")) {
        s.spec.keep = usage("keep", [&] { return l2s::parseKeep(a.get("keep")); });
        s.spec.exact = false;
        s.variant = "custom";
    }
    return s;
}

std::string l2sPercent(double fraction) { return std::isfinite(fraction) ? fixed(100 * fraction, 1) + " %" : "n/a"; }
std::string l2sTimes(double x) { return std::isfinite(x) ? fixed(x, 2) + "x" : "inf"; }

std::string paperCell(const l2s::PaperRow* p, double l2s::PaperRow::*field, bool percent) {
    if (!p || std::isnan(p->*field)) return "-";
    return percent ? fixed(100 * (p->*field), 0) + " %" : fixed(p->*field, 2) + "x";
}

// "lane-filling compute, burst NoC at 0.4 flits/cycle/node"
std::string modelsText(const L2sSetup& s) {
    std::string noc = std::string(l2s::commModelName(s.mesh.comm)) + " NoC";
    if (s.mesh.comm == l2s::CommModel::Burst) noc += " at " + formatNumber(s.mesh.burst_rate) + " flits/cycle/node";
    return std::string(l2s::computeModelName(s.core.compute)) + " compute, " + noc;
}

std::string title(const L2sSetup& s) { return s.preset ? s.preset->title : s.layers.network; }
std::string meshText(const l2s::Mesh& m) { return std::to_string(m.width()) + "x" + std::to_string(m.height()); }

CsvTable rowsCsv(const l2s::Evaluation& e) {
    CsvTable t{{"layer", "scheme", "traffic (B)", "traditional (B)", "byte-hops (B*hop)", "flits", "packets",
                "max link (B)", "comm (cycles)", "compute (cycles)", "MACs", "energy (J)"},
               {}};
    for (const l2s::BoundaryRow& r : e.rows)
        t.rows.push_back({r.layer, schemeName(r.scheme), formatNumber(r.volume_B), formatNumber(r.traditional_B),
                          formatNumber(r.byte_hops), formatNumber(r.flits), formatNumber(r.packets),
                          formatNumber(r.max_link_B), formatNumber(r.comm_cycles), formatNumber(r.compute_cycles),
                          formatNumber(r.macs), formatNumber(r.energy_J)});
    return t;
}

int single(const Options& a, const L2sSetup& s, std::ostream& out) {
    const l2s::Evaluator ev(s.layers, l2s::Mesh(s.mesh), s.core);
    const l2s::Strategy strategy = usage("strategy", [&] { return buildStrategy(s.layers, ev.mesh(), s.spec); });
    const l2s::Evaluation base = ev.evaluate(l2s::traditionalStrategy(s.layers));
    const l2s::Evaluation e = ev.evaluate(strategy);
    const l2s::Versus v = l2s::versus(base, e);
    if (a.has("csv")) writeCsvFile(rowsCsv(e), a.get("csv"));
    if (a.has("export-masks")) {
        std::map<std::string, l2s::Mask> used;
        for (size_t l = 0; l < strategy.size(); ++l)
            if (strategy[l].scheme == l2s::Scheme::Sparse) used[s.layers[l].name] = strategy[l].nz;
        std::ofstream f(a.get("export-masks"));
        f << l2s::writeMasksJson(used);
        if (!f) throw Error(a.get("export-masks") + ": cannot write the file");
    }
    if (a.has("export-strength")) {
        const double eps = a.number("eps", 0);
        if (eps < 0) throw UsageError("--eps must not be negative");
        std::ofstream f(a.get("export-strength"));
        f << jsonText(l2s::strengthJson(ev.mesh(), eps), 1) << "\n";
        if (!f) throw Error(a.get("export-strength") + ": cannot write the file");
    }
    const l2s::PaperRow* paper = l2s::paperRow(title(s), s.variant, ev.mesh().cores());
    if (a.flag("json")) {
        Json rows = Json::array();
        for (const l2s::BoundaryRow& r : e.rows) rows.push_back(rowJson(r));
        out << jsonText(Json{{"network", s.layers.network}, {"cores", ev.mesh().cores()}, {"mesh", meshText(ev.mesh())},
                    {"variant", s.variant}, {"keep", s.spec.keep}, {"seed", s.spec.seed},
                    {"distance", ev.mesh().distanceMatrix()}, {"rows", rows}, {"totals", l2s::totalsJson(e)},
                    {"vs_traditional", l2s::versusJson(v)}, {"paper_reported", l2s::paperJson(paper)}})
            << "\n";
        return 0;
    }
    out << "Network   " << title(s) << " (" << s.layers.network << "), " << ev.mesh().cores() << " cores on a "
        << meshText(ev.mesh()) << " mesh, XY routing\n";
    out << "Models    " << modelsText(s) << "\n";
    bool any_sparse = false;
    for (const l2s::LayerChoice& c : strategy) any_sparse = any_sparse || c.scheme == l2s::Scheme::Sparse;
    if (any_sparse)
        out << "Masks     "
            << (!s.spec.masks.empty() ? "imported"
                : s.spec.exact        ? "what-if, exact counts per hop, hop keep " + l2s::hopKeepText(s.hop_keep) + ", seed " +
                                     std::to_string(s.spec.seed)
                                      : "what-if " + l2s::keepText(s.spec.keep) + ", seed " + std::to_string(s.spec.seed))
            << " (not trained)\n";
    out << "\n";
    TextTable t({"layer", "scheme", "traffic", "rate", "byte-hops", "max link", "bottleneck", "comm", "compute", "energy"});
    for (const l2s::BoundaryRow& r : e.rows)
        t.add({r.layer, schemeName(r.scheme), withCommas(r.volume_B) + " B",
               r.traditional_B > 0 ? l2sPercent(r.volume_B / r.traditional_B) : "-", withCommas(r.byte_hops) + " B*hop",
               withCommas(r.max_link_B) + " B",
               r.bottleneck_from < 0 ? "-" : l2s::coreName(r.bottleneck_from) + "->" + l2s::coreName(r.bottleneck_to),
               withCommas(r.comm_cycles) + " cyc", withCommas(r.compute_cycles) + " cyc", joules(r.energy_J)});
    t.print(out);
    out << "\nTotal     " << withCommas(e.total_cycles) << " cycles = " << seconds(e.time_s) << " (compute "
        << withCommas(e.compute_cycles) << ", communication " << withCommas(e.comm_cycles) << "), NoC "
        << withCommas(e.volume_B) << " B, " << joules(e.energy_J) << "\n";
    out << "vs traditional: speedup " << l2sTimes(v.speedup) << ", communication speedup " << l2sTimes(v.comm_speedup)
        << ", traffic " << l2sPercent(v.traffic_rate) << ", NoC energy reduction " << l2sPercent(v.energy_reduction) << "\n";
    if (paper)
        out << "paper-reported (" << paper->table << ", " << s.variant << "): speedup " << paperCell(paper, &l2s::PaperRow::speedup, false)
            << ", traffic " << paperCell(paper, &l2s::PaperRow::traffic, true) << ", energy reduction "
            << paperCell(paper, &l2s::PaperRow::energy_reduction, true) << "\n";
    return 0;
}

int sweep(const Options& a, const L2sSetup& s, std::ostream& out) {
    const auto points = usage("strategy", [&] { return l2s::coreSweep(s.layers, {4, 8, 16, 32}, s.spec, s.mesh, s.core); });
    if (a.flag("json")) {
        Json j = Json::array();
        for (const l2s::SweepPoint& p : points)
            j.push_back({{"cores", p.cores}, {"mesh", p.mesh}, {"baseline_cycles", p.baseline.total_cycles},
                         {"cycles", p.variant.total_cycles}, {"vs_traditional", versusJson(p.vs)},
                         {"paper_reported", l2s::paperJson(l2s::paperRow(title(s), s.variant, p.cores))}});
        out << jsonText(Json{{"network", s.layers.network}, {"variant", s.variant}, {"keep", s.spec.keep}, {"sweep", j}}) << "\n";
        return 0;
    }
    out << "Core-count sweep of " << title(s) << ", variant " << s.variant << " against traditional\n\n";
    TextTable t({"cores", "mesh", "traditional", "variant", "speedup", "traffic", "energy red.", "paper speedup",
                 "paper traffic"});
    for (const l2s::SweepPoint& p : points) {
        const l2s::PaperRow* paper = l2s::paperRow(title(s), s.variant, p.cores);
        t.add({std::to_string(p.cores), p.mesh, withCommas(p.baseline.total_cycles) + " cyc",
               withCommas(p.variant.total_cycles) + " cyc", l2sTimes(p.vs.speedup), l2sPercent(p.vs.traffic_rate),
               l2sPercent(p.vs.energy_reduction), paperCell(paper, &l2s::PaperRow::speedup, false),
               paperCell(paper, &l2s::PaperRow::traffic, true)});
    }
    t.print(out);
    out << "\npaper columns: paper-reported (BookSim2/DSENT, trained masks), never computed here\n";
    return 0;
}

int compare(const Options& a, const L2sSetup& s, std::ostream& out) {
    const l2s::Evaluator ev(s.layers, l2s::Mesh(s.mesh), s.core);
    const l2s::Evaluation base = ev.evaluate(l2s::traditionalStrategy(s.layers));
    struct Variant {
        std::string name, paper_name, how;
        l2s::StrategySpec spec;
    };
    std::vector<Variant> variants;
    l2s::StrategySpec spec = s.spec;
    spec.per_layer.clear();
    spec.masks.clear();
    spec.scheme = l2s::Scheme::Sparse;
    spec.keep = l2s::ssKeep(s.preset ? s.preset->ss_keep : 0.5);
    spec.exact = false;
    variants.push_back({"SS", "SS", "what-if " + l2s::keepText(spec.keep), spec});
    spec.keep = l2s::ssMaskKeep(s.hop_keep);
    spec.exact = true;
    variants.push_back({"SS_Mask", "SS_Mask", "exact hop keep " + l2s::hopKeepText(s.hop_keep), spec});
    std::vector<std::string> grouped;
    for (const std::string& name : s.preset ? s.preset->grouped : std::vector<std::string>{})
        for (size_t l = 0; l < s.layers.size(); ++l)
            if (s.layers[l].name == name && l2s::groupingProblem(s.layers, l, ev.mesh().cores()).empty()) grouped.push_back(name);
    if (grouped.empty()) grouped = l2s::topGroupable(ev, 2);
    l2s::StrategySpec g;
    for (const std::string& name : grouped) g.per_layer[name] = l2s::Scheme::Grouped;
    std::string gnames;
    for (const std::string& name : grouped) gnames += (gnames.empty() ? "" : ",") + name;
    const std::string gpaper = s.preset && s.preset->key == "imagenet10-p1"   ? "Parallel#2 (grouped)"
                               : s.preset && s.preset->key == "imagenet10-p3" ? "Parallel#3 (grouped)"
                                                                              : "grouped";
    if (!grouped.empty()) variants.push_back({"grouped", gpaper, gnames, g});

    Json rows = Json::array();
    TextTable t({"variant", "masks / layers", "speedup", "paper", "ratio", "traffic", "paper", "energy red.", "paper"});
    const l2s::PaperRow* pb = l2s::paperRow(title(s), "Baseline", ev.mesh().cores());
    t.add({"Baseline", "traditional", "1.00x", paperCell(pb, &l2s::PaperRow::speedup, false), "-", "100.0 %",
           paperCell(pb, &l2s::PaperRow::traffic, true), "0.0 %", paperCell(pb, &l2s::PaperRow::energy_reduction, true)});
    std::vector<std::pair<std::string, std::string>> gaps;  // variant, why it differs from the paper
    for (const Variant& var : variants) {
        const l2s::Versus v = versus(base, ev.evaluate(buildStrategy(s.layers, ev.mesh(), var.spec)));
        const l2s::PaperRow* p = l2s::paperRow(title(s), var.paper_name, ev.mesh().cores());
        const double ratio = p ? v.speedup / p->speedup : NAN;  // engine / paper
        t.add({var.name, var.how, l2sTimes(v.speedup), paperCell(p, &l2s::PaperRow::speedup, false),
               std::isfinite(ratio) ? fixed(ratio, 2) : "-", l2sPercent(v.traffic_rate), paperCell(p, &l2s::PaperRow::traffic, true),
               l2sPercent(v.energy_reduction), paperCell(p, &l2s::PaperRow::energy_reduction, true)});
        // The reasons were measured on the default models at 16 cores; elsewhere they may not hold.
        const bool defaults = ev.mesh().cores() == 16 && s.preset &&
                              l2s::defaultModels(s.core.compute, s.mesh, s.hop_keep, s.preset->hop_keep);
        const std::string why = p && defaults ? l2s::gapReason(title(s), var.paper_name) : "";
        if (!why.empty()) gaps.push_back({var.name, why});
        rows.push_back({{"variant", var.name}, {"masks", var.how}, {"engine", l2s::versusJson(v)}, {"paper_reported", l2s::paperJson(p)},
                        {"ratio", std::isfinite(ratio) ? Json(ratio) : Json()}, {"gap", why}});
    }
    const double share = l2s::commShare(base);
    const double implied = l2s::paperImpliedCommShare(title(s), ev.mesh().cores());
    if (a.flag("json")) {
        out << jsonText(Json{{"network", s.layers.network}, {"cores", ev.mesh().cores()}, {"mesh", meshText(ev.mesh())},
                    {"seed", s.spec.seed}, {"models", modelsText(s)}, {"baseline_comm_share", share},
                    {"paper_implied_comm_share", std::isnan(implied) ? Json() : Json(implied)}, {"variants", rows}})
            << "\n";
        return 0;
    }
    out << "Compare   " << title(s) << ", " << ev.mesh().cores() << " cores (" << meshText(ev.mesh())
        << "), against the traditional all-gather\n";
    out << "Models    " << modelsText(s) << "\n\n";
    t.print(out);
    out << "\nBaseline communicates " << l2sPercent(share) << " of its time (" << withCommas(base.comm_cycles) << " of "
        << withCommas(base.total_cycles) << " cycles)";
    if (!std::isnan(implied)) out << "; paper-implied " << l2sPercent(implied) << " (Table IV: (1 - 1/S) / (1 - t) of SS_Mask)";
    out << "\n";
    for (const auto& [variant, why] : gaps) out << "gap " << variant << ": " << why << "\n";
    out << "\nengine columns: what-if masks (seed " << s.spec.seed
        << "), not trained; paper columns: paper-reported, trained masks, BookSim2/DSENT\n";
    if (grouped.empty()) out << "grouped: no layer can be grouped on " << ev.mesh().cores() << " cores\n";
    return 0;
}

int reference(const Options& a, std::ostream& out) {
    if (a.flag("json")) {
        Json rows = Json::array(), t1 = Json::array();
        for (const l2s::PaperRow& r : l2s::paperReference()) {
            Json j = paperJson(&r);
            j["table"] = r.table;
            j["network"] = r.network;
            j["variant"] = r.variant;
            j["cores"] = r.cores;
            rows.push_back(j);
        }
        for (const l2s::PaperTrafficRow& r : l2s::paperTableI()) t1.push_back({{"network", r.network}, {"bytes", r.boundaries}});
        out << jsonText(Json{{"source", "Zou et al., Learn-to-Scale, DATE 2019 (paper-reported)"}, {"rows", rows}, {"table_I", t1}})
            << "\n";
        return 0;
    }
    out << "Paper-reported numbers (Zou et al., DATE 2019); never computed by this engine\n\n";
    TextTable t({"table", "network", "variant", "cores", "accuracy", "traffic", "speedup", "energy red.", "baseline"});
    for (const l2s::PaperRow& r : l2s::paperReference())
        t.add({r.table, r.network, r.variant, std::to_string(r.cores),
               std::isnan(r.accuracy) ? "-" : fixed(100 * r.accuracy, 2) + " %", paperCell(&r, &l2s::PaperRow::traffic, true),
               paperCell(&r, &l2s::PaperRow::speedup, false), paperCell(&r, &l2s::PaperRow::energy_reduction, true), r.baseline});
    t.print(out);
    out << "\nTable I (traditional bytes per boundary, 16 cores, as printed):\n";
    for (const l2s::PaperTrafficRow& r : l2s::paperTableI()) {
        out << "  " << r.network << ":";
        for (const auto& [column, value] : r.boundaries) out << " " << column << " " << value;
        out << "\n";
    }
    return 0;
}

int cmdL2s(const Options& a, std::ostream& out) {
    if (a.flag("reference")) return reference(a, out);
    if (a.flag("sweep") && a.flag("compare")) throw UsageError("give at most one of --sweep and --compare");
    const L2sSetup s = readL2sSetup(a);
    if (a.flag("sweep")) return sweep(a, s, out);
    if (a.flag("compare")) return compare(a, s, out);
    return single(a, s, out);
}

}  // namespace

void addL2sCommand(CLI::App& app, RunContext& ctx) {
    CLI::App* c = command(app, ctx, "l2s",
                          "Learn-to-Scale: single-image inference split across the cores of a 2-D mesh CMP\n"
                          "(Zou et al., DATE 2019)",
                          [](const Options& a, std::ostream& out, std::ostream&) { return cmdL2s(a, out); });
    c->footer("Masks are seeded what-if inputs, not trained: the engine cannot train (docs/methods/l2s.md).");
    addNetworkOptions(*c);
    value(*c, "preset", "NAME", "mlp|lenet|convnet|caffenet|vgg19|imagenet10-p1|imagenet10-p3 (instead of --network)");
    value(*c, "cores", "N", "cores (16)");
    value(*c, "mesh", "XxY", "the mesh (default 4->2x2, 8->4x2, 16->4x4, 32->8x4)");
    value(*c, "strategy", "S",
          "traditional | grouped | sparse for every layer after the first, or a\n"
          "per-layer list such as conv2=grouped,conv3=sparse (others traditional)");
    value(*c, "mask", "ss|ss_mask|FILE",
          "sparse masks: ss = distance-blind what-if (keep d>=1 with the preset's\n"
          "ss_keep, 0.5 without a preset); ss_mask = keep exactly round(p_h x N_h) of\n"
          "the N_h blocks h = 1, 2, 3 hops away (--hop-keep); FILE = imported\n"
          "partita-l2s-masks/1 (its layers become sparse). Implies --strategy sparse.");
    value(*c, "hop-keep", "P1,P2,P3",
          "SS_Mask keep probabilities at 1, 2, 3 hops (default: the preset's, e.g.\n"
          "LeNet 1,0.106,0; 1,0,0 = neighbours only, the old default)");
    value(*c, "compute", "lane-filling|channel-only",
          "per-core cycles: ceil(MACs / 256) (default) or the\n"
          "old H W K^2 ceil(C_out,core/16) ceil(C_in/16)");
    value(*c, "comm", "burst|ideal",
          "boundary time: busiest port or link at --rate flits/cycle/node (default\n"
          "burst) or the old congestion-free busiest link at 2 flits/cycle");
    value(*c, "rate", "R", "burst NoC injection rate, flits/cycle/node (0.4)");
    value(*c, "keep", "d0=1,d1=0.5,d2=0", "what-if keep probability per hop distance (last class applies farther)");
    value(*c, "seed", "N", "what-if mask seed (1)")->check(integerIn(0, kMaxSeed));
    flag(*c, "ports", "ideal: also bound communication by each core's injection/ejection port");
    flag(*c, "skip-zero-blocks", "also skip the MACs of all-zero blocks (off: the paper credits communication)");
    value(*c, "e-link-pj", "E", "NoC energy per flit per link, pJ (10)");
    value(*c, "e-router-pj", "E", "NoC energy per flit per router, pJ (20)");
    flag(*c, "sweep", "cores 4, 8, 16, 32: speedup, traffic and energy against traditional");
    flag(*c, "compare", "baseline / SS / SS_Mask / grouped beside the paper-reported numbers");
    flag(*c, "reference", "the paper's Tables I, III-VI, labelled paper-reported");
    flag(*c, "json", "JSON instead of tables");
    value(*c, "csv", "FILE", "per-layer rows as CSV");
    value(*c, "export-masks", "FILE", "the sparse masks used (partita-l2s-masks/1)");
    value(*c, "export-strength", "FILE",
          "D and the SS / SS_Mask group strengths M = 1 / D + eps, for an external\n"
          "group-Lasso trainer (partita-l2s-strength/1)");
    value(*c, "eps", "E", "the eps of --export-strength");
}

}  // namespace partita::cli
