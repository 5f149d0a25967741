#pragma once
// Execution time of compute tasks (docs/methods/flexflow.md#partitas-decisions):
// analytic max(FLOP / (peak x efficiency), bytes / memory bandwidth), plus the
// device's fixed task overhead (0 unless the topology sets it), unless a
// measured-cost table has an entry for the task. With kernel curves (an LLM hardware
// profile, docs/methods/flexflow.md#kernel-curves) each kernel is priced as the LLM planner
// prices it: GEMMs on the matrix unit, the rest on the vector unit, efficiency by size.
#include <optional>
#include <string>
#include <unordered_map>

#include "core/llm/profile.h"
#include "core/model/network.h"
#include "core/sim/rect.h"
#include "core/topology/topology.h"

namespace partita::sim {

struct Work {
    double flops = 0;  // 2 per multiply-accumulate
    double bytes = 0;  // memory traffic: inputs + outputs + weights
    // The part of flops and bytes that runs as matrix multiplications (conv, fc, matmul, the attention
    // core's QK^T and AV); the rest is vector kernels.
    double matrix_flops = 0, matrix_bytes = 0;
};

// Forward work of the task writing `out` (backward is twice this for conv/fc, once otherwise; the
// attention core's two matrix products twice, its softmax and dropout once).
Work forwardWork(const Network& net, const Operator& op, const Box& out, double element_bytes);
Work backwardWork(const Operator& op, const Work& forward);
double analyticTime(const Work& work, const ComputeDevice& device);

// Per-kernel efficiency curves for one compute dtype, read from an LLM hardware profile.
struct KernelCurves {
    std::string profile;  // the profile's name, for reports
    llm::Dtype dtype = llm::Dtype::Fp32;
    llm::Unit matrix, vector;
    llm::Device device;  // HBM, its curve and how compute and memory compose
    // Seconds of one kernel: FLOP at the unit's peak times its efficiency at this size, bytes at HBM
    // bandwidth times its efficiency at this size, added or overlapped as the profile composes them.
    double kernelTime(double flops, double bytes, bool matrix_unit) const;
    // A task's work as kernels: its matrix part once per GEMM pass, its vector part once.
    double time(const Operator& op, const Work& forward, bool backward, double overhead_s) const;
};
// Throws std::invalid_argument when the profile has no unit of that dtype.
KernelCurves kernelCurves(const llm::Profile& profile, llm::Dtype dtype);

struct SimOptions;
// Prices `options`' compute by `profile`'s curves in `dtype`, named `label` (the preset or file as the user
// gave it) in reports and stored runs; the element size follows the dtype (fp32 4 bytes, else 2: fp8 GEMMs
// keep 16-bit activations, as the planner) and the weights' sync the profile's grad_reduce dtype.
void useKernelCurves(SimOptions& options, const llm::Profile& profile, llm::Dtype dtype, const std::string& label);

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
