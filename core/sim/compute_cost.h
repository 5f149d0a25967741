#pragma once
// Execution time of compute tasks (docs/methods/flexflow.md#partitas-decisions):
// analytic max(FLOP / (peak x efficiency), bytes / memory bandwidth), plus the
// device's fixed task overhead (0 unless the topology sets it), unless a
// measured-cost table has an entry for the task.
#include <optional>
#include <string>
#include <unordered_map>

#include "core/model/network.h"
#include "core/sim/rect.h"
#include "core/topology/topology.h"

namespace partita::sim {

struct Work {
    double flops = 0;  // 2 per multiply-accumulate
    double bytes = 0;  // memory traffic: inputs + outputs + weights
};

// Forward work of the task writing `out` (backward is twice this for conv/fc, once otherwise).
Work forwardWork(const Network& net, const Operator& op, const Box& out, double element_bytes);
Work backwardWork(const Operator& op, const Work& forward);
double analyticTime(const Work& work, const ComputeDevice& device);

// Measured costs, from CSV (RFC 4180, header row, columns in any order):
//   op,input,output,kernel,batch,degrees,device,forward_s,backward_s
//   conv,3x227x227,96x27x27,11x11,256,4x1x1x1,p100,0.0123,0.0251
// op is conv|fc|pool|add|concat; input/output are per-sample CxHxW (fc input is
// the flattened feature count, "9216" or "9216x1x1"); kernel KhxKw (optional
// column, 1x1 when empty); batch is the whole batch; degrees NxCxHxW (sample,
// channel, height, width); device is the device kind; times are seconds per task.
class CostTable {
public:
    static CostTable parse(const std::string& text, const std::string& source);
    static CostTable load(const std::string& path);

    std::optional<double> lookup(const Operator& op, std::int64_t batch, const Degrees& degrees,
                                 const std::string& device_kind, bool backward) const;
    size_t size() const { return entries_.size(); }

private:
    struct Times {
        double forward = 0, backward = 0;
    };
    std::unordered_map<std::string, Times> entries_;
};

}  // namespace partita::sim
