// The results database opener: the input is written to a private file, opened, listed, and every
// run re-opened. Nothing outside that file (and its -wal/-shm) is touched.
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "core/store/results_db.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = "/tmp/partita-fuzz-db-" + std::to_string(getpid()) + ".sqlite";
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    partita::fuzz::refusedOrDone([&] {
        partita::ResultsDb db(path);
        int opened = 0;
        for (const auto& summary : db.list()) {
            if (++opened > 4) break;
            partita::fuzz::refusedOrDone([&] {
                if (db.isMethodRun(summary.id)) db.loadMethod(summary.id);
                else db.load(summary.id);
            });
        }
    });
    return 0;
}
