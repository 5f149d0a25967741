#include "core/sim/task_graph.h"

#include "core/sim/graph_builder.h"
#include "core/util/enum_names.h"

namespace partita::sim {

namespace {
constexpr EnumName<Phase> kPhases[] = {
    {Phase::Forward, "forward"}, {Phase::Backward, "backward"}, {Phase::Sync, "sync"}, {Phase::Transfer, "transfer"}};
constexpr EnumName<CollectiveModel> kCollectiveModels[] = {{CollectiveModel::PerHop, "per-hop"},
                                                            {CollectiveModel::Algorithm, "algorithm"}};
}  // namespace

const char* phaseName(Phase phase) { return enumName(kPhases, phase); }
constexpr EnumName<SyncMode> kSyncModes[] = {{SyncMode::Ring, "ring"}, {SyncMode::ParameterServer, "ps"}};
const char* syncModeName(SyncMode mode) { return enumName(kSyncModes, mode); }
SyncMode parseSyncMode(const std::string& name) { return parseEnumOrThrow(kSyncModes, name, "weight sync"); }
const char* collectiveModelName(CollectiveModel model) { return enumName(kCollectiveModels, model); }
CollectiveModel parseCollectiveModel(const std::string& name) {
    return parseEnumOrThrow(kCollectiveModels, name, "collective model");
}

void TaskGraph::setResources(int compute_devices, int links, std::vector<std::string> names) {
    devices_ = compute_devices;
    links_ = links;
    resource_names_ = std::move(names);
}

void TaskGraph::setGroupCount(size_t count) {
    groups_.resize(count);
    for (TaskGroup& g : groups_) {
        g.tasks.clear();
        g.edges.clear();
        g.collectives.clear();
    }
}

void TaskGraph::clear() {
    nodes_.clear();
    info_.clear();
    alive_.clear();
    edges_.clear();
    free_tasks_.clear();
    free_edges_.clear();
    setGroupCount(groups_.size());
    alive_count_ = edge_count_ = 0;
}

void TaskGraph::reserve(size_t tasks, size_t edges) {
    nodes_.reserve(tasks);
    info_.reserve(tasks);
    alive_.reserve(tasks);
    edges_.reserve(edges);
}

int TaskGraph::addTask(int group, int resource, double exe, std::uint64_t id, const TaskInfo& info) {
    int t;
    if (!free_tasks_.empty()) {
        t = free_tasks_.back();
        free_tasks_.pop_back();
        nodes_[static_cast<size_t>(t)] = Node{exe, id, resource, 0, -1, -1};
        info_[static_cast<size_t>(t)] = info;
        alive_[static_cast<size_t>(t)] = 1;
    } else {
        t = static_cast<int>(nodes_.size());
        nodes_.push_back(Node{exe, id, resource, 0, -1, -1});
        info_.push_back(info);
        alive_.push_back(1);
    }
    ++alive_count_;
    groups_[static_cast<size_t>(group)].tasks.push_back(t);
    return t;
}

void TaskGraph::addEdge(int group, int src, int dst) {
    int e;
    if (!free_edges_.empty()) {
        e = free_edges_.back();
        free_edges_.pop_back();
    } else {
        e = static_cast<int>(edges_.size());
        edges_.emplace_back();
    }
    edges_[static_cast<size_t>(e)].src = src;
    edges_[static_cast<size_t>(e)].dst = dst;
    link(e);
    groups_[static_cast<size_t>(group)].edges.push_back(e);
}

void TaskGraph::link(int e) {
    Edge& x = edges_[static_cast<size_t>(e)];
    x.prev_out = x.prev_in = -1;
    Node& src = nodes_[static_cast<size_t>(x.src)];
    Node& dst = nodes_[static_cast<size_t>(x.dst)];
    x.next_out = src.first_out;
    if (x.next_out >= 0) edges_[static_cast<size_t>(x.next_out)].prev_out = e;
    src.first_out = e;
    x.next_in = dst.first_in;
    if (x.next_in >= 0) edges_[static_cast<size_t>(x.next_in)].prev_in = e;
    dst.first_in = e;
    ++dst.indeg;
    ++edge_count_;
}

void TaskGraph::unlink(int e) {
    const Edge& x = edges_[static_cast<size_t>(e)];
    Node& src = nodes_[static_cast<size_t>(x.src)];
    Node& dst = nodes_[static_cast<size_t>(x.dst)];
    if (x.prev_out >= 0) edges_[static_cast<size_t>(x.prev_out)].next_out = x.next_out;
    else src.first_out = x.next_out;
    if (x.next_out >= 0) edges_[static_cast<size_t>(x.next_out)].prev_out = x.prev_out;
    if (x.prev_in >= 0) edges_[static_cast<size_t>(x.prev_in)].next_in = x.next_in;
    else dst.first_in = x.next_in;
    if (x.next_in >= 0) edges_[static_cast<size_t>(x.next_in)].prev_in = x.prev_in;
    --dst.indeg;
    --edge_count_;
}

void TaskGraph::detachGroup(int g, TaskGroup& out) {
    TaskGroup& grp = groups_[static_cast<size_t>(g)];
    for (int e : grp.edges) unlink(e);
    for (int t : grp.tasks) alive_[static_cast<size_t>(t)] = 0;
    alive_count_ -= grp.tasks.size();
    out.tasks.clear();
    out.edges.clear();
    out.collectives.clear();
    std::swap(out, grp);  // the group keeps out's (empty) capacity for its rebuild
}

void TaskGraph::attachGroup(int g, TaskGroup& in) {
    TaskGroup& grp = groups_[static_cast<size_t>(g)];
    std::swap(in, grp);
    for (int t : grp.tasks) alive_[static_cast<size_t>(t)] = 1;
    alive_count_ += grp.tasks.size();
    for (int e : grp.edges) link(e);
}

void TaskGraph::releaseGroup(TaskGroup& detached) {
    free_tasks_.insert(free_tasks_.end(), detached.tasks.begin(), detached.tasks.end());
    free_edges_.insert(free_edges_.end(), detached.edges.begin(), detached.edges.end());
    detached.tasks.clear();
    detached.edges.clear();
    detached.collectives.clear();
}

TaskGraph buildTaskGraph(const Network& net, double batch, const SoapStrategy& strategy, const Topology& topology,
                         const SimOptions& options, const CancelFn& cancel) {
    TaskGraph graph;
    buildTaskGraph(graph, net, batch, strategy, topology, options, cancel);
    return graph;
}

void buildTaskGraph(TaskGraph& out, const Network& net, double batch, const SoapStrategy& strategy,
                    const Topology& topology, const SimOptions& options, const CancelFn& cancel) {
    GraphBuilder builder(net, batchCount(batch), topology, options);
    validateStrategy(net, builder.batch(), strategy, topology.deviceCount(), options.allow_shared_devices);
    out.clear();
    builder.buildAll(out, strategy, cancel);
}

}  // namespace partita::sim
