#include "core/sim/collectives.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <stdexcept>

#include "core/sim/flow_network.h"
#include "core/util/enum_names.h"

namespace partita::sim {

namespace {

using Phases = std::vector<CollectivePhase>;

constexpr EnumName<CollectiveOp> kOps[] = {{CollectiveOp::AllReduce, "all-reduce"},
                                           {CollectiveOp::ReduceScatter, "reduce-scatter"},
                                           {CollectiveOp::AllGather, "all-gather"},
                                           {CollectiveOp::AllToAll, "all-to-all"},
                                           {CollectiveOp::Broadcast, "broadcast"}};
constexpr EnumName<CollectiveAlgorithm> kAlgorithms[] = {{CollectiveAlgorithm::Ring, "ring"},
                                                         {CollectiveAlgorithm::DoubleBinaryTree, "tree"},
                                                         {CollectiveAlgorithm::HalvingDoubling, "halving-doubling"},
                                                         {CollectiveAlgorithm::Direct, "direct"},
                                                         {CollectiveAlgorithm::Hierarchical, "hierarchical"}};

[[noreturn]] void notApplicable(CollectiveOp op, CollectiveAlgorithm a, const std::string& why) {
    throw std::invalid_argument(std::string(collectiveAlgorithmName(a)) + " " + collectiveOpName(op) + ": " + why);
}

// Every member to every other is p(p - 1) transfers: refused before they are made beyond the limit.
void checkQuadratic(CollectiveOp op, CollectiveAlgorithm a, size_t p) {
    if (p * (p - 1) > kMaxCollectiveTransfers)
        notApplicable(op, a, std::to_string(p) + " members make more than " + std::to_string(kMaxCollectiveTransfers) + " transfers");
}

// One round of `group` each sending `bytes` to the member `shift` places on.
std::vector<Transfer> shifted(const std::vector<int>& group, size_t shift, double bytes) {
    std::vector<Transfer> round;
    const size_t p = group.size();
    for (size_t r = 0; r < p; ++r) round.push_back({group[r], group[(r + shift) % p], bytes});
    return round;
}

// Ring: p - 1 rounds of a 1/p chunk to the next member, once to reduce-scatter and once to all-gather.
Phases ring(CollectiveOp op, const std::vector<int>& g, double bytes) {
    const int p = static_cast<int>(g.size());
    const double chunk = bytes / p;
    const CollectivePhase rs{"reduce-scatter", p - 1, p - 1, shifted(g, 1, chunk)};
    const CollectivePhase ag{"all-gather", p - 1, p - 1, shifted(g, 1, chunk)};
    switch (op) {
        case CollectiveOp::AllReduce: return {rs, ag};
        case CollectiveOp::ReduceScatter: return {rs};
        case CollectiveOp::AllGather: return {ag};
        case CollectiveOp::AllToAll: {
            // Pairwise exchange: in round k every member sends its chunk for the member k on.
            checkQuadratic(op, CollectiveAlgorithm::Ring, g.size());
            Phases phases;
            for (int k = 1; k < p; ++k) phases.push_back({"exchange " + std::to_string(k), 1, 1, shifted(g, static_cast<size_t>(k), chunk)});
            return phases;
        }
        case CollectiveOp::Broadcast: {
            // A pipelined chain from g[0] in p chunks: p + (p - 2) rounds, the chain's links busy.
            std::vector<Transfer> round;
            for (int r = 0; r + 1 < p; ++r) round.push_back({g[static_cast<size_t>(r)], g[static_cast<size_t>(r + 1)], chunk});
            return {{"broadcast", 2 * p - 2, 2 * p - 2, round}};
        }
    }
    return {};
}

// The group's members by node (ascending node id), each node's in group order.
std::vector<std::vector<int>> byNode(const Topology& topology, const std::vector<int>& g) {
    std::map<int, std::vector<int>> nodes;
    for (int d : g) nodes[topology.devices[static_cast<size_t>(d)].node].push_back(d);
    std::vector<std::vector<int>> out;
    for (auto& [node, members] : nodes) out.push_back(std::move(members));
    return out;
}

bool evenNodes(const std::vector<std::vector<int>>& nodes) {
    for (const auto& members : nodes)
        if (members.size() != nodes.front().size()) return false;
    return nodes.size() >= 2;
}

// Two binary trees, each carrying half the buffer; reduce up and broadcast down, pipelined: α once
// per level. Over nodes (as NCCL builds them) when the group spans nodes evenly: inside a node a
// chain to its leader — the first member for one tree, the last for the other, so the two halves
// use opposite link directions — and between nodes a binary tree of leaders, the second tree's
// shifted by one so a leaf of one is inside the other. Otherwise the same two trees over members.
Phases tree(const Topology& topology, CollectiveOp op, const std::vector<int>& g, double bytes) {
    if (op != CollectiveOp::AllReduce && op != CollectiveOp::Broadcast)
        notApplicable(op, CollectiveAlgorithm::DoubleBinaryTree, "only all-reduce and broadcast");
    std::vector<std::vector<int>> nodes = byNode(topology, g);
    if (!evenNodes(nodes)) {  // each member its own "node": the trees over members
        nodes.clear();
        for (int d : g) nodes.push_back({d});
    }
    const size_t n = nodes.size(), local = nodes.front().size();
    std::vector<Transfer> up, down;
    const auto edge = [&](int child, int parent) {
        up.push_back({child, parent, bytes / 2});
        down.push_back({parent, child, bytes / 2});
    };
    for (size_t t = 0; t < 2; ++t) {
        const auto leader = [&](size_t node) { return t == 0 ? nodes[node].front() : nodes[node].back(); };
        for (const auto& m : nodes)
            for (size_t i = 1; i < local; ++i) {
                if (t == 0) edge(m[i], m[i - 1]);
                else edge(m[local - 1 - i], m[local - i]);
            }
        for (size_t i = 1; i < n; ++i) edge(leader((i + t) % n), leader(((i - 1) / 2 + t) % n));
    }
    // Levels from the deepest member to the root: its chain, then the leaders' tree.
    const int depth = static_cast<int>(local - 1) + static_cast<int>(std::bit_width(n)) - 1;
    if (op == CollectiveOp::Broadcast) return {{"broadcast", 1, depth, down}};
    return {{"reduce", 1, depth, up}, {"broadcast", 1, depth, down}};
}

// Recursive halving then doubling (p a power of two): the reduce-scatter pairs members p/2, p/4, ...
// apart, each sending half of what it still holds; the all-gather retraces it.
Phases halvingDoubling(CollectiveOp op, const std::vector<int>& g, double bytes) {
    const size_t p = g.size();
    if (!std::has_single_bit(p)) notApplicable(op, CollectiveAlgorithm::HalvingDoubling, "needs a power-of-two group, not " + std::to_string(p));
    if (op == CollectiveOp::AllToAll) notApplicable(op, CollectiveAlgorithm::HalvingDoubling, "not for all-to-all");
    const int levels = std::countr_zero(p);
    const auto exchange = [&](size_t distance, double b) {
        std::vector<Transfer> round;
        for (size_t r = 0; r < p; ++r) round.push_back({g[r], g[r ^ distance], b});
        return round;
    };
    Phases rs, ag;
    for (int k = 0; k < levels; ++k) {
        const size_t distance = p >> (k + 1);
        const double b = bytes / static_cast<double>(size_t{2} << k);
        rs.push_back({"reduce-scatter " + std::to_string(k + 1), 1, 1, exchange(distance, b)});
    }
    for (int k = levels - 1; k >= 0; --k) {
        const size_t distance = p >> (k + 1);
        const double b = bytes / static_cast<double>(size_t{2} << k);
        ag.push_back({"all-gather " + std::to_string(levels - k), 1, 1, exchange(distance, b)});
    }
    switch (op) {
        case CollectiveOp::AllReduce: rs.insert(rs.end(), ag.begin(), ag.end()); return rs;
        case CollectiveOp::ReduceScatter: return rs;
        case CollectiveOp::AllGather: return ag;
        case CollectiveOp::Broadcast: {
            // Binomial tree from g[0]: in round k the 2^k holders send the whole buffer 2^k on.
            Phases phases;
            for (int k = 0; k < levels; ++k) {
                std::vector<Transfer> round;
                for (size_t r = 0; r < (size_t{1} << k); ++r) round.push_back({g[r], g[r + (size_t{1} << k)], bytes});
                phases.push_back({"broadcast " + std::to_string(k + 1), 1, 1, round});
            }
            return phases;
        }
        case CollectiveOp::AllToAll: break;
    }
    return {};
}

// Every member to every other at once.
Phases direct(CollectiveOp op, const std::vector<int>& g, double bytes) {
    const size_t p = g.size();
    checkQuadratic(op, CollectiveAlgorithm::Direct, p);
    std::vector<Transfer> all;
    for (size_t a = 0; a < p; ++a)
        for (size_t b = 0; b < p; ++b)
            if (a != b) all.push_back({g[a], g[b], bytes / static_cast<double>(p)});
    switch (op) {
        case CollectiveOp::AllReduce: return {{"reduce-scatter", 1, 1, all}, {"all-gather", 1, 1, all}};
        case CollectiveOp::ReduceScatter: return {{"reduce-scatter", 1, 1, all}};
        case CollectiveOp::AllGather: return {{"all-gather", 1, 1, all}};
        case CollectiveOp::AllToAll: return {{"all-to-all", 1, 1, all}};
        case CollectiveOp::Broadcast: {
            std::vector<Transfer> from_root;
            for (size_t b = 1; b < p; ++b) from_root.push_back({g[0], g[b], bytes});
            return {{"broadcast", 1, 1, from_root}};
        }
    }
    return {};
}

// Reduce-scatter in every node, all-reduce among the members of equal local rank across nodes (by
// ring), all-gather in every node; the nodes' and the local ranks' rings run concurrently.
Phases hierarchical(const Topology& topology, CollectiveOp op, const std::vector<int>& g, double bytes) {
    const CollectiveAlgorithm h = CollectiveAlgorithm::Hierarchical;
    if (op != CollectiveOp::AllReduce && op != CollectiveOp::ReduceScatter && op != CollectiveOp::AllGather)
        notApplicable(op, h, "only all-reduce, reduce-scatter and all-gather");
    const std::vector<std::vector<int>> by_node = byNode(topology, g);
    const size_t nodes = by_node.size(), local = by_node.front().size();
    if (nodes < 2) notApplicable(op, h, "the group sits on one node");
    for (const auto& members : by_node)
        if (members.size() != local)
            notApplicable(op, h, "node " + std::to_string(topology.devices[static_cast<size_t>(members.front())].node) + " has " +
                                     std::to_string(members.size()) + " members of the group, another " + std::to_string(local));
    const auto intra = [&](const char* name) {
        CollectivePhase phase{std::string("intra-node ") + name, static_cast<int>(local) - 1, static_cast<int>(local) - 1, {}};
        for (const auto& members : by_node)
            for (const Transfer& t : shifted(members, 1, bytes / static_cast<double>(local))) phase.round.push_back(t);
        return phase;
    };
    const auto inter = [&](const char* name, int steps) {
        CollectivePhase phase{std::string("inter-node ") + name, steps, steps, {}};
        const double chunk = bytes / static_cast<double>(local * nodes);
        for (size_t rank = 0; rank < local; ++rank) {
            std::vector<int> across;
            for (const auto& members : by_node) across.push_back(members[rank]);
            for (const Transfer& t : shifted(across, 1, chunk)) phase.round.push_back(t);
        }
        return phase;
    };
    const int n = static_cast<int>(nodes);
    Phases phases;
    const bool intra_needed = local > 1;
    if (op != CollectiveOp::AllGather && intra_needed) phases.push_back(intra("reduce-scatter"));
    if (op == CollectiveOp::AllReduce) {
        phases.push_back(inter("reduce-scatter", n - 1));
        phases.push_back(inter("all-gather", n - 1));
    } else {
        phases.push_back(inter(op == CollectiveOp::ReduceScatter ? "reduce-scatter" : "all-gather", n - 1));
    }
    if (op != CollectiveOp::ReduceScatter && intra_needed) phases.push_back(intra("all-gather"));
    return phases;
}

void checkGroup(const Topology& topology, const std::vector<int>& group, double bytes) {
    if (!topology.finalized()) throw std::invalid_argument("collective: the topology is not finalized");
    if (!(bytes >= 0) || bytes == std::numeric_limits<double>::infinity())
        throw std::invalid_argument("collective: bytes must be finite and not negative");
    std::vector<char> seen(static_cast<size_t>(topology.deviceCount()), 0);
    for (int d : group) {
        if (d < 0 || d >= topology.deviceCount())
            throw std::invalid_argument("collective: device " + std::to_string(d) + " is not in the topology");
        if (seen[static_cast<size_t>(d)]++) throw std::invalid_argument("collective: device " + std::to_string(d) + " is twice in the group");
    }
}

}  // namespace

const char* collectiveOpName(CollectiveOp op) { return enumName(kOps, op); }
const char* collectiveAlgorithmName(CollectiveAlgorithm a) { return enumName(kAlgorithms, a); }
CollectiveOp parseCollectiveOp(const std::string& s) { return parseEnumOrThrow(kOps, s, "collective"); }
CollectiveAlgorithm parseCollectiveAlgorithm(const std::string& s) {
    return parseEnumOrThrow(kAlgorithms, s, "collective algorithm");
}

std::vector<CollectivePhase> collectivePhases(const Topology& topology, CollectiveOp op, CollectiveAlgorithm algorithm,
                                              const std::vector<int>& group, double bytes) {
    checkGroup(topology, group, bytes);
    if (group.size() < 2) return {};
    switch (algorithm) {
        case CollectiveAlgorithm::Ring: return ring(op, group, bytes);
        case CollectiveAlgorithm::DoubleBinaryTree: return tree(topology, op, group, bytes);
        case CollectiveAlgorithm::HalvingDoubling: return halvingDoubling(op, group, bytes);
        case CollectiveAlgorithm::Direct: return direct(op, group, bytes);
        case CollectiveAlgorithm::Hierarchical: return hierarchical(topology, op, group, bytes);
    }
    return {};
}

namespace {

// Each phase's α (its slowest route's latency per latency round) and β (its round's transfers under
// max-min sharing, per step).
std::vector<PhaseTime> phaseTimes(const Topology& topology, const std::vector<CollectivePhase>& phases) {
    std::vector<double> capacity;
    capacity.reserve(topology.links.size());
    for (const Link& l : topology.links) capacity.push_back(l.bandwidth_Bps);
    std::vector<Flow> flows;
    std::vector<PhaseTime> times;
    for (const CollectivePhase& phase : phases) {
        flows.resize(phase.round.size());
        double alpha = 0;
        for (size_t i = 0; i < phase.round.size(); ++i) {
            const Transfer& t = phase.round[i];
            topology.route(t.from, t.to, flows[i].links);
            flows[i].bytes = t.bytes;
            double latency = 0;
            for (int l : flows[i].links) latency += topology.links[static_cast<size_t>(l)].latency_s;
            alpha = std::max(alpha, latency);
        }
        double beta = 0;
        for (double finish : maxMinFinishTimes(capacity, flows)) beta = std::max(beta, finish);
        times.push_back({phase.name, phase.steps, phase.latency_rounds * alpha, phase.steps * beta});
    }
    return times;
}

}  // namespace

CollectiveTime collectiveTime(const Topology& topology, CollectiveOp op, CollectiveAlgorithm algorithm,
                              const std::vector<int>& group, double bytes) {
    CollectiveTime result;
    result.algorithm = algorithm;
    result.phases = phaseTimes(topology, collectivePhases(topology, op, algorithm, group, bytes));
    for (const PhaseTime& p : result.phases) result.total_s += p.total_s();
    return result;
}

CollectiveTime fastestCollective(const Topology& topology, CollectiveOp op, const std::vector<int>& group, double bytes) {
    checkGroup(topology, group, bytes);
    CollectiveTime best;
    best.total_s = std::numeric_limits<double>::infinity();
    for (CollectiveAlgorithm a : kCollectiveAlgorithms) {
        try {
            CollectiveTime t = collectiveTime(topology, op, a, group, bytes);
            if (t.total_s < best.total_s) best = std::move(t);
        } catch (const std::invalid_argument&) {
            // This algorithm does not apply to the group or the operation: the others are tried.
        }
    }
    return best;  // ring applies to every group and operation, so one always does
}

std::vector<CollectiveLine> collectiveLines(const Topology& topology, CollectiveOp op, const std::vector<int>& group) {
    checkGroup(topology, group, 1.0);
    std::vector<CollectiveLine> lines;
    for (CollectiveAlgorithm a : kCollectiveAlgorithms) {
        std::vector<CollectivePhase> phases;
        try {
            phases = collectivePhases(topology, op, a, group, 1.0);
        } catch (const std::invalid_argument&) {
            continue;  // does not apply to this group or operation
        }
        // At S = 1 byte the β part is the seconds per byte.
        CollectiveLine line{a, 0, 0, nullptr, nullptr, 0};
        for (const PhaseTime& p : phaseTimes(topology, phases)) {
            line.latency_s += p.latency_s;
            line.seconds_per_byte += p.transfer_s;
        }
        std::map<std::pair<int, int>, double> pairs;
        for (const CollectivePhase& phase : phases)
            for (const Transfer& t : phase.round) {
                pairs[{t.from, t.to}] += t.bytes * phase.steps;
                line.largest_transfer_per_byte = std::max(line.largest_transfer_per_byte, t.bytes);
            }
        std::map<int, size_t> member;
        for (size_t i = 0; i < group.size(); ++i) member[group[i]] = i;
        auto traffic = std::make_shared<std::vector<Transfer>>();
        auto sent = std::make_shared<std::vector<double>>(group.size(), 0.0);
        traffic->reserve(pairs.size());
        for (const auto& [ends, bytes] : pairs) {
            traffic->push_back({ends.first, ends.second, bytes});
            (*sent)[member[ends.first]] += bytes;
        }
        line.traffic_per_byte = std::move(traffic);
        line.sent_per_byte = std::move(sent);
        lines.push_back(std::move(line));
    }
    return lines;
}

const CollectiveLine& fastestLine(const std::vector<CollectiveLine>& lines, double bytes) {
    size_t best = 0;
    for (size_t i = 1; i < lines.size(); ++i)
        if (lines[i].time(bytes) < lines[best].time(bytes)) best = i;
    return lines[best];
}

}  // namespace partita::sim
