// partita-cli topology: generate regular networks, clusters and arrays as partita-topology/1,
// and convert imported files (ASTRA-sim, Calculon) to it (docs/guide/machines.md#generating-a-topology).
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "app/cli/commands.h"
#include "app/cli/report.h"
#include "core/io/array_io.h"
#include "core/model/array.h"
#include "core/sim/collectives.h"
#include "core/topology/check.h"
#include "core/topology/generate.h"
#include "core/topology/levels.h"
#include "core/util/error.h"

namespace partita::cli {

namespace {

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

sim::Topology generate(const std::string& kind, const Options& a) {
    if (kind == "cluster") {
        const std::string device = a.get("device", "p100");
        sim::ClusterSpec s = usage("device", [&] { return sim::clusterSpecFor(device); });
        s.nodes = static_cast<int>(a.integer64("nodes", 4));
        if (a.has("gpus")) s.gpus = static_cast<int>(a.integer64("gpus", s.gpus));
        if (a.has("intra")) s.intra = usage("intra", [&] { return sim::parseIntra(a.get("intra")); });
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
        const std::string shape = a.get("shape", "htree");
        if (shape != "htree" && shape != "torus") throw UsageError("--shape must be htree or torus");
        const auto topology = shape == "torus" ? partita::Topology::Torus : partita::Topology::HTree;
        Array array = a.has("array") ? loadArray(a.get("array")) : defaultArray(4, topology);
        if (a.has("levels")) {
            array.levels = static_cast<int>(a.integer64("levels", 4));
            if (!array.groups.empty()) throw UsageError("--levels applies to arrays without groups");
        }
        if (a.has("shape")) array.topology = topology;
        if (a.has("name")) array.name = a.get("name");
        return usage("array", [&] { return sim::fromArray(array); });
    }
    sim::LinkSpec link;
    link.bandwidth_Bps = a.positiveNumber("bandwidth-GBps", 100, 1e12) * 1e9;
    link.latency_s = a.number("latency-ns", 0) / 1e9;
    if (!(link.latency_s >= 0) || link.latency_s > 1) throw UsageError("--latency-ns must be from 0 to 1e9");
    const sim::ComputeDevice device = usage("device", [&] { return sim::namedDevice(a.get("device", "npu")); });
    std::vector<std::int64_t> dims;
    if (kind == "ring" || kind == "switch" || kind == "fully-connected")
        dims = {a.integer64("devices", 8)};
    else if (kind == "torus" || kind == "mesh")
        dims = parseDims(a.required("dims"));
    else
        throw UsageError("unknown kind '" + kind + "'");
    if ((kind == "torus" || kind == "mesh") && (dims.size() < 2 || dims.size() > 3))
        throw UsageError("--dims: a torus or mesh has 2 or 3 dimensions");
    std::string size;
    for (const auto d : dims) size += (size.empty() ? "" : "x") + std::to_string(d);
    const std::string name = a.get("name", kind + " " + size);
    if (kind == "mesh") return usage("dims", [&] { return sim::meshTopology(dims, link, device, name); });
    const auto shape = kind == "switch"            ? sim::Dimension::Shape::Switch
                       : kind == "fully-connected" ? sim::Dimension::Shape::FullyConnected
                                                   : sim::Dimension::Shape::Ring;
    // The error names the option the user gave: --devices for one dimension, --dims otherwise.
    const bool one = kind == "ring" || kind == "switch" || kind == "fully-connected";
    return usage(one ? "devices" : "dims", [&] { return sim::regularTopology(shape, dims, link, device, name); });
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

sim::Topology readTopology(const std::string& spec, std::vector<std::string>* warnings) {
    if (std::filesystem::exists(spec) || spec.find('/') != std::string::npos || spec.ends_with(".json") ||
        spec.ends_with(".yml") || spec.ends_with(".yaml"))
        return sim::loadTopology(spec, warnings);
    try {
        return sim::builtinTopology(spec);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--topology: ") + e.what());
    }
}

namespace {

// topology collective: one collective's time by algorithm, phase by phase
// (docs/methods/flexflow.md#collectives-as-algorithms).
int collectiveCommand(const Options& a, std::ostream& out) {
    const sim::Topology t = readTopology(a.required("topology"));
    const sim::CollectiveOp op = usage("op", [&] { return sim::parseCollectiveOp(a.get("op", "all-reduce")); });
    const double bytes = a.positiveNumber("bytes", 0, 1e15);
    const std::int64_t n = a.has("devices") ? a.integer64("devices", 0) : t.deviceCount();
    if (n < 1 || n > t.deviceCount())
        throw UsageError("--devices: the topology has " + std::to_string(t.deviceCount()) + " devices, not " + std::to_string(n));
    std::vector<int> group;
    for (int d = 0; d < n; ++d) group.push_back(d);
    const std::string which = a.get("algorithm", "all");
    std::vector<sim::CollectiveTime> times;
    std::vector<std::string> refused;
    if (which == "best") {
        times.push_back(sim::fastestCollective(t, op, group, bytes));
    } else {
        std::vector<sim::CollectiveAlgorithm> algorithms;
        if (which == "all") algorithms.assign(std::begin(sim::kCollectiveAlgorithms), std::end(sim::kCollectiveAlgorithms));
        else algorithms.push_back(usage("algorithm", [&] { return sim::parseCollectiveAlgorithm(which); }));
        for (sim::CollectiveAlgorithm alg : algorithms) {
            try {
                times.push_back(sim::collectiveTime(t, op, alg, group, bytes));
            } catch (const std::invalid_argument& e) {
                if (which != "all") throw Error(e.what());
                refused.push_back(e.what());
            }
        }
    }
    if (a.flag("json")) {
        Json list = Json::array();
        for (const sim::CollectiveTime& c : times) {
            Json phases = Json::array();
            for (const sim::PhaseTime& p : c.phases)
                phases.push_back({{"name", p.name}, {"steps", p.steps}, {"latency_s", p.latency_s}, {"transfer_s", p.transfer_s}});
            list.push_back({{"algorithm", sim::collectiveAlgorithmName(c.algorithm)}, {"time_s", c.total_s}, {"phases", phases}});
        }
        out << jsonText(Json{{"topology", t.name}, {"op", sim::collectiveOpName(op)}, {"bytes", bytes}, {"devices", n},
                             {"algorithms", list}, {"not_applicable", refused}})
            << "\n";
        return 0;
    }
    out << sim::collectiveOpName(op) << " of " << withPrefix(bytes, "B") << " among " << n << " devices of " << t.name << "\n";
    TextTable table({"algorithm", "time", "algbw"});
    for (const sim::CollectiveTime& c : times)
        table.add({sim::collectiveAlgorithmName(c.algorithm), seconds(c.total_s),
                   c.total_s > 0 ? withPrefix(bytes / c.total_s, "B/s") : "-"});
    table.print(out);
    for (const sim::CollectiveTime& c : times) {
        out << "\n" << sim::collectiveAlgorithmName(c.algorithm) << ": phase, rounds, latency + transfer\n";
        for (const sim::PhaseTime& p : c.phases)
            out << "  " << p.name << ", " << p.steps << ": " << seconds(p.latency_s) << " + " << seconds(p.transfer_s) << "\n";
    }
    for (const std::string& r : refused) out << "not applicable: " << r << "\n";
    return 0;
}

int convert(const Options& a, std::ostream& out) {
    std::vector<std::string> warnings;
    const sim::Topology t = sim::loadTopology(a.required("topology"), &warnings);
    write(a.required("out"), t, out);
    if (a.required("out") != "-")
        for (const auto& w : warnings) out << "warning: " << w << "\n";
    return 0;
}

int checkTopologyCommand(const Options& a, std::ostream& out) {
    if (!a.has("file")) throw UsageError("expected topology check F");
    const std::string file = a.get("file");
    sim::Topology t;
    std::vector<sim::TopologyProblem> warnings;
    const auto problems = sim::checkTopologyFile(file, &t, &warnings);
    for (const auto& p : problems) out << sim::describeProblem(file, p) << "\n";
    for (const auto& w : warnings) out << "warning: " << sim::describeProblem(file, w) << "\n";
    out << file << ": topology '" << t.name << "', " << t.deviceCount() << " devices, " << t.switches.size()
        << " switches, " << t.links.size() << " links: ";
    if (problems.empty()) out << "no problems";
    else out << problems.size() << " problem" << (problems.size() == 1 ? "" : "s");
    if (!warnings.empty()) out << ", " << warnings.size() << " warning" << (warnings.size() == 1 ? "" : "s");
    out << "\n";
    return problems.empty() ? 0 : 1;
}

// topology generate KIND: the kind's options, then --out F ("-" = stdout) and --name S.
void addKind(CLI::App& parent, RunContext& ctx, const std::string& kind, const std::string& description) {
    CLI::App* c = command(parent, ctx, kind, description, [kind](const Options& a, std::ostream& out, std::ostream&) {
        if (!a.has("out")) throw UsageError("--out F is required (\"-\" writes to stdout)");
        write(a.get("out"), generate(kind, a), out);
        return 0;
    });
    value(*c, "out", "F", "the partita-topology/1 file to write (\"-\" = stdout)");
    value(*c, "name", "S", "the topology's name");
    if (kind == "cluster") {
        value(*c, "nodes", "N", "nodes (4)")->check(integerIn(1, sim::kImportDevices));
        value(*c, "gpus", "M", "GPUs per node (4)")->check(integerIn(1, sim::kImportDevices));
        value(*c, "device", "p100|k80|a100|h100", "the GPU (p100); a100 and h100 nodes are DGX-style, 8 GPUs");
        value(*c, "intra", "nvlink|pcie|nvswitch",
              "links inside a node (nvlink for p100, pcie for k80, nvswitch and a NIC per GPU for a100/h100)");
        value(*c, "network-GBps", "X", "the network's bandwidth per node, GB/s (the device's preset)");
        value(*c, "network-latency-ns", "X", "the network's latency, ns (the device's preset)");
    } else if (kind == "array") {
        value(*c, "levels", "H", "hierarchy levels, 2^H accelerators (4)")->check(integerIn(1, Array::kMaxLevels));
        value(*c, "shape", "htree|torus", "an H-tree fat tree (default) or a torus");
        value(*c, "array", "F", "a partita-array/1 file (heterogeneous AccPar groups too)");
    } else {
        if (kind == "torus" || kind == "mesh")
            value(*c, "dims", "AxB[xC]", "2-D or 3-D sizes, e.g. 4x4 or 4x4x2 (required)");
        else
            value(*c, "devices", "N", "devices (8)")->check(integerIn(1, sim::kImportDevices));
        value(*c, "bandwidth-GBps", "X", "link bandwidth, GB/s (100)");
        value(*c, "latency-ns", "X", "link latency, ns (0)");
        value(*c, "device", "npu|p100|k80", "the device (npu)");
    }
}

}  // namespace

void addTopologyCommands(CLI::App& app, RunContext& ctx) {
    CLI::App* topology = app.add_subcommand("topology", "generate, convert or check a topology (partita-topology/1)");
    topology->footer("presets: p100-16 = cluster --nodes 4 --gpus 4 --device p100 --intra nvlink --network-GBps 12.5\n"
                     "         k80-64  = cluster --nodes 16 --gpus 4 --device k80 --intra pcie --network-GBps 7\n"
                     "         hmc-htree-16 = array --levels 4 --shape htree;  hmc-torus-16 = array --levels 4 --shape torus");
    CLI::App* gen = topology->add_subcommand("generate", "generate KIND [options] --out F (F \"-\" = stdout)");
    addKind(*gen, ctx, "ring", "a ring of --devices N");
    addKind(*gen, ctx, "switch", "--devices N on one switch");
    addKind(*gen, ctx, "fully-connected", "--devices N, every pair linked");
    addKind(*gen, ctx, "torus", "a 2-D or 3-D torus, every dimension a ring");
    addKind(*gen, ctx, "mesh", "a 2-D or 3-D mesh");
    addKind(*gen, ctx, "cluster", "--nodes N of --gpus M");
    addKind(*gen, ctx, "array", "HyPar/AccPar arrays (H-tree fat tree, torus, heterogeneous AccPar groups)");
    CLI::App* conv = command(*topology, ctx, "convert", "an ASTRA-sim or Calculon file to partita-topology/1", convert);
    value(*conv, "topology", "F", "the file to convert");
    value(*conv, "out", "F2", "the file to write (\"-\" = stdout)");
    CLI::App* chk = command(*topology, ctx, "check", "every problem of a topology file with its place; exit status 1 when there is one",
                            checkTopologyCommand);
    positional(*chk, "file", "the topology file");
    CLI::App* coll = command(*topology, ctx, "collective", "one collective's time on a topology, by algorithm and phase",
                             collectiveCommand);
    value(*coll, "topology", "F|PRESET", "the topology (a file or a preset: p100-16, k80-64, ...)");
    value(*coll, "op", "OP", "all-reduce (default), reduce-scatter, all-gather, all-to-all or broadcast");
    value(*coll, "bytes", "X", "the buffer's bytes (required): all-reduce's, all-gather's output, all-to-all's per device");
    value(*coll, "algorithm", "A", "ring, tree, halving-doubling, direct, hierarchical, best, or all (default)");
    value(*coll, "devices", "N", "the group: the first N devices (all)");
    flag(*coll, "json", "one JSON object on stdout");
}

}  // namespace partita::cli
