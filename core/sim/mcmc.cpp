#include "core/sim/mcmc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/sim/baselines.h"
#include "core/sim/delta.h"
#include "core/util/error.h"

namespace partita::sim {

std::vector<McmcStart> namedStarts(const Network& net, std::int64_t batch, int devices,
                                   const std::vector<std::string>& names, std::uint64_t seed,
                                   const std::function<SoapStrategy(const std::string&)>& other) {
    std::vector<McmcStart> starts;
    std::mt19937_64 rng(seed);
    for (const std::string& name : names) {
        if (name == "dp") starts.push_back({name, dataParallelStrategy(net, batch, devices)});
        else if (name == "owt") starts.push_back({name, oneWeirdTrickStrategy(net, batch, devices)});
        else if (name == "mp") starts.push_back({name, modelParallelStrategy(net, batch, devices)});
        else if (name == "random") starts.push_back({name, randomStrategy(net, batch, devices, rng)});
        else if (other) starts.push_back({name, other(name)});
        else throw Error("unknown MCMC start '" + name + "' (use dp, owt, mp or random)");
    }
    if (starts.empty()) throw Error("MCMC needs at least one start (dp, owt, mp or random)");
    return starts;
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::infinity();

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void checkOptions(const std::vector<McmcStart>& starts, const McmcOptions& o) {
    if (starts.empty()) throw Error("MCMC needs at least one initial strategy");
    if (!(o.beta >= 0) || !std::isfinite(o.beta)) throw Error("MCMC beta must be a finite number >= 0");
    if (!(o.budget_s >= 0) || o.iterations < 0) throw Error("MCMC budgets must not be negative");
    if (o.budget_s == 0 && o.iterations == 0) throw Error("MCMC needs a wall-time or an iteration budget");
    if (!(o.stall_warmup >= 0 && o.stall_warmup <= 1)) throw Error("MCMC stall warm-up must be in [0, 1]");
    if (!(o.neighbour_copy >= 0 && o.neighbour_copy <= 1))
        throw Error("MCMC neighbour-copy probability must be in [0, 1]");
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
        : net_(net), batch_(batch), topology_(topology), options_(o.sim), incremental_(o.incremental) {
        reset(start);
    }
    double makespan() const { return delta_ ? delta_->makespan() : makespan_; }
    const SoapStrategy& strategy() const { return delta_ ? delta_->strategy() : strategy_; }
    // A proposal whose makespan would exceed `bound` may stop early and return +infinity.
    double propose(int op, OpConfig config, double bound) {
        if (delta_) return delta_->propose(op, config, bound);
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
    bool abandoned() const { return delta_ && delta_->abandoned(); }
    void commit() {
        if (delta_) delta_->commit();
        else makespan_ = next_;
    }
    void revert() {
        if (delta_) delta_->revert();
        else strategy_.ops[static_cast<size_t>(op_)] = std::move(saved_);
    }
    // Starts over from `s` (a full build and simulation).
    void reset(const SoapStrategy& s) {
        if (incremental_) {
            delta_.reset();  // free the old graph before building the new one
            delta_.emplace(net_, batch_, s, topology_, options_);
        } else {
            strategy_ = s;
            makespan_ = simulate(buildTaskGraph(net_, batch_, s, topology_, options_)).makespan;
        }
    }

private:
    const Network& net_;
    double batch_;
    const Topology& topology_;
    SimOptions options_;
    bool incremental_;
    std::optional<DeltaSimulator> delta_;
    SoapStrategy strategy_;  // full mode only (DeltaSimulator keeps its own)
    OpConfig saved_;
    int op_ = 0;
    double makespan_ = 0, next_ = 0;
};

// The default proposal: a random configuration, or (FlexFlow's propagation, one
// step) a neighbour's configuration when one is valid for the operator and new.
class Proposer {
public:
    Proposer(const Network& net, std::int64_t batch, int devices, double neighbour_copy)
        : net_(net), batch_(batch), devices_(devices), copy_(neighbour_copy), neighbours_(net.ops.size()) {
        for (size_t i = 0; i < net.ops.size(); ++i) {
            valid_.push_back(validDegrees(net.ops[i], batch, devices));
            for (int p : net.ops[i].input_ids)
                if (p >= 0) {
                    neighbours_[i].push_back(p);
                    neighbours_[static_cast<size_t>(p)].push_back(static_cast<int>(i));
                }
        }
    }

    OpConfig operator()(int op, const SoapStrategy& current, std::mt19937_64& rng) {
        if (copy_ > 0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng) < copy_) {
            candidates_.clear();
            for (int n : neighbours_[static_cast<size_t>(op)])
                if (auto c = adopt(op, current.ops[static_cast<size_t>(n)]);
                    c && !(*c == current.ops[static_cast<size_t>(op)]))
                    candidates_.push_back(std::move(*c));
            if (!candidates_.empty())
                return candidates_[std::uniform_int_distribution<size_t>(0, candidates_.size() - 1)(rng)];
        }
        return randomConfig(net_.ops[static_cast<size_t>(op)], batch_, devices_, rng);
    }

private:
    // The neighbour's degrees and devices, if valid for `op`.
    std::optional<OpConfig> adopt(int op, const OpConfig& from) const {
        const auto& valid = valid_[static_cast<size_t>(op)];
        if (std::find(valid.begin(), valid.end(), from.degree) == valid.end()) return std::nullopt;
        OpConfig c;
        c.degree = from.degree;
        const int n = c.degree[0] * c.degree[1] * c.degree[2] * c.degree[3];
        if (static_cast<int>(from.devices.size()) < n) return std::nullopt;
        c.devices.assign(from.devices.begin(), from.devices.begin() + n);
        return c;
    }

    const Network& net_;
    std::int64_t batch_;
    int devices_;
    double copy_;
    std::vector<std::vector<int>> neighbours_;  // producers and consumers of each operator
    std::vector<std::vector<Degrees>> valid_;
    std::vector<OpConfig> candidates_;
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
    const std::int64_t reset_span =
        options.reset_span != 0 ? options.reset_span
                                : (limits.iters > 0 ? std::clamp<std::int64_t>(limits.iters / 100, 1, 1000) : 1000);
    const std::int64_t b = batchCount(batch);
    Proposer proposer(net, b, topology.deviceCount(), options.neighbour_copy);

    McmcResult result;
    result.best_s = kInf;
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
        SoapStrategy chain_best = sim.strategy();
        if (current < result.best_s) {
            result.best_s = current;
            result.best = chain_best;
        }
        // Cost in ms; relative beta measures the change as a fraction of the start's makespan.
        const double beta_per_s = options.relative_beta ? options.beta / current : options.beta * 1e3;
        std::int64_t it = 0, improved_it = 0, since_reset = 0;
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
            if (reset_span > 0 && ++since_reset >= reset_span) {
                since_reset = 0;
                if (current > summary.best_s) {
                    sim.reset(chain_best);
                    current = summary.best_s;
                    ++summary.resets;
                }
            }
            const int op = pick_op(rng);
            // Metropolis-Hastings: always take a better strategy, a worse one with probability
            // exp(-beta * delta), i.e. when next < current - ln(u) / beta: beyond that, stop early.
            const double u = unit(rng);
            const double bound = beta_per_s > 0 ? current - std::log(u) / beta_per_s : kInf;
            OpConfig config =
                options.proposal ? options.proposal(op, rng) : proposer(op, sim.strategy(), rng);
            const double next = sim.propose(op, std::move(config), options.early_exit ? bound : kInf);
            if (sim.abandoned()) ++summary.early_exits;
            if (next <= current || u < std::exp(beta_per_s * (current - next))) {
                sim.commit();
                current = next;
                ++summary.accepted;
            } else {
                sim.revert();
            }
            if (current < summary.best_s) {
                summary.best_s = current;
                chain_best = sim.strategy();
                improved_it = it + 1;
                improved_s = secondsSince(t0);
                if (current < result.best_s) {
                    result.best_s = current;
                    result.best = chain_best;
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
