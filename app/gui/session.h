#pragma once
// What the user is working on, without widgets: the inputs (network, array, their files, the
// inputs made of them), the searched run that edits refer to, the shown run, an edit not yet
// kept, and the undo stack of grid edits. Views and the window follow its signals; tests drive it.
#include <memory>

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "core/model/array.h"
#include "core/model/network.h"
#include "core/run/run.h"

namespace partita::store {
struct RunRows;
}

namespace partita::gui {

class RunStore;

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(RunStore& store, QObject* parent = nullptr);

    // The inputs.
    const Network& network() const { return network_; }
    const Array& array() const { return array_; }
    QString networkPath() const { return network_path_; }
    QString arrayPath() const { return array_path_; }
    void setNetwork(Network network, const QString& path);
    void setArray(Array array, const QString& path);
    // user: a network the user chose (option, library, Open), as opposed to the built-in example
    // or an editor's; chosenNetworkPath() is "" otherwise (MPT and L2S then show their paper's).
    void setUserNetwork(bool user) { user_network_ = user; }
    QString chosenNetworkPath() const { return user_network_ ? network_path_ : QString(); }
    InputsPtr inputs() const { return inputs_; }
    void setInputs(InputsPtr inputs);  // inputsChanged

    // The runs.
    RunPtr currentRun() const { return current_; }    // what the grid and metrics show
    RunPtr searchedRun() const { return searched_; }  // the method's answer that edits are compared with
    RunPtr pendingRun() const { return pending_; }    // an edited grid (or loaded strategy) not yet kept
    void setSearched(RunPtr run) { searched_ = std::move(run); }
    void show(const RunPtr& run);        // runChanged
    void showUnkept(const RunPtr& run);  // shown, and kept by keep() (or on close)
    // A method's new answer: a search becomes the reference, the unkept edit and the edits go.
    void arrive(const RunPtr& run);
    // Into the results database (nothing without one): the stored copy replaces the run here.
    // `rows`: the run serialised by the worker that made it (RunStore::store).
    RunPtr store(const RunPtr& run, const store::RunRows* rows = nullptr);
    void keep();  // stores the unkept edit

    // Grid edits (undoable).
    QUndoStack& gridEdits() { return grid_edits_; }
    void toggleCell(int level, int layer);  // flip and re-evaluate at once
    void applyGrid(const Grid& grid);       // a grid as an edit of the searched run
    void resetGrid();                       // back to the searched optimum
    // The grid Simulate lowers: the shown (or searched) run's on these inputs; empty: HyPar's plan.
    Grid gridToLower() const;

signals:
    void inputsChanged(bool reshaped);  // reshaped: other layers, levels or network than before
    void runChanged(const partita::RunPtr& run);
    void pendingChanged();
    void runStored(const partita::RunPtr& run, const partita::RunPtr& stored);
    void error(const QString& message);

private:
    void showGrid(const Grid& grid);  // applyGrid without recording it (what undo and redo call)

    RunStore& store_;
    Network network_;
    Array array_;
    QString network_path_, array_path_;
    bool user_network_ = false;
    InputsPtr inputs_;
    RunPtr searched_, current_, pending_;
    QUndoStack grid_edits_;
};

// A searched grid is a reference only for grids of its shape (a simulated run may follow other inputs).
bool sameShape(const Grid& a, const Grid& b);

}  // namespace partita::gui
