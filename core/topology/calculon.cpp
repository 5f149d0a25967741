// Calculon's system JSON (docs/formats/topology-imports.md): one processor ("matrix", "vector",
// "mem1", "mem2") and its network tiers ("networks", innermost first, each with "bandwidth" in
// GB/s per processor, "efficiency", "size" in processors and "latency" in seconds).
#include <algorithm>
#include <set>
#include <string>

#include "core/topology/import.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

// Keys read from `object`; the rest are reported as ignored under `pointer`.
void collectIgnored(const Json& object, const std::string& pointer, const std::set<std::string>& read,
                    std::set<std::string>& ignored) {
    for (const auto& [key, v] : object.items())
        if (!read.count(key)) ignored.insert(pointer + "/" + key);
}

// The largest efficiency of a [[size, efficiency], ...] table (the figure for large operations).
double bestEfficiency(const Json& table, const std::string& at, const std::string& source) {
    if (!table.is_array() || table.empty()) throw InputError(source, at, "expected a list of [size, efficiency] pairs");
    if (table.size() > 1024) throw InputError(source, at, "more than 1024 entries");
    double best = 0;
    for (size_t k = 0; k < table.size(); ++k) {
        const Json& p = table[k];
        const std::string here = at + "/" + std::to_string(k);
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
            throw InputError(source, here, "expected [size, efficiency]");
        const double e = p[1].get<double>();
        if (!(e >= 0 && e <= 1)) throw InputError(source, here + "/1", "an efficiency must be in [0, 1]");
        best = std::max(best, e);
    }
    if (best <= 0) throw InputError(source, at, "every efficiency is 0");
    return best;
}

// "matrix": {"tflops", "gflops_efficiency": {type: table}} or, in older files,
// {type: {"tflops", "gflops_efficiency": table}}; float16 is preferred, else the first type.
void readMatrix(const Json& m, ComputeDevice& d, const std::string& source, std::set<std::string>& ignored,
                std::set<std::string>& approximated) {
    Fields f(m, "/matrix", source);
    if (f.has("tflops")) {
        d.peak_flops = f.positive("tflops") * 1e12;
        if (!f.has("gflops_efficiency")) {
            collectIgnored(m, "/matrix", {"tflops"}, ignored);
            return;
        }
        const Json& types = f.raw("gflops_efficiency");
        if (!types.is_object() || types.empty())
            f.fail("gflops_efficiency", "expected an object of data type -> efficiency table");
        const std::string type = types.contains("float16") ? "float16" : types.begin().key();
        d.efficiency = bestEfficiency(types.at(type), "/matrix/gflops_efficiency/" + type, source);
        approximated.insert("/matrix/gflops_efficiency/" + type + " (its best efficiency)");
        collectIgnored(types, "/matrix/gflops_efficiency", {type}, ignored);
        collectIgnored(m, "/matrix", {"tflops", "gflops_efficiency"}, ignored);
        return;
    }
    if (m.empty()) f.fail("tflops", "missing 'tflops' or a data type");
    const std::string type = m.contains("float16") ? "float16" : m.begin().key();
    const std::string at = "/matrix/" + type;
    Fields t(m.at(type), at, source);
    d.peak_flops = t.positive("tflops") * 1e12;
    if (t.has("gflops_efficiency")) {
        d.efficiency = bestEfficiency(t.raw("gflops_efficiency"), at + "/gflops_efficiency", source);
        approximated.insert(at + "/gflops_efficiency (its best efficiency)");
    }
    collectIgnored(m.at(type), at, {"tflops", "gflops_efficiency"}, ignored);
    collectIgnored(m, "/matrix", {type}, ignored);
}

struct Tier {
    double bandwidth_Bps, latency_s;
    std::int64_t size;
};

}  // namespace

