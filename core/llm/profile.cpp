#include "core/llm/profile.h"

#include <algorithm>
#include <cmath>

#include "core/llm/json_util.h"
#include "core/llm/numbers.h"
#include "core/llm/transformer.h"
#include "core/util/enum_names.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::llm {

namespace {

constexpr EnumName<Dtype> kDtypes[] = {
    {Dtype::Fp8, "fp8"}, {Dtype::Bf16, "bf16"}, {Dtype::Fp16, "fp16"}, {Dtype::Fp32, "fp32"}};
constexpr EnumName<Op> kOpNames[] = {{Op::P2p, "p2p"},
                                     {Op::AllReduce, "all_reduce"},
                                     {Op::ReduceScatter, "reduce_scatter"},
                                     {Op::AllGather, "all_gather"},
                                     {Op::AllToAll, "all_to_all"}};
constexpr EnumName<Interp> kInterps[] = {{Interp::Step, "step"}, {Interp::LogLinear, "loglinear"}};
constexpr EnumName<Compose> kComposes[] = {{Compose::Sum, "sum"}, {Compose::Max, "max"}};

}  // namespace

const char* dtypeName(Dtype d) { return enumName(kDtypes, d); }
int dtypeBytes(Dtype d) { return d == Dtype::Fp8 ? 1 : d == Dtype::Fp32 ? 4 : 2; }
const char* opName(Op op) { return enumName(kOpNames, op); }

Dtype parseDtype(const std::string& s) {
    if (auto v = parseEnum(kDtypes, s)) return *v;
    if (s == "float8") return Dtype::Fp8;
    if (s == "float16") return Dtype::Fp16;
    if (s == "bfloat16") return Dtype::Bf16;
    if (s == "float32") return Dtype::Fp32;
    throw std::invalid_argument("unknown data type '" + s + "' (one of fp8, bf16, fp16, fp32)");
}

double Device::kernelTime(const Unit& u, double flops, double bytes, double flops_scale) const {
    if (flops <= 0 && bytes <= 0) return 0;
    const double compute = flops > 0 ? flops / (u.peak_flops * u.efficiency.at(flops, 1e9)) / flops_scale : 0;
    const double memory = bytes > 0 ? bytes / (hbm_Bps * hbm_efficiency.at(bytes, 1e6)) : 0;
    return compose == Compose::Sum ? compute + memory : std::max(compute, memory);
}

double Curve::at(double amount, double unit) const {
    if (points.empty()) return 1;
    if (interp == Interp::Step) {
        for (const auto& p : points)
            if (amount >= p[0] * unit) return p[1];
        return points.back()[1];
    }
    const double size = amount / unit;
    if (size >= points.front()[0]) return points.front()[1];
    if (size <= points.back()[0]) return points.back()[1];
    for (size_t i = 0; i + 1 < points.size(); ++i) {
        const auto& hi = points[i];
        const auto& lo = points[i + 1];
        if (size >= lo[0]) {
            const double x = (std::log(size) - std::log(lo[0])) / (std::log(hi[0]) - std::log(lo[0]));
            return lo[1] + x * (hi[1] - lo[1]);
        }
    }
    return points.back()[1];
}

const Unit& Device::unit(bool matrix_engine, Dtype dtype) const {
    const auto& units = matrix_engine ? matrix : vector;
    for (const auto& u : units)
        if (u.dtype == dtype) return u;
    // bf16 and fp16 run at the same rate on every GPU profiled here; fp8 falls back to 16 bit
    // for the vector unit (element-wise work stays in 16 bit).
    for (const auto& u : units)
        if ((dtype == Dtype::Bf16 && u.dtype == Dtype::Fp16) || (dtype == Dtype::Fp16 && u.dtype == Dtype::Bf16))
            return u;
    if (dtype == Dtype::Fp8 && !matrix_engine) return unit(false, Dtype::Bf16);
    throw std::invalid_argument(std::string("the profile has no ") + (matrix_engine ? "matrix" : "vector") +
                                " unit for " + dtypeName(dtype));
}

