#include "core/sim/trace.h"

#include <algorithm>
#include <cstdio>

namespace partita::sim {

std::vector<TimelineRecord> timeline(const TaskGraph& graph, const SimResult& result) {
    std::vector<TimelineRecord> out;
    out.reserve(graph.taskCount());
    for (size_t t = 0; t < graph.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (!graph.alive(ti)) continue;
        const TaskInfo& info = graph.info(ti);
        out.push_back({graph.resource(ti), graph.id(ti), info.op, info.phase, info.part, result.start[t], result.end[t],
                       info.bytes});
    }
    std::sort(out.begin(), out.end(), [](const TimelineRecord& a, const TimelineRecord& b) {
        if (a.resource != b.resource) return a.resource < b.resource;
        if (a.start != b.start) return a.start < b.start;
        if (a.end != b.end) return a.end < b.end;  // a zero-time join before what starts as it ends
        return a.task < b.task;
    });
    return out;
}

std::vector<TrafficPair> trafficPairs(const TaskGraph& graph) {
    std::vector<TrafficPair> messages;
    for (size_t t = 0; t < graph.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (!graph.alive(ti)) continue;
        const TaskInfo& info = graph.info(ti);
        if (info.first_hop) messages.push_back({info.from, info.to, info.bytes});
    }
    // Collectives are not per-message tasks: their pairs come from each algorithm's traffic.
    for (size_t g = 0; g < graph.groupCount(); ++g)
        for (const CollectiveTraffic& c : graph.group(static_cast<int>(g)).collectives)
            for (const Transfer& t : *c.per_byte) messages.push_back({t.from, t.to, t.bytes * c.bytes});
    // Stable: a pair's messages are summed in task order, as the matrix sums them.
    std::stable_sort(messages.begin(), messages.end(), [](const TrafficPair& a, const TrafficPair& b) {
        return a.from != b.from ? a.from < b.from : a.to < b.to;
    });
    std::vector<TrafficPair> pairs;
    for (const TrafficPair& m : messages) {
        if (pairs.empty() || pairs.back().from != m.from || pairs.back().to != m.to)
            pairs.push_back({m.from, m.to, 0.0});
        pairs.back().bytes += m.bytes;
    }
    return pairs;
}

std::vector<std::vector<double>> trafficMatrix(const TaskGraph& graph) {
    const auto d = static_cast<size_t>(graph.computeDevices());
    std::vector<std::vector<double>> m(d, std::vector<double>(d, 0.0));
    for (const TrafficPair& p : trafficPairs(graph)) m[static_cast<size_t>(p.from)][static_cast<size_t>(p.to)] = p.bytes;
    return m;
}

namespace {

// Bytes the collectives put on each link, their transfers routed (a pass over every transfer: at
// thousands of devices an exchange has a million).
std::vector<double> collectiveLinkBytes(const TaskGraph& graph, const Topology& topology) {
    std::vector<double> bytes(topology.links.size(), 0.0);
    std::vector<int> route;
    for (size_t g = 0; g < graph.groupCount(); ++g)
        for (const CollectiveTraffic& c : graph.group(static_cast<int>(g)).collectives)
            for (const Transfer& t : *c.per_byte) {
                topology.route(t.from, t.to, route);
                for (int l : route) bytes[static_cast<size_t>(l)] += t.bytes * c.bytes;
            }
    return bytes;
}

// Adds every message hop's bytes to `collective` (by link).
std::vector<double> withMessageBytes(const TaskGraph& graph, std::vector<double> bytes) {
    for (size_t t = 0; t < graph.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (graph.alive(ti) && graph.isLink(graph.resource(ti)))
            bytes[static_cast<size_t>(graph.resource(ti) - graph.computeDevices())] += graph.info(ti).bytes;
    }
    return bytes;
}

}  // namespace

std::vector<double> linkBytes(const TaskGraph& graph, const Topology& topology) {
    return withMessageBytes(graph, collectiveLinkBytes(graph, topology));
}

Utilisation utilisation(const TaskGraph& graph, const SimResult& result, const Topology* topology) {
    Utilisation u;
    u.busy_s.assign(static_cast<size_t>(graph.resourceCount()), 0.0);
    for (size_t t = 0; t < graph.slotCount(); ++t)
        if (graph.alive(static_cast<int>(t)))
            u.busy_s[static_cast<size_t>(graph.resource(static_cast<int>(t)))] += result.end[t] - result.start[t];
    // A collective's bytes keep each link of their routes busy at its full bandwidth.
    if (topology) {
        const std::vector<double> collective = collectiveLinkBytes(graph, *topology);
        for (size_t l = 0; l < collective.size(); ++l)
            u.busy_s[static_cast<size_t>(graph.computeDevices()) + l] +=
                collective[l] / topology->links[l].bandwidth_Bps;
        u.link_bytes = withMessageBytes(graph, collective);
    }
    for (double b : u.busy_s) u.fraction.push_back(result.makespan > 0 ? b / result.makespan : 0.0);
    return u;
}

namespace {

std::string opName(const TaskGraph& graph, int op) {
    return op >= 0 && op < static_cast<int>(graph.opNames().size()) ? graph.opNames()[static_cast<size_t>(op)] : "-";
}

std::string taskLabel(const TaskGraph& graph, int t) {
    const TaskInfo& info = graph.info(t);
    if (info.part < 0) return opName(graph, info.op) + " " + phaseName(info.phase) + " join";
    return opName(graph, info.op) + " " + phaseName(info.phase) + " #" + std::to_string(info.part);
}

// Chrome's process and thread of a resource.
std::pair<int, int> track(const TaskGraph& graph, int resource) {
    if (graph.isStream(resource)) return {3, resource - graph.computeDevices() - graph.linkCount()};
    return graph.isLink(resource) ? std::pair{2, resource - graph.computeDevices()} : std::pair{1, resource};
}

}  // namespace

Json chromeTrace(const TaskGraph& graph, const SimResult& result) {
    Json events = Json::array();
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 1}, {"args", {{"name", "compute devices"}}}});
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 2}, {"args", {{"name", "links"}}}});
    if (graph.resourceCount() > graph.computeDevices() + graph.linkCount())
        events.push_back(
            {{"ph", "M"}, {"name", "process_name"}, {"pid", 3}, {"args", {{"name", "collective streams"}}}});
    for (int r = 0; r < graph.resourceCount(); ++r) {
        const auto [pid, tid] = track(graph, r);
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", pid},
                          {"tid", tid},
                          {"args", {{"name", graph.resourceName(r)}}}});
        events.push_back(
            {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
    }
    for (const TimelineRecord& rec : timeline(graph, result)) {
        const auto [pid, tid] = track(graph, rec.resource);
        Json args{
            {"op", opName(graph, rec.op)}, {"phase", phaseName(rec.phase)}, {"part", rec.part}, {"task", rec.task}};
        if (rec.bytes > 0) args["bytes"] = rec.bytes;
        events.push_back({{"ph", "X"},
                          {"name", opName(graph, rec.op) + " " + phaseName(rec.phase)},
                          {"cat", phaseName(rec.phase)},
                          {"pid", pid},
                          {"tid", tid},
                          {"ts", rec.start * 1e6},
                          {"dur", (rec.end - rec.start) * 1e6},
                          {"args", args}});
    }
    return Json{{"traceEvents", events},
                {"displayTimeUnit", "ms"},
                {"otherData", {{"makespan_s", result.makespan}, {"tasks", graph.taskCount()}}}};
}

