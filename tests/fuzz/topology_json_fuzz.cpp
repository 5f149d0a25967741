// Topologies with templates: read (which finalizes and checks connectivity), a round trip, and routes.
#include "core/sim/topology.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    partita::fuzz::refusedOrDone([&] {
        const partita::sim::Topology t = partita::sim::readTopologyJson(partita::fuzz::text(data, size), "fuzz.json");
        const partita::sim::Topology again =
            partita::sim::readTopologyJson(partita::sim::writeTopologyJson(t), "round-trip.json");
        if (!(again == t)) __builtin_trap();
        const int d = t.deviceCount();
        if (d > 1) {
            t.route(0, d - 1);
            t.route(d - 1, 0);
        }
    });
    return 0;
}
