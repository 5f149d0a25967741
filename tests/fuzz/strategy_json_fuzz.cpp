// HyPar/AccPar strategies (partita-strategy/1): read, check against VGG-A, evaluate what fits.
#include "core/cost/evaluate.h"
#include "core/io/network_io.h"
#include "core/io/strategy_io.h"
#include "core/model/layers.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const partita::LayerTable layers =
        partita::weightedLayers(partita::loadNetwork(PARTITA_EXAMPLES_DIR "/networks/vgg-a.json"));
    partita::fuzz::refusedOrDone([&] {
        const partita::Strategy s = partita::readStrategyJson(partita::fuzz::text(data, size), "fuzz.json");
        partita::checkStrategyFits(s, layers, "fuzz.json");
        if (s.grid.levels() >= 1 && s.grid.levels() <= 6)
            partita::evaluate(layers, partita::defaultArray(s.grid.levels()), s.grid, partita::CostParams{});
    });
    return 0;
}
