// partita-cli topology: generate regular networks, clusters and arrays as partita-topology/1,
// and convert imported files (ASTRA-sim, Calculon) to it (docs/guide/machines.md#generating-a-topology).
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/io/array_io.h"
#include "core/model/array.h"
#include "core/sim/topology_check.h"
#include "core/sim/topology_generate.h"
#include "core/sim/topology_levels.h"
#include "core/util/error.h"

namespace partita::cli {

namespace {

const char* kTopologyUsage = R"(usage: partita-cli topology generate KIND [options] --out F     (F "-" = stdout)
       partita-cli topology convert --topology F --out F2   (ASTRA-sim / Calculon file to partita-topology/1)
       partita-cli topology check F   (every problem with its place; exit status 1 when there is one)
kinds:
  ring --devices N | switch --devices N | fully-connected --devices N
  torus --dims AxB[xC]  (2-D or 3-D, every dimension a ring) | mesh --dims AxB[xC]
    options: --bandwidth-GBps X (100) --latency-ns X (0) --device npu|p100|k80 (npu) --name S
  cluster --nodes N --gpus M [--device p100|k80] [--intra nvlink|pcie] [--network-GBps X] [--network-latency-ns X]
  array [--levels H] [--shape htree|torus] [--array F]   HyPar/AccPar arrays (H-tree fat tree, torus,
    heterogeneous AccPar groups from a partita-array/1 file)
presets: p100-16 = cluster --nodes 4 --gpus 4 --device p100 --intra nvlink --network-GBps 12.5
         k80-64  = cluster --nodes 16 --gpus 4 --device k80 --intra pcie --network-GBps 7
         hmc-htree-16 = array --levels 4 --shape htree;  hmc-torus-16 = array --levels 4 --shape torus
)";

std::vector<std::int64_t> parseDims(const std::string& text) {
    std::vector<std::int64_t> dims;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t x = std::min(text.find('x', at), text.size());
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data() + at, text.data() + x, v);
        if (ec != std::errc() || end != text.data() + x || v < 1 || v > sim::kImportDevices)
            throw UsageError("--dims: expected sizes such as 4x4 or 4x4x2 (each 1.." +
                             std::to_string(sim::kImportDevices) + "), got '" + text + "'");
        dims.push_back(v);
        at = x + 1;
    }
    return dims;
}

sim::Topology generate(const std::string& kind, const Argv& rest) {
    const std::set<std::string> flags;
    if (kind == "cluster") {
        const Args a(rest, {"nodes", "gpus", "device", "intra", "network-GBps", "network-latency-ns", "name", "out"}, flags);
        sim::ClusterSpec s;
        const std::string device = a.get("device", "p100");
        s = device == "k80" ? sim::k80ClusterSpec() : sim::p100ClusterSpec();
        s.nodes = static_cast<int>(a.integerIn("nodes", 4, 1, sim::kImportDevices));
        s.gpus = static_cast<int>(a.integerIn("gpus", 4, 1, sim::kImportDevices));
        s.gpu = usage("device", [&] { return sim::namedDevice(device); });
        const std::string intra = a.get("intra", device == "k80" ? "pcie" : "nvlink");
        if (intra != "nvlink" && intra != "pcie") throw UsageError("--intra must be nvlink or pcie");
        s.intra = intra == "pcie" ? sim::ClusterSpec::Intra::PciePairs : sim::ClusterSpec::Intra::Nvlink;
        // Unset options keep the preset's figures bit for bit.
        if (a.has("network-GBps")) s.network_Bps = a.positiveNumber("network-GBps", 1, 1e12) * 1e9;
        if (a.has("network-latency-ns")) s.network_latency_s = a.number("network-latency-ns", 0) / 1e9;
        if (!(s.network_latency_s >= 0) || s.network_latency_s > 1)
            throw UsageError("--network-latency-ns must be from 0 to 1e9");
        // "P100 cluster (4 nodes x 4 GPUs)": the presets' names come out of their options.
        std::string upper = device;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        s.name = a.get("name", upper + " cluster (" + std::to_string(s.nodes) + " nodes x " + std::to_string(s.gpus) +
                                   " GPUs)");
        return usage("nodes", [&] { return sim::clusterTopology(s); });
    }
    if (kind == "array") {
        const Args a(rest, {"levels", "shape", "array", "name", "out"}, flags);
        const std::string shape = a.get("shape", "htree");
        if (shape != "htree" && shape != "torus") throw UsageError("--shape must be htree or torus");
        const auto topology = shape == "torus" ? partita::Topology::Torus : partita::Topology::HTree;
        Array array = a.has("array") ? loadArray(a.get("array")) : defaultArray(4, topology);
        if (a.has("levels")) {
            array.levels = static_cast<int>(a.integerIn("levels", 4, 1, Array::kMaxLevels));
            if (!array.groups.empty()) throw UsageError("--levels applies to arrays without groups");
        }
        if (a.has("shape")) array.topology = topology;
        if (a.has("name")) array.name = a.get("name");
        return usage("array", [&] { return sim::fromArray(array); });
    }
    const Args a(rest, {"devices", "dims", "bandwidth-GBps", "latency-ns", "device", "name", "out"}, flags);
    sim::LinkSpec link;
    link.bandwidth_Bps = a.positiveNumber("bandwidth-GBps", 100, 1e12) * 1e9;
    link.latency_s = a.number("latency-ns", 0) / 1e9;
    if (!(link.latency_s >= 0) || link.latency_s > 1) throw UsageError("--latency-ns must be from 0 to 1e9");
    const sim::ComputeDevice device = usage("device", [&] { return sim::namedDevice(a.get("device", "npu")); });
    std::vector<std::int64_t> dims;
    if (kind == "ring" || kind == "switch" || kind == "fully-connected")
        dims = {a.integerIn("devices", 8, 1, sim::kImportDevices)};
    else if (kind == "torus" || kind == "mesh")
        dims = parseDims(a.required("dims"));
    else
        throw UsageError("unknown kind '" + kind + "'\n" + kTopologyUsage);
    if ((kind == "torus" || kind == "mesh") && (dims.size() < 2 || dims.size() > 3))
        throw UsageError("--dims: a torus or mesh has 2 or 3 dimensions");
    std::string size;
    for (const auto d : dims) size += (size.empty() ? "" : "x") + std::to_string(d);
    const std::string name = a.get("name", kind + " " + size);
    if (kind == "mesh") return usage("dims", [&] { return sim::meshTopology(dims, link, device, name); });
    const auto shape = kind == "switch"            ? sim::Dimension::Shape::Switch
                       : kind == "fully-connected" ? sim::Dimension::Shape::FullyConnected
                                                   : sim::Dimension::Shape::Ring;
    return usage("dims", [&] { return sim::regularTopology(shape, dims, link, device, name); });
}

