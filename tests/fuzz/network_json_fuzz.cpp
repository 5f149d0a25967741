// Network JSON: read, then the weighted-layer table, a round trip, and a small HyPar search.
#include "core/io/network_io.h"
#include "core/model/layers.h"
#include "core/search/methods.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    partita::fuzz::refusedOrDone([&] {
        const partita::Network net = partita::readNetworkJson(partita::fuzz::text(data, size), "fuzz.json");
        const partita::Network again = partita::readNetworkJson(partita::writeNetworkJson(net), "round-trip.json");
        if (again.ops.size() != net.ops.size()) __builtin_trap();
        const partita::LayerTable layers = partita::weightedLayers(net);
        if (layers.size() > 0 && layers.size() <= 64) partita::hyparSearch(layers, 2, partita::CostParams{});
    });
    return 0;
}
