#pragma once
// The task graph (docs/methods/flexflow.md#the-task-graph,
// docs/methods/flexflow.md#partitas-decisions): compute tasks
// (forward, backward, the parameter-server update) on compute devices, and
// transfer tasks (activations, gradients) on links, one per hop, and weight
// synchronisation either per hop too (FlexFlow's model) or as collectives: one
// task per member on its device's collective stream, of the algorithm's time
// (docs/methods/flexflow.md#collectives-in-the-simulator). Edges are ordering
// constraints only.
//
// Storage is flat: tasks and edges are slots in arrays with free lists, and
// each task keeps intrusive doubly linked in/out edge lists, so the delta
// simulator can replace one operator's tasks without touching the others and
// without a heap allocation per task. Tasks and edges are created in groups
// (an operator's forward or backward computations, the transfers of one
// tensor in one direction, an operator's weight sync); a group is the unit the
// delta simulator removes and rebuilds.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/network.h"
#include "core/sim/collectives.h"
#include "core/sim/soap.h"
#include "core/topology/topology.h"
#include "core/util/progress.h"

namespace partita::sim {

class CostTable;
struct KernelCurves;

enum class Phase : std::uint8_t { Forward, Backward, Sync, Transfer };
const char* phaseName(Phase phase);  // "forward", "backward", "sync", "transfer"

enum class SyncMode { Ring, ParameterServer };
const char* syncModeName(SyncMode mode);                 // "ring", "ps"
SyncMode parseSyncMode(const std::string& name);         // throws std::invalid_argument naming the choices
// How a ring synchronisation is simulated: as per-hop point-to-point tasks (FlexFlow's model, which
// grows as p^2 per weight), or as a collective priced by the fastest algorithm over the topology.
enum class CollectiveModel : std::uint8_t { PerHop, Algorithm };
const char* collectiveModelName(CollectiveModel model);          // "per-hop", "algorithm"
CollectiveModel parseCollectiveModel(const std::string& name);   // throws std::invalid_argument

struct SimOptions {
    bool training = true;                       // false: inference, forward tasks only
    SyncMode sync = SyncMode::Ring;             // weight synchronisation among replicas
    CollectiveModel collectives = CollectiveModel::Algorithm;  // how a ring sync is simulated
    // With the algorithm model: this algorithm wherever it applies to a group (the fastest that does
    // elsewhere); unset, the fastest for each group and size, as NCCL's tuner picks.
    std::optional<CollectiveAlgorithm> collective_algorithm;
    double element_bytes = 4;                   // fp32
    // Bytes per gradient element in the weights' synchronisation; 0: element_bytes. Mixed-precision
    // training reduces gradients in fp32 (an LLM profile's grad_reduce, docs/methods/flexflow.md#kernel-curves).
    double gradient_bytes = 0;
    // Optimizer state per weight, in weight copies (docs/methods/flexflow.md#memory-per-device):
    // 0 plain SGD, 1 SGD with momentum (the default), 2 Adam. Memory only: no time is charged.
    int optimizer_states = 1;
    bool allow_shared_devices = false;          // may two tasks of one operator share a device?
    std::shared_ptr<const CostTable> measured;  // optional measured compute times
    // Optional: price compute with an LLM hardware profile's kernel curves instead of each device's
    // peak and efficiency (docs/methods/flexflow.md#kernel-curves); a measured entry still wins.
    std::shared_ptr<const KernelCurves> kernels;
};

struct TaskInfo {
    double bytes = 0;        // bytes moved by a transfer (0 for compute)
    int op = -1;             // the operator (for transfers: the one receiving the data)
    int part = 0;            // piece index (compute), consumer piece (transfer), ring step (sync)
    int from = -1, to = -1;  // compute devices at the ends of the transfer's message
    Phase phase = Phase::Forward;
    bool first_hop = false;  // first hop of its message (traffic counts messages once)
};

// Bytes a collective moves, as its line's traffic per byte times its size (shared, not copied).
struct CollectiveTraffic {
    std::shared_ptr<const std::vector<Transfer>> per_byte;
    double bytes = 0;
    double largest_transfer = 0;  // bytes: what a member must hold in flight at once
};

struct TaskGroup {
    std::vector<int> tasks;
    std::vector<int> edges;
    std::vector<CollectiveTraffic> collectives;  // a sync group's collectives (the algorithm model)
};

class TaskGraph {
public:
    // Resources: compute devices 0..D-1, then link l is resource D + l, then the collective stream of
    // device d is resource D + L + d (`names` in that order).
    void setResources(int compute_devices, int links, std::vector<std::string> names);
    void setOperators(std::vector<std::string> names) { op_names_ = std::move(names); }
    void setGroupCount(size_t count);
    // Empties the graph but keeps its memory, for rebuilding (full simulation in a loop).
    void clear();
    void reserve(size_t tasks, size_t edges);

