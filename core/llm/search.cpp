#include "core/llm/search.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/llm/calculon_model.h"
#include "core/llm/layer_costs.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::llm {

namespace {

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> lo, hi;
    for (std::int64_t i = 1; i * i <= n; ++i) {
        if (n % i != 0) continue;
        lo.push_back(i);
        if (i != n / i) hi.push_back(n / i);
    }
    lo.insert(lo.end(), hi.rbegin(), hi.rend());
    return lo;
}

std::uint64_t packKey(const LayerKey& k) {
    // tp and micro-batch below 2^24 each (limits), the rest a few bits.
    std::uint64_t x = static_cast<std::uint64_t>(k.tp);
    x = x * (std::uint64_t{1} << 25) + static_cast<std::uint64_t>(k.micro_batch);
    x = x * 2 + (k.sequence_parallel ? 1 : 0);
    x = x * 4 + static_cast<std::uint64_t>(k.recompute);
    x = x * 2 + (k.ag_redo ? 1 : 0);
    x = x * 32 + static_cast<std::uint64_t>(k.tp_tier);
    x = x * 4 + static_cast<std::uint64_t>(k.tp_overlap);
    return x;
}

bool tiersFit(const Plan& p, const Placement& pl, const Profile& profile) {
    std::int64_t used[limits::kLlmTiers] = {};
    for (auto& u : used) u = 1;
    if (p.tp > 1) used[pl.tp] *= p.tp;
    if (p.pp > 1) used[pl.pp] *= p.pp;
    if (p.dp > 1) used[pl.dp] *= p.dp;
    for (size_t i = 0; i < profile.tiers.size(); ++i) {
        const std::int64_t u = used[i];
        if (u == 1) continue;
        if (u > profile.tiers[i].size) return false;
        if (profile.tiers[i].must_fill && profile.tiers[i].size % u != 0) return false;
    }
    return true;
}

// The results kept while the search runs.
class Collector {
public:
    explicit Collector(std::size_t top) : top_(top) {}

    void add(const PlanPoint& pt) {
        if (!pt.fits) return;
        if (!found_ || better(pt, best_)) best_ = pt, found_ = true;
        if (top_ > 0 && (ranked_.size() < top_ || better(pt, ranked_.back()))) {
            auto at = std::upper_bound(ranked_.begin(), ranked_.end(), pt, [](const PlanPoint& a, const PlanPoint& b) {
                return better(a, b);
            });
            ranked_.insert(at, pt);
            if (ranked_.size() > top_) ranked_.pop_back();
        }
        // Pareto front by time: memory strictly falls as time grows.
        auto it = pareto_.upper_bound(pt.iteration_s);
        if (it != pareto_.begin() && std::prev(it)->second.peak_bytes <= pt.peak_bytes) return;  // dominated
        auto next = pareto_.lower_bound(pt.iteration_s);
        while (next != pareto_.end() && next->second.peak_bytes >= pt.peak_bytes) next = pareto_.erase(next);
        pareto_.emplace(pt.iteration_s, pt);
    }

    void finish(SearchResult& r) const {
        r.found = found_;
        if (found_) r.best = best_;
        r.ranked = ranked_;
        for (const auto& [t, pt] : pareto_) r.pareto.push_back(pt);
    }

private:
    static bool better(const PlanPoint& a, const PlanPoint& b) {
        if (a.iteration_s != b.iteration_s) return a.iteration_s < b.iteration_s;
        return a.peak_bytes < b.peak_bytes;
    }
    std::size_t top_;
    bool found_ = false;
    PlanPoint best_;
    std::vector<PlanPoint> ranked_;
    std::multimap<double, PlanPoint> pareto_;
};

}  // namespace

