#include "core/llm/plan.h"

#include "core/llm/json_util.h"
#include "core/llm/numbers.h"
#include "core/util/checked.h"
#include "core/util/enum_names.h"
#include "core/util/limits.h"

namespace partita::llm {

namespace {

constexpr EnumName<Schedule> kSchedules[] = {
    {Schedule::Gpipe, "gpipe"}, {Schedule::OneF1B, "1f1b"}, {Schedule::Interleaved, "interleaved"}};
constexpr EnumName<Recompute> kRecomputes[] = {
    {Recompute::None, "none"}, {Recompute::Selective, "selective"}, {Recompute::Full, "full"}};
constexpr EnumName<TpOverlap> kOverlaps[] = {
    {TpOverlap::None, "none"}, {TpOverlap::Ring, "ring"}, {TpOverlap::Pipe, "pipe"}};
constexpr EnumName<ModelKind> kModels[] = {{ModelKind::Partita, "partita"}, {ModelKind::Calculon, "calculon"}};

void degree(std::int64_t v, std::int64_t hi, const char* key) {
    if (v < 1) throw FieldError(key, "must be a positive integer, got " + str(v));
    if (v > hi) throw FieldError(key, str(v) + " exceeds the limit of " + str(hi));
}

}  // namespace

const char* scheduleName(Schedule s) { return enumName(kSchedules, s); }
const char* recomputeName(Recompute r) { return enumName(kRecomputes, r); }
const char* tpOverlapName(TpOverlap o) { return enumName(kOverlaps, o); }
const char* modelKindName(ModelKind k) { return enumName(kModels, k); }
Schedule parseSchedule(const std::string& s) { return parseEnumOrThrow(kSchedules, s, "schedule"); }
Recompute parseRecompute(const std::string& s) {
    if (s == "attn_only") return Recompute::Selective;  // Calculon's name
    return parseEnumOrThrow(kRecomputes, s, "recompute");
}
TpOverlap parseTpOverlap(const std::string& s) { return parseEnumOrThrow(kOverlaps, s, "TP overlap"); }
ModelKind parseModelKind(const std::string& s) { return parseEnumOrThrow(kModels, s, "model"); }

std::int64_t Plan::gpus() const { return tp * pp * dp * cp; }
std::int64_t Plan::microBatches() const { return global_batch / (dp * micro_batch); }

void validate(const Transformer& m, const Plan& p, const Profile& profile, ModelKind kind) {
    validate(m);
    degree(p.tp, limits::kLlmGpus, "tp");
    degree(p.pp, limits::kLlmGpus, "pp");
    degree(p.dp, limits::kLlmGpus, "dp");
    degree(p.cp, limits::kLlmGpus, "cp");
    try {
        boundedMul(boundedMul(boundedMul(p.tp, p.pp, limits::kLlmGpus, "tp x pp"), p.dp, limits::kLlmGpus, "tp x pp x dp"),
                   p.cp, limits::kLlmGpus, "GPUs");
    } catch (const std::overflow_error& e) {
        throw FieldError("dp", e.what());
    }
    degree(p.global_batch, limits::kLlmBatch, "global_batch");
    degree(p.micro_batch, limits::kLlmBatch, "micro_batch");
    degree(p.interleave, limits::kLlmLayers, "interleave");
    if (p.cp > 1 && kind == ModelKind::Calculon) throw FieldError("cp", "the Calculon model has no context parallelism");
    if (m.seq % p.cp != 0) throw FieldError("cp", "cp = " + str(p.cp) + " must divide seq = " + str(m.seq));
    if (m.heads % p.tp != 0)
        throw FieldError("tp", "tp = " + str(p.tp) + " must divide heads = " + str(m.heads));
    if (m.kv_heads % p.tp != 0 && p.tp % m.kv_heads != 0)
        throw FieldError("tp", "tp = " + str(p.tp) + " must divide kv_heads = " + str(m.kv_heads) +
                                   " (or be a multiple of it, replicating K and V)");
    if (m.hidden % p.tp != 0)
        throw FieldError("tp", "tp = " + str(p.tp) + " must divide hidden = " + str(m.hidden));
    if (m.ffn % p.tp != 0) throw FieldError("tp", "tp = " + str(p.tp) + " must divide ffn = " + str(m.ffn));
    if (p.pp > m.layers) throw FieldError("pp", "pp = " + str(p.pp) + " exceeds layers = " + str(m.layers));
    const bool uneven = m.layers % p.pp != 0;
    if (uneven && !p.uneven_split)
        throw FieldError("pp", "pp = " + str(p.pp) + " must divide layers = " + str(m.layers) +
                                   " (or allow an uneven split)");
    if (p.global_batch % p.dp != 0)
        throw FieldError("global_batch", "global_batch = " + str(p.global_batch) + " must be divisible by dp = " +
                                             str(p.dp));
    if ((p.global_batch / p.dp) % p.micro_batch != 0)
        throw FieldError("micro_batch", "micro_batch = " + str(p.micro_batch) + " must divide global_batch / dp = " +
                                            str(p.global_batch / p.dp));
    const std::int64_t m_b = p.microBatches();
    if (p.interleave > 1) {
        if (p.schedule != Schedule::Interleaved)
            throw FieldError("schedule", "interleave = " + str(p.interleave) + " needs the interleaved schedule");
        if (p.pp == 1) throw FieldError("interleave", "interleaving needs pp > 1");
    }
    if (p.schedule == Schedule::Interleaved && p.interleave == 1)
        throw FieldError("interleave", "the interleaved schedule needs interleave > 1 (and pp > 1)");
    const std::int64_t per_stage = (m.layers + p.pp - 1) / p.pp;
    if (per_stage % p.interleave != 0)
        throw FieldError("interleave", "interleave = " + str(p.interleave) + " must divide the layers per stage, " +
                                           str(per_stage));
    if (uneven && p.interleave > 1 && kind == ModelKind::Partita)
        throw FieldError("interleave", "interleaving needs pp to divide layers");
    if (p.interleave > 1 && m_b % p.pp != 0 && kind == ModelKind::Partita)
        throw FieldError("global_batch", "interleaving needs the micro-batches per pipeline (" + str(m_b) +
                                             ") to be a multiple of pp = " + str(p.pp) + " (Megatron-LM's rule)");
    if (p.sequence_parallel && (m.seq / p.cp * p.micro_batch) % p.tp != 0)
        throw FieldError("sequence_parallel", "tp = " + str(p.tp) + " must divide seq / cp x micro_batch = " +
                                                  str(m.seq / p.cp * p.micro_batch));
    if (p.zero < 0 || p.zero > 3) throw FieldError("zero", "must be 0, 1, 2 or 3, got " + std::to_string(p.zero));
    if (p.zero >= 2 && p.pp > 1)
        throw FieldError("zero", "ZeRO stage " + std::to_string(p.zero) +
                                     " partitions gradients, which DeepSpeed's pipeline engine does not support: "
                                     "pp must be 1 (or use ZeRO-1 / the distributed optimizer)");
    if (p.zero > 0 && p.distributed_optimizer)
        throw FieldError("distributed_optimizer", "Megatron's distributed optimizer and ZeRO stage " +
                                                      std::to_string(p.zero) + " exclude each other");
    if (p.ag_redo.value_or(false) && !p.sequence_parallel)
        throw FieldError("ag_redo", "re-gathering the LN output needs sequence parallelism");
    if (p.ag_redo.value_or(false) && p.recompute == Recompute::Full)
        throw FieldError("ag_redo", "full recompute re-gathers anyway; ag_redo must be off");
    if (p.tp_overlap != TpOverlap::None && p.tp == 1) throw FieldError("tp_overlap", "TP overlap needs tp > 1");
    if (p.offloads()) {
        const char* key = p.offload_weights ? "offload_weights" : p.offload_activations ? "offload_activations" : "offload_optimizer";
        if (kind != ModelKind::Calculon) throw FieldError(key, "offloading is modelled by the Calculon model only (phase 2)");
        if (per_stage <= 2) throw FieldError(key, "offloading needs at least 3 layers per stage");
        if (profile.device.host_Bps <= 0) throw FieldError(key, "the profile has no host memory tier");
    }
    if (kind == ModelKind::Calculon) {
        if (p.zero > 1) throw FieldError("zero", "the Calculon model shards only the optimizer (zero 0 or 1)");
        if (p.schedule == Schedule::Gpipe) throw FieldError("schedule", "the Calculon model runs 1F1B only");
        if (p.shardsOptimizer() && p.dp == 1) throw FieldError("zero", "optimizer sharding needs dp > 1");
        if (p.dp_overlap.value_or(false) && p.dp == 1) throw FieldError("dp_overlap", "DP overlap needs dp > 1");
        if (p.tp > 1 && !p.sequence_parallel && p.scatter_gather && (m.seq * p.micro_batch) % p.tp != 0)
            throw FieldError("micro_batch", "tp = " + str(p.tp) + " must divide seq x micro_batch = " +
                                                str(m.seq * p.micro_batch) + " (split pipeline sends)");
    }
    if (profile.tiers.empty()) throw FieldError("profile", "the profile has no network tiers");
    const int tiers = static_cast<int>(profile.tiers.size());
    for (auto [tier, key] : {std::pair{p.tp_tier, "tp_tier"}, std::pair{p.pp_tier, "pp_tier"}, std::pair{p.dp_tier, "dp_tier"}})
        if (tier < -1 || tier >= tiers)
            throw FieldError(key, "tier " + std::to_string(tier) + " does not exist (the profile has " +
                                      std::to_string(tiers) + ")");
    // Each tier holds the product of the degrees placed on it (Calculon's rule).
    const Placement pl = placement(p, profile);
    std::vector<std::int64_t> used(static_cast<size_t>(tiers), 1);
    if (p.tp > 1) used[static_cast<size_t>(pl.tp)] *= p.tp;
    if (p.cp > 1) used[static_cast<size_t>(pl.cp)] *= p.cp;
    if (p.pp > 1) used[static_cast<size_t>(pl.pp)] *= p.pp;
    if (p.dp > 1) used[static_cast<size_t>(pl.dp)] *= p.dp;
    for (int i = 0; i < tiers; ++i) {
        const Tier& t = profile.tiers[static_cast<size_t>(i)];
        if (used[static_cast<size_t>(i)] == 1) continue;
        const char* key = p.tp > 1 && pl.tp == i   ? "tp"
                          : p.cp > 1 && pl.cp == i ? "cp"
                          : p.dp > 1 && pl.dp == i ? "dp"
                                                   : "pp";
        if (used[static_cast<size_t>(i)] > t.size)
            throw FieldError(key, "the degrees placed on tier '" + t.name + "' (" + str(used[static_cast<size_t>(i)]) +
                                      " GPUs) exceed its size " + str(t.size));
        if (t.must_fill && t.size % used[static_cast<size_t>(i)] != 0)
            throw FieldError(key, "tier '" + t.name + "' must be filled: " + str(used[static_cast<size_t>(i)]) +
                                      " GPUs do not divide its size " + str(t.size));
    }
}

Placement placement(const Plan& p, const Profile& profile) {
    // Megatron's rank order: tp fastest, then cp, dp, pp. A group lives on the first tier whose
    // size covers the span of its ranks.
    auto tierFor = [&](std::int64_t span) {
        for (size_t i = 0; i < profile.tiers.size(); ++i)
            if (profile.tiers[i].size >= span) return static_cast<int>(i);
        return static_cast<int>(profile.tiers.size()) - 1;
    };
    Placement pl;
    pl.tp = p.tp_tier >= 0 ? p.tp_tier : tierFor(p.tp);
    pl.cp = tierFor(p.tp * p.cp);
    pl.dp = p.dp_tier >= 0 ? p.dp_tier : tierFor(p.tp * p.cp * p.dp);
    pl.pp = p.pp_tier >= 0 ? p.pp_tier : tierFor(p.tp * p.cp * p.dp * p.pp);
    if (p.dp_tier < 0 && pl.dp > 0 && !profile.tiers.empty()) {
        // The gradient group (cp x dp ranks at stride tp) shares each tier-0 island among this many.
        const std::int64_t island = profile.tiers[0].size;
        if (p.tp < island && island % p.tp == 0) pl.dp_local = std::min(p.gradientGroup(), island / p.tp);
    }
    return pl;
}

std::int64_t stageLayers(const Transformer& m, const Plan& plan, std::int64_t stage) {
    const std::int64_t base = m.layers / plan.pp, extra = m.layers % plan.pp;
    return base + (stage < extra ? 1 : 0);
}

Json planToJson(const Plan& p) {
    Json j = {{"tp", p.tp},
              {"pp", p.pp},
              {"dp", p.dp},
              {"cp", p.cp},
              {"micro_batch", p.micro_batch},
              {"global_batch", p.global_batch},
              {"sequence_parallel", p.sequence_parallel},
              {"interleave", p.interleave},
              {"schedule", scheduleName(p.schedule)},
              {"recompute", recomputeName(p.recompute)},
              {"zero", p.zero},
              {"distributed_optimizer", p.distributed_optimizer}};
    if (p.precision) j["precision"] = dtypeName(*p.precision);
    if (p.ag_redo) j["ag_redo"] = *p.ag_redo;
    if (!p.scatter_gather) j["scatter_gather"] = false;
    if (p.tp_overlap != TpOverlap::None) j["tp_overlap"] = tpOverlapName(p.tp_overlap);
    if (p.dp_overlap) j["dp_overlap"] = *p.dp_overlap;
    if (p.pp_overlap) j["pp_overlap"] = true;
    if (p.fused_activation) j["fused_activation"] = true;
    if (p.uneven_split) j["uneven_split"] = true;
    if (p.offload_weights) j["offload_weights"] = true;
    if (p.offload_activations) j["offload_activations"] = true;
    if (p.offload_optimizer) j["offload_optimizer"] = true;
    if (p.tp_tier >= 0) j["tp_tier"] = p.tp_tier;
    if (p.pp_tier >= 0) j["pp_tier"] = p.pp_tier;
    if (p.dp_tier >= 0) j["dp_tier"] = p.dp_tier;
    return j;
}

Plan readPlan(Fields f) {
    Plan p;
    auto integer = [&](const char* key, std::int64_t fallback) {
        return given(f, key) ? f.integerIn(key, 1, limits::kLlmGpus > limits::kLlmBatch ? limits::kLlmGpus : limits::kLlmBatch)
                             : fallback;
    };
    auto flag = [&](const char* key, bool fallback) { return given(f, key) ? f.boolean(key, fallback) : fallback; };
    auto optFlag = [&](const char* key) -> std::optional<bool> {
        if (!given(f, key)) return std::nullopt;
        return f.boolean(key, false);
    };
    p.tp = integer("tp", 1);
    p.pp = integer("pp", 1);
    p.dp = integer("dp", 1);
    p.cp = integer("cp", 1);
    p.micro_batch = integer("micro_batch", 1);
    p.global_batch = given(f, "global_batch") ? f.integerIn("global_batch", 1, limits::kLlmBatch) : 1;
    p.sequence_parallel = flag("sequence_parallel", false);
    p.interleave = given(f, "interleave") ? f.integerIn("interleave", 1, limits::kLlmLayers) : 1;
    if (given(f, "schedule")) p.schedule = parsed(f, "schedule", [](const std::string& s) { return parseSchedule(s); });
    else p.schedule = p.interleave > 1 ? Schedule::Interleaved : Schedule::OneF1B;
    if (given(f, "recompute")) p.recompute = parsed(f, "recompute", [](const std::string& s) { return parseRecompute(s); });
    p.zero = given(f, "zero") ? static_cast<int>(f.integerIn("zero", 0, 3)) : 0;
    p.distributed_optimizer = flag("distributed_optimizer", false);
    if (given(f, "precision")) p.precision = parsed(f, "precision", [](const std::string& s) { return parseDtype(s); });
    p.ag_redo = optFlag("ag_redo");
    p.scatter_gather = flag("scatter_gather", true);
    if (given(f, "tp_overlap"))
        p.tp_overlap = parsed(f, "tp_overlap", [](const std::string& s) { return parseTpOverlap(s); });
    p.dp_overlap = optFlag("dp_overlap");
    p.pp_overlap = flag("pp_overlap", false);
    p.fused_activation = flag("fused_activation", false);
    p.uneven_split = flag("uneven_split", false);
    p.offload_weights = flag("offload_weights", false);
    p.offload_activations = flag("offload_activations", false);
    p.offload_optimizer = flag("offload_optimizer", false);
    p.tp_tier = given(f, "tp_tier") ? static_cast<int>(f.integerIn("tp_tier", 0, limits::kLlmTiers - 1)) : -1;
    p.pp_tier = given(f, "pp_tier") ? static_cast<int>(f.integerIn("pp_tier", 0, limits::kLlmTiers - 1)) : -1;
    p.dp_tier = given(f, "dp_tier") ? static_cast<int>(f.integerIn("dp_tier", 0, limits::kLlmTiers - 1)) : -1;
    f.finish();
    return p;
}

}  // namespace partita::llm
