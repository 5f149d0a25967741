#pragma once
// One undoable edit of the topology editor: the document before and after (a Topology is a few
// vectors, so a snapshot per step is cheap next to the clarity of undo restoring it exactly).
// Keystrokes in one field merge into one step: commands with the same non-zero `merge` key do.
#include <functional>

#include <QUndoCommand>

#include "core/topology/topology.h"

namespace partita {

class TopologyCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const sim::Topology&)>;  // what shows a document (the view's setter)
    TopologyCommand(sim::Topology before, sim::Topology after, Apply apply, const QString& text, int merge = 0);

    void undo() override { apply_(before_); }
    void redo() override { apply_(after_); }
    int id() const override { return merge_ ? 1 : -1; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    sim::Topology before_, after_;
    Apply apply_;
    int merge_;
};

}  // namespace partita
