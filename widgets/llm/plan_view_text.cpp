#include "widgets/llm/plan_view_text.h"

#include <QCoreApplication>

#include "core/llm/numbers.h"
#include "widgets/common/qt_text.h"
#include "widgets/llm/plan_view.h"

namespace partita {

namespace {

QString planTr(const char* text) { return QCoreApplication::translate("partita::LlmPlanView", text); }

QString tierName(const llm::Profile& p, int tier) {
    if (tier < 0 || tier >= static_cast<int>(p.tiers.size())) return planTr("tier %1").arg(tier);
    return q(p.tiers[static_cast<size_t>(tier)].name);
}

QString secs(double s) { return q(seconds(s)); }

std::int64_t firstLayer(const LlmShown& s, std::int64_t stage) {
    std::int64_t n = 0;
    for (std::int64_t i = 0; i < stage; ++i) n += llm::stageLayers(s.settings.model, s.settings.plan, i);
    return n;
}

QString range(std::int64_t a, std::int64_t b) { return a == b ? QString::number(a) : QString("%1–%2").arg(a).arg(b); }

}  // namespace

std::int64_t planNodeSize(const llm::Profile& profile) {
    return profile.tiers.empty() ? 1 : std::max<std::int64_t>(1, profile.tiers.front().size);
}

QString planLegend(const LlmShown& s) {
    const llm::Plan& p = s.settings.plan;
    const llm::Placement& pl = s.eval.placement;
    QStringList parts;
    const auto dim = [&](const char* name, std::int64_t degree, int tier, const char* op) {
        if (degree <= 1) return;
        parts << QString("%1 %2 on %3%4").arg(name, op, tierName(s.settings.profile, tier),
                                               tier > 0 ? planTr(" (crosses nodes: red, dashed)") : QString());
    };
    dim("TP", p.tp, pl.tp, "all-reduce");
    dim("PP", p.pp, pl.pp, "sends");
    dim("DP", p.dp, pl.dp, "gradient reduction");
    if (parts.isEmpty()) return planTr("One GPU: no collectives.");
    return parts.join(" · ") + planTr(". A red bar in a TP group: a node boundary. Hover a group for its collectives.");
}

QString stageLayerText(const LlmShown& s, std::int64_t first, std::int64_t last) {
    const llm::Plan& p = s.settings.plan;
    QString t;
    if (p.interleave > 1 && first == last) {
        // Stage s holds the model chunks s, s + pp, s + 2pp, ... of `chunk` layers each.
        const std::int64_t chunk = llm::stageLayers(s.settings.model, p, first) / p.interleave;
        const auto chunkRange = [&](std::int64_t k) {
            const std::int64_t a = (first + k * p.pp) * chunk;
            return range(a, a + chunk - 1);
        };
        t = planTr("%1 chunks: %2, %3").arg(p.interleave).arg(chunkRange(0), chunkRange(1));
        if (p.interleave > 2) t += ", …";
    } else {
        const std::int64_t a = firstLayer(s, first), b = firstLayer(s, last + 1) - 1;
        t = p.interleave > 1 ? planTr("%1 layers (interleaved)").arg(b - a + 1) : planTr("layers %1").arg(range(a, b));
    }
    return t;
}

QString stageExtras(const LlmShown& s, std::int64_t first, std::int64_t last) {
    QString t;
    if (first == 0) t += planTr(" + embedding");
    if (last == s.settings.plan.pp - 1) t += planTr(" + head");
    return t;
}

QString LlmPlanView::cellToolTip(const Cell& c) const {
    if (!shown_) return {};
    const LlmShown& s = *shown_;
    const llm::Plan& p = s.settings.plan;
    const llm::Evaluation& e = s.eval;
    const llm::Transformer& m = s.settings.model;
    QString t = c.first == c.last ? planTr("<b>Stage %1</b>").arg(c.first) : planTr("<b>Stages %1–%2</b>").arg(c.first).arg(c.last);
    t += c.replica < 0 ? planTr(", replicas 1–%1").arg(p.dp - 2) : planTr(", replica %1").arg(c.replica);
    t += "<br>" + stageLayerText(s, c.first, c.last) + stageExtras(s, c.first, c.last);
    const auto st = static_cast<size_t>(c.first);
    if (st < e.stages.size()) t += planTr("<br>%1 parameters per GPU").arg(prefixed(e.stages[st].params));
    if (st < e.stage_time_s.size()) t += planTr("<br>one micro-batch forward + backward: %1").arg(secs(e.stage_time_s[st]));
    if (p.tp > 1) {
        const llm::TpVolume v = llm::tpLayerBytes(m, p);
        t += planTr("<br><b>TP</b> %1 GPUs on %2: per layer and micro-batch, each GPU sends %3 forward, %4 backward")
                 .arg(p.tp)
                 .arg(tierName(s.settings.profile, e.placement.tp), byteText(v.fwd), byteText(v.bwd));
        if (v.recompute > 0) t += planTr(", %1 again in recompute").arg(byteText(v.recompute));
        t += planTr("; exposed per iteration %1").arg(secs(e.time.tp_exposed + e.time.ag_redo));
    }
    if (p.pp > 1)
        t += planTr("<br><b>PP</b> on %1: %2 per message, %3 per iteration per GPU; exposed p2p %4, bubble %5")
                 .arg(tierName(s.settings.profile, e.placement.pp), byteText(llm::ppMessageBytes(m, p)),
                      byteText(llm::ppIterationBytes(m, p)), secs(e.time.pp_p2p), secs(e.time.bubble));
    if (p.dp > 1) {
        const llm::DpVolume v = llm::dpIterationBytes(m, p, s.settings.profile.precision, c.first);
        t += planTr("<br><b>DP</b> %1 replicas on %2: per iteration each GPU sends %3 reducing gradients")
                 .arg(p.dp)
                 .arg(tierName(s.settings.profile, e.placement.dp), byteText(v.reduce));
        if (v.gather > 0) t += planTr(" and %1 gathering parameters").arg(byteText(v.gather));
        t += planTr("; exposed %1").arg(secs(e.time.dp_exposed));
    }
    return t;
}

CsvTable LlmPlanView::csv() const {
    CsvTable t;
    t.header = {"stage", "first_layer", "layers", "params_per_gpu", "tp", "tp_tier", "tp_fwd_bytes_per_layer",
                "tp_bwd_bytes_per_layer", "pp", "pp_tier", "pp_message_bytes", "dp", "dp_tier", "dp_reduce_bytes",
                "dp_gather_bytes", "micro_batch_s"};
    if (!shown_) return t;
    const LlmShown& s = *shown_;
    const llm::Plan& p = s.settings.plan;
    const llm::Profile& prof = s.settings.profile;
    const llm::TpVolume tpv = llm::tpLayerBytes(s.settings.model, p);
    for (std::int64_t i = 0; i < p.pp; ++i) {
        const llm::DpVolume dpv = llm::dpIterationBytes(s.settings.model, p, prof.precision, i);
        const auto st = static_cast<size_t>(i);
        t.rows.push_back({std::to_string(i), std::to_string(firstLayer(s, i)),
                          std::to_string(llm::stageLayers(s.settings.model, p, i)),
                          st < s.eval.stages.size() ? formatNumber(s.eval.stages[st].params) : "",
                          std::to_string(p.tp), tierName(prof, s.eval.placement.tp).toStdString(),
                          formatNumber(tpv.fwd), formatNumber(tpv.bwd), std::to_string(p.pp),
                          tierName(prof, s.eval.placement.pp).toStdString(),
                          formatNumber(llm::ppMessageBytes(s.settings.model, p)), std::to_string(p.dp),
                          tierName(prof, s.eval.placement.dp).toStdString(), formatNumber(dpv.reduce),
                          formatNumber(dpv.gather), st < s.eval.stage_time_s.size() ? formatNumber(s.eval.stage_time_s[st]) : ""});
    }
    return t;
}

}  // namespace partita
