// SOAP strategies for LeNet-c on the 16-GPU preset: read, validate, and simulate what is valid.
#include "core/io/network_io.h"
#include "core/sim/simulator.h"
#include "core/sim/soap.h"
#include "core/sim/task_graph.h"
#include "core/topology/topology.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const partita::Network net = partita::loadNetwork(PARTITA_EXAMPLES_DIR "/networks/lenet-c.json");
    static const partita::sim::Topology topology = partita::sim::p100Cluster16();
    partita::fuzz::refusedOrDone([&] {
        const partita::sim::SoapStrategy s = partita::sim::readSoapJson(partita::fuzz::text(data, size), "fuzz.json", net);
        const partita::sim::SoapStrategy again =
            partita::sim::readSoapJson(partita::sim::writeSoapJson(s, net), "round-trip.json", net);
        if (!(again == s)) __builtin_trap();
        const partita::sim::TaskGraph graph = partita::sim::buildTaskGraph(net, 16, s, topology, {});
        partita::sim::simulate(graph);
    });
    return 0;
}
