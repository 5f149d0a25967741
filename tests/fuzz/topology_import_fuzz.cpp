// Imported topologies (ASTRA-sim YAML and JSON, Calculon JSON): the first byte picks the file
// name the dispatcher sees, so one target covers every importer; a result must route.
#include "core/topology/import.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const char* name = data[0] % 2 == 0 ? "fuzz.yml" : "fuzz.json";
    partita::fuzz::refusedOrDone([&] {
        std::vector<std::string> warnings;
        const partita::sim::Topology t =
            partita::sim::readAnyTopology(partita::fuzz::text(data + 1, size - 1), name, &warnings);
        const int d = t.deviceCount();
        if (d > 1) t.route(0, d - 1);
    });
    return 0;
}
