#include "core/sim/mcmc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "core/sim/baselines.h"
#include "core/sim/delta.h"
#include "core/sim/memory.h"
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
constexpr double kMcmcInf = std::numeric_limits<double>::infinity();

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// States compare by (bytes over memory capacity, makespan): a fitting strategy beats any that
// does not fit, and among those that do not, the one closer to fitting wins
// (docs/methods/flexflow.md#memory-per-device).
struct Cost {
    double excess = 0, makespan = kMcmcInf;
    bool operator<(const Cost& o) const { return excess != o.excess ? excess < o.excess : makespan < o.makespan; }
};

void checkOptions(const std::vector<McmcStart>& starts, const McmcOptions& o) {
    if (starts.empty()) throw Error("MCMC needs at least one initial strategy");
    if (!(o.beta >= 0) || !std::isfinite(o.beta)) throw Error("MCMC beta must be a finite number >= 0");
    if (!(o.budget_s >= 0) || o.iterations < 0) throw Error("MCMC budgets must not be negative");
    if (o.budget_s == 0 && o.iterations == 0) throw Error("MCMC needs a wall-time or an iteration budget");
    if (!(o.stall_warmup >= 0 && o.stall_warmup <= 1)) throw Error("MCMC stall warm-up must be in [0, 1]");
    if (!(o.neighbour_copy >= 0 && o.neighbour_copy <= 1))
        throw Error("MCMC neighbour-copy probability must be in [0, 1]");
}

// Per-chain budgets and the stall rule of McmcOptions.
struct ChainLimits {
    double budget_s = 0;      // the whole search's wall time; 0 = none
    double share_s = 0;       // a chain's share of it (the warm-up's base)
    std::int64_t iters = 0;   // per chain; 0 = none
    double warmup = 0.1;

    // Chain k's budget is spent after `it` of its iterations, `since_search` seconds into the search.
    bool spent(std::int64_t k, std::int64_t n, std::int64_t it, double since_search) const {
        return (iters > 0 && it >= iters) ||
               (budget_s > 0 && since_search >= budget_s * static_cast<double>(k + 1) / static_cast<double>(n));
    }
    // The stall rule over a run of `run` iterations (`run_s` seconds) whose best last improved
    // `improved` iterations (`improved_s` seconds) into it; at least one iteration per run.
    bool stalled(std::int64_t run, double run_s, std::int64_t improved, double improved_s) const {
        if (run < 1) return false;
        if (share_s > 0) return run_s >= warmup * share_s && run_s >= 2 * improved_s;
        return run >= static_cast<std::int64_t>(warmup * static_cast<double>(iters)) && run >= 2 * improved;
    }
    double fraction(std::int64_t k, std::int64_t n, std::int64_t it, double since_search) const {
        double f = 0;
        if (iters > 0)
            f = (static_cast<double>(k) + std::min(1.0, static_cast<double>(it) / static_cast<double>(iters))) /
                static_cast<double>(n);
        if (budget_s > 0) f = std::max(f, since_search / budget_s);
        return std::min(f, 1.0);
    }
};