std::string outOf(const Argv& rest) {
    for (size_t k = 0; k + 1 < rest.size(); ++k)
        if (rest[k] == "--out") return rest[k + 1];
    throw UsageError("--out F is required (\"-\" writes to stdout)");
}

void write(const std::string& path, const sim::Topology& t, std::ostream& out) {
    const std::string text = sim::writeTopologyJson(t);
    if (path == "-") {
        out << text;
        return;
    }
    std::ofstream f(path);
    f << text;
    if (!f) throw Error(path + ": cannot write the file");
    out << path << ": " << t.name << ", " << t.deviceCount() << " devices, " << t.switches.size() << " switches, "
        << t.links.size() << " links\n";
}

}  // namespace

Array machineArray(const std::string& spec) {
    const bool file = std::filesystem::exists(spec) || spec.find('/') != std::string::npos;
    const sim::Topology t = file ? sim::loadTopology(spec) : usage("machine", [&] { return sim::builtinTopology(spec); });
    return usage("machine", [&] { return sim::arrayFromTopology(t); });
}

int cmdTopology(const Argv& argv, std::ostream& out) {
    if (argv.empty() || argv[0] == "--help") {
        out << kTopologyUsage;
        return argv.empty() ? 2 : 0;
    }
    if (argv[0] == "convert") {
        const Args a(Argv(argv.begin() + 1, argv.end()), {"topology", "out"}, {});
        std::vector<std::string> warnings;
        const sim::Topology t = sim::loadTopology(a.required("topology"), &warnings);
        write(a.required("out"), t, out);
        if (a.required("out") != "-")
            for (const auto& w : warnings) out << "warning: " << w << "\n";
        return 0;
    }
    if (argv[0] == "check") {
        if (argv.size() != 2 || argv[1].rfind("--", 0) == 0) throw UsageError("expected topology check F");
        sim::Topology t;
        std::vector<sim::TopologyProblem> warnings;
        const auto problems = sim::checkTopologyFile(argv[1], &t, &warnings);
        for (const auto& p : problems) out << sim::describeProblem(argv[1], p) << "\n";
        for (const auto& w : warnings) out << "warning: " << sim::describeProblem(argv[1], w) << "\n";
        out << argv[1] << ": topology '" << t.name << "', " << t.deviceCount() << " devices, " << t.switches.size()
            << " switches, " << t.links.size() << " links: ";
        if (problems.empty()) out << "no problems";
        else out << problems.size() << " problem" << (problems.size() == 1 ? "" : "s");
        if (!warnings.empty()) out << ", " << warnings.size() << " warning" << (warnings.size() == 1 ? "" : "s");
        out << "\n";
        return problems.empty() ? 0 : 1;
    }
    if (argv[0] != "generate" || argv.size() < 2) throw UsageError(std::string("expected generate KIND, convert or check\n") + kTopologyUsage);
    const Argv rest(argv.begin() + 2, argv.end());
    const std::string path = outOf(rest);
    write(path, generate(argv[1], rest), out);
    return 0;
}

}  // namespace partita::cli
