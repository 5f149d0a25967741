#pragma once
// The network editor's recovery file: the unsaved document as it is, problems included (which
// partita-network/1 cannot hold), with the file it would be saved to. Format
// "partita-editor-recovery/1": name, description, input, saved_to, and nodes [{id, inputs (ids, 0 =
// the network input), position [x, y] (optional), operator (as in partita-network/1, without inputs)}].
#include <QString>

#include "core/edit/document.h"

namespace partita::gui {

struct Recovered {
    edit::Document document;
    QString path;  // where it was being saved to ("" for an unsaved network)
};

// Returns "" or the problem (naming the file).
QString writeRecoveryFile(const QString& file, const edit::Document& doc, const QString& saved_to);
// Throws InputError naming the file and the JSON pointer.
Recovered readRecoveryFile(const QString& file);

}  // namespace partita::gui
