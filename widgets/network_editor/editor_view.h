#pragma once
// The network editor (issue 16): the palette, the canvas with its tool row, the problems list under
// it and the properties of the selection, around one edit::Document. Every edit is one EditCommand on
// the view's undo stack (moves of one drag and keystrokes in one field merge); the view re-reads the
// document after each and signals documentChanged(). Files, recovery and handing the network to the
// analysis are the application's (app/gui/network_editor).
#include <optional>
#include <vector>

#include <QUndoStack>
#include <QWidget>

#include "core/edit/document.h"
#include "core/edit/templates.h"
#include "widgets/network_editor/editor_palette.h"

class QLabel;
class QListWidget;
class QSpinBox;
class QToolButton;

namespace partita {

class EditorCanvas;
class PropertiesPanel;

class EditorView : public QWidget {
    Q_OBJECT
public:
    using NodeId = edit::NodeId;
    explicit EditorView(QWidget* parent = nullptr);

    // A new document (opened, new, recovered): the undo history starts over, clean unless `dirty`;
    // laid out by Graphviz where it has no hints.
    void setDocument(edit::Document doc, bool dirty = false);
    const edit::Document& document() const { return doc_; }
    QUndoStack& undoStack() { return stack_; }

    // Templates the palette offers, each with its default parameters; clicking one in the palette
    // shows its parameters in the properties, and an insertion uses them as last set there.
    struct Template {
        PaletteEntry entry;
        edit::TemplateParams params;
    };
    void setTemplates(std::vector<Template> templates);

    // The edits the canvas, palette, panel and shortcuts ask for; each is one undoable command.
    // Returns false (and says why in message()) for a patch the document refuses.
    bool push(const edit::Patch& patch, const QString& text, int merge = -1, qint64 key = 0);
    // An operator (op kind key, "conv") or template ("template:<name>") at `at` (scene) or below its
    // inputs: after `onto`, else after the selection when it fits, else after the input of an empty graph.
    bool add(const QString& key, std::optional<QPointF> at = {}, std::optional<NodeId> onto = {});
    void deleteSelection();
    void copySelection();
    void paste();
    void duplicateSelection();
    void repeatSelection(int copies);  // the selected block chained `copies` more times after itself
    void renameCurrent();  // F2: the name field, selected
    void autoLayout();     // hints cleared (undoable) and everything laid out by dot

    EditorCanvas* canvas() const { return canvas_; }
    EditorPalette* palette() const { return palette_; }
    PropertiesPanel* properties() const { return properties_; }
    QListWidget* problems() const { return problems_; }
    void setStatus(const QString& text);  // the line under the tool row (what the analysis made of it)
    // Above the problems list: why the chosen method cannot analyse the document as it stands (rich
    // text, links come back as linkActivated); "" when it can. The application keeps it current.
    void setAnalysisProblem(const QString& html);
    QString analysisProblem() const;
    // The last edit the editor refused and why, above the problems list until the next edit succeeds.
    QString refusal() const;
    const edit::TemplateParams* templateParams(const QString& key) const;  // "template:<name>"; null if none

signals:
    void documentChanged();              // after every edit, undo, redo and setDocument
    void message(const QString& text);   // a note for the status bar (a refusal also shows in the editor)
    void linkActivated(const QString& link);  // a link of the analysis problem

private:
    edit::Patch applyToDocument(const edit::Patch& patch);  // what commands call: apply, then re-read
    void documentEdited();
    void selectionChanged();
    void fillProblems();
    void refuse(const QString& text);  // shown until the next edit succeeds, and said as a message
    void showTemplate(const QString& key);  // its parameters in the properties
    std::map<NodeId, edit::Point> shownPositions() const;
    QToolButton* tool(const QString& name, const QString& text, const QString& tip);

    edit::Document doc_;
    QUndoStack stack_;
    std::vector<Template> templates_;
    std::vector<edit::TemplateParams> template_params_;  // as set in the properties, per template
    std::vector<edit::Node> clipboard_;
    int pastes_ = 0;  // since the last copy: each paste lands a step further
    EditorCanvas* canvas_ = nullptr;
    EditorPalette* palette_ = nullptr;
    PropertiesPanel* properties_ = nullptr;
    QListWidget* problems_ = nullptr;
    QLabel* problems_title_ = nullptr;
    QLabel* analysis_ = nullptr;  // the method's refusal of the document
    QLabel* refusal_ = nullptr;   // the last refused edit
    QLabel* status_ = nullptr;
    QSpinBox* repeats_ = nullptr;
};

}  // namespace partita
