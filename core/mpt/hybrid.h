#pragma once
// The MPT hybrid memory-centric network (docs/methods/mpt.md#the-hybrid-network): rings inside each
// group, a flattened butterfly (or one fully connected line) inside each cluster.
// Effective all-to-all bandwidths are derived from a sim::Topology's link loads
// under minimal dimension-ordered routing, not typed in.
#include <string>
#include <utility>
#include <vector>

#include "core/topology/topology.h"

namespace partita::mpt {

struct NetworkParams {
    double full_link_Bps = 30e9;    // 16 lanes x 15 Gbps per direction [P]
    double narrow_link_Bps = 10e9;  // 8 lanes x 10 Gbps per direction (FBFLY) [P]
    int dp_rings = 4;               // w_dp: all four full links on collectives [P]
    int mpt_rings = 2;              // MPT: half the I/O bandwidth on rings per group [P]
    double serdes_s = 5e-9;         // per hop [P]
    double router_s = 1e-9;         // one 1 GHz router cycle per hop [A]
    double chunk_B = 256;           // collective packet [P]
    // N_g = 1 is data parallelism, so its ring uses every link like w_dp [A].
    bool single_group_uses_all_rings = true;
};
void checkNetwork(const NetworkParams& n);

// rows x cols flattened butterfly: every node links to every other node in its row and in its
// column, one duplex narrow link each (4x4: 6 links per node, at most 2 hops).
sim::Topology flattenedButterfly(int rows, int cols, double link_Bps, double latency_s);

// Uniform all-to-all (each device sends V/(n-1) to each other device) routed row-first then
// column (minimal dimension order, computed here on the topology's links because route()'s
// tie rule is lowest link id, not dimension order). Returns V / (time) = link_bw / max load.
double allToAllBandwidthDor(const sim::Topology& fbfly, int rows, int cols);

// The cluster interconnect an N_g-member cluster uses: N_g <= 4 is one FBFLY line
// (fully connected), larger N_g a rows x cols FBFLY with rows the largest divisor <= sqrt(N_g).
std::pair<int, int> clusterShape(int n_g);
// Effective per-worker all-to-all bandwidth for an N_g-member cluster (0 when N_g = 1).
double clusterBandwidth(int n_g, const NetworkParams& n);
// Ring bandwidth per worker for weight collectives (w_dp or MPT).
double ringBandwidth(int n_g, bool data_parallel, const NetworkParams& n);

// Seconds for `passes` pipelined ring passes of `bytes` per worker over `members` workers.
double ringTime(double bytes, int members, int passes, double bw_Bps, const NetworkParams& n);
// Seconds for one all-to-all scatter/gather of `bytes` per worker inside an N_g cluster.
double clusterTime(double bytes, int n_g, double bw_Bps, const NetworkParams& n);

// Host links that splice group rings (docs/methods/mpt.md#host-links), as group pairs; empty for (16,16).
std::vector<std::pair<int, int>> hostLinks(int n_g, int n_c);

}  // namespace partita::mpt
