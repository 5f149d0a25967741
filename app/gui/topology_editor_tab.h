#pragma once
// The topology editor in the window (issue 17): the "Topology editor" tab (widgets/topology_editor),
// its view entry ("topology-editor": screenshots, its undo stack in Edit ▸ Undo / Redo while shown)
// and "Use for Simulate", which makes the edited topology the one Simulate and MCMC run on.
#include <QObject>

namespace partita {
class TopologyEditorView;
}

namespace partita::gui {

class MainWindow;

class TopologyEditorTab : public QObject {
    Q_OBJECT
public:
    explicit TopologyEditorTab(MainWindow& window);
    TopologyEditorView* view() const { return view_; }

private:
    QString ready() const;  // "" or why there is nothing to export

    MainWindow& window_;
    TopologyEditorView* view_ = nullptr;
};

}  // namespace partita::gui