void Device::sortUnits() {
    auto byDtype = [](const Unit& a, const Unit& b) { return a.dtype < b.dtype; };
    std::sort(matrix.begin(), matrix.end(), byDtype);
    std::sort(vector.begin(), vector.end(), byDtype);
}

double Tier::time(Op op, double bytes, std::int64_t peers, bool per_step_latency) const {
    if (peers <= 1) return 0;
    const Collective& c = ops[static_cast<int>(op)];
    double steps = 1;
    if (per_step_latency) {
        const double n = static_cast<double>(peers);
        if (op == Op::P2p) steps = 1;
        else if (c.algorithm == "tree" || c.algorithm == "hierarchical")
            steps = 2 * std::ceil(std::log2(n));
        else steps = op == Op::AllReduce ? 2 * (n - 1) : n - 1;
    }
    return latency_s * steps +
           bytes * c.scalar * (1 + c.offset / static_cast<double>(peers)) / (bandwidth_Bps * efficiency);
}

namespace {

Collective ringCollective(Op op, const std::string& algorithm = "ring") {
    Collective c;
    c.algorithm = algorithm;
    switch (op) {
    case Op::P2p: c.scalar = 1; c.offset = 0; break;
    case Op::AllReduce: c.scalar = 2; c.offset = -1; break;
    default: c.scalar = 1; c.offset = -1; break;
    }
    return c;
}

std::array<Collective, kOps> ringOps() {
    std::array<Collective, kOps> ops;
    for (int i = 0; i < kOps; ++i) ops[i] = ringCollective(static_cast<Op>(i));
    return ops;
}

// ---- reading partita-llm-hw/1 -------------------------------------------------------------------

// [[size, efficiency], ...], sizes strictly descending, efficiencies in (0, 1]; a step curve ends at
// size 0 (it covers every smaller operation, as Calculon requires), a loglinear one has positive sizes.
std::vector<std::array<double, 2>> readPoints(const Json& pts, const std::string& at, const std::string& source,
                                              Interp interp) {
    if (!pts.is_array() || pts.empty()) throw InputError(source, at, "expected a list of [size, efficiency] pairs");
    if (static_cast<std::int64_t>(pts.size()) > limits::kLlmCurvePoints)
        throw InputError(source, at, "more than " + std::to_string(limits::kLlmCurvePoints) + " points");
    std::vector<std::array<double, 2>> points;
    for (size_t i = 0; i < pts.size(); ++i) {
        const Json& p = pts[i];
        const std::string here = at + "/" + std::to_string(i);
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
            throw InputError(source, here, "expected [size, efficiency]");
        const double size = p[0].get<double>(), eff = p[1].get<double>();
        if (!std::isfinite(size) || size < 0) throw InputError(source, here + "/0", "a size must be >= 0");
        if (!(eff > 0 && eff <= 1)) throw InputError(source, here + "/1", "an efficiency must be in (0, 1]");
        if (!points.empty() && !(size < points.back()[0]))
            throw InputError(source, here + "/0", "sizes must decrease strictly");
        if (interp == Interp::LogLinear && size <= 0)
            throw InputError(source, here + "/0", "loglinear sizes must be positive");
        points.push_back({size, eff});
    }
    if (interp == Interp::Step && points.back()[0] != 0)
        throw InputError(source, at + "/" + std::to_string(pts.size() - 1) + "/0",
                         "the last size of a step curve must be 0 (it covers every smaller operation)");
    return points;
}

Curve readCurve(Fields f, const std::string& expected_key) {
    Curve c;
    c.key = f.string("key", expected_key);
    if (c.key != expected_key) f.fail("key", "expected '" + expected_key + "', found '" + c.key + "'");
    c.interp = parsed(f, "interp", [](const std::string& s) { return parseEnumOrThrow(kInterps, s, "interpolation"); });
    c.points = readPoints(f.raw("points"), f.pointer("points"), f.source(), c.interp);
    f.finish();
    return c;
}

// An object of data type -> unit; `read` fills a unit from its fields.
template <class Read>
std::vector<Unit> readUnits(const Json& j, const std::string& at, const std::string& source, Read read) {
    if (!j.is_object() || j.empty()) throw InputError(source, at, "expected an object of data type -> unit");
    std::vector<Unit> units;
    for (const auto& [key, value] : j.items()) {
        Unit u;
        try {
            u.dtype = parseDtype(key);
        } catch (const std::invalid_argument& e) {
            throw InputError(source, at + "/" + key, e.what());
        }
        Fields f(value, at + "/" + key, source);
        read(f, u);
        if (u.peak_flops > limits::kRateMax) throw InputError(source, at + "/" + key, "exceeds the limit of 1e9 TFLOP/s");
        f.finish();
        units.push_back(std::move(u));
    }
    std::sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) { return a.dtype < b.dtype; });
    return units;
}

