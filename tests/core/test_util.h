#pragma once
// Shared helpers for the engine tests: built-in example loading.
#include <stdexcept>
#include <string>

#include "core/io/network_io.h"
#include "core/model/layers.h"

namespace partita::test {

inline std::string example(const std::string& relative) { return std::string(PARTITA_EXAMPLES_DIR) + "/" + relative; }

inline LayerTable builtin(const std::string& name) {
    return weightedLayers(loadNetwork(example("networks/" + name + ".json")));
}

// The message of whatever `f` throws, or "(no error)".
template <class F>
std::string anyErrorOf(F f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

inline const char* const kTenNetworks[] = {"sfc",   "sconv", "lenet-c", "cifar-c", "alexnet",
                                           "vgg-a", "vgg-b", "vgg-c",   "vgg-d",   "vgg-e"};

}  // namespace partita::test
