// The MPT tab's "Paper vs engine" table: every paper figure (spec A11) beside the engine's under
// the shown model options (core/run/mpt_paper.h), the ratio, the three averages (M5) and the
// reason for what remains. The paper column and the reasons are grey: they are not engine output.
#include <QColor>
#include <QTableWidget>

#include "core/util/format.h"
#include "widgets/common/method_table.h"
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
    std::vector<QStringList> rows, tips;
    for (const MptPaperRow& r : o.paper.rows) {
        auto x = [&](double v) { return r.modelled ? timesText(v) : QString("—"); };
        rows.push_back({q(r.figure), q(formatNumber(r.paper)) + "×", x(r.engine.total),
                        r.modelled ? QString::number(r.ratio(), 'f', 2) : QString("—"), x(r.engine.geomean),
                        x(r.engine.mean), q(r.reason)});
        const QString why = r.reason.empty() ? tr("No reason recorded for these options (the reasons were measured on "
                                                  "the default model)")
                                             : q(r.reason);
        tips.push_back(QStringList(7, why));
    }
    if (!o.paper_problem.empty()) rows.push_back({tr("paper study failed: %1").arg(q(o.paper_problem))});
    const QString engine = preset == mpt::Preset::Default ? tr("engine")
                                                          : tr("engine, %1").arg(q(mpt::presetLabel(preset)));
    // The paper's figure stands right beside the engine's, so no column greys the rest: the paper
    // column and the reasons are greyed one by one.
    fillComparisonTable(paper_table_,
                        {tr("paper figure"), tr("paper"), engine, tr("ratio"), tr("geomean"), tr("mean"),
                         tr("why they differ")},
                        rows, 7, -1, tips);
    for (int r = 0; r < paper_table_->rowCount(); ++r)
        for (int c : {1, 6})
            if (QTableWidgetItem* item = paper_table_->item(r, c)) {
                item->setForeground(QColor(110, 110, 110));
                if (c == 6) item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            }
    paper_table_->setToolTip(
        tr("Engine: this engine under the model options above (%1) — layer study on %2, networks on %3. "
           "The averages run over the layers (layer study) or the three networks (WRN-40-10, ResNet-34, "
           "FractalNet 4×4): engine = total-time ratio, geomean and mean of the ratios; ratio = engine ÷ paper. "
           "Mid / Late: Mid-1, Mid-2 / Late-1, Late-2 over the whole iteration. Paper: Hong et al., MICRO 2018.")
            .arg(q(mpt::presetLabel(preset)), q(mpt::optionsText(o.paper.options, true)),
                 q(mpt::optionsText(o.paper.options, false))));
}

}  // namespace partita
