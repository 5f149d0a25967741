#pragma once
// The templates the editor's palette offers (core/edit/templates.h), with their default parameters.
#include <vector>

#include "widgets/network_editor/editor_view.h"

namespace partita::gui {

std::vector<EditorView::Template> editorTemplates();

}  // namespace partita::gui
