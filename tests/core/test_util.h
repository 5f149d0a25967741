#pragma once
// Shared helpers for the engine tests: built-in example loading.
#include <exception>
#include <stdexcept>
#include <string>

#include "core/io/network_io.h"
#include "core/model/layers.h"

namespace partita::test {

inline std::string example(const std::string& relative) { return std::string(PARTITA_EXAMPLES_DIR) + "/" + relative; }

inline LayerTable builtin(const std::string& name) {
    return weightedLayers(loadNetwork(example("networks/" + name + ".json")));
}

// The message of the E that `f` throws, or `none`; any other exception escapes and fails the test.
template <class E, class F>
std::string errorOf(F f, const char* none = "no error") {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return none;
}

// The message of whatever `f` throws, or "(no error)".
template <class F>
std::string anyErrorOf(F f) {
    return errorOf<std::exception>(f, "(no error)");
}

inline const char* const kTenNetworks[] = {"sfc",   "sconv", "lenet-c", "cifar-c", "alexnet",
                                           "vgg-a", "vgg-b", "vgg-c",   "vgg-d",   "vgg-e"};

}  // namespace partita::test
