// The topologies of FlexFlow's evaluation (docs/methods/flexflow.md#presets) and the HyPar/AccPar
// arrays as graphs. Figures and sources: docs/methods/flexflow.md#presets; [A] marks
// an assumption. examples/topologies/*.json describe the same graphs, link for link.
#include <initializer_list>
#include <stdexcept>

#include "core/model/groups.h"
#include "core/topology/topology.h"
#include "core/topology/generate.h"

namespace partita::sim {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kGpuEfficiency = 0.6;  // [A] fraction of fp32 peak that cuDNN-class kernels reach
constexpr double kNvlinkBps = 20e9;     // NVLink 1.0, one link, per direction (P100 whitepaper) [A: one link per pair]
constexpr double kPcieBps = 15.75e9;    // PCIe 3.0 x16: 8 GT/s x 16 lanes x 128/130 / 8, per direction
constexpr double kEdrBps = 12.5e9;      // InfiniBand EDR 4x = 100 Gb/s (the paper writes "100GB/s")
constexpr double kFdrBps = 7e9;         // InfiniBand FDR 4x = 56 Gb/s (the paper writes "56 GB/s EDR")
constexpr double kNvlinkLatency = 1e-6;  // [A] 1 us per hop, as FlexFlow's machine_config_example
constexpr double kPcieLatency = 1e-6;    // [A] likewise

void addDuplex(Topology& t, const std::string& kind, int a, int b, double bandwidth, double latency) {
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}})
        t.links.push_back({kind + " " + t.vertexName(from) + "->" + t.vertexName(to), from, to, bandwidth, latency,
                           kind});
}

// One level of a tree: vertex first + i links up to first_parent + i / fan_in, for i < count.
void addTreeLevel(Topology& t, const std::string& kind, int first, int count, int fan_in, int first_parent,
                  double bandwidth, double latency) {
    for (int i = 0; i < count; ++i) addDuplex(t, kind, first + i, first_parent + i / fan_in, bandwidth, latency);
}

// Per node the switches n<node>.<name>, node by node; returns the vertex id of the first.
int addNodeSwitches(Topology& t, int nodes, std::initializer_list<const char*> names) {
    const int first = t.vertexCount();
    for (int n = 0; n < nodes; ++n)
        for (const char* name : names) t.switches.push_back("n" + std::to_string(n) + "." + name);
    return first;
}

// Memory figures per accelerator kind (the array files carry none) [A]: HMC 2.0 has
// 32 vaults x 10 GB/s and 4 GB cubes; TPU v2/v3 HBM per chip (Jouppi et al., CACM 2020).
ComputeDevice accelerator(const AcceleratorGroup& g, int index) {
    ComputeDevice d{"A" + std::to_string(index), g.kind, g.throughput_flops, 320e9, 4 * kGiB, 1.0, 0};
    if (g.kind == "tpu-v3") {
        d.mem_bandwidth_Bps = 900e9;
        d.mem_capacity_B = 32 * kGiB;
    } else if (g.kind == "tpu-v2") {
        d.mem_bandwidth_Bps = 700e9;
        d.mem_capacity_B = 16 * kGiB;
    }
    return d;
}

// Fat tree: a switch at every inner node of the bisection tree, created breadth first and
// named H<level>.<index>; the link from a child to its level-Hk parent carries HyPar's
// level bandwidth (AccPar: the override, else the child group's sum of b).
void buildTree(Topology& t, const Array& a, const std::vector<AcceleratorGroup>& groups) {
    std::vector<int> next_device(groups.size(), 0);  // first unused device of each group
    for (size_t k = 1; k < groups.size(); ++k) next_device[k] = next_device[k - 1] + groups[k - 1].count;
    const auto level_bw = groupLevelBandwidth(a);
    Members all;
    for (const auto& g : groups) all.push_back(g.count);
    if (memberCount(all) < 2) return;
    t.switches.push_back("H1");
    std::vector<std::pair<Members, int>> level{{all, t.vertexCount() - 1}};
    for (int depth = 1; !level.empty(); ++depth) {
        std::vector<std::pair<Members, int>> below;
        for (const auto& [members, parent] : level) {
            const Bisection b = bisect(groups, members);
            for (const Members* child : {&b.i, &b.j}) {
                const double bw = level_bw.empty() ? groupBandwidth(groups, *child)
                                                   : level_bw[static_cast<size_t>(depth - 1)];
                int vertex = 0;
                if (memberCount(*child) == 1) {
                    size_t g = 0;
                    while ((*child)[g] == 0) ++g;
                    vertex = next_device[g]++;
                } else {
                    t.switches.push_back("H" + std::to_string(depth + 1) + "." + std::to_string(below.size()));
                    vertex = t.vertexCount() - 1;
                    below.emplace_back(*child, vertex);
                }
                addDuplex(t, "htree", vertex, parent, bw, 0.0);
            }
        }
        level = std::move(below);
    }
}

