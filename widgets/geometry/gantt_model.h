#pragma once
// What the Gantt view of a simulated run shows, without Qt and without the
// task graph: one lane per compute device and per link, grouped by node and
// by link kind; each lane's bars sorted by start; the critical path; and the
// texts (lane labels, tooltips, legend). Built once per run, shared read-only.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/topology/topology.h"
#include "core/sim/memory.h"
#include "core/sim/trace.h"
#include "widgets/geometry/palette.h"
#include "widgets/geometry/timeline.h"

namespace partita::view {

struct GanttResource {
    std::string name;   // lane label
    std::string group;  // "node 0", "nvlink", ...
    bool link = false;
    bool stream = false;  // a device's collective stream ("n0.gpu0 comm")
};

// Plain values a worker can build once: what a stored simulation keeps, plus
// the critical path (which needs the graph, so it is computed beforehand).
struct GanttInput {
    std::vector<GanttResource> resources;      // by resource id: compute devices, then links
    std::vector<std::string> op_names;         // TimelineRecord::op -> layer name
    std::vector<sim::TimelineRecord> records;  // sim::timeline(): by resource, then start
    std::vector<std::uint64_t> critical_path;  // task ids, sim::criticalPath()
    double makespan = 0;                       // seconds
    std::string memory_note;                   // sim::memoryNote(): "" when the strategy fits
    std::vector<std::string> memory_over;      // by device: "2,089.8 GB of 80 GB" when over capacity, else ""
    bool overMemory(int resource) const {
        return resource >= 0 && resource < static_cast<int>(memory_over.size()) &&
               !memory_over[static_cast<size_t>(resource)].empty();
    }
};

// Marks the devices that do not fit and sets the note (docs/methods/flexflow.md#memory-per-device).
void setGanttMemory(GanttInput& input, const sim::MemoryReport& memory, const sim::Topology& topology);

// Devices grouped by node ("node 0"), links by kind; a link's name loses its
// kind prefix (the group says it) and shows "->" as an arrow. With `streams`, each device's
// collective stream ("n0.gpu0 comm") follows, in its node's group after the node's devices.
std::vector<GanttResource> ganttResources(const sim::Topology& topology, bool streams = false);
GanttInput ganttInput(const sim::TaskGraph& graph, const sim::SimResult& result, const sim::Topology& topology);

enum class GanttColouring { Phase, Layer };

// Okabe-Ito colours: phases have fixed ones, layers cycle through the seven
// non-black ones (darker on odd rounds). Key -1 (merged bars of different colours) is grey.
Rgb ganttColour(GanttColouring colouring, int key);
std::string phaseLabel(sim::Phase phase);  // "forward", "backward", "weight sync", "transfer"
std::string timeText(double seconds);      // "56.7 µs" (4 significant digits)
std::string bytesText(double bytes);       // "1.2 MB" (10^6 B)

struct GanttLane {
    std::string name;
    int resource = 0;
    bool link = false;
};

struct LegendItem {
    int key = 0;  // colour key under the current colouring
    std::string label;
};

class GanttModel {
public:
    GanttModel() = default;
    // hide_idle_links drops links that carry nothing (most of a cluster's links
    // for data parallelism) and groups left empty.
    explicit GanttModel(std::shared_ptr<const GanttInput> input, bool hide_idle_links = false);

    bool empty() const { return lanes_.empty(); }
    const GanttInput* input() const { return input_.get(); }
    const std::vector<GanttLane>& lanes() const { return lanes_; }
    int laneCount() const { return static_cast<int>(lanes_.size()); }
    // Groups of consecutive lanes, all expanded; the view keeps its own collapse state.
    const std::vector<LaneGroup>& groups() const { return groups_; }
    bool groupIsLinks(int group) const { return group_links_.at(static_cast<size_t>(group)); }
    // How many of a group's lanes are collective streams (the rest are devices or links).
    int groupStreams(int group) const { return group_streams_.at(static_cast<size_t>(group)); }
    std::span<const Bar> bars(int lane) const { return bars_.at(static_cast<size_t>(lane)); }
    const sim::TimelineRecord& record(int lane, int index) const;
    size_t barCount() const;
    double makespan() const { return input_ ? input_->makespan : 0; }

    // Colour keys of every bar follow this (phase index or operator id).
    void setColouring(GanttColouring colouring);
    GanttColouring colouring() const { return colouring_; }
    // Legend entries for the bars present: the phases, or the layers in operator order.
    std::vector<LegendItem> legend() const;

    bool critical(int lane, int index) const;
    // The critical path as (lane, bar index), in time order; tasks on hidden lanes are left out.
    const std::vector<std::pair<int, int>>& criticalBars() const { return critical_bars_; }
    // Does bars [first, first + count) of the lane hold a critical bar, or one of operator `op`?
    bool anyCritical(int lane, int first, int count) const;
    bool anyOfOperator(int lane, int first, int count, int op) const;

    // The bar of the lane at time t: the one containing t, else the nearest within slack.
    std::optional<int> barAt(int lane, double t, double slack) const;
    std::string opName(int op) const;
    // Layer, phase and part; task id and lane; start, duration, end; bytes when it moves data.
    std::string toolTip(int lane, int index) const;

private:
    std::shared_ptr<const GanttInput> input_;
    std::vector<GanttLane> lanes_;
    std::vector<LaneGroup> groups_;
    std::vector<bool> group_links_;
    std::vector<int> group_streams_;
    std::vector<std::vector<Bar>> bars_;
    std::vector<std::vector<int>> record_;         // lane, bar -> index into input_->records
    std::vector<std::vector<std::uint8_t>> critical_;
    std::vector<std::pair<int, int>> critical_bars_;
    GanttColouring colouring_ = GanttColouring::Phase;
};

}  // namespace partita::view
