// The MPT tab's "Paper vs engine" table: every paper figure (docs/methods/mpt.md#the-paper-against-the-engine) beside the engine's under
// the shown model options (core/run/mpt_paper.h), the ratio, the three averages (M5) and the
// reason for what remains. The paper column and the reasons are grey: they are not engine output.
#include <cmath>


#include "core/util/format.h"
#include "widgets/common/method_table.h"
#include "widgets/common/paper_table.h"
#include "widgets/common/qt_text.h"
#include "widgets/mpt/mpt_view.h"

namespace partita {

CsvTable MptView::paperCsv() const {
    CsvTable t;
    t.header = {"figure", "engine_total_time_ratio_x", "engine_over_paper", "engine_geomean_x", "engine_mean_x",
                "paper_reported_x", "model", "why_it_differs"};
    if (!outcome_) return t;
    const MptPaperStudy& p = outcome_->paper;
    const std::string model = mpt::presetLabel(p.preset);
    for (const MptPaperRow& r : p.rows) {
        auto num = [&](double x) { return r.modelled ? formatNumber(x) : std::string(); };
        t.rows.push_back({r.figure, num(r.engine.total), num(r.ratio()), num(r.engine.geomean), num(r.engine.mean),
                          formatNumber(r.paper), model, r.reason});
    }
    return t;
}

void MptView::fillPaperTable() {
    const MptOutcome& o = *outcome_;
    const mpt::Preset preset = o.paper.preset;
    std::vector<PaperTableRow> rows;
    for (const MptPaperRow& r : o.paper.rows) {
        auto x = [&](double v) { return r.modelled ? timesText(v) : QString("—"); };
        rows.push_back({q(r.figure), q(formatNumber(r.paper)) + "×", x(r.engine.total), r.modelled ? r.ratio() : NAN,
                        q(r.reason), {x(r.engine.geomean), x(r.engine.mean)}});
    }
    if (!o.paper_problem.empty()) rows.push_back({tr("paper study failed: %1").arg(q(o.paper_problem)), {}, {}, NAN, {}, {}});
    const QString engine = preset == mpt::Preset::Default ? tr("engine")
                                                          : tr("engine, %1").arg(q(mpt::presetLabel(preset)));
    // The note says what is compared; the full options, long, go to the tooltip.
    const QString note = tr("Hong et al., MICRO 2018, beside the engine under %1. engine = total-time ratio; "
                            "geomean and mean of the per-layer or per-network ratios.")
                             .arg(q(mpt::presetLabel(preset)));
    paper_table_->setToolTip(
        tr("Layer study on %1.\nNetworks (WRN-40-10, ResNet-34, FractalNet 4×4) on %2.\nMid / Late: Mid-1, Mid-2 / "
           "Late-1, Late-2 over the whole iteration.")
            .arg(q(mpt::optionsText(o.paper.options, true)), q(mpt::optionsText(o.paper.options, false))));
    const QString warning = preset == mpt::Preset::Default
                                ? QString()
                                : tr("Not the default model: the reasons below were measured on the default and are "
                                     "left out.");
    paper_table_->setRows(rows, note, warning, {engine, {tr("geomean"), tr("mean")}});
}

}  // namespace partita