    int computeDevices() const { return devices_; }
    int resourceCount() const { return static_cast<int>(resource_names_.size()); }
    int linkCount() const { return links_; }
    bool isLink(int resource) const { return resource >= devices_ && resource < devices_ + links_; }
    bool isStream(int resource) const { return resource >= devices_ + links_; }
    int streamOf(int device) const { return devices_ + links_ + device; }
    const std::string& resourceName(int r) const { return resource_names_[static_cast<size_t>(r)]; }
    const std::vector<std::string>& opNames() const { return op_names_; }

    size_t slotCount() const { return nodes_.size(); }
    size_t taskCount() const { return alive_count_; }
    size_t edgeCount() const { return edge_count_; }
    bool alive(int t) const { return alive_[static_cast<size_t>(t)] != 0; }
    double exe(int t) const { return nodes_[static_cast<size_t>(t)].exe; }
    int resource(int t) const { return nodes_[static_cast<size_t>(t)].res; }
    // The stable task id: topological (every edge goes from a smaller id to a
    // larger one) and independent of slot reuse; the simulator breaks ties on it.
    std::uint64_t id(int t) const { return nodes_[static_cast<size_t>(t)].id; }
    const TaskInfo& info(int t) const { return info_[static_cast<size_t>(t)]; }
    int inDegree(int t) const { return nodes_[static_cast<size_t>(t)].indeg; }

    template <class F>
    void forEachSuccessor(int t, F&& f) const {
        for (int e = nodes_[static_cast<size_t>(t)].first_out; e >= 0; e = edges_[static_cast<size_t>(e)].next_out)
            f(edges_[static_cast<size_t>(e)].dst);
    }
    template <class F>
    void forEachPredecessor(int t, F&& f) const {
        for (int e = nodes_[static_cast<size_t>(t)].first_in; e >= 0; e = edges_[static_cast<size_t>(e)].next_in)
            f(edges_[static_cast<size_t>(e)].src);
    }

    // Construction (GraphBuilder, DeltaSimulator).
    int addTask(int group, int resource, double exe, std::uint64_t id, const TaskInfo& info);
    void addEdge(int group, int src, int dst);
    void addCollective(int group, CollectiveTraffic traffic) {
        groups_[static_cast<size_t>(group)].collectives.push_back(std::move(traffic));
    }
    const TaskGroup& group(int g) const { return groups_[static_cast<size_t>(g)]; }
    // Pricing a collective built without its time (delta simulation's deferred weight syncs).
    void setExe(int t, double exe) { nodes_[static_cast<size_t>(t)].exe = exe; }
    void setBytes(int t, double bytes) { info_[static_cast<size_t>(t)].bytes = bytes; }
    CollectiveTraffic& collective(int g, size_t index) { return groups_[static_cast<size_t>(g)].collectives[index]; }
    int edgeSource(int e) const { return edges_[static_cast<size_t>(e)].src; }
    int edgeTarget(int e) const { return edges_[static_cast<size_t>(e)].dst; }
    size_t groupCount() const { return groups_.size(); }
    // Unlinks a group's edges and marks its tasks dead, moving its lists into
    // `out`; the slots stay reserved until releaseGroup, so attachGroup can undo it.
    void detachGroup(int g, TaskGroup& out);
    void attachGroup(int g, TaskGroup& in);
    void releaseGroup(TaskGroup& detached);

private:
    struct Edge {
        int src, dst;
        int next_out, prev_out, next_in, prev_in;
    };
    void link(int e);
    void unlink(int e);

    // The fields both simulators read per task, together in one cache line.
    struct Node {
        double exe;
        std::uint64_t id;
        int res, indeg, first_out, first_in;
    };

    int devices_ = 0, links_ = 0;
    std::vector<std::string> resource_names_, op_names_;
    std::vector<Node> nodes_;
    std::vector<TaskInfo> info_;
    std::vector<std::uint8_t> alive_;
    std::vector<Edge> edges_;
    std::vector<int> free_tasks_, free_edges_;
    std::vector<TaskGroup> groups_;
    size_t alive_count_ = 0, edge_count_ = 0;
};

// Builds the task graph of a strategy (validated first; throws partita::Error). `cancel` is asked
// between operators and tensors (partita::Cancelled when it says stop): at thousands of devices a
// build takes seconds.
TaskGraph buildTaskGraph(const Network& net, double batch, const SoapStrategy& strategy, const Topology& topology,
                         const SimOptions& options = {}, const CancelFn& cancel = {});
// The same into an existing graph, reusing its memory.
void buildTaskGraph(TaskGraph& out, const Network& net, double batch, const SoapStrategy& strategy,
                    const Topology& topology, const SimOptions& options = {}, const CancelFn& cancel = {});

}  // namespace partita::sim
