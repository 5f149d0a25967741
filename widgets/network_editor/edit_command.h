#pragma once
// One editor edit on the undo stack: the patch and its inverse (Document::apply returns it), so undo
// restores exactly the previous document. Commands with the same merge id and key merge (the moves of
// one drag, the keystrokes in one field): the merged command redoes both patches and undoes to the
// state before the first.
#include <functional>

#include <QUndoCommand>

#include "core/edit/document.h"

namespace partita {

class EditCommand : public QUndoCommand {
public:
    using Apply = std::function<edit::Patch(const edit::Patch&)>;  // applies, returns the inverse
    enum Merge { kNoMerge = -1, kMove = 1, kOperator = 2, kHeader = 3 };

    // `patch` is already applied (`inverse` is what it returned): the push's redo does nothing.
    EditCommand(Apply apply, edit::Patch patch, edit::Patch inverse, const QString& text, int merge = kNoMerge,
                qint64 key = 0);
    void redo() override;
    void undo() override;
    int id() const override { return merge_; }
    bool mergeWith(const QUndoCommand* other) override;

    const edit::Patch& patch() const { return patch_; }
    const edit::Patch& inverse() const { return inverse_; }

private:
    Apply apply_;
    edit::Patch patch_, inverse_;
    int merge_;
    qint64 key_;
    bool applied_ = true;
};

// `over` applied after `under`, as one patch (each node's and the header's last state wins).
edit::Patch overlay(const edit::Patch& under, const edit::Patch& over);

}  // namespace partita
