#pragma once
// Where Partita's shipped data (examples/) is found at run time, so that an installed or packaged
// build needs no path of the source tree.
#include <string>

namespace partita {

// $PARTITA_DATA_DIR/examples when set (or $PARTITA_EXAMPLES, the folder itself); else the first
// share/partita/examples found walking up from the running executable's folder: the install
// prefix (bin/../share/partita/examples) or the build tree, where CMake links it to the sources.
// Falls back to "examples" in the working directory.
std::string examplesDir();

}  // namespace partita
