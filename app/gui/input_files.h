#pragma once
// What a file the user opens is, and where the built-in examples live.
#include <QString>
#include <QStringList>

namespace partita::gui {

enum class FileKind { Network, Array, Strategy, Topology, SoapStrategy, Unknown };

// By the JSON "format" key (partita-network/1, partita-array/1,
// partita-strategy/1, partita-topology/1, partita-soap/1); a .txt file is an AccPar network. Unknown when the file
// cannot be read or has no recognised format (the loader then reports why).
FileKind fileKindOf(const QString& path);

// The examples folder (partita::examplesDir: $PARTITA_DATA_DIR, else beside the executable).
QString examplesDir();
QStringList builtInNetworks();  // examples/networks/*.json, sorted
QStringList builtInArrays();    // examples/arrays/*.json, sorted

}  // namespace partita::gui