std::string chromeTraceJson(const TaskGraph& graph, const SimResult& result) {
    return chromeTrace(graph, result).dump() + "\n";
}

std::string taskGraphDot(const TaskGraph& graph, const SimResult* result) {
    auto quote = [](const std::string& s) {
        std::string q = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') q += '\\';
            q += c;
        }
        return q + "\"";
    };
    std::string out = "digraph tasks {\n  rankdir=LR;\n  node [shape=box, fontsize=10];\n";
    char times[96];
    for (size_t t = 0; t < graph.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (!graph.alive(ti)) continue;
        std::string label = taskLabel(graph, ti) + "\\n" + graph.resourceName(graph.resource(ti));
        if (result) {
            std::snprintf(times, sizeof times, "%.6f - %.6f ms", result->start[t] * 1e3, result->end[t] * 1e3);
            label += std::string("\\n") + times;
        }
        // Escape the label but keep the \n line breaks DOT understands.
        std::string q = quote(label);
        for (size_t p = 0; (p = q.find("\\\\n", p)) != std::string::npos;) q.replace(p, 3, "\\n");
        out += "  t" + std::to_string(graph.id(ti)) + " [label=" + q + "];\n";
    }
    for (size_t t = 0; t < graph.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (!graph.alive(ti)) continue;
        graph.forEachSuccessor(ti, [&](int s) {
            out += "  t" + std::to_string(graph.id(ti)) + " -> t" + std::to_string(graph.id(s)) + ";\n";
        });
    }
    return out + "}\n";
}

}  // namespace partita::sim
