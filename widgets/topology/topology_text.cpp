// The topology view's texts: box lines, tooltips (every figure with its unit) and the CSV.
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/gantt_model.h"  // timeText, bytesText
#include "widgets/topology/topology_view.h"

namespace partita {

namespace {

QString g4(double v) { return QString::number(v, 'g', 4); }
QString percentText(double fraction) { return QString::number(fraction * 100, 'f', 1) + " %"; }
// Bytes in the heatmap's unit, then exactly (a test and a user can match the simulation's figure).
QString bytesText(double b) { return q(view::bytesText(b)) + " (" + QString::number(b, 'f', 0) + " B)"; }

}  // namespace

QStringList TopologyView::vertexLines(int v) const {
    if (isSwitch(v)) return {q(topology_->vertexName(v)), tr("switch")};
    const sim::ComputeDevice& d = topology_->devices[static_cast<size_t>(v)];
    return {q(d.name), q(d.kind)};
}

QString TopologyView::vertexToolTip(int v) const {
    if (!topology_ || v < 0 || v >= vertexCount()) return {};
    int degree = 0;
    for (const auto& e : edges_) degree += e.a == v || e.b == v;
    if (isSwitch(v))
        return tr("<b>%1</b> — switch<br>%2 cables").arg(q(topology_->vertexName(v)).toHtmlEscaped()).arg(degree);
    const sim::ComputeDevice& d = topology_->devices[static_cast<size_t>(v)];
    QString t = tr("<b>%1</b> — %2, node %3<br>").arg(q(d.name).toHtmlEscaped(), q(d.kind).toHtmlEscaped()).arg(d.node);
    t += tr("peak: %1 TFLOP/s<br>memory: %2 GB/s, %3 GB<br>efficiency: %4<br>overhead per task: %5 µs<br>%6 cables")
             .arg(g4(d.peak_flops / 1e12), g4(d.mem_bandwidth_Bps / 1e9), g4(d.mem_capacity_B / 1e9),
                  percentText(d.efficiency), g4(d.task_overhead_s * 1e6))
             .arg(degree);
    if (result_)
        t += tr("<br>busy: %1 of %2<br>utilisation: %3")
                 .arg(q(view::timeText(load_.device_busy_s[static_cast<size_t>(v)])), q(view::timeText(load_.makespan_s)),
                      percentText(load_.device_utilisation[static_cast<size_t>(v)]));
    if (result_ && v < static_cast<int>(result_->memory.devices.size())) {
        const sim::DeviceMemory& m = result_->memory.devices[static_cast<size_t>(v)];
        t += tr("<br>peak memory: %1%2").arg(q(sim::memoryText(m.total())),
                                             m.capacity > 0 ? tr(" of %1").arg(q(sim::memoryText(m.capacity))) : tr(" (capacity unknown)"));
        if (m.overshoot() > 0) t += tr(" — <b>does not fit</b>");
    }
    return t;
}

bool TopologyView::overMemory(int v) const {
    if (!result_ || v < 0 || v >= static_cast<int>(result_->memory.devices.size())) return false;
    return result_->memory.devices[static_cast<size_t>(v)].overshoot() > 0;
}

QString TopologyView::memoryNote() const {
    if (!result_ || !topology_) return {};
    const std::string note = sim::memoryNote(result_->memory, *topology_);
    return note.empty() ? QString() : tr("does not fit: %1").arg(q(note));
}

QString TopologyView::linkLoadLines(int l) const {
    if (!result_) return {};
    const auto i = static_cast<size_t>(l);
    return tr("<br>&nbsp;&nbsp;bytes moved: %1<br>&nbsp;&nbsp;busy: %2, utilisation: %3")
        .arg(bytesText(load_.link_bytes[i]), q(view::timeText(load_.link_busy_s[i])), percentText(load_.link_utilisation[i]));
}

QString TopologyView::edgeToolTip(int e) const {
    if (!topology_ || e < 0 || e >= edgeCount()) return {};
    const view::TopologyEdge& edge = edges_[static_cast<size_t>(e)];
    const sim::Link& first = topology_->links[static_cast<size_t>(edge.anyLink())];
    const QString a = q(topology_->vertexName(edge.a)).toHtmlEscaped(), b = q(topology_->vertexName(edge.b)).toHtmlEscaped();
    QString t = edge.duplex() ? tr("<b>%1 ⇄ %2</b> — %3, duplex").arg(a, b, q(first.kind).toHtmlEscaped())
                              : tr("<b>%1 → %2</b> — %3, one way")
                                    .arg(q(topology_->vertexName(first.from)).toHtmlEscaped(),
                                         q(topology_->vertexName(first.to)).toHtmlEscaped(), q(first.kind).toHtmlEscaped());
    for (int l : {edge.forward, edge.backward}) {
        if (l < 0) continue;
        const sim::Link& link = topology_->links[static_cast<size_t>(l)];
        t += tr("<br>%1 → %2: %3 GB/s, latency %4 µs")
                 .arg(q(topology_->vertexName(link.from)).toHtmlEscaped(), q(topology_->vertexName(link.to)).toHtmlEscaped(),
                      g4(link.bandwidth_Bps / 1e9), g4(link.latency_s * 1e6));
        t += linkLoadLines(l);
    }
    return t;
}

CsvTable TopologyView::csv() const {
    CsvTable t;
    t.header = {"link", "from", "to", "kind", "bandwidth_GBps", "latency_us", "drawn_edge"};
    if (result_) {
        for (const char* h : {"bytes", "busy_s", "utilisation"}) t.header.push_back(h);
    }
    if (!topology_) return t;
    for (size_t l = 0; l < topology_->links.size(); ++l) {
        const sim::Link& link = topology_->links[l];
        std::vector<std::string> row{link.name, topology_->vertexName(link.from), topology_->vertexName(link.to), link.kind,
                                     formatNumber(link.bandwidth_Bps / 1e9), formatNumber(link.latency_s * 1e6),
                                     std::to_string(edgeOfLink(static_cast<int>(l)))};
        if (result_) {
            row.push_back(formatNumber(load_.link_bytes[l]));
            row.push_back(formatNumber(load_.link_busy_s[l]));
            row.push_back(formatNumber(load_.link_utilisation[l]));
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace partita
