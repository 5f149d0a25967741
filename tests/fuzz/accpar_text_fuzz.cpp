// The AccPar authors' text format: read, then AccPar itself on two levels for small networks.
#include "core/accpar/accpar.h"
#include "core/io/network_io.h"
#include "core/model/layers.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    partita::fuzz::refusedOrDone([&] {
        const partita::Network net = partita::readAccParText(partita::fuzz::text(data, size), "fuzz.txt");
        const partita::LayerTable layers = partita::weightedLayers(net);
        if (layers.size() > 0 && layers.size() <= 32)
            partita::runAccPar(layers, partita::defaultArray(2), partita::AccParParams{});
    });
    return 0;
}