// 2-D torus of rows x cols (rows >= cols, as torusLoads), every link at link_bps:
// first the +row link of every accelerator, then the +column links. A ring of two
// gets one duplex link, not two parallel ones.
void buildTorus(Topology& t, const Array& a) {
    const int rows = 1 << ((a.levels + 1) / 2), cols = 1 << (a.levels / 2);
    const double bw = a.link_bps / 8.0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if (rows > 2 || r + 1 < rows) addDuplex(t, "torus", r * cols + c, (r + 1) % rows * cols + c, bw, 0.0);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if (cols > 2 || c + 1 < cols) addDuplex(t, "torus", r * cols + c, r * cols + (c + 1) % cols, bw, 0.0);
}

}  // namespace

ClusterSpec p100ClusterSpec() {
    ClusterSpec s;
    s.name = "P100 cluster (4 nodes x 4 GPUs)";
    s.gpu = namedDevice("p100");
    s.network_Bps = kEdrBps;
    return s;
}

ClusterSpec k80ClusterSpec() {
    ClusterSpec s;
    s.name = "K80 cluster (16 nodes x 4 GPUs)";
    s.nodes = 16;
    s.gpu = namedDevice("k80");
    s.intra = ClusterSpec::Intra::PciePairs;
    s.network_Bps = kFdrBps;
    return s;
}

ClusterSpec dgxClusterSpec(const std::string& kind) {
    ClusterSpec s;
    s.gpus = 8;
    s.gpu = namedDevice(kind);
    s.intra = ClusterSpec::Intra::Nvswitch;
    // Effective rates, as the LLM profiles' tiers give them (bandwidth x efficiency per GPU and direction;
    // their per-step latency split over a route's two hops): DGX A100, NVLink 3 300 GB/s at 79.59 % and
    // 8 x HDR 200 Gb/s; DGX H100, NVLink 4 450 GB/s and 8 x NDR 400 Gb/s.
    if (kind == "a100") {
        s.nvswitch_Bps = 300e9 * 0.7959;
        s.network_Bps = 8 * 25e9;
    } else if (kind == "h100") {
        s.nvswitch_Bps = 450e9;
        s.network_Bps = 8 * 50e9;
    } else {
        throw std::invalid_argument("NVSwitch nodes are a100 or h100, not '" + kind + "'");
    }
    s.nvswitch_latency_s = 1e-6;
    s.network_latency_s = 2.5e-6;
    return s;
}

ClusterSpec clusterSpecFor(const std::string& device) {
    if (device == "a100" || device == "h100") return dgxClusterSpec(device);
    ClusterSpec s = device == "k80" ? k80ClusterSpec() : p100ClusterSpec();
    s.gpu = namedDevice(device);
    return s;
}

const char* intraName(ClusterSpec::Intra intra) {
    switch (intra) {
    case ClusterSpec::Intra::Nvlink: return "nvlink";
    case ClusterSpec::Intra::PciePairs: return "pcie";
    case ClusterSpec::Intra::Nvswitch: return "nvswitch";
    }
    return "nvlink";
}

ClusterSpec::Intra parseIntra(const std::string& name) {
    for (const auto intra : {ClusterSpec::Intra::Nvlink, ClusterSpec::Intra::PciePairs, ClusterSpec::Intra::Nvswitch})
        if (name == intraName(intra)) return intra;
    throw std::invalid_argument("unknown node interconnect '" + name + "' (use nvlink, pcie or nvswitch)");
}

ComputeDevice namedDevice(const std::string& kind) {
    // Tesla P100 SXM2 (the NVLink part): 10.6 TFLOP/s fp32 at boost, 732 GB/s HBM2, 16 GB.
    if (kind == "p100") return {"", "p100", 10.6e12, 732e9, 16 * kGiB, kGpuEfficiency, 0, 0};
    // One GK210 die of a Tesla K80 board: 2496 cores x 2 x 875 MHz boost = 4.37 TFLOP/s fp32 [A: boost
    // clock], 240 GB/s GDDR5, 12 GB (NVIDIA K80 datasheet: a board is two such dies).
    if (kind == "k80") return {"", "k80", 4.37e12, 240e9, 12 * kGiB, kGpuEfficiency, 0, 0};
    // A100 SXM4 80GB: 156 TFLOP/s TF32 tensor (the simulator's default element is fp32), 2,039 GB/s
    // HBM2e; H100 SXM5 80GB: 494.7 TFLOP/s TF32 dense, 3,350 GB/s HBM3 (NVIDIA datasheets). With
    // --profile the LLM profile's kernel curves replace peak and efficiency (docs/methods/flexflow.md#kernel-curves).
    if (kind == "a100") return {"", "a100", 156e12, 2039e9, 80 * kGiB, kGpuEfficiency, 0, 0};
    if (kind == "h100") return {"", "h100", 494.7e12, 3350e9, 80 * kGiB, kGpuEfficiency, 0, 0};
    if (kind == "npu") return astraDefaultDevice();
    throw std::invalid_argument("unknown device kind '" + kind + "' (use p100, k80, a100, h100 or npu)");
}