std::vector<Unit> readUnitMap(const Json& j, const std::string& pointer, const std::string& source) {
    return readUnits(j, pointer, source, [](Fields& f, Unit& u) {
        u.peak_flops = f.positive("peak_tflops") * 1e12;
        u.efficiency = readCurve(object(f, "efficiency"), "op_gflop");
    });
}

double readBandwidth(Fields& f, const std::string& key, double scale) {
    const double v = f.positive(key) * scale;
    if (v > limits::kRateMax || v < limits::kRateMin) f.fail(key, "outside 1 B/s .. 1e21 B/s");
    return v;
}

Collective readCollective(const Json& j, Op op, const std::string& at, const std::string& source) {
    if (j.is_array()) {
        if (j.size() != 2 || !j[0].is_number() || !(j[1].is_number() || j[1].is_null()))
            throw InputError(source, at, "expected [scalar, offset]");
        Collective c;
        c.scalar = j[0].get<double>();
        c.offset = j[1].is_null() ? 0 : j[1].get<double>();
        if (!(c.scalar > 0) || !std::isfinite(c.scalar)) throw InputError(source, at + "/0", "the scalar must be positive");
        if (!std::isfinite(c.offset) || c.offset <= -2 || c.offset > 1e6)
            throw InputError(source, at + "/1", "the offset must be in (-2, 1e6]");
        return c;
    }
    Fields f(j, at, source);
    const std::string algo = f.string("algorithm");
    if (algo != "ring" && algo != "tree" && algo != "hierarchical")
        f.fail("algorithm", "unknown algorithm '" + algo + "' (ring, tree or hierarchical)");
    f.finish();
    return ringCollective(op, algo);
}

Tier readTier(Fields f) {
    Tier t;
    t.name = f.string("name", "tier");
    t.size = f.integerIn("size", 1, limits::kLlmGpus);
    t.must_fill = f.boolean("must_fill", false);
    t.bandwidth_Bps = readBandwidth(f, "bandwidth_gbps", 1e9);
    t.efficiency = f.positive("efficiency", 1);
    if (t.efficiency > 1) f.fail("efficiency", "must be in (0, 1]");
    t.latency_s = f.nonNegative("latency_us", 0) / 1e6;
    if (t.latency_s > limits::kLatencyMax) f.fail("latency_us", "exceeds a day");
    t.compute_steal = f.nonNegative("compute_steal", 0);
    if (t.compute_steal >= 1) f.fail("compute_steal", "must be in [0, 1)");
    t.ops = ringOps();
    if (f.has("collectives")) {
        Fields c = object(f, "collectives");
        for (int i = 0; i < kOps; ++i) {
            const std::string name = opName(static_cast<Op>(i));
            if (c.has(name)) t.ops[i] = readCollective(c.raw(name), static_cast<Op>(i), c.pointer(name), c.source());
        }
        c.finish();
    }
    f.finish();
    return t;
}

