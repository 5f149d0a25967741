#pragma once
// Heterogeneous accelerator arrays (docs/methods/accpar.md#the-hierarchy-over-an-array): groups of identical
// accelerators and the recursive bisection that turns them into a binary tree.
#include <string>
#include <vector>

namespace partita {

// `count` identical accelerators of one kind.
struct AcceleratorGroup {
    std::string kind;
    int count = 1;
    double throughput_flops = 0;  // c, FLOP/s per accelerator (2 FLOP per MAC)
    double bandwidth_Bps = 0;     // b, bytes/s one accelerator can receive
    bool operator==(const AcceleratorGroup&) const = default;
};

// Per-chip figures of the TPU presets (docs/methods/accpar.md#presets-and-the-study). Throughput:
// Cloud TPU docs (123 and 45 TFLOPS bf16). Bandwidth, an assumption [A]: v3 =
// the pod's 340 TB/s all-reduce bandwidth / 1024 chips; v2 = 4 ICI links x 496 Gb/s.
AcceleratorGroup tpuV3(int count);
AcceleratorGroup tpuV2(int count);

// A tree node: how many accelerators of each group (index into the group list) it holds.
using Members = std::vector<int>;

int memberCount(const Members& m);
int kindCount(const Members& m);  // groups with a non-zero count

// Splits a node of >= 2 accelerators into children i and j (docs/methods/accpar.md#bisection):
// - one kind: ceil(n/2) | floor(n/2);
// - several kinds: kinds sorted by per-accelerator throughput (fastest first, ties
//   in list order) and cut where the children's total compute is closest to equal
//   (ties: the earliest cut). Two kinds therefore split by kind, the faster as i.
struct Bisection {
    Members i, j;
};
Bisection bisect(const std::vector<AcceleratorGroup>& groups, const Members& node);

// Depth of the deepest leaf of the bisection tree of all accelerators: the
// number of hierarchy levels (2^H identical accelerators give H).
int treeHeight(const std::vector<AcceleratorGroup>& groups);

// Aggregates of a node (docs/methods/accpar.md#group-aggregates): c_G = sum c, b_G = sum b.
double groupThroughput(const std::vector<AcceleratorGroup>& groups, const Members& node);
double groupBandwidth(const std::vector<AcceleratorGroup>& groups, const Members& node);

// "64 x tpu-v3", "32 x tpu-v3 + 16 x tpu-v2", "tpu-v2" for one accelerator.
std::string membersLabel(const std::vector<AcceleratorGroup>& groups, const Members& node);

}  // namespace partita
