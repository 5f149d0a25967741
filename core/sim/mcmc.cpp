#include "core/sim/mcmc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/sim/delta.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void checkOptions(const std::vector<McmcStart>& starts, const McmcOptions& o) {
    if (starts.empty()) throw Error("MCMC needs at least one initial strategy");
    if (!(o.beta >= 0) || !std::isfinite(o.beta)) throw Error("MCMC beta must be a finite number >= 0");
    if (!(o.budget_s >= 0) || o.iterations < 0) throw Error("MCMC budgets must not be negative");
    if (o.budget_s == 0 && o.iterations == 0) throw Error("MCMC needs a wall-time or an iteration budget");
    if (!(o.stall_warmup >= 0 && o.stall_warmup <= 1)) throw Error("MCMC stall warm-up must be in [0, 1]");
}

// Per-chain budgets and the stop rules of McmcOptions.
struct ChainLimits {
    double time_s = 0;        // 0 = none
    std::int64_t iters = 0;   // 0 = none
    bool stall = true;
    double warmup = 0.1;

    // Returns "budget", "stall" or nullptr to go on.
    const char* stop(std::int64_t it, double elapsed, std::int64_t improved_it, double improved_s) const {
        if ((iters > 0 && it >= iters) || (time_s > 0 && elapsed >= time_s)) return "budget";
        if (!stall) return nullptr;
        if (time_s > 0) return elapsed >= warmup * time_s && elapsed >= 2 * improved_s ? "stall" : nullptr;
        return it >= static_cast<std::int64_t>(warmup * static_cast<double>(iters)) && it >= 2 * improved_it ? "stall"
                                                                                                              : nullptr;
    }
    double fraction(std::int64_t it, double elapsed) const {
        double f = 0;
        if (iters > 0) f = std::max(f, static_cast<double>(it) / static_cast<double>(iters));
        if (time_s > 0) f = std::max(f, elapsed / time_s);
        return std::min(f, 1.0);
    }
};

// The chain's state: DeltaSimulator by default, or a full rebuild and simulation
// per proposal (McmcOptions::incremental = false) as a cross-check and fallback.
class Chain {
public:
    Chain(const Network& net, double batch, const SoapStrategy& start, const Topology& topology, const McmcOptions& o)
        : net_(net), batch_(batch), topology_(topology), options_(o.sim), strategy_(start) {
        if (o.incremental) delta_.emplace(net, batch, start, topology, o.sim);
        else makespan_ = simulate(buildTaskGraph(net, batch, start, topology, o.sim)).makespan;
    }
    double makespan() const { return delta_ ? delta_->makespan() : makespan_; }
    const SoapStrategy& strategy() const { return delta_ ? delta_->strategy() : strategy_; }
    double propose(int op, OpConfig config) {
        if (delta_) return delta_->propose(op, config);
        saved_ = std::move(strategy_.ops[static_cast<size_t>(op)]);
        strategy_.ops[static_cast<size_t>(op)] = std::move(config);
        op_ = op;
        try {
            next_ = simulate(buildTaskGraph(net_, batch_, strategy_, topology_, options_)).makespan;
        } catch (...) {
            revert();
            throw;
        }
        return next_;
    }
    void commit() {
        if (delta_) delta_->commit();
        else makespan_ = next_;
    }
    void revert() {
        if (delta_) delta_->revert();
        else strategy_.ops[static_cast<size_t>(op_)] = std::move(saved_);
    }

private:
    const Network& net_;
    double batch_;
    const Topology& topology_;
    SimOptions options_;
    std::optional<DeltaSimulator> delta_;
    SoapStrategy strategy_;  // full mode only (DeltaSimulator keeps its own)
    OpConfig saved_;
    int op_ = 0;
    double makespan_ = 0, next_ = 0;
};

}  // namespace

McmcResult mcmcSearch(const Network& net, double batch, const Topology& topology, const std::vector<McmcStart>& starts,
                      const McmcOptions& options, const McmcProgressFn& progress, const CancelFn& cancel) {
    checkOptions(starts, options);
    const auto n = static_cast<std::int64_t>(starts.size());
    ChainLimits limits;
    limits.time_s = options.budget_s / static_cast<double>(n);
    limits.iters = options.iterations > 0 ? std::max<std::int64_t>(1, options.iterations / n) : 0;
    limits.stall = options.stop_on_stall;
    limits.warmup = options.stall_warmup;
    const std::int64_t b = batchCount(batch);
    const int devices = topology.deviceCount();
    ProposalFn propose = options.proposal;
    if (!propose)
        propose = [&net, b, devices](int op, std::mt19937_64& rng) {
            return randomConfig(net.ops[static_cast<size_t>(op)], b, devices, rng);
        };

    McmcResult result;
    result.best_s = std::numeric_limits<double>::infinity();
    std::int64_t accepted_total = 0;
    for (std::int64_t k = 0; k < n && !result.cancelled; ++k) {
        const McmcStart& start = starts[static_cast<size_t>(k)];
        const Clock::time_point t0 = Clock::now();
        Chain sim(net, batch, start.strategy, topology, options);
        std::seed_seq seq{static_cast<std::uint32_t>(options.seed), static_cast<std::uint32_t>(options.seed >> 32),
                          static_cast<std::uint32_t>(k)};
        std::mt19937_64 rng(seq);
        std::uniform_int_distribution<int> pick_op(0, static_cast<int>(net.ops.size()) - 1);
        std::uniform_real_distribution<double> unit(0.0, 1.0);

        McmcStartSummary summary;
        summary.name = start.name;
        double current = sim.makespan();
        summary.initial_s = summary.best_s = current;
        if (current < result.best_s) {
            result.best_s = current;
            result.best = sim.strategy();
        }
        // Cost in ms; relative beta measures the change as a fraction of the start's makespan.
        const double beta_per_s = options.relative_beta ? options.beta / current : options.beta * 1e3;
        std::int64_t it = 0, improved_it = 0;
        double improved_s = 0, elapsed = 0;
        auto report = [&] {
            if (!progress) return;
            const double f = (static_cast<double>(k) + limits.fraction(it, elapsed)) / static_cast<double>(n);
            progress({f, static_cast<int>(k), it, current, result.best_s});
        };
        for (;; ++it) {
            elapsed = secondsSince(t0);
            if (const char* why = limits.stop(it, elapsed, improved_it, improved_s)) {
                summary.stop = why;
                break;
            }
            if (cancel && cancel()) {
                summary.stop = "cancelled";
                result.cancelled = true;
                break;
            }
            if (it % 32 == 0) report();
            const int op = pick_op(rng);
            const double next = sim.propose(op, propose(op, rng));
            // Metropolis-Hastings: always take a better strategy, a worse one with probability exp(-beta * delta).
            if (next <= current || unit(rng) < std::exp(beta_per_s * (current - next))) {
                sim.commit();
                current = next;
                ++summary.accepted;
            } else {
                sim.revert();
            }
            if (current < summary.best_s) {
                summary.best_s = current;
                improved_it = it + 1;
                improved_s = secondsSince(t0);
                if (current < result.best_s) {
                    result.best_s = current;
                    result.best = sim.strategy();
                }
            }
        }
        summary.iterations = it;
        summary.elapsed_s = elapsed;
        report();
        result.iterations += it;
        accepted_total += summary.accepted;
        result.starts.push_back(std::move(summary));
    }
    result.acceptance_rate =
        result.iterations > 0 ? static_cast<double>(accepted_total) / static_cast<double>(result.iterations) : 0;
    return result;
}

}  // namespace partita::sim
