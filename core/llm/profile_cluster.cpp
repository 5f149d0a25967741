// A profile fitted to a cluster: node size and bandwidth overrides.
#include <algorithm>
#include <cmath>

#include "core/llm/profile.h"
#include "core/llm/transformer.h"
#include "core/util/format.h"
#include "core/util/limits.h"

namespace partita::llm {

namespace {

void checkRate(double v, const char* key) {
    if (!std::isfinite(v) || !(v > 0)) throw FieldError(std::string("cluster.") + key, "must be positive");
    if (v * 1e9 > limits::kRateMax) throw FieldError(std::string("cluster.") + key, "exceeds 1e12 G");
}

}  // namespace

Profile applyOverrides(Profile p, const ClusterOverrides& o) {
    if (o.empty()) return p;
    if (p.tiers.empty()) throw FieldError("cluster", "the profile has no network tiers to override");
    if (o.gpus_per_node) {
        if (*o.gpus_per_node < 1 || *o.gpus_per_node > limits::kLlmGpus)
            throw FieldError("cluster.gpus_per_node",
                             "must be between 1 and " + std::to_string(limits::kLlmGpus));
        p.tiers[0].size = *o.gpus_per_node;
        p.notes.push_back("cluster: " + std::to_string(*o.gpus_per_node) + " GPUs per node");
    }
    if (o.intra_node_GBps) {
        checkRate(*o.intra_node_GBps, "intra_node_GBps");
        p.tiers[0].bandwidth_Bps = *o.intra_node_GBps * 1e9;
        p.notes.push_back("cluster: intra-node " + formatNumber(*o.intra_node_GBps) + " GB/s per GPU");
    }
    if (o.inter_node_Gbps_per_node && o.inter_node_Gbps_per_gpu)
        throw FieldError("cluster.inter_node_Gbps_per_gpu", "give the inter-node bandwidth per node or per GPU, not both");
    if (o.inter_node_Gbps_per_node || o.inter_node_Gbps_per_gpu) {
        if (p.tiers.size() < 2)
            throw FieldError("cluster", "the profile has a single tier: there is no inter-node network to set");
        double per_gpu = 0;
        if (o.inter_node_Gbps_per_node) {
            checkRate(*o.inter_node_Gbps_per_node, "inter_node_Gbps_per_node");
            per_gpu = *o.inter_node_Gbps_per_node / 8 / static_cast<double>(p.tiers[0].size);
            p.notes.push_back("cluster: inter-node " + formatNumber(*o.inter_node_Gbps_per_node) + " Gb/s per node");
        } else {
            checkRate(*o.inter_node_Gbps_per_gpu, "inter_node_Gbps_per_gpu");
            per_gpu = *o.inter_node_Gbps_per_gpu / 8;
            p.notes.push_back("cluster: inter-node " + formatNumber(*o.inter_node_Gbps_per_gpu) + " Gb/s per GPU");
        }
        p.tiers[1].bandwidth_Bps = per_gpu * 1e9;
    }
    return p;
}

}  // namespace partita::llm
