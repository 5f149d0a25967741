#pragma once
// The network editor in the window (issue 16): the Editor tab (widgets/network_editor), its view entry
// ("editor": screenshots, the exports editor-graph and editor-dot, its undo stack, the save prompt)
// and File ▸ New network, Save network, Save network as. It follows the network the window loads
// (made a document when the tab is first shown, laid out by dot unless the file has hints). A valid
// document's network is handed to the window 300 ms after the last edit, and the chosen method
// re-runs through the job runner (a newer edit cancels an older run); an invalid one never is.
// Unsaved work goes to a recovery file every few seconds and is offered at the next start.
#include <optional>
#include <string>

#include <QObject>
#include <QString>
#include <QTimer>

#include "core/model/network.h"

class QAction;

namespace partita {
class EditorView;
}

namespace partita::gui {

class MainWindow;

class NetworkEditor : public QObject {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 300, kRecoveryMs = 5000;

    explicit NetworkEditor(MainWindow& window);

    EditorView* view() const { return view_; }
    QString path() const { return path_; }  // where Save writes; "" for a new, imported or built-in network
    bool dirty() const;                     // edits since the last save (or load)

    void newNetwork(const Shape& input, const QString& name = {});  // an empty graph reading one input
    void ensureLoaded();  // the window's network as the document, if it has not been made one yet
    bool save();          // to path(), else asks where
    // Writes partita-network/1 with the layout hints; empty `path` asks. Refused for a document with problems.
    bool saveAs(const QString& path = {}, QString* error = nullptr);
    bool maybeSave();     // unsaved work: Save, Discard or Cancel (false); no dialog in screenshot mode

    QTimer& debounce() { return debounce_; }
    QTimer& recoveryTimer() { return recovery_timer_; }
    static QString recoveryPath();  // editor-recovery.json in the user's data directory
    bool writeRecovery();           // the unsaved document, now (what the timer does when it changed)
    bool recover(const QString& path, QString* error = nullptr);  // a recovery file, as unsaved work

private:
    void networkLoaded(const Network& network, const QString& path);
    void edited();
    void handOver();
    void showState();  // the status line and the method's refusal, for the document as it stands
    void offerRecovery();
    QString origin() const;

    MainWindow& window_;
    EditorView* view_ = nullptr;
    QString path_;
    std::optional<std::pair<Network, QString>> pending_;  // the window's network, not yet the document
    std::string handed_;                                  // the network JSON last handed to the window
    QString refusal_;                                     // the window's method refused window_json_
    std::string window_json_;
    QTimer debounce_, recovery_timer_;
    bool recovery_stale_ = false;  // edited since the recovery file was written
};

}  // namespace partita::gui