Topology readCalculonJson(const Json& root, const std::string& source, std::vector<std::string>* warnings) {
    Fields f(root, "", source);
    std::set<std::string> ignored, approximated;
    ComputeDevice d{"", "calculon", 0, 0, 0, 1.0, 0, 0};
    readMatrix(f.raw("matrix"), d, source, ignored, approximated);
    Fields mem(f.raw("mem1"), "/mem1", source);
    d.mem_capacity_B = mem.positive("GiB") * 1024.0 * 1024.0 * 1024.0;
    d.mem_bandwidth_Bps = mem.positive("GBps") * 1e9;
    collectIgnored(root.at("mem1"), "/mem1", {"GiB", "GBps"}, ignored);
    const Json& nets = f.raw("networks");
    if (!nets.is_array() || nets.empty()) f.fail("networks", "expected a non-empty list of network tiers");
    if (static_cast<std::int64_t>(nets.size()) > kImportDimensions)
        f.fail("networks", "more than " + std::to_string(kImportDimensions) + " tiers");
    std::vector<Tier> tiers;
    for (size_t k = 0; k < nets.size(); ++k) {
        const std::string at = "/networks/" + std::to_string(k);
        Fields n(nets[k], at, source);
        const double eff = n.positive("efficiency");
        if (eff > 1) n.fail("efficiency", "must be in (0, 1]");
        tiers.push_back({n.positive("bandwidth") * 1e9 * eff, n.nonNegative("latency", 0.0),
                         n.integerIn("size", 1, std::int64_t{1} << 40)});
        collectIgnored(nets[k], at, {"bandwidth", "efficiency", "size", "latency"}, ignored);
        if (k > 0 && tiers[k].size < tiers[k - 1].size)
            n.fail("size", "a tier must span at least the processors of the tier below");
    }
    for (const auto& [key, v] : root.items())
        if (key != "matrix" && key != "mem1" && key != "networks") ignored.insert("/" + key);
    // The processor count is in Calculon's execution file, not here: the first tier is built
    // whole, and each tier above joins two groups of the one below (or fewer, if it is smaller).
    std::vector<std::int64_t> span;
    for (size_t k = 0; k < tiers.size(); ++k) {
        const std::int64_t below = k == 0 ? 1 : span[k - 1];
        const std::int64_t want = k == 0 ? tiers[0].size : std::min(tiers[k].size, 2 * below);
        if (want % below != 0)
            throw InputError(source, "/networks/" + std::to_string(k) + "/size",
                             "the tier's size must be a multiple of the tier below");
        if (want > kImportDevices)
            throw InputError(source, "/networks/" + std::to_string(k) + "/size",
                             "more than " + std::to_string(kImportDevices) + " processors");
        span.push_back(want);
    }
    Topology t;
    t.name = "Calculon system";
    const int devices = static_cast<int>(span.back()), node = static_cast<int>(span[0]);
    for (int i = 0; i < devices; ++i) {
        ComputeDevice c = d;
        c.name = "p" + std::to_string(i);
        c.node = i / node;
        t.devices.push_back(c);
    }
    // A switch per group of every tier; a transfer crosses two links, each with half the latency.
    for (size_t k = 0; k < tiers.size(); ++k) {
        const int group = static_cast<int>(span[k]);
        if (group < 2) continue;
        const std::string kind = "tier" + std::to_string(k);
        for (int g = 0; g * group < devices; ++g) {
            t.switches.push_back(kind + ".sw" + std::to_string(g));
            const int sw = t.vertexCount() - 1;
            for (int i = g * group; i < (g + 1) * group; ++i)
                for (const auto& [a, b] : {std::pair{i, sw}, std::pair{sw, i}})
                    t.links.push_back({kind + " " + t.vertexName(a) + "->" + t.vertexName(b), a, b,
                                       tiers[k].bandwidth_Bps, tiers[k].latency_s / 2, kind});
        }
    }
    try {
        t.finalize();
    } catch (const std::invalid_argument& e) {
        throw InputError(source, "/networks", e.what());
    }
    if (warnings) {
        std::string list;
        for (const auto& k : ignored) list += (list.empty() ? "" : ", ") + k;
        if (!list.empty()) warnings->push_back(source + ": ignored " + list);
        for (const auto& a : approximated) warnings->push_back(source + ": approximated " + a);
        warnings->push_back(source + ": approximated: " + std::to_string(devices) +
                            " processors (Calculon's count is in its execution file); link bandwidth = "
                            "bandwidth x efficiency");
    }
    return t;
}

}  // namespace partita::sim
