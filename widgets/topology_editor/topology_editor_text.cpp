// The topology editor's tables as CSV (File ▸ Export): SI units in the column names, every digit, in
// document order whatever the sort.
#include "core/util/format.h"
#include "widgets/common/model_csv.h"
#include "widgets/topology_editor/topology_editor_view.h"

namespace partita {

CsvTable TopologyEditorView::devicesCsv() const { return csvFromModel(*devices_model_); }

// The links export keeps every directed link with its name and kind (a duplex cable is two), which the
// table folds into one row: the file is the document's data, not the table's view of it.
CsvTable TopologyEditorView::linksCsv() const {
    CsvTable t;
    t.header = {"name", "from", "to", "bandwidth_Bps", "latency_s", "kind"};
    const auto vertex = [this](int v) { return v >= 0 && v < doc_.vertexCount() ? doc_.vertexName(v) : std::to_string(v); };
    for (const sim::Link& l : doc_.links)
        t.rows.push_back({l.name, vertex(l.from), vertex(l.to), formatNumber(l.bandwidth_Bps), formatNumber(l.latency_s), l.kind});
    return t;
}

}  // namespace partita
