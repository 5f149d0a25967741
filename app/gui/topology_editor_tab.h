#pragma once
// The topology editor in the window (issue 17): the "Topology editor" tab (widgets/topology_editor),
// its view entry ("topology-editor": screenshots, its undo stack in Edit ▸ Undo / Redo while shown)
// "Use: Simulate", which makes the edited topology the one Simulate and MCMC run on, and "Use:
// HyPar/AccPar", which derives an array from it (core/topology/levels.h) and loads it. Until the
// user makes the document their own (an edit, New, Open), the editor shows the machine in use:
// the preset, file or generated topology Simulate and MCMC run on, from when the tab is shown.
#include <QObject>
#include <QString>

namespace partita {
class TopologyEditorView;
namespace sim {
class Topology;
}
}

namespace partita::gui {

class MainWindow;

class TopologyEditorTab : public QObject {
    Q_OBJECT
public:
    explicit TopologyEditorTab(MainWindow& window);
    TopologyEditorView* view() const { return view_; }
    // Unsaved edits when the window closes: Save (a file dialog), Discard or Cancel (false).
    bool maybeSave();
    // The machine in use changed: shown now when the tab is, else when it is next shown.
    void followIfShown();
    // The machine in use into the editor, unless the document is the user's own.
    void follow();

private:
    void useAsArray(const sim::Topology& topology);
    QString ready() const;  // "" or why there is nothing to export

    MainWindow& window_;
    TopologyEditorView* view_ = nullptr;
    QString followed_;     // the machine-in-use key the document came from
    bool own_ = false;     // the document is the user's (an edit, New, Open): no longer replaced
    bool following_ = false;  // follow() is setting the document
};

}  // namespace partita::gui