// The chain's state: DeltaSimulator by default, or a full rebuild and simulation
// per proposal (McmcOptions::incremental = false) as a cross-check and fallback.
class Chain {
public:
    Chain(const Network& net, double batch, const SoapStrategy& start, const Topology& topology, const McmcOptions& o)
        : net_(net), batch_(batch), topology_(topology), options_(o.sim), incremental_(o.incremental),
          check_memory_(hasCapacities(topology)) {
        reset(start);
    }
    // Bytes over capacity of the current state, or of the proposal while one is pending (0 when
    // no capacity is known: docs/methods/flexflow.md#memory-per-device).
    double excess() const {
        if (!check_memory_) return 0;
        return deviceMemory(net_, batchCount(batch_), strategy(), delta_ ? delta_->graph() : graph_, topology_,
                            options_)
            .excess;
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
            buildTaskGraph(graph_, net_, batch_, strategy_, topology_, options_);
            next_ = simulate(graph_).makespan;
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
        if (!delta_ && check_memory_) buildTaskGraph(graph_, net_, batch_, strategy_, topology_, options_);
    }
    // Remembers the current state for a later reset() to it (DeltaSimulator::bookmark).
    void bookmark() {
        if (delta_) delta_->bookmark();
    }
    // Starts over from `s` (a full build and simulation; `cancel` is asked during the build).
    void reset(const SoapStrategy& s, const CancelFn& cancel = {}) {
        if (incremental_ && delta_) {
            delta_->reset(s, cancel);  // keeps the collective lines already priced
        } else if (incremental_) {
            delta_ = std::make_unique<DeltaSimulator>(net_, batch_, s, topology_, options_);
        } else {
            strategy_ = s;
            buildTaskGraph(graph_, net_, batch_, s, topology_, options_, cancel);
            makespan_ = simulate(graph_).makespan;
        }
    }

private:
    const Network& net_;
    double batch_;
    const Topology& topology_;
    SimOptions options_;
    bool incremental_, check_memory_;
    std::unique_ptr<DeltaSimulator> delta_;  // a pointer: GCC 12 misreads an optional here
    TaskGraph graph_;        // full mode only: the last graph built
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
                for (auto c : {adopt(op, current.ops[static_cast<size_t>(n)]), pair(op, n, current)})
                    if (c && !(*c == current.ops[static_cast<size_t>(op)])) candidates_.push_back(std::move(*c));
            if (!candidates_.empty())
                return candidates_[std::uniform_int_distribution<size_t>(0, candidates_.size() - 1)(rng)];
        }
        const Operator& o = net_.ops[static_cast<size_t>(op)];
        return randomConfig(o, batch_, devices_, rng, reducedChannels(net_, o));
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

    // Megatron's pairing (docs/methods/flexflow.md#reduce-splits): after a producer `n` split c ways on its
    // channels, the weighted `op` splits its input channels c ways on the same devices, so each task reads
    // its producer task's piece in place.
    std::optional<OpConfig> pair(int op, int n, const SoapStrategy& current) const {
        const Operator& o = net_.ops[static_cast<size_t>(op)];
        const OpConfig& from = current.ops[static_cast<size_t>(n)];
        if (o.input_ids.empty() || o.input_ids.front() != n || !canReduce(o) || from.reduce != 1 ||
            from.degree[1] < 2 || from.degree[2] * from.degree[3] != 1 ||
            reducedChannels(net_, o) % from.degree[1] != 0)
            return std::nullopt;
        const auto& valid = valid_[static_cast<size_t>(op)];
        OpConfig c;
        c.degree = {from.degree[0], 1, 1, 1};
        if (std::find(valid.begin(), valid.end(), c.degree) == valid.end()) return std::nullopt;
        c.reduce = from.degree[1];
        c.devices = from.devices;
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

SoapStrategy restartStrategy(const SoapStrategy& best, std::int64_t restart, std::mt19937_64& rng,
                             const ProposalFn& propose) {
    SoapStrategy next = best;
    const auto ops = static_cast<std::int64_t>(next.ops.size());
    const std::int64_t kick = std::min(ops, 2 * std::max<std::int64_t>(1, restart));
    // Distinct operators: the first `kick` places of a partial Fisher-Yates shuffle.
    std::vector<int> index(static_cast<size_t>(ops));
    for (std::int64_t i = 0; i < ops; ++i) index[static_cast<size_t>(i)] = static_cast<int>(i);
    for (std::int64_t i = 0; i < kick; ++i) {
        const auto j = std::uniform_int_distribution<std::int64_t>(i, ops - 1)(rng);
        std::swap(index[static_cast<size_t>(i)], index[static_cast<size_t>(j)]);
        const int op = index[static_cast<size_t>(i)];
        next.ops[static_cast<size_t>(op)] = propose(op, rng);
    }
    return next;
}

McmcResult mcmcSearch(const Network& net, double batch, const Topology& topology, const std::vector<McmcStart>& starts,
                      const McmcOptions& options, const McmcProgressFn& progress, const CancelFn& cancel) {
    checkOptions(starts, options);
    const Clock::time_point search_t0 = Clock::now();
    const auto n = static_cast<std::int64_t>(starts.size());
    ChainLimits limits;
    limits.budget_s = options.budget_s;
    limits.share_s = options.budget_s / static_cast<double>(n);
    limits.iters = options.iterations > 0 ? std::max<std::int64_t>(1, options.iterations / n) : 0;
    limits.warmup = options.stall_warmup;
    const std::int64_t reset_span =
        options.reset_span != 0 ? options.reset_span
                                : (limits.iters > 0 ? std::clamp<std::int64_t>(limits.iters / 100, 1, 1000) : 1000);
    const std::int64_t b = batchCount(batch);
    const int devices = topology.deviceCount();
    Proposer proposer(net, b, devices, options.neighbour_copy);
    const ProposalFn fresh = options.proposal ? options.proposal : [&](int op, std::mt19937_64& rng) {
        const Operator& o = net.ops[static_cast<size_t>(op)];
        return randomConfig(o, b, devices, rng, reducedChannels(net, o));
    };

    McmcResult result;
    result.best_s = kMcmcInf;
    result.memory_checked = hasCapacities(topology);
    Cost best_cost{kMcmcInf, kMcmcInf};
    auto offer = [&](const Cost& c, const SoapStrategy& s) {
        if (!(c < best_cost)) return;
        best_cost = c;
        result.best_s = c.makespan;
        result.best_excess = c.excess;
        result.best = s;
    };
    // Every start first, cancelled or not (a few simulations): the result is never worse than a start.
    std::vector<Cost> initial;
    for (std::int64_t k = 0; k < n; ++k) {
        const McmcStart& start = starts[static_cast<size_t>(k)];
        const Chain chain(net, batch, start.strategy, topology, options);
        initial.push_back({chain.excess(), chain.makespan()});
        offer(initial.back(), start.strategy);
    }
    std::int64_t accepted_total = 0;
    for (std::int64_t k = 0; k < n; ++k) {
        const McmcStart& start = starts[static_cast<size_t>(k)];
        McmcStartSummary summary;
        summary.name = start.name;
        summary.initial_s = summary.best_s = initial[static_cast<size_t>(k)].makespan;
        summary.initial_excess = initial[static_cast<size_t>(k)].excess;
        if (cancel && cancel()) result.cancelled = true;  // before building the chain: one simulation less
        if (result.cancelled) {  // simulated, never searched from
            summary.stop = "cancelled";
            result.starts.push_back(std::move(summary));
            continue;
        }
        const Clock::time_point t0 = Clock::now();
        Chain sim(net, batch, start.strategy, topology, options);
        std::seed_seq seq{static_cast<std::uint32_t>(options.seed), static_cast<std::uint32_t>(options.seed >> 32),
                          static_cast<std::uint32_t>(k)};
        std::mt19937_64 rng(seq);
        std::uniform_int_distribution<int> pick_op(0, static_cast<int>(net.ops.size()) - 1);
        std::uniform_real_distribution<double> unit(0.0, 1.0);

        double current = sim.makespan(), excess = initial[static_cast<size_t>(k)].excess;
        // The run since the last restart ("segment"): its best is where a periodic reset returns and
        // what the stall rule watches. `kept` is the best of the earlier segments.
        SoapStrategy segment_best = sim.strategy(), kept;
        Cost segment_best_c{excess, current}, kept_c{kMcmcInf, kMcmcInf};
        Cost chain_best{excess, current};
        // Cost in ms; relative beta measures the change as a fraction of the start's makespan.
        const double beta_per_s = options.relative_beta ? options.beta / current : options.beta * 1e3;
        std::int64_t it = 0, segment_it = 0, improved_it = 0, since_reset = 0;
        double segment_s = 0, improved_s = 0, elapsed = 0;
        auto report = [&] {
            if (!progress) return;
            progress({limits.fraction(k, n, it, secondsSince(search_t0)), static_cast<int>(k), it, current,
                      result.best_s, result.restarts});
        };
        // A new best of the segment, the chain and the search.
        auto improved = [&] {
            segment_best_c = {excess, current};
            segment_best = sim.strategy();
            sim.bookmark();  // the periodic reset and a restart return near it
            improved_it = it + 1;
            improved_s = secondsSince(t0);
            if (segment_best_c < chain_best) {
                chain_best = segment_best_c;
                summary.best_s = current;
            }
            offer(segment_best_c, segment_best);
        };
        // A restart or reset rebuilds the whole graph, for seconds at thousands of devices: it stops when
        // asked, and the chain ends "cancelled" with the best so far.
        auto startOver = [&](const SoapStrategy& from) {
            try {
                sim.reset(from, cancel);
                return true;
            } catch (const Cancelled&) {
                summary.stop = "cancelled";
                result.cancelled = true;
                return false;
            }
        };
        for (;; ++it) {
            elapsed = secondsSince(t0);
            if (limits.spent(k, n, it, secondsSince(search_t0))) {
                summary.stop = "budget";
                break;
            }
            if (cancel && cancel()) {
                summary.stop = "cancelled";
                result.cancelled = true;
                break;
            }
            if (limits.stalled(it - segment_it, elapsed - segment_s, improved_it - segment_it, improved_s - segment_s)) {
                if (options.stop_on_stall) {
                    summary.stop = "stall";
                    break;
                }
                // Restart from a perturbation of the chain's best (restartStrategy).
                if (segment_best_c < kept_c) {
                    kept = std::move(segment_best);
                    kept_c = segment_best_c;
                }
                ++summary.restarts;
                ++result.restarts;
                if (!startOver(restartStrategy(kept, summary.restarts, rng, fresh))) break;
                current = sim.makespan();
                excess = sim.excess();
                segment_it = it;
                segment_s = secondsSince(t0);
                since_reset = 0;
                improved();
                improved_it = it;
            }
            if (it % 32 == 0) report();
            if (reset_span > 0 && ++since_reset >= reset_span) {
                since_reset = 0;
                if (segment_best_c < Cost{excess, current}) {
                    if (!startOver(segment_best)) break;
                    current = segment_best_c.makespan;
                    excess = segment_best_c.excess;
                    ++summary.resets;
                }
            }
            const int op = pick_op(rng);
            // Metropolis-Hastings: always take a better strategy, a worse one with probability
            // exp(-beta * delta), i.e. when next < current - ln(u) / beta: beyond that, stop early.
            // Memory first: a proposal closer to fitting is taken, one further from it refused, and
            // from a state that does not fit no makespan bound applies.
            const double u = unit(rng);
            const double bound = beta_per_s > 0 && excess == 0 ? current - std::log(u) / beta_per_s : kMcmcInf;
            OpConfig config =
                options.proposal ? options.proposal(op, rng) : proposer(op, sim.strategy(), rng);
            const double next = sim.propose(op, std::move(config), options.early_exit ? bound : kMcmcInf);
            if (sim.abandoned()) ++summary.early_exits;
            const double next_excess = sim.abandoned() ? kMcmcInf : sim.excess();
            const bool take = next_excess != excess
                                  ? next_excess < excess
                                  : next <= current || u < std::exp(beta_per_s * (current - next));
            if (take) {
                sim.commit();
                current = next;
                excess = next_excess;
                ++summary.accepted;
            } else {
                sim.revert();
            }
            if (Cost{excess, current} < segment_best_c) improved();
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