SearchResult search(const Transformer& m, const Profile& profile, const SearchOptions& o, const ProgressFn& progress,
                    const CancelFn& cancel, const PointSink& sink) {
    validate(m);
    if (o.gpus < 1 || o.gpus > limits::kLlmGpus)
        throw FieldError("gpus", std::to_string(o.gpus) + " is outside 1 .. " + std::to_string(limits::kLlmGpus));
    if (o.global_batch < 1 || o.global_batch > limits::kLlmBatch)
        throw FieldError("global_batch",
                         std::to_string(o.global_batch) + " is outside 1 .. " + std::to_string(limits::kLlmBatch));
    if (profile.tiers.empty()) throw FieldError("profile", "the profile has no network tiers");
    const bool calculon = o.model == ModelKind::Calculon;
    SearchResult result;
    Collector keep(o.top);

    Plan base;
    const CostContext ctx = costContext(m, profile, base);
    std::unordered_map<std::uint64_t, LayerCost> layer_cache;
    std::unordered_map<std::uint64_t, EdgeCost> edge_cache;
    const double capacity = profile.device.hbm_bytes;

    // Outer pairs (tp, pp) in Calculon's order.
    std::vector<std::pair<std::int64_t, std::int64_t>> outer;
    for (std::int64_t t : divisors(o.gpus)) {
        if (m.heads % t || m.hidden % t || m.ffn % t) continue;
        if (m.kv_heads % t && t % m.kv_heads) continue;
        for (std::int64_t p : divisors(o.gpus / t))
            if (p <= m.layers && m.layers % p == 0) outer.emplace_back(t, p);
    }

    std::int64_t since_check = 0;
    auto tick = [&] {
        if (++since_check < 1024) return;
        since_check = 0;
        if (cancel && cancel()) throw Cancelled();
    };

    // Partita's one-plan evaluation from the caches.
    auto evaluateFast = [&](const Plan& plan, const Placement& pl) {
        const LayerKey key = layerKey(plan, pl);
        const std::uint64_t k = packKey(key);
        auto lit = layer_cache.find(k);
        if (lit == layer_cache.end()) lit = layer_cache.emplace(k, layerCost(ctx, key)).first;
        LayerKey ekey = key;
        ekey.recompute = Recompute::None;
        ekey.ag_redo = false;
        ekey.tp_overlap = TpOverlap::None;
        const std::uint64_t ek = packKey(ekey);
        auto eit = edge_cache.find(ek);
        if (eit == edge_cache.end()) eit = edge_cache.emplace(ek, edgeCost(ctx, ekey)).first;
        return assemble(ctx, plan, pl, lit->second, eit->second, false);
    };

    for (std::size_t oi = 0; oi < outer.size(); ++oi) {
        if (cancel && cancel()) throw Cancelled();
        if (progress) progress(static_cast<double>(oi) / static_cast<double>(outer.size()));
        const auto [t, p] = outer[oi];
        const std::int64_t d = o.gpus / (t * p);
        if (o.global_batch % d != 0) continue;
        const std::int64_t local = o.global_batch / d;
        std::vector<std::int64_t> micro;
        for (std::int64_t b : divisors(local))
            if (o.max_micro_batch <= 0 || b <= o.max_micro_batch) micro.push_back(b);
        // Optimizer schemes: (zero, distributed optimizer).
        std::vector<std::pair<int, bool>> schemes = {{0, false}};
        if (d > 1) {
            if (calculon) {
                schemes.push_back({0, true});
            } else {
                for (int z : o.zero_stages)
                    if (z > 0 && (z < 2 || p == 1)) schemes.push_back({z, false});  // DeepSpeed: ZeRO-2/3 need pp 1
                if (o.distributed_optimizer) schemes.push_back({0, true});
            }
        }
        std::vector<std::int64_t> interleaves = {1};
        if (p > 1)
            for (std::int64_t v : divisors(m.layers / p))
                if (v > 1) interleaves.push_back(v);

        for (const auto& [zero, distopt] : schemes) {
            Plan plan;
            plan.tp = t;
            plan.pp = p;
            plan.dp = d;
            plan.global_batch = o.global_batch;
            plan.zero = zero;
            plan.distributed_optimizer = distopt;
            if (calculon) plan.precision = profile.precision.param;
            // Weights, gradients and optimizer state alone over capacity: nothing below fits.
            bool state_fits = true;
            if (!calculon) {
                const BytesPerParam bpp = bytesPerParam(profile.precision, zero, distopt, d);
                const double worst = std::max(stageParams(m, plan, 0), stageParams(m, plan, p - 1));
                state_fits = worst * bpp.total() + profile.device.reserved_bytes <= capacity;
            }
            for (std::int64_t v : interleaves) {
                std::vector<Schedule> schedules;
                for (Schedule s : o.schedules) {
                    if (v > 1 && s != Schedule::Interleaved) continue;
                    if (v == 1 && s == Schedule::Interleaved) continue;
                    if (p == 1 && s == Schedule::Gpipe) continue;  // one stage: the schedules coincide
                    if (calculon && s == Schedule::Gpipe) continue;
                    schedules.push_back(s);
                }
                for (Schedule sched : schedules) {
                    plan.interleave = v;
                    plan.schedule = sched;
                    for (Recompute rc : o.recomputes) {
                        plan.recompute = rc;
                        // (SP, scatter/gather): Calculon's rs_ag, p2p_rs_ag, ar.
                        std::vector<std::pair<bool, bool>> comms = {{false, false}};
                        if (t > 1) comms = {{false, false}, {false, true}, {true, true}};
                        for (const auto& [sp, sg] : comms) {
                            if (!calculon && !sp && sg && p == 1) continue;  // scatter/gather only moves PP sends
                            plan.sequence_parallel = sp;
                            plan.scatter_gather = sg;
                            std::vector<bool> redos = {false};
                            if (sp && rc != Recompute::Full) redos = {true, false};
                            for (bool redo : redos) {
                                plan.ag_redo = redo;
                                bool oom_rest = !state_fits;
                                for (std::int64_t b : micro) {
                                    plan.micro_batch = b;
                                    const std::int64_t mb = local / b;
                                    if (v > 1 && mb % p != 0 && !calculon) continue;  // Megatron's rule
                                    if ((sp || (calculon && sg && t > 1)) && (m.seq * b) % t != 0) continue;
                                    std::vector<TpOverlap> tpo = {TpOverlap::None};
                                    if (t > 1 && o.tp_overlap) tpo = {TpOverlap::None, TpOverlap::Ring, TpOverlap::Pipe};
                                    std::vector<bool> dpo = {false};
                                    if (d > 1 && o.dp_overlap) dpo = {true, false};
                                    const std::int64_t variants = static_cast<std::int64_t>(tpo.size() * dpo.size());
                                    if (oom_rest) {
                                        result.pruned += variants;
                                        continue;
                                    }
                                    bool first = true;
                                    for (TpOverlap to : tpo) {
                                        for (bool dov : dpo) {
                                            plan.tp_overlap = to;
                                            plan.dp_overlap = dov;
                                            const Placement pl = placement(plan, profile);
                                            if (!tiersFit(plan, pl, profile)) continue;
                                            tick();
                                            Evaluation ev = calculon ? calculonEvaluate(m, plan, profile)
                                                                     : evaluateFast(plan, pl);
                                            ++result.evaluated;
                                            PlanPoint pt{plan, ev.iteration_s, ev.peak_bytes, ev.peak_stage, ev.mfu, ev.fits};
                                            if (pt.fits) ++result.feasible;
                                            if (sink) sink(pt);
                                            keep.add(pt);
                                            if (first && !pt.fits && !calculon) {
                                                // Memory does not depend on the overlaps, and never falls
                                                // as the micro-batch grows: skip the rest.
                                                result.pruned += variants - 1;
                                                oom_rest = true;
                                                break;
                                            }
                                            first = false;
                                        }
                                        if (oom_rest) break;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    if (progress) progress(1.0);
    keep.finish(result);
    return result;
}

}  // namespace partita::llm
