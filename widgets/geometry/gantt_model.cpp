#include "widgets/geometry/gantt_model.h"

#include <algorithm>
#include <unordered_map>

#include "core/sim/critical_path.h"
#include "core/util/format.h"

namespace partita::view {

std::vector<GanttResource> ganttResources(const sim::Topology& topology, bool streams) {
    std::vector<GanttResource> out;
    for (const auto& d : topology.devices) out.push_back({d.name, "node " + std::to_string(d.node), false});
    for (const auto& l : topology.links) {
        std::string name = l.name;
        if (name.rfind(l.kind + " ", 0) == 0) name.erase(0, l.kind.size() + 1);
        if (const auto arrow = name.find("->"); arrow != std::string::npos) name.replace(arrow, 2, "\u2192");
        out.push_back({name, l.kind, true});
    }
    // A device's collective stream sits in its node's group, under the node's devices: the
    // all-reduces show beside the compute they overlap.
    if (streams)
        for (const auto& d : topology.devices)
            out.push_back({d.name + " comm", "node " + std::to_string(d.node), false, true});
    return out;
}

GanttInput ganttInput(const sim::TaskGraph& graph, const sim::SimResult& result, const sim::Topology& topology) {
    GanttInput in;
    in.resources = ganttResources(topology, graph.resourceCount() > graph.computeDevices() + graph.linkCount());
    in.resources.resize(static_cast<size_t>(graph.resourceCount()));  // the graph is authoritative
    for (int r = 0; r < graph.resourceCount(); ++r) {
        auto& res = in.resources[static_cast<size_t>(r)];
        if (res.name.empty())
            res = {graph.resourceName(r), graph.isLink(r) ? "links" : graph.isStream(r) ? "collective streams" : "devices",
                   graph.isLink(r), graph.isStream(r)};
    }
    in.op_names = graph.opNames();
    in.records = sim::timeline(graph, result);
    in.critical_path = sim::criticalPath(graph, result);
    in.makespan = result.makespan;
    return in;
}

void setGanttMemory(GanttInput& input, const sim::MemoryReport& memory, const sim::Topology& topology) {
    input.memory_note = sim::memoryNote(memory, topology);
    input.memory_over.clear();
    for (const sim::DeviceMemory& m : memory.devices)
        input.memory_over.push_back(m.overshoot() > 0 ? sim::memoryText(m.total()) + " of " + sim::memoryText(m.capacity)
                                                      : "");
}

Rgb ganttColour(GanttColouring colouring, int key) {
    if (key < 0) return {150, 150, 150};
    if (colouring == GanttColouring::Layer) {
        // Every other round of the seven colours is darker, so layers 0 and 7 differ (faded bars go lighter).
        const Rgb c = okabeIto(1 + key % 7);
        if ((key / 7) % 2 == 0) return c;
        auto dark = [](std::uint8_t v) { return static_cast<std::uint8_t>(v * 3 / 5); };
        return {dark(c.r), dark(c.g), dark(c.b)};
    }
    static const int phase_colour[] = {5, 1, 7, 3};  // forward blue, backward orange, sync purple, transfer green
    return okabeIto(phase_colour[key % 4]);
}

std::string phaseLabel(sim::Phase phase) { return phase == sim::Phase::Sync ? "weight sync" : sim::phaseName(phase); }

std::string timeText(double seconds) {
    std::string s = withPrefix(seconds, "s");
    if (s.size() >= 2 && s.compare(s.size() - 2, 2, "us") == 0) s.replace(s.size() - 2, 1, "\u00b5");
    return s;
}

std::string bytesText(double bytes) { return withPrefix(bytes, "B"); }

GanttModel::GanttModel(std::shared_ptr<const GanttInput> input, bool hide_idle_links) : input_(std::move(input)) {
    if (!input_) return;
    const auto& res = input_->resources;
    std::vector<int> count(res.size(), 0);
    for (const auto& r : input_->records)
        if (r.resource >= 0 && r.resource < static_cast<int>(res.size())) ++count[static_cast<size_t>(r.resource)];
    // Groups in order of first appearance, compute devices before links.
    std::vector<std::pair<std::string, bool>> order;
    for (bool links : {false, true})
        for (const auto& r : res)
            if (r.link == links && std::find(order.begin(), order.end(), std::pair{r.group, links}) == order.end())
                order.emplace_back(r.group, links);
    std::vector<int> lane_of(res.size(), -1);
    for (const auto& [name, links] : order) {
        LaneGroup g{name, laneCount(), 0, false};
        int streams = 0;
        for (size_t r = 0; r < res.size(); ++r) {
            if (res[r].link != links || res[r].group != name || (hide_idle_links && links && count[r] == 0)) continue;
            lane_of[r] = laneCount();
            lanes_.push_back({res[r].name, static_cast<int>(r), links});
            ++g.lane_count;
            streams += res[r].stream ? 1 : 0;
        }
        if (g.lane_count == 0) continue;
        groups_.push_back(g);
        group_links_.push_back(links);
        group_streams_.push_back(streams);
    }
    bars_.resize(lanes_.size());
    record_.resize(lanes_.size());
    critical_.resize(lanes_.size());
    std::unordered_map<std::uint64_t, std::pair<int, int>> where;
    for (size_t i = 0; i < input_->records.size(); ++i) {
        const auto& r = input_->records[i];
        if (r.resource < 0 || r.resource >= static_cast<int>(res.size())) continue;
        const int lane = lane_of[static_cast<size_t>(r.resource)];
        if (lane < 0) continue;
        auto& bars = bars_[static_cast<size_t>(lane)];
        where[r.task] = {lane, static_cast<int>(bars.size())};
        bars.push_back({r.start, r.end, lane, 0});
        record_[static_cast<size_t>(lane)].push_back(static_cast<int>(i));
    }
    for (size_t l = 0; l < lanes_.size(); ++l) critical_[l].assign(bars_[l].size(), 0);
    for (std::uint64_t id : input_->critical_path)
        if (const auto it = where.find(id); it != where.end()) {
            critical_bars_.push_back(it->second);
            critical_[static_cast<size_t>(it->second.first)][static_cast<size_t>(it->second.second)] = 1;
        }
    setColouring(colouring_);
}

const sim::TimelineRecord& GanttModel::record(int lane, int index) const {
    return input_->records[static_cast<size_t>(record_.at(static_cast<size_t>(lane)).at(static_cast<size_t>(index)))];
}

size_t GanttModel::barCount() const {
    size_t n = 0;
    for (const auto& b : bars_) n += b.size();
    return n;
}

void GanttModel::setColouring(GanttColouring colouring) {
    colouring_ = colouring;
    for (size_t l = 0; l < bars_.size(); ++l)
        for (size_t i = 0; i < bars_[l].size(); ++i) {
            const auto& r = record(static_cast<int>(l), static_cast<int>(i));
            bars_[l][i].color_key = colouring == GanttColouring::Phase ? static_cast<int>(r.phase) : std::max(r.op, 0);
        }
}

std::vector<LegendItem> GanttModel::legend() const {
    std::vector<bool> seen(colouring_ == GanttColouring::Phase ? 4 : std::max<size_t>(1, input_ ? input_->op_names.size() : 1));
    for (const auto& lane : bars_)
        for (const auto& b : lane)
            if (b.color_key >= 0 && b.color_key < static_cast<int>(seen.size())) seen[static_cast<size_t>(b.color_key)] = true;
    std::vector<LegendItem> out;
    for (int k = 0; k < static_cast<int>(seen.size()); ++k)
        if (seen[static_cast<size_t>(k)])
            out.push_back({k, colouring_ == GanttColouring::Phase ? phaseLabel(static_cast<sim::Phase>(k)) : opName(k)});
    return out;
}

bool GanttModel::critical(int lane, int index) const {
    return critical_.at(static_cast<size_t>(lane)).at(static_cast<size_t>(index)) != 0;
}

bool GanttModel::anyCritical(int lane, int first, int count) const {
    const auto& c = critical_.at(static_cast<size_t>(lane));
    return std::any_of(c.begin() + first, c.begin() + first + count, [](std::uint8_t v) { return v != 0; });
}

bool GanttModel::anyOfOperator(int lane, int first, int count, int op) const {
    for (int i = first; i < first + count; ++i)
        if (record(lane, i).op == op) return true;
    return false;
}

std::optional<int> GanttModel::barAt(int lane, double t, double slack) const {
    const auto bars = this->bars(lane);
    if (const auto exact = view::barAt(bars, t, 0)) return exact;
    const auto near = view::barAt(bars, t, slack);
    // view::barAt returns the first bar ending after t - slack; its right neighbour may be closer.
    if (near && *near + 1 < static_cast<int>(bars.size())) {
        const Bar& a = bars[static_cast<size_t>(*near)];
        const Bar& b = bars[static_cast<size_t>(*near + 1)];
        if (b.start <= t + slack && b.start - t < t - a.end) return *near + 1;
    }
    return near;
}

std::string GanttModel::opName(int op) const {
    if (!input_ || op < 0 || op >= static_cast<int>(input_->op_names.size())) return "-";
    return input_->op_names[static_cast<size_t>(op)];
}

std::string GanttModel::toolTip(int lane, int index) const {
    const auto& r = record(lane, index);
    std::string s = "Layer " + opName(r.op) + " \u2014 " + phaseLabel(r.phase) + " (part " + std::to_string(r.part) + ")";
    s += "\nOn " + lanes_.at(static_cast<size_t>(lane)).name;  // names, not the internal task id
    s += "\nStart " + timeText(r.start) + ", duration " + timeText(r.end - r.start) + ", end " + timeText(r.end);
    if (r.bytes > 0) s += "\nBytes " + bytesText(r.bytes);
    if (critical(lane, index)) s += "\nOn the critical path";
    return s;
}

}  // namespace partita::view
