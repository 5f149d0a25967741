#include "core/sim/flow_network.h"

#include <algorithm>
#include <limits>
#include <functional>
#include <utility>
#include <stdexcept>
#include <string>

namespace partita::sim {

namespace {

void check(const std::vector<double>& capacity, const std::vector<Flow>& flows) {
    for (size_t f = 0; f < flows.size(); ++f) {
        if (!(flows[f].bytes >= 0)) throw std::invalid_argument("flow " + std::to_string(f) + ": negative or NaN bytes");
        for (int l : flows[f].links)
            if (l < 0 || static_cast<size_t>(l) >= capacity.size())
                throw std::invalid_argument("flow " + std::to_string(f) + ": link " + std::to_string(l) + " out of range");
    }
    for (size_t l = 0; l < capacity.size(); ++l)
        if (!(capacity[l] > 0) || capacity[l] == std::numeric_limits<double>::infinity())
            throw std::invalid_argument("link " + std::to_string(l) + ": bandwidth must be positive and finite");
}

// The links the flows cross, renumbered densely (in increasing id, so that ties between equal shares
// break as by id), with each flow's links as one flat array: a round of a collective crosses a few
// hundred of a cluster's thousands of links, and is filled again whenever a flow ends.
struct Crossings {
    std::vector<double> capacity;                   // by dense link
    std::vector<int> flow_start, flow_links;        // flow f crosses flow_links[flow_start[f] .. flow_start[f + 1])

    Crossings(const std::vector<double>& capacity_Bps, const std::vector<Flow>& flows) {
        std::vector<int> used;
        for (const Flow& f : flows) used.insert(used.end(), f.links.begin(), f.links.end());
        std::sort(used.begin(), used.end());
        used.erase(std::unique(used.begin(), used.end()), used.end());
        capacity.reserve(used.size());
        for (int l : used) capacity.push_back(capacity_Bps[static_cast<size_t>(l)]);
        const auto dense = [&](int l) {
            return static_cast<int>(std::lower_bound(used.begin(), used.end(), l) - used.begin());
        };
        flow_start.reserve(flows.size() + 1);
        flow_start.push_back(0);
        for (const Flow& f : flows) {
            for (int l : f.links) flow_links.push_back(dense(l));
            flow_start.push_back(static_cast<int>(flow_links.size()));
        }
    }
    size_t links() const { return capacity.size(); }
};

// Progressive filling over the flows marked active: the link with the smallest fair share fixes the
// rate of every unfixed flow through it; repeat until every flow has a rate.
class Filler {
public:
    explicit Filler(const Crossings& c) : c_(c), left_(c.links()), unfixed_(c.links()) {}

    void fill(const std::vector<char>& active, std::vector<double>& rate) {
        const size_t n = rate.size();
        std::copy(c_.capacity.begin(), c_.capacity.end(), left_.begin());
        std::fill(unfixed_.begin(), unfixed_.end(), 0);
        fixed_.assign(n, 0);
        size_t to_fix = 0;
        for (size_t f = 0; f < n; ++f) {
            rate[f] = 0;
            if (!active[f] || c_.flow_start[f] == c_.flow_start[f + 1]) continue;
            ++to_fix;
            for (int k = c_.flow_start[f]; k < c_.flow_start[f + 1]; ++k) ++unfixed_[static_cast<size_t>(c_.flow_links[static_cast<size_t>(k)])];
        }
        // The links by fair share in a min-heap; a share only grows as flows are fixed (each fixed
        // flow took at most the link's share), so an entry whose share is stale is pushed again.
        // Each link's active flows, in flow order (a counting sort into reused arrays).
        through_start_.assign(c_.links() + 1, 0);
        for (size_t u = 0; u < c_.links(); ++u) through_start_[u + 1] = through_start_[u] + unfixed_[u];
        through_.resize(static_cast<size_t>(through_start_.back()));
        next_.assign(through_start_.begin(), through_start_.end() - 1);
        for (size_t f = 0; f < n; ++f) {
            if (!active[f]) continue;
            for (int k = c_.flow_start[f]; k < c_.flow_start[f + 1]; ++k)
                through_[static_cast<size_t>(next_[static_cast<size_t>(c_.flow_links[static_cast<size_t>(k)])]++)] =
                    static_cast<int>(f);
        }
        heap_.clear();
        for (size_t u = 0; u < c_.links(); ++u)
            if (unfixed_[u] > 0) heap_.push_back({left_[u] / unfixed_[u], static_cast<int>(u)});
        std::make_heap(heap_.begin(), heap_.end(), std::greater<>{});
        while (to_fix > 0 && !heap_.empty()) {
            std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
            const auto [queued, link] = heap_.back();
            heap_.pop_back();
            const auto bottleneck = static_cast<size_t>(link);
            if (unfixed_[bottleneck] == 0) continue;
            const double share = left_[bottleneck] / unfixed_[bottleneck];
            if (share > queued) {
                heap_.push_back({share, link});
                std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
                continue;
            }
            for (int k = through_start_[bottleneck]; k < through_start_[bottleneck + 1]; ++k) {
                const auto f = static_cast<size_t>(through_[static_cast<size_t>(k)]);
                if (fixed_[f]) continue;
                fixed_[f] = 1;
                rate[f] = share;
                --to_fix;
                for (int j = c_.flow_start[f]; j < c_.flow_start[f + 1]; ++j) {
                    const auto l = static_cast<size_t>(c_.flow_links[static_cast<size_t>(j)]);
                    left_[l] = std::max(0.0, left_[l] - share);
                    --unfixed_[l];
                }
            }
        }
    }

private:
    const Crossings& c_;
    std::vector<double> left_;
    std::vector<int> unfixed_;
    std::vector<char> fixed_;
    std::vector<int> through_start_, through_, next_;
    std::vector<std::pair<double, int>> heap_;
};

}  // namespace

std::vector<double> maxMinRates(const std::vector<double>& capacity_Bps, const std::vector<Flow>& flows) {
    check(capacity_Bps, flows);
    std::vector<double> rate(flows.size(), 0);
    const Crossings crossings(capacity_Bps, flows);
    Filler(crossings).fill(std::vector<char>(flows.size(), 1), rate);
    return rate;
}

std::vector<double> maxMinFinishTimes(const std::vector<double>& capacity_Bps, const std::vector<Flow>& flows) {
    check(capacity_Bps, flows);
    std::vector<double> finish(flows.size(), 0), left(flows.size()), rate(flows.size());
    std::vector<char> active(flows.size(), 0);
    size_t running = 0;
    for (size_t f = 0; f < flows.size(); ++f) {
        left[f] = flows[f].bytes;
        active[f] = !flows[f].links.empty() && flows[f].bytes > 0;
        running += active[f];
    }
    const Crossings crossings(capacity_Bps, flows);
    Filler filler(crossings);
    double now = 0;
    while (running > 0) {
        filler.fill(active, rate);
        double step = std::numeric_limits<double>::infinity();
        for (size_t f = 0; f < flows.size(); ++f)
            if (active[f]) step = std::min(step, left[f] / rate[f]);
        now += step;
        // Every flow within a rounding of the first to end ends with it: equal flows end together,
        // so a phase of p equal transfers is one round, not p.
        for (size_t f = 0; f < flows.size(); ++f) {
            if (!active[f]) continue;
            left[f] -= rate[f] * step;
            if (left[f] <= 1e-9 * flows[f].bytes) {
                active[f] = 0;
                finish[f] = now;
                --running;
            }
        }
    }
    return finish;
}

}  // namespace partita::sim
