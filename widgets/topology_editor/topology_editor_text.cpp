// The topology editor's tables as CSV (File ▸ Export): SI units in the column names, every digit.
#include "core/util/format.h"
#include "widgets/topology_editor/topology_editor_view.h"

namespace partita {

CsvTable TopologyEditorView::devicesCsv() const {
    CsvTable t;
    t.header = {"name", "kind", "peak_flops", "mem_bandwidth_Bps", "mem_capacity_B", "efficiency", "task_overhead_s", "node"};
    for (const sim::ComputeDevice& d : doc_.devices)
        t.rows.push_back({d.name, d.kind, formatNumber(d.peak_flops), formatNumber(d.mem_bandwidth_Bps),
                          formatNumber(d.mem_capacity_B), formatNumber(d.efficiency), formatNumber(d.task_overhead_s),
                          std::to_string(d.node)});
    for (const std::string& s : doc_.switches) t.rows.push_back({s, "switch", "", "", "", "", "", ""});
    return t;
}

CsvTable TopologyEditorView::linksCsv() const {
    CsvTable t;
    t.header = {"name", "from", "to", "bandwidth_Bps", "latency_s", "kind"};
    const auto vertex = [this](int v) { return v >= 0 && v < doc_.vertexCount() ? doc_.vertexName(v) : std::to_string(v); };
    for (const sim::Link& l : doc_.links)
        t.rows.push_back({l.name, vertex(l.from), vertex(l.to), formatNumber(l.bandwidth_Bps), formatNumber(l.latency_s), l.kind});
    return t;
}

}  // namespace partita
