// The built-in hardware profiles (docs/formats/llm-hw.md): one per device and default cluster.
// Peak rates and bandwidths are the vendors' data sheets; the efficiency curves are Partita's
// default model, fitted once per system (the fit set is named in each provenance).
#include <algorithm>

#include "core/llm/numbers.h"
#include "core/llm/profile.h"

namespace partita::llm {

namespace {


Curve loglinear(const char* key, std::vector<std::array<double, 2>> points) {
    return Curve{key, Interp::LogLinear, std::move(points)};
}

// Shared by the A100 and H100 presets: the shapes of the efficiency curves (GEMM efficiency rises
// with size in log FLOP; element-wise kernels and HBM streams with bytes).
struct Fit {
    double matrix_top;     // efficiency of the largest GEMMs
    double vector_top;     // element-wise kernels over large tensors
    double hbm_top;        // HBM streams of 100 MB and more
    double nvlink_eff;     // NCCL bus bandwidth / NVLink peak
    double ib_eff;         // NCCL bus bandwidth / NIC line rate
    bool flash_attention;  // the software stack of the fit set (NeMo 24 on H100: yes; Megatron 2021-22: no)
};

Profile dgx(const char* name, const char* provenance, double matrix_tflops, double fp8_tflops, double vector_tflops,
            double hbm_gib, double hbm_GBps, double nvlink_GBps, double nic_GBps_per_gpu, const Fit& fit) {
    Profile p;
    p.name = name;
    p.provenance = provenance;
    const double mt = fit.matrix_top;
    Curve matrix = loglinear("op_gflop", {{1000, mt}, {100, mt * 0.97}, {10, mt * 0.85}, {1, mt * 0.55},
                                          {0.1, mt * 0.2}, {0.001, 0.02}});
    const double vt = fit.vector_top;
    Curve vector = loglinear("op_gflop", {{16, vt}, {1, vt * 0.6}, {0.01, vt * 0.1}});
    for (Dtype d : {Dtype::Bf16, Dtype::Fp16}) {
        p.device.matrix.push_back({d, matrix_tflops * 1e12, matrix});
        p.device.vector.push_back({d, vector_tflops * 1e12, vector});
    }
    if (fp8_tflops > 0) p.device.matrix.push_back({Dtype::Fp8, fp8_tflops * 1e12, matrix});
    p.device.matrix.push_back({Dtype::Fp32, matrix_tflops / 2 * 1e12, matrix});  // TF32 tensor cores
    p.device.vector.push_back({Dtype::Fp32, vector_tflops / 4 * 1e12, vector});
    p.device.sortUnits();
    p.device.hbm_bytes = hbm_gib * kGiB;
    p.device.hbm_Bps = hbm_GBps * 1e9;
    const double ht = fit.hbm_top;
    p.device.hbm_efficiency = loglinear("op_mb", {{100, ht}, {10, ht * 0.85}, {1, ht * 0.6}, {0.01, ht * 0.1}});
    p.device.host_bytes = 128 * kGiB;  // DGX: 1 TiB or 2 TiB of host memory for 8 GPUs; PCIe per GPU
    p.device.host_Bps = 25e9;
    p.device.compose = Compose::Max;
    p.device.reserved_bytes = 2 * kGiB;  // CUDA context, NCCL buffers, allocator fragmentation
    p.device.flash_attention = fit.flash_attention;
    Tier nv;
    nv.name = "nvlink";
    nv.size = 8;
    nv.bandwidth_Bps = nvlink_GBps * 1e9;
    nv.efficiency = fit.nvlink_eff;
    nv.latency_s = 2e-6;
    nv.compute_steal = 0.05;
    for (int i = 0; i < kOps; ++i) nv.ops[i] = Collective{i == 1 ? 2.0 : 1.0, i == 0 ? 0.0 : -1.0, "ring"};
    Tier ib = nv;
    ib.name = "infiniband";
    ib.size = std::int64_t{1} << 20;
    ib.bandwidth_Bps = nic_GBps_per_gpu * 1e9;
    ib.efficiency = fit.ib_eff;
    ib.latency_s = 5e-6;
    ib.compute_steal = 0.02;
    p.tiers = {nv, ib};
    return p;
}

// Fitted by `partita-cli llm calibrate` (least squares on log time, four multipliers) from the shapes
// above: A100 on the Selene runs of examples/llm/measured/korthikanti-2022.json and the Table 1 runs
// of narayanan-sc21.json (19 runs); H100 on examples/llm/measured/nemo-h100.json (16 runs). Values
// at 1 are the bound (the fit wanted more: communication the software hides that the runs format
// cannot say, such as NeMo's TP and p2p overlap).
const Fit kA100{0.7260, 0.6010, 0.6363, 0.7959, 1.0, false};
const Fit kH100{0.8189, 0.4070, 0.4309, 1.0, 1.0, true};

}  // namespace

std::vector<std::string> profilePresetNames() { return {"a100-sxm4-40gb", "a100-sxm4-80gb", "h100-sxm5-80gb"}; }

bool isProfilePreset(const std::string& name) {
    const auto names = profilePresetNames();
    return std::find(names.begin(), names.end(), name) != names.end();
}

Profile profilePreset(const std::string& name) {
    // DGX A100: NVLink 3 at 300 GB/s per direction per GPU through NVSwitch, 8 GPUs a node, 8 HDR
    // InfiniBand NICs of 200 Gb/s (25 GB/s per GPU). DGX H100: NVLink 4 at 450 GB/s, 8 NDR NICs of
    // 400 Gb/s (50 GB/s per GPU).
    if (name == "a100-sxm4-40gb")
        return dgx("A100-SXM4-40GB, DGX A100",
                   "NVIDIA A100 data sheet (312 TFLOP/s bf16, 1,555 GB/s HBM2); DGX A100 fabric; efficiencies as "
                   "a100-sxm4-80gb",
                   312, 0, 78, 40, 1555, 300, 25, kA100);
    if (name == "a100-sxm4-80gb")
        return dgx("A100-SXM4-80GB, DGX A100",
                   "NVIDIA A100 data sheet (312 TFLOP/s bf16, 2,039 GB/s HBM2e); DGX A100 fabric; efficiencies "
                   "fitted once on Selene: examples/llm/measured/korthikanti-2022.json (9 runs) and "
                   "narayanan-sc21.json Table 1 (10 runs)",
                   312, 0, 78, 80, 2039, 300, 25, kA100);
    if (name == "h100-sxm5-80gb")
        return dgx("H100-SXM5-80GB, DGX H100",
                   "NVIDIA H100 data sheet (989 TFLOP/s bf16 dense, 1,979 fp8, 3,350 GB/s HBM3); DGX H100 fabric; "
                   "flash attention; efficiencies fitted once on examples/llm/measured/nemo-h100.json (NeMo 24.05 "
                   "and 24.07, 16 runs)",
                   989, 1979, 134, 80, 3350, 450, 50, kH100);
    std::string names;
    for (const auto& n : profilePresetNames()) names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown hardware profile '" + name + "' (one of " + names + ", or a file)");
}

}  // namespace partita::llm
