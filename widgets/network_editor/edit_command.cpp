#include "widgets/network_editor/edit_command.h"

#include <utility>

namespace partita {

EditCommand::EditCommand(Apply apply, edit::Patch patch, edit::Patch inverse, const QString& text, int merge, qint64 key)
    : QUndoCommand(text), apply_(std::move(apply)), patch_(std::move(patch)), inverse_(std::move(inverse)),
      merge_(merge), key_(key) {}

void EditCommand::redo() {
    if (std::exchange(applied_, false)) return;  // pushed after it was applied
    inverse_ = apply_(patch_);
}

void EditCommand::undo() { apply_(inverse_); }

bool EditCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const EditCommand*>(other);
    if (!next || next->merge_ != merge_ || next->key_ != key_) return false;
    patch_ = overlay(patch_, next->patch_);
    inverse_ = overlay(next->inverse_, inverse_);  // this command's states before it win
    setText(next->text());
    return true;
}

edit::Patch overlay(const edit::Patch& under, const edit::Patch& over) {
    edit::Patch out = under;
    for (const auto& [id, node] : over.nodes) out.nodes[id] = node;
    if (over.header) out.header = over.header;
    return out;
}

}  // namespace partita
