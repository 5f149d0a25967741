// partita-cli mpt --compare --paper: every paper figure of docs/methods/mpt.md#the-paper-against-the-engine beside this engine's
// (core/run/mpt_paper.h), with the fit preset in its own labelled column. The table of docs/methods/mpt.md#the-paper-against-the-engine.
#include <ostream>

#include "app/cli/cli.h"
#include "app/cli/mpt_commands.h"
#include "app/cli/report.h"
#include "core/io/csv.h"
#include "core/io/json_fields.h"
#include "core/run/mpt_paper.h"

namespace partita::cli {

namespace {

std::string paperTimes(double x) { return fixed(x, 2) + "x"; }

Json rowJson(const MptPaperRow& r) {
    Json j{{"id", r.id}, {"figure", r.figure}, {"paper_reported", r.paper}, {"unit", r.unit}, {"modelled", r.modelled},
           {"reason", r.reason}};
    if (r.modelled)
        j.update({{"engine", {{"total_time_ratio", r.engine.total}, {"geomean", r.engine.geomean}, {"mean", r.engine.mean}}},
                  {"ratio", r.ratio()}});
    return j;
}

}  // namespace

int mptPaperCommand(const mpt::ModelOptions& options, bool json, const std::string& csv_path, std::ostream& out) {
    const MptPaperStudy study = mptPaperStudy(options, examplesDir());
    const MptPaperStudy fit = mptPaperStudy(mpt::presetOptions(mpt::Preset::Fit), examplesDir());
    const std::string label = mpt::presetLabel(study.preset);
    if (json) {
        Json rows = Json::array(), fits = Json::array(), nets = Json::array();
        for (const MptPaperRow& r : study.rows) rows.push_back(rowJson(r));
        for (const MptPaperRow& r : fit.rows) fits.push_back(rowJson(r));
        for (const MptNetworkRow& n : study.networks)
            nets.push_back({{"network", n.name}, {"w_dp_vs_one", n.w_dp_vs_one}, {"w_mp*_vs_w_dp", n.wmp_star_vs_w_dp},
                            {"w_mp+_vs_w_dp", n.wmp_plus_vs_w_dp}, {"w_mp+*_vs_w_dp", n.wmp_plus_star_vs_w_dp},
                            {"w_mp+*_vs_one", n.wmp_plus_star_vs_one}});
        out << jsonText(Json{{"preset", mpt::presetName(study.preset)}, {"label", label},
                    {"layer_study_model", mpt::optionsText(options, true)},
                    {"network_model", mpt::optionsText(options, false)}, {"wire_width_assumed", true},
                    {"figures", rows}, {"networks", nets}, {"fit_not_a_reproduction", fits}})
            << "\n";
        return 0;
    }
    const std::vector<std::string> header{"paper figure", "paper", "engine", "ratio", "geomean", "mean",
                                          "fit (not a reproduction)"};
    TextTable t(header);
    CsvTable csv{{"id", "figure", "paper_x", "engine_total_time_ratio_x", "engine_over_paper", "engine_geomean_x",
                  "engine_mean_x", "fit_not_a_reproduction_x", "reason"},
                 {}};
    for (size_t i = 0; i < study.rows.size(); ++i) {
        const MptPaperRow& r = study.rows[i];
        const MptPaperRow& f = fit.rows.at(i);
        auto cell = [&](const MptPaperRow& x, double v) { return x.modelled ? paperTimes(v) : std::string("-"); };
        t.add({r.figure, formatNumber(r.paper) + r.unit, cell(r, r.engine.total), r.modelled ? fixed(r.ratio(), 2) : "-",
               cell(r, r.engine.geomean), cell(r, r.engine.mean), cell(f, f.engine.total)});
        csv.rows.push_back({r.id, r.figure, formatNumber(r.paper), r.modelled ? formatNumber(r.engine.total) : "",
                            r.modelled ? formatNumber(r.ratio()) : "", r.modelled ? formatNumber(r.engine.geomean) : "",
                            r.modelled ? formatNumber(r.engine.mean) : "", f.modelled ? formatNumber(f.engine.total) : "",
                            r.reason});
    }
    out << "MPT: the paper's figures (Hong et al., MICRO 2018; paper-reported) beside this engine's\n";
    out << "Engine    " << label << "\n";
    out << "  layers   " << mpt::optionsText(options, true) << "\n";
    out << "  networks " << mpt::optionsText(options, false) << "\n";
    out << "Fit       " << mpt::presetLabel(mpt::Preset::Fit) << ": " << mpt::optionsText(fit.options, false) << "\n";
    out << "engine = total-time ratio (the default reading); geomean / mean = of the per-layer (layer study) or\n"
           "per-network ratios; ratio = engine / paper\n\n";
    t.print(out);
    out << "\n";
    for (const MptPaperRow& r : study.rows)
        if (!r.reason.empty()) out << "gap " << r.id << ": " << r.reason << "\n";
    out << "\n";
    TextTable n({"network", "w_dp vs 1 worker", "w_mp* vs w_dp", "w_mp+ vs w_dp", "w_mp+* vs w_dp", "w_mp+* vs 1 worker"});
    for (const MptNetworkRow& r : study.networks)
        n.add({r.name, paperTimes(r.w_dp_vs_one), paperTimes(r.wmp_star_vs_w_dp), paperTimes(r.wmp_plus_vs_w_dp),
               paperTimes(r.wmp_plus_star_vs_w_dp), paperTimes(r.wmp_plus_star_vs_one)});
    n.print(out);
    if (!csv_path.empty()) writeCsvFile(csv, csv_path);
    return 0;
}

}  // namespace partita::cli
