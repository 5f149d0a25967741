#pragma once
// Topology generators (docs/guide/machines.md#generating-a-topology; partita-cli topology generate): regular
// networks of identical devices, GPU clusters of nodes, and HyPar/AccPar arrays as graphs.
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology/topology.h"
#include "core/topology/import.h"

namespace partita::sim {

// A device kind by name: "p100", "k80" (the cluster presets' GPUs), "a100", "h100" or "npu" (astraDefaultDevice).
ComputeDevice namedDevice(const std::string& kind);  // throws std::invalid_argument for others

// Every link of a regular network (per direction).
struct LinkSpec {
    double bandwidth_Bps = 100e9;
    double latency_s = 0;
};

// Ring, torus (every dimension a ring), switch and fully connected: expandDimensions with one
// shape; `dims` innermost first, at most kImportDimensions of them.
Topology regularTopology(Dimension::Shape shape, const std::vector<std::int64_t>& dims, const LinkSpec& link,
                         const ComputeDevice& device, const std::string& name);
// A grid without wrap-around links.
Topology meshTopology(const std::vector<std::int64_t>& dims, const LinkSpec& link, const ComputeDevice& device,
                      const std::string& name);

// N nodes x M GPUs: inside a node NVLink between every pair plus PCIe to the host (Intra::Nvlink),
// or PCIe switches shared by GPU pairs under the host (Intra::PciePairs); hosts join one network switch.
// Intra::Nvswitch (DGX A100 / H100): every GPU on the node's NVSwitch and on its own NIC to the network
// switch, network_Bps / M each.
struct ClusterSpec {
    enum class Intra { Nvlink, PciePairs, Nvswitch };
    std::string name;
    int nodes = 4, gpus = 4;
    ComputeDevice gpu;
    Intra intra = Intra::Nvlink;
    double network_Bps = 12.5e9;  // per host link and direction
    double network_latency_s = 0.5e-6;  // [A] about FlexFlow's NIC figure (0.507 us)
    double nvswitch_Bps = 0, nvswitch_latency_s = 0;  // Intra::Nvswitch: per GPU and direction, per hop
};
Topology clusterTopology(const ClusterSpec& spec);
// The presets' cluster specifications ("p100-16", "k80-64").
ClusterSpec p100ClusterSpec();
ClusterSpec k80ClusterSpec();
// DGX-style nodes of 8 "a100" or "h100" on NVSwitch, one NIC per GPU (docs/guide/machines.md#generating-a-topology).
ClusterSpec dgxClusterSpec(const std::string& kind);
// A cluster's defaults for a device kind, as `topology generate cluster --device` and the application's
// dialog take them: k80 the k80-64 preset's nodes, a100 and h100 DGX-style, any other kind (p100, npu)
// the p100-16 preset's nodes with that device. Throws std::invalid_argument for an unknown kind.
ClusterSpec clusterSpecFor(const std::string& device);
const char* intraName(ClusterSpec::Intra intra);  // "nvlink", "pcie", "nvswitch"
ClusterSpec::Intra parseIntra(const std::string& name);  // throws std::invalid_argument listing the names

}  // namespace partita::sim
