// Topologies with templates: read (which finalizes and checks connectivity), a round trip, and routes;
// the same text read unchecked (what the editor and `topology check` do) and every problem listed:
// a topology the check passes must finalize.
#include "core/topology/topology.h"
#include "core/topology/check.h"
#include "core/topology/edit.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    partita::fuzz::refusedOrDone([&] {
        partita::sim::Topology t = partita::sim::readTopologyJsonUnchecked(partita::fuzz::text(data, size), "fuzz.json", nullptr);
        const bool clean = partita::sim::checkTopology(t).empty();
        partita::sim::linkRows(t);
        if (!clean) return;
        try {
            t.finalize();
        } catch (const std::exception&) {
            __builtin_trap();  // the check missed a problem finalize() finds
        }
    });
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
