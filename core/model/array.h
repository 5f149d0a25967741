#pragma once
// An accelerator array of 2^H identical accelerators in H hierarchy levels
// (docs/methods/hypar.md#the-array), or of groups of unequal accelerators (docs/methods/accpar.md#the-hierarchy-over-an-array). H1 is
// the top split, HH pairs single accelerators.
#include <string>
#include <vector>

#include "core/model/groups.h"
#include "core/util/ranges.h"

namespace partita {

enum class Topology { HTree, Torus };

const char* topologyName(Topology t);

struct AcceleratorSpec {
    std::string kind = "hmc";
    double throughput_ops = 420e9;  // R_acc, ops/s (2 ops per MAC)
    double e_mult_pj = 3.7;         // 32-bit float multiply
    double e_add_pj = 0.9;          // 32-bit float add
    double e_dram_pj = 640.0;       // 32-bit DRAM access
    double e_sram_pj = 5.0;         // 32-bit SRAM access (optional energy term)
    double e_link_pj_per_bit = 20.0;
};

struct Array {
    static constexpr int kMaxLevels = 12;

    std::string name = "HMC H-tree";
    int levels = 4;
    Topology topology = Topology::HTree;
    double link_bps = 1.6e9;         // one link, bits/s
    double level_bw_factor = 2.0;    // fat tree: bandwidth ratio between adjacent levels
    AcceleratorSpec accelerator;
    // AccPar arrays: accelerator groups (empty = 2^levels copies of `accelerator`).
    // With groups, `levels` is the bisection tree's height; see deriveFromGroups().
    std::vector<AcceleratorGroup> groups;
    // Optional per-level bandwidth of each child group, bytes/s, H1 first
    // (docs/methods/accpar.md#group-aggregates); overrides sum(b) and HyPar's link-based bandwidth.
    std::vector<double> level_bandwidth_Bps;

    int count() const;
    // True when HyPar's model applies: no groups, or one kind with 2^levels accelerators.
    bool hyparCompatible() const;
    // Bits/s available to one group pair's exchange at level h (0 = H1), docs/methods/hypar.md#the-array.
    double levelBandwidth(int h) const;
    std::vector<double> levelBandwidths() const;  // H1 first
};

// Largest number of flows on any directed torus link at each level (H1 first),
// for mirror exchanges a <-> a xor 2^(H-k) with dimension-order routing (docs/methods/hypar.md#the-torus).
std::vector<int> torusLoads(int levels);

// The array of docs/methods/hypar.md#the-array with H levels: 1.6 Gb/s links, fat tree factor 2, 420 GOPS.
Array defaultArray(int levels, Topology topology = Topology::HTree);

// Throws std::invalid_argument naming the field when a value is out of range (docs/formats/limits.md),
// including each level's bandwidth derived from link_bps and level_bw_factor.
void validate(const Array& array);
// The range of a numeric field, keyed as in partita-array/1 ("link_bps", "throughput_flops", ...).
Range arrayRange(const std::string& key);

// After setting `groups`: levels = tree height; for one kind with 2^H members
// also the HyPar fields (throughput_ops = c, link_bps = 8 b, fat-tree factor 2,
// H-tree), so HyPar's per-level bandwidth equals the groups' sum(b).
void deriveFromGroups(Array& array);

// The groups AccPar works on: `groups`, or one group made of the HyPar fields.
std::vector<AcceleratorGroup> acceleratorGroups(const Array& array);
// Per-level group bandwidth override (bytes/s, H1 first) AccPar uses: the
// explicit one, or for a HyPar array its levelBandwidth()/8; empty = sum(b).
std::vector<double> groupLevelBandwidth(const Array& array);

}  // namespace partita
