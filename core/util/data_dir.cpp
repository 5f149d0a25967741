#include "core/util/data_dir.h"

#include <cstdlib>
#include <filesystem>

namespace partita {

std::string examplesDir() {
    namespace fs = std::filesystem;
    if (const char* data = std::getenv("PARTITA_DATA_DIR"); data && *data) return (fs::path(data) / "examples").string();
    if (const char* examples = std::getenv("PARTITA_EXAMPLES"); examples && *examples) return examples;
    std::error_code ec;
    fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
    // bin/ in an install; build/app/gui/ at most in a build tree.
    for (int up = 0; !ec && up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
        const fs::path candidate = dir / "share" / "partita" / "examples";
        std::error_code missing;  // a folder without it is no error
        if (fs::is_directory(candidate, missing)) return candidate.string();
    }
    return "examples";
}

}  // namespace partita
