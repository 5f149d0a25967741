#include "app/gui/session.h"

#include <functional>
#include <utility>

#include <QUndoCommand>

#include "app/gui/run_store.h"

namespace partita::gui {

namespace {

// One grid edit (a flip, a reset, an applied exploration point): undo shows the grid before it.
class GridEdit : public QUndoCommand {
public:
    GridEdit(std::function<void(const Grid&)> show, Grid before, Grid after, const QString& text)
        : QUndoCommand(text), show_(std::move(show)), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { show_(before_); }
    void redo() override { show_(after_); }

private:
    std::function<void(const Grid&)> show_;
    Grid before_, after_;
};

}  // namespace

bool sameShape(const Grid& a, const Grid& b) { return a.levels() == b.levels() && a.layers() == b.layers(); }

Session::Session(RunStore& store, QObject* parent) : QObject(parent), store_(store) {}

void Session::setNetwork(Network network, const QString& path) {
    network_ = std::move(network);
    network_path_ = path;
}

void Session::setArray(Array array, const QString& path) {
    array_ = std::move(array);
    array_path_ = path;
}

void Session::setInputs(InputsPtr inputs) {
    const bool same_shape = inputs_ && inputs_->layers.size() == inputs->layers.size() &&
                            inputs_->array.levels == inputs->array.levels &&
                            inputs_->network.name == inputs->network.name;
    inputs_ = std::move(inputs);
    emit inputsChanged(!same_shape);
}

void Session::show(const RunPtr& run) {
    current_ = run;
    emit runChanged(run);
}

void Session::showUnkept(const RunPtr& run) {
    pending_ = run;
    show(run);
}

void Session::arrive(const RunPtr& run) {
    if (run->kind == RunKind::Search) searched_ = run;
    pending_.reset();     // an unkept edit of the previous result is superseded
    grid_edits_.clear();  // its edits refer to the previous answer
    show(run);
}

RunPtr Session::store(const RunPtr& run, const store::RunRows* rows) {
    const RunPtr stored = store_.store(run, nullptr, rows);
    if (!stored) return nullptr;
    if (current_ == run) current_ = stored;
    if (searched_ == run) searched_ = stored;
    emit runStored(run, stored);
    return stored;
}

void Session::keep() {
    if (!pending_) return;
    store(std::exchange(pending_, nullptr));
    emit pendingChanged();
}

void Session::toggleCell(int level, int layer) {
    if (!current_ || level < 0 || level >= current_->grid.levels() || layer < 0 || layer >= current_->grid.layers())
        return;
    Grid grid = current_->grid;
    Cell& cell = grid.at(level, layer);
    if (current_->isAccPar())  // AccPar cycles I -> II -> III; HyPar flips dp <-> mp
        cell.split = static_cast<Split>((index(cell.split) + 1) % kSplitCount);
    else
        cell.split = cell.split == Split::Batch ? Split::Input : Split::Batch;
    applyGrid(grid);
}

void Session::applyGrid(const Grid& grid) {
    if (!inputs_ || !current_ || grid == current_->grid) return;
    grid_edits_.push(new GridEdit([this](const Grid& g) { showGrid(g); }, current_->grid, grid, tr("grid edit")));
}

void Session::showGrid(const Grid& grid) {
    if (!inputs_) return;
    const Grid reference = searched_ && sameShape(searched_->grid, grid) ? searched_->grid : grid;
    if (searched_ && grid == reference && searched_->inputs == inputs_) {
        pending_.reset();
        return show(searched_);
    }
    try {
        const std::string method = current_ && current_->isAccPar() ? "accpar" : "user";
        showUnkept(std::make_shared<const Run>(gridRun(inputs_, grid, RunKind::Edited, method, &reference)));
    } catch (const std::exception& e) {
        emit error(QString::fromStdString(e.what()));
    }
}

void Session::resetGrid() {
    if (searched_) applyGrid(searched_->grid);
}

Grid Session::gridToLower() const {
    for (const RunPtr& run : {current_, searched_})
        if (run && run->inputs == inputs_ && run->grid.levels() > 0) return run->grid;
    return {};  // the job plans HyPar's grid
}

}  // namespace partita::gui
