#pragma once
// Hardware profiles for LLM training plans, `partita-llm-hw/1` (docs/formats/llm-hw.md): compute units
// with per-kernel efficiency curves, HBM, host memory, precision and network tiers with a cost per
// collective. Presets with provenance, an importer of Calculon's system JSON, cluster overrides and
// tiers derived from a Partita topology. SI units inside (FLOP/s, bytes, bytes/s, seconds).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/json_fields.h"

namespace partita::sim {
class Topology;
}

namespace partita::llm {

enum class Dtype { Fp8, Bf16, Fp16, Fp32 };
const char* dtypeName(Dtype d);
Dtype parseDtype(const std::string& s);  // "fp8", "bf16", "fp16", "fp32" (and Calculon's float16, ...)
int dtypeBytes(Dtype d);

// Efficiency as a function of an operation's size: `step` looks up the first point (sorted by size,
// descending) whose size the operation reaches (Calculon); `loglinear` interpolates in log size,
// clamped at both ends.
enum class Interp { Step, LogLinear };
struct Curve {
    std::string key;  // "op_gflop" or "op_mb": the unit of the sizes
    Interp interp = Interp::Step;
    std::vector<std::array<double, 2>> points;  // [size, efficiency], sizes descending
    // Efficiency of an operation of `amount` (FLOP or bytes); `unit` is the key's unit in the same
    // (1e9 for op_gflop, 1e6 for op_mb). Step thresholds compare amount >= size·unit, as Calculon.
    double at(double amount, double unit) const;
    bool operator==(const Curve&) const = default;
};

struct Unit {
    Dtype dtype = Dtype::Bf16;
    double peak_flops = 0;  // FLOP/s
    Curve efficiency;       // by op GFLOP
    bool operator==(const Unit&) const = default;
};

enum class Compose { Sum, Max };  // compute and memory time: Calculon's no_overlap, or roofline

struct Device {
    std::vector<Unit> matrix, vector;  // one per dtype
    double hbm_bytes = 0, hbm_Bps = 0;
    Curve hbm_efficiency;  // by op MB
    double host_bytes = 0, host_Bps = 0;
    Curve host_efficiency;
    Compose compose = Compose::Sum;
    double reserved_bytes = 0;  // CUDA context, NCCL buffers, fragmentation
    bool causal_attention_discount = false;
    bool flash_attention = false;  // the attention kernels the software stack runs
    // Host and framework time per layer per micro-batch (its forward, backward and recompute together)
    // that no kernel accounts for: launches, hooks, synchronisation (docs/methods/llm.md#framework-overhead).
    double layer_overhead_s = 0;
    const Unit& unit(bool matrix_engine, Dtype dtype) const;  // throws std::invalid_argument if absent
    // Seconds of one kernel of `flops` on `u` and `bytes` of HBM traffic, each at its efficiency for its
    // size, added or overlapped as `compose` says (docs/methods/llm.md#derivation); `flops_scale` divides
    // the compute part (a causal discount). The planner's and the simulator's kernel curves both use it.
    double kernelTime(const Unit& u, double flops, double bytes, double flops_scale = 1) const;
    void sortUnits();  // by dtype, so equal devices compare equal whatever order they were written in
    bool operator==(const Device&) const = default;
};

struct Precision {
    Dtype param = Dtype::Bf16, grad_accum = Dtype::Fp32, grad_reduce = Dtype::Fp32, optimizer = Dtype::Fp32;
    bool operator==(const Precision&) const = default;
};

enum class Op { P2p, AllReduce, ReduceScatter, AllGather, AllToAll };
inline constexpr int kOps = 5;
const char* opName(Op op);

// Cost of one collective on a tier: T = latency·steps + S·scalar·(1 + offset/n) / (bandwidth·efficiency),
// S the full tensor's bytes, n the peers. `algorithm` names where scalar and offset came from.
struct Collective {
    double scalar = 1, offset = 0;
    std::string algorithm;  // "", "ring", "tree" or "hierarchical"
    bool operator==(const Collective&) const = default;
};

struct Tier {
    std::string name;
    std::int64_t size = 1;  // GPUs reachable
    bool must_fill = false;
    double bandwidth_Bps = 0;  // per GPU, one direction
    double efficiency = 1;
    double latency_s = 0;
    double compute_steal = 0;  // fraction of compute lost while communicating (Calculon's processor_usage)
    std::array<Collective, kOps> ops;
    // Seconds for `op` on `bytes` among `peers`; `per_step_latency` charges the ring's n-1 (2(n-1)
    // for all-reduce) latencies, else one per operation (Calculon).
    double time(Op op, double bytes, std::int64_t peers, bool per_step_latency) const;
    bool operator==(const Tier&) const = default;
};

struct Profile {
    std::string name, provenance;
    Device device;
    Precision precision;
    std::vector<Tier> tiers;
    std::vector<std::string> notes;  // what an importer or override assumed (shown with results)
    bool operator==(const Profile&) const = default;
};

// `partita-llm-hw/1`: strict reading (unknown keys are errors naming file and JSON pointer).
Profile readProfileJson(const std::string& text, const std::string& source);
Json profileToJson(const Profile& p);
// Calculon's system JSON ("matrix", "vector", "mem1", "mem2", "processing_mode", "networks"),
// field by field; `dtype` selects the compute dtype its entries are keyed by.
Profile importCalculonSystem(const Json& system, const std::string& source);
bool looksLikeCalculonSystem(const Json& j);
// A preset name, a partita-llm-hw/1 file or a Calculon system file.
Profile loadProfile(const std::string& name_or_path);

// Presets (docs/methods/llm.md#what-is-modelled): a100-sxm4-40gb, a100-sxm4-80gb, h100-sxm5-80gb.
std::vector<std::string> profilePresetNames();
bool isProfilePreset(const std::string& name);
Profile profilePreset(const std::string& name);  // throws std::invalid_argument listing names

// A cluster's node size and bandwidths over a profile's tiers (0: intra-node, 1: inter-node).
struct ClusterOverrides {
    std::optional<std::int64_t> gpus_per_node;
    std::optional<double> intra_node_GBps;          // per GPU, one direction
    std::optional<double> inter_node_Gbps_per_node;  // all NICs of a node together
    std::optional<double> inter_node_Gbps_per_gpu;
    bool empty() const {
        return !gpus_per_node && !intra_node_GBps && !inter_node_Gbps_per_node && !inter_node_Gbps_per_gpu;
    }
};
Profile applyOverrides(Profile p, const ClusterOverrides& o);  // throws FieldError naming "cluster.<key>"

// Tiers from a topology (core/topology/topology.h): tier 0 = the largest island of devices joined by
// links of one uniform kind, tier 1 = the links between islands; with mixed device kinds the plan
// is made on the slowest, and a note says so.
Profile profileFromTopology(Profile base, const sim::Topology& topology);

}  // namespace partita::llm
