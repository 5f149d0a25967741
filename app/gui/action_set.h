#pragma once
// The window's actions by name, its toolbar (with the method selector), its menus and the recent
// files. What an action does belongs to the controllers (RunController, InputLoader, Session,
// ExportActions); this only names, places and enables them, so tests and views reach an action by
// name ("run", "evaluate", "explore", "compare", "export", "reset", "keep", "cancel", "undo", …).
#include <functional>
#include <map>

#include <QObject>
#include <QString>

class QAction;
class QComboBox;
class QKeySequence;
class QMainWindow;
class QMenu;
class QUndoGroup;

namespace partita::gui {

class ExportActions;
class RunController;
class RunStore;
class RunsDock;
class Session;
class SimulationController;
class ViewRegistry;

class ActionSet : public QObject {
    Q_OBJECT
public:
    struct Parts {
        QMainWindow& window;
        RunController& runs;
        Session& session;
        RunStore& store;
        ViewRegistry& views;
        ExportActions& exports;
        SimulationController& simulator;
        QUndoGroup& undo;
        RunsDock* runs_dock;
        std::function<void(const QString&)> open;  // File ▸ Open and the recent files
        std::function<void()> explore;             // Run ▸ Explore: the Explore tab's cells
    };
    explicit ActionSet(Parts parts);

    QAction* action(const QString& name) const;  // nullptr for an unknown name
    // Views add their own actions (listed in the guide with their shortcuts).
    void add(const QString& name, QAction* action);
    QMenu* menu(const QString& name) const;  // "file", "edit", "run", "view", "help"
    void addRecentFile(const QString& path);
    void showMethod(const QString& key);  // the selector follows the chosen method
    void update();                         // enabled as the session's run and inputs allow

private:
    QAction* make(const QString& name, const QString& text, const QString& tip, const QKeySequence& key);
    void buildMenus();
    void rebuildRecentMenu();
    void openGuide();

    Parts parts_;
    std::map<QString, QAction*> actions_;
    QComboBox* method_box_ = nullptr;
    QMenu* recent_menu_ = nullptr;
};

}  // namespace partita::gui
