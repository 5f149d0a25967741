// The topology editor's tables as CSV (File ▸ Export): from their models, SI units in the column
// names, every digit, in document order whatever the sort.
#include "widgets/common/model_csv.h"
#include "widgets/topology_editor/topology_editor_view.h"

namespace partita {

CsvTable TopologyEditorView::devicesCsv() const { return csvFromModel(*devices_model_); }

CsvTable TopologyEditorView::linksCsv() const { return csvFromModel(*links_model_); }

}  // namespace partita
