#pragma once
// The topology editor in the window (issue 17): the "Topology editor" tab (widgets/topology_editor),
// its view entry ("topology-editor": screenshots, its undo stack in Edit ▸ Undo / Redo while shown)
// "Use: Simulate", which makes the edited topology the one Simulate and MCMC run on, and "Use:
// HyPar/AccPar", which derives an array from it (core/sim/topology_levels.h) and loads it.
#include <QObject>

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

private:
    void useAsArray(const sim::Topology& topology);
    QString ready() const;  // "" or why there is nothing to export

    MainWindow& window_;
    TopologyEditorView* view_ = nullptr;
};

}  // namespace partita::gui