Json curveJson(const Curve& c) {
    Json pts = Json::array();
    for (const auto& p : c.points) pts.push_back({p[0], p[1]});
    return {{"key", c.key}, {"interp", enumName(kInterps, c.interp)}, {"points", pts}};
}

Json unitsJson(const std::vector<Unit>& units) {
    Json j = Json::object();
    for (const auto& u : units)
        j[dtypeName(u.dtype)] = {{"peak_tflops", u.peak_flops / 1e12}, {"efficiency", curveJson(u.efficiency)}};
    return j;
}

}  // namespace

Profile readProfileJson(const std::string& text, const std::string& source) {
    const Json root = parseJsonText(text, source);
    if (looksLikeCalculonSystem(root)) return importCalculonSystem(root, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-llm-hw/1");
    Profile p;
    p.name = f.string("name", "custom");
    p.provenance = f.string("provenance", "");
    {
        Fields dev = object(f, "device");
        Fields units = object(dev, "units");
        p.device.matrix = readUnitMap(units.raw("matrix"), units.pointer("matrix"), source);
        p.device.vector = readUnitMap(units.raw("vector"), units.pointer("vector"), source);
        units.finish();
        Fields hbm = object(dev, "hbm");
        p.device.hbm_bytes = hbm.positive("capacity_gib") * kGiB;
        if (p.device.hbm_bytes > limits::kMemoryBytes) hbm.fail("capacity_gib", "exceeds the limit of 1 EiB");
        p.device.hbm_Bps = readBandwidth(hbm, "bandwidth_gbps", 1e9);
        if (hbm.has("efficiency")) p.device.hbm_efficiency = readCurve(object(hbm, "efficiency"), "op_mb");
        hbm.finish();
        if (given(dev, "host")) {
            Fields host = object(dev, "host");
            p.device.host_bytes = host.nonNegative("capacity_gib", 0) * kGiB;
            if (p.device.host_bytes > limits::kMemoryBytes) host.fail("capacity_gib", "exceeds the limit of 1 EiB");
            p.device.host_Bps = readBandwidth(host, "bandwidth_gbps", 1e9);
            if (host.has("efficiency")) p.device.host_efficiency = readCurve(object(host, "efficiency"), "op_mb");
            host.finish();
        }
        p.device.compose = parsed(dev, "compose", [](const std::string& s) { return parseEnumOrThrow(kComposes, s, "compose"); });
        p.device.reserved_bytes = dev.nonNegative("reserved_gib", 0) * kGiB;
        if (p.device.reserved_bytes > limits::kMemoryBytes) dev.fail("reserved_gib", "exceeds the limit of 1 EiB");
        p.device.causal_attention_discount = dev.boolean("causal_attention_discount", false);
        p.device.flash_attention = dev.boolean("flash_attention", false);
        p.device.layer_overhead_s = dev.nonNegative("layer_overhead_ms", 0) * 1e-3;
        if (p.device.layer_overhead_s > 3600) dev.fail("layer_overhead_ms", "exceeds an hour per layer");
        dev.finish();
    }
    if (given(f, "precision")) {
        Fields pr = object(f, "precision");
        auto dt = [&](const char* key, Dtype fallback) {
            return pr.has(key) ? parsed(pr, key, [](const std::string& s) { return parseDtype(s); }) : fallback;
        };
        p.precision.param = dt("param", p.precision.param);
        p.precision.grad_accum = dt("grad_accum", p.precision.grad_accum);
        p.precision.grad_reduce = dt("grad_reduce", p.precision.grad_reduce);
        p.precision.optimizer = dt("optimizer", p.precision.optimizer);
        pr.finish();
    }
    const Json& tiers = f.raw("tiers");
    if (!tiers.is_array() || tiers.empty()) f.fail("tiers", "expected a non-empty list of network tiers");
    if (static_cast<std::int64_t>(tiers.size()) > limits::kLlmTiers)
        f.fail("tiers", "more than " + std::to_string(limits::kLlmTiers) + " tiers");
    for (size_t i = 0; i < tiers.size(); ++i)
        p.tiers.push_back(readTier(Fields(tiers[i], "/tiers/" + std::to_string(i), source)));
    if (given(f, "notes")) {  // what an importer or override assumed, kept with a stored run
        const Json& notes = f.raw("notes");
        if (!notes.is_array()) f.fail("notes", "expected a list of strings");
        for (const Json& n : notes) {
            if (!n.is_string()) f.fail("notes", "expected a list of strings");
            p.notes.push_back(n.get<std::string>());
        }
    }
    f.finish();
    // Matrix units for the parameter dtype must exist (vector falls back).
    try {
        (void)p.device.unit(true, p.precision.param);
        (void)p.device.unit(false, p.precision.param);
    } catch (const std::invalid_argument& e) {
        throw InputError(source, "/device/units", e.what());
    }
    return p;
}

Json profileToJson(const Profile& p) {
    Json dev = {{"units", {{"matrix", unitsJson(p.device.matrix)}, {"vector", unitsJson(p.device.vector)}}},
                {"hbm",
                 {{"capacity_gib", p.device.hbm_bytes / kGiB},
                  {"bandwidth_gbps", p.device.hbm_Bps / 1e9},
                  {"efficiency", curveJson(p.device.hbm_efficiency)}}},
                {"compose", enumName(kComposes, p.device.compose)},
                {"reserved_gib", p.device.reserved_bytes / kGiB},
                {"causal_attention_discount", p.device.causal_attention_discount},
                {"flash_attention", p.device.flash_attention}};
    if (p.device.layer_overhead_s > 0) dev["layer_overhead_ms"] = p.device.layer_overhead_s * 1e3;
    if (p.device.host_Bps > 0) {
        Json host = {{"capacity_gib", p.device.host_bytes / kGiB}, {"bandwidth_gbps", p.device.host_Bps / 1e9}};
        if (!p.device.host_efficiency.points.empty()) host["efficiency"] = curveJson(p.device.host_efficiency);
        dev["host"] = host;
    }
    Json tiers = Json::array();
    for (const auto& t : p.tiers) {
        Json ops = Json::object();
        for (int i = 0; i < kOps; ++i) {
            const Collective& c = t.ops[i];
            if (!c.algorithm.empty() && c == ringCollective(static_cast<Op>(i), c.algorithm))
                ops[opName(static_cast<Op>(i))] = {{"algorithm", c.algorithm}};
            else
                ops[opName(static_cast<Op>(i))] = {c.scalar, c.offset};
        }
        tiers.push_back({{"name", t.name},
                         {"size", t.size},
                         {"must_fill", t.must_fill},
                         {"bandwidth_gbps", t.bandwidth_Bps / 1e9},
                         {"efficiency", t.efficiency},
                         {"latency_us", std::round(t.latency_s * 1e12) / 1e6},  // to the picosecond, so it reads back
                         {"compute_steal", t.compute_steal},
                         {"collectives", ops}});
    }
    Json j = {{"format", "partita-llm-hw/1"},
            {"name", p.name},
            {"provenance", p.provenance},
            {"device", dev},
            {"precision",
             {{"param", dtypeName(p.precision.param)},
              {"grad_accum", dtypeName(p.precision.grad_accum)},
              {"grad_reduce", dtypeName(p.precision.grad_reduce)},
              {"optimizer", dtypeName(p.precision.optimizer)}}},
            {"tiers", tiers}};
    if (!p.notes.empty()) j["notes"] = p.notes;
    return j;
}

// ---- Calculon's system JSON ---------------------------------------------------------------------

bool looksLikeCalculonSystem(const Json& j) {
    return j.is_object() && !j.contains("format") && j.contains("networks") && j.contains("mem1");
}

namespace {

// [[threshold, efficiency], ...] with thresholds in `scale` units of the curve's key (Calculon:
// GFLOP for processors, MB for memories).
// Calculon's [[threshold, efficiency], ...] tables (GFLOP for processors, MB for memories).
Curve calculonCurve(const Json& table, const std::string& at, const std::string& source, const char* key) {
    return Curve{key, Interp::Step, readPoints(table, at, source, Interp::Step)};
}

std::vector<Unit> calculonUnits(const Json& j, const std::string& at, const std::string& source) {
    return readUnits(j, at, source, [&](Fields& f, Unit& u) {
        u.peak_flops = f.positive("tflops") * 1e12;
        u.efficiency = calculonCurve(f.raw("gflops_efficiency"), f.pointer("gflops_efficiency"), source, "op_gflop");
    });
}

void calculonMemory(Fields f, double& bytes, double& Bps, Curve& eff) {
    bytes = f.nonNegative("GiB", 0) * kGiB;
    Bps = f.positive("GBps") * 1e9;
    eff = calculonCurve(f.raw("MB_efficiency"), f.pointer("MB_efficiency"), f.source(), "op_mb");
    f.finish();
}

}  // namespace

Profile importCalculonSystem(const Json& system, const std::string& source) {
    Fields f(system, "", source);
    Profile p;
    p.name = source;
    p.provenance = "imported from Calculon system JSON " + source;
    p.device.matrix = calculonUnits(f.raw("matrix"), "/matrix", source);
    p.device.vector = calculonUnits(f.raw("vector"), "/vector", source);
    calculonMemory(object(f, "mem1"), p.device.hbm_bytes, p.device.hbm_Bps, p.device.hbm_efficiency);
    if (f.has("mem2"))
        calculonMemory(object(f, "mem2"), p.device.host_bytes, p.device.host_Bps, p.device.host_efficiency);
    const std::string mode = f.string("processing_mode");
    if (mode == "no_overlap") p.device.compose = Compose::Sum;
    else if (mode == "roofline") p.device.compose = Compose::Max;
    else f.fail("processing_mode", "expected no_overlap or roofline, found '" + mode + "'");
    // Calculon keeps every copy in the execution's one data type: 16-bit everything.
    p.precision = {p.device.matrix.front().dtype, p.device.matrix.front().dtype, p.device.matrix.front().dtype,
                   Dtype::Fp32};
    const Json& nets = f.raw("networks");
    if (!nets.is_array() || nets.empty()) f.fail("networks", "expected a non-empty list of networks");
    if (static_cast<std::int64_t>(nets.size()) > limits::kLlmTiers)
        f.fail("networks", "more than " + std::to_string(limits::kLlmTiers) + " networks");
    for (size_t i = 0; i < nets.size(); ++i) {
        Fields n(nets[i], "/networks/" + std::to_string(i), source);
        Tier t;
        t.name = "tier" + std::to_string(i);
        t.bandwidth_Bps = readBandwidth(n, "bandwidth", 1e9);
        t.efficiency = n.positive("efficiency");
        if (t.efficiency > 1) n.fail("efficiency", "must be in (0, 1]");
        t.size = n.integerIn("size", 0, limits::kLlmGpus);
        t.latency_s = n.nonNegative("latency", 0);
        if (t.latency_s > limits::kLatencyMax) n.fail("latency", "exceeds a day");
        t.must_fill = n.boolean("must_be_filled", false);
        t.compute_steal = n.nonNegative("processor_usage", 0);
        if (t.compute_steal >= 1) n.fail("processor_usage", "must be in [0, 1)");
        t.ops = ringOps();
        Fields ops = object(n, "ops");
        for (int k = 0; k < 4; ++k) {  // Calculon names p2p and the three collectives
            const std::string name = opName(static_cast<Op>(k));
            t.ops[k] = readCollective(ops.raw(name), static_cast<Op>(k), ops.pointer(name), source);
        }
        ops.finish();
        n.finish();
        p.tiers.push_back(t);
    }
    f.finish();
    return p;
}

Profile loadProfile(const std::string& name_or_path) {
    if (isProfilePreset(name_or_path)) return profilePreset(name_or_path);
    return readProfileJson(readTextFile(name_or_path), name_or_path);
}

}  // namespace partita::llm
