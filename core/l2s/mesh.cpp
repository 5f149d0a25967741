#include "core/l2s/mesh.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include "core/util/enum_names.h"
#include "core/util/limits.h"
#include "core/util/ranges.h"

namespace partita::l2s {

namespace {

std::string tooLarge(std::int64_t cores) {
    return "mesh: " + std::to_string(cores) + " cores is more than the " + std::to_string(kMaxCores) +
           " supported (every layer boundary keeps cores x cores traffic and link-load matrices)";
}

}  // namespace

std::pair<int, int> defaultMeshShape(int cores) {
    if (cores < 1) throw std::invalid_argument("mesh: core count must be positive, got " + std::to_string(cores));
    if (cores > kMaxCores) throw std::invalid_argument(tooLarge(cores));
    int y = 1;
    for (int d = 1; d * d <= cores; ++d)
        if (cores % d == 0) y = d;
    return {cores / y, y};
}

std::pair<int, int> parseMeshShape(const std::string& text) {
    const auto x = text.find('x');
    try {
        if (x == std::string::npos) throw std::invalid_argument("no x");
        size_t used_a = 0, used_b = 0;
        const std::string a = text.substr(0, x), b = text.substr(x + 1);
        const int w = std::stoi(a, &used_a), h = std::stoi(b, &used_b);
        if (used_a != a.size() || used_b != b.size() || w < 1 || h < 1) throw std::invalid_argument("bad");
        if (w <= kMaxCores && h <= kMaxCores) return {w, h};
    } catch (const std::exception&) {
        throw std::invalid_argument("mesh shape '" + text + "': expected XxY with positive integers, e.g. 4x4");
    }
    throw std::invalid_argument("mesh shape '" + text + "': a side above " + std::to_string(kMaxCores) +
                                " cores, more than the largest supported mesh holds");
}

namespace {
constexpr EnumName<CommModel> kCommModels[] = {{CommModel::Burst, "burst"}, {CommModel::Ideal, "ideal"}};
}  // namespace

const char* commModelName(CommModel m) { return enumName(kCommModels, m); }

CommModel parseCommModel(const std::string& name) {
    if (auto m = parseEnum(kCommModels, name)) return *m;
    throw std::invalid_argument("communication model '" + name + "': expected burst or ideal");
}

std::string coreName(int core) { return "c" + std::to_string(core); }

Mesh::Mesh(MeshParams params) : p_(params) {
    auto positive = [](double v, const char* what) {
        if (!(v > 0)) throw std::invalid_argument(std::string("mesh: ") + what + " must be positive");
    };
    positive(p_.cores, "cores");
    if (p_.cores > kMaxCores) throw std::invalid_argument(tooLarge(p_.cores));
    if (p_.width == 0 && p_.height == 0) std::tie(p_.width, p_.height) = defaultMeshShape(p_.cores);
    positive(p_.width, "width");
    positive(p_.height, "height");
    if (std::int64_t{p_.width} * p_.height != p_.cores)
        throw std::invalid_argument("mesh: " + std::to_string(p_.width) + "x" + std::to_string(p_.height) +
                                    " does not hold " + std::to_string(p_.cores) + " cores");
    positive(p_.flit_bytes, "flit bytes");
    positive(p_.packet_flits, "packet flits");
    positive(p_.channels, "channels");
    positive(p_.burst_rate, "burst rate (flits/cycle/node)");
    positive(p_.clock_hz, "clock");
    if (p_.router_cycles < 0 || p_.link_cycles < 0 || p_.e_link_j < 0 || p_.e_router_j < 0)
        throw std::invalid_argument("mesh: router/link cycles and energies must not be negative");
    // The limits (docs/formats/limits.md), so that every time and energy formed from them is finite.
    const auto check = [](double v, const Range& r, const char* what) {
        if (const std::string why = rangeProblem(v, r); !why.empty())
            throw std::invalid_argument(std::string("mesh: ") + what + " " + why);
    };
    check(p_.burst_rate, ranges::kBurstRate, "burst rate");
    check(p_.e_link_j * 1e12, ranges::kEnergyPj, "link energy per flit");
    check(p_.e_router_j * 1e12, ranges::kEnergyPj, "router energy per flit");
    check(p_.flit_bytes, {1, 1 << 20, " B"}, "flit size");
    check(p_.packet_flits, {1, 1 << 20, ""}, "packet flits");
    check(p_.channels, {1, 1024, ""}, "channels");
    check(p_.router_cycles, {0, 1 << 20, ""}, "router cycles");
    check(p_.link_cycles, {0, 1 << 20, ""}, "link cycles");
    check(p_.clock_hz, {limits::kRateMin, limits::kRateMax, " Hz"}, "clock");
    if (p_.mc_core < 0 || p_.mc_core >= p_.cores) throw std::invalid_argument("mesh: memory controller core out of range");

    const int n = p_.cores;
    topology_.name = "mesh-" + std::to_string(p_.width) + "x" + std::to_string(p_.height);
    for (int c = 0; c < n; ++c) {
        sim::ComputeDevice d;
        d.name = coreName(c);
        d.kind = "diannao";
        d.peak_flops = 2.0 * 16 * 16 * p_.clock_hz;  // 16x16 MACs per cycle
        // Buffer bandwidth a 16x16 PE array consumes: 256 weights + 16 inputs of 2 B per cycle.
        d.mem_bandwidth_Bps = (16 * 16 + 16) * 2 * p_.clock_hz;
        d.mem_capacity_B = 128 * 1024 + 2 * 32 * 1024;
        d.node = c;
        topology_.devices.push_back(d);
    }
    for (auto* side : {&east_, &west_, &south_, &north_}) side->assign(static_cast<size_t>(n), -1);
    auto addLink = [&](int a, int b, std::vector<int>& side) {
        sim::Link l;
        l.name = coreName(a) + "->" + coreName(b);
        l.from = a;
        l.to = b;
        l.bandwidth_Bps = linkBandwidthBps();
        l.latency_s = (p_.router_cycles + p_.link_cycles) / p_.clock_hz;
        l.kind = "mesh";
        side[static_cast<size_t>(a)] = static_cast<int>(topology_.links.size());
        topology_.links.push_back(l);
    };
    for (int c = 0; c < n; ++c) {
        if (xOf(c) + 1 < p_.width) {
            addLink(c, c + 1, east_);
            addLink(c + 1, c, west_);
        }
        if (yOf(c) + 1 < p_.height) {
            addLink(c, c + p_.width, south_);
            addLink(c + p_.width, c, north_);
        }
    }
    if (n > 1) topology_.finalize();
}

int Mesh::distance(int a, int b) const { return std::abs(xOf(a) - xOf(b)) + std::abs(yOf(a) - yOf(b)); }

Matrix Mesh::distanceMatrix() const {
    Matrix d(static_cast<size_t>(cores()), std::vector<double>(static_cast<size_t>(cores())));
    for (int a = 0; a < cores(); ++a)
        for (int b = 0; b < cores(); ++b) d[static_cast<size_t>(a)][static_cast<size_t>(b)] = distance(a, b);
    return d;
}

int Mesh::linkId(int from, int to) const {
    if (from < 0 || to < 0 || from >= cores() || to >= cores()) return -1;
    const auto c = static_cast<size_t>(from);
    if (to == from + 1 && xOf(to) != 0) return east_[c];
    if (to == from - 1 && xOf(from) != 0) return west_[c];
    if (to == from + p_.width) return south_[c];
    if (to == from - p_.width) return north_[c];
    return -1;
}

std::vector<int> Mesh::xyRoute(int from, int to) const {
    if (from < 0 || to < 0 || from >= cores() || to >= cores())
        throw std::out_of_range("mesh route " + std::to_string(from) + " -> " + std::to_string(to) + " out of range");
    std::vector<int> r;
    int cur = from;
    while (xOf(cur) != xOf(to)) {  // X first
        const int next = cur + (xOf(to) > xOf(cur) ? 1 : -1);
        r.push_back(linkId(cur, next));
        cur = next;
    }
    while (yOf(cur) != yOf(to)) {  // then Y
        const int next = cur + (yOf(to) > yOf(cur) ? p_.width : -p_.width);
        r.push_back(linkId(cur, next));
        cur = next;
    }
    return r;
}

}  // namespace partita::l2s