Topology clusterTopology(const ClusterSpec& s) {
    if (s.nodes < 1 || s.gpus < 1 || static_cast<std::int64_t>(s.nodes) * s.gpus > kImportDevices)
        throw std::invalid_argument("a cluster needs 1.." + std::to_string(kImportDevices) + " GPUs in all");
    if (s.intra == ClusterSpec::Intra::PciePairs && s.gpus % 2 != 0)
        throw std::invalid_argument("PCIe pairs need an even number of GPUs per node");
    Topology t;
    t.name = s.name;
    const int nodes = s.nodes, gpus = s.gpus, d = nodes * gpus;
    for (int n = 0; n < nodes; ++n)
        for (int g = 0; g < gpus; ++g) {
            ComputeDevice c = s.gpu;
            c.name = "n" + std::to_string(n) + ".gpu" + std::to_string(g);
            c.node = n;
            t.devices.push_back(c);
        }
    if (s.intra == ClusterSpec::Intra::Nvswitch) {
        if (!(s.nvswitch_Bps > 0))
            throw std::invalid_argument("NVSwitch nodes are a100 or h100 (their switch bandwidth per GPU), not '" +
                                        s.gpu.kind + "'");
        const int nvswitch = addNodeSwitches(t, nodes, {"nvswitch"});
        t.switches.push_back("ib");
        addTreeLevel(t, "nvswitch", 0, d, gpus, nvswitch, s.nvswitch_Bps, s.nvswitch_latency_s);
        addTreeLevel(t, "infiniband", 0, d, d, nvswitch + nodes, s.network_Bps / gpus, s.network_latency_s);
    } else if (s.intra == ClusterSpec::Intra::Nvlink) {
        const int host = addNodeSwitches(t, nodes, {"host"});
        t.switches.push_back("ib");
        for (int n = 0; n < nodes; ++n)
            for (int a = 0; a < gpus; ++a)
                for (int b = a + 1; b < gpus; ++b)
                    addDuplex(t, "nvlink", n * gpus + a, n * gpus + b, kNvlinkBps, kNvlinkLatency);
        addTreeLevel(t, "pcie", 0, d, gpus, host, kPcieBps, kPcieLatency);
        addTreeLevel(t, "infiniband", host, nodes, nodes, host + nodes, s.network_Bps, s.network_latency_s);
    } else {
        // Vertices: per node one PCIe switch per GPU pair, then the host switches, then IB.
        std::vector<std::string> names;
        for (int p = 0; p < gpus / 2; ++p) names.push_back("plx" + std::to_string(p));
        const int plx = t.vertexCount();
        for (int n = 0; n < nodes; ++n)
            for (const auto& name : names) t.switches.push_back("n" + std::to_string(n) + "." + name);
        const int host = addNodeSwitches(t, nodes, {"host"});
        t.switches.push_back("ib");
        addTreeLevel(t, "pcie", 0, d, 2, plx, kPcieBps, kPcieLatency);
        addTreeLevel(t, "pcie", plx, nodes * gpus / 2, gpus / 2, host, kPcieBps, kPcieLatency);
        addTreeLevel(t, "infiniband", host, nodes, nodes, host + nodes, s.network_Bps, s.network_latency_s);
    }
    t.finalize();
    return t;
}

Topology p100Cluster16() { return clusterTopology(p100ClusterSpec()); }

Topology k80Cluster64() { return clusterTopology(k80ClusterSpec()); }

Topology fromArray(const Array& a) {
    validate(a);
    Topology t;
    t.name = a.name;
    const auto groups = acceleratorGroups(a);
    for (const auto& g : groups)
        for (int k = 0; k < g.count; ++k) t.devices.push_back(accelerator(g, t.deviceCount()));
    if (a.topology == partita::Topology::Torus) {
        if (!a.hyparCompatible()) throw std::invalid_argument("a torus needs 2^levels identical accelerators");
        buildTorus(t, a);
    } else {
        buildTree(t, a, groups);
    }
    t.finalize();
    return t;
}

std::vector<std::string> builtinTopologyNames() { return {"p100-16", "k80-64", "hmc-htree-16", "hmc-torus-16"}; }

Topology builtinTopology(const std::string& stem) {
    if (stem == "p100-16") return p100Cluster16();
    if (stem == "k80-64") return k80Cluster64();
    if (stem == "hmc-htree-16") return fromArray(defaultArray(4, partita::Topology::HTree));
    if (stem == "hmc-torus-16") return fromArray(defaultArray(4, partita::Topology::Torus));
    throw std::invalid_argument("unknown built-in topology '" + stem + "' (use p100-16, k80-64, hmc-htree-16 or "
                                "hmc-torus-16)");
}

}  // namespace partita::sim
