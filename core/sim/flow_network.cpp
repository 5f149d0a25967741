#include "core/sim/flow_network.h"

#include <algorithm>
#include <limits>
#include <queue>
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

// Progressive filling over the flows marked active: the link with the smallest fair share fixes the
// rate of every unfixed flow through it; repeat until every flow has a rate.
void fill(const std::vector<double>& capacity, const std::vector<Flow>& flows, const std::vector<char>& active,
          std::vector<double>& rate) {
    std::vector<double> left = capacity;
    std::vector<int> unfixed(capacity.size(), 0);
    std::vector<std::vector<int>> through(capacity.size());
    std::vector<char> fixed(flows.size(), 0);
    size_t to_fix = 0;
    for (size_t f = 0; f < flows.size(); ++f) {
        rate[f] = 0;
        if (!active[f] || flows[f].links.empty()) continue;
        ++to_fix;
        for (int l : flows[f].links) {
            ++unfixed[static_cast<size_t>(l)];
            through[static_cast<size_t>(l)].push_back(static_cast<int>(f));
        }
    }
    // The links by fair share in a min-heap; a share only grows as flows are fixed (each fixed flow
    // took at most the link's share), so an entry whose share is stale is pushed again, not trusted.
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (size_t l = 0; l < capacity.size(); ++l)
        if (unfixed[l] > 0) heap.push({left[l] / unfixed[l], static_cast<int>(l)});
    while (to_fix > 0 && !heap.empty()) {
        const auto [queued, link] = heap.top();
        heap.pop();
        const auto bottleneck = static_cast<size_t>(link);
        if (unfixed[bottleneck] == 0) continue;
        const double share = left[bottleneck] / unfixed[bottleneck];
        if (share > queued) {
            heap.push({share, link});
            continue;
        }
        for (int f : through[bottleneck]) {
            if (fixed[static_cast<size_t>(f)]) continue;
            fixed[static_cast<size_t>(f)] = 1;
            rate[static_cast<size_t>(f)] = share;
            --to_fix;
            for (int l : flows[static_cast<size_t>(f)].links) {
                left[static_cast<size_t>(l)] = std::max(0.0, left[static_cast<size_t>(l)] - share);
                --unfixed[static_cast<size_t>(l)];
            }
        }
    }
}

}  // namespace

std::vector<double> maxMinRates(const std::vector<double>& capacity_Bps, const std::vector<Flow>& flows) {
    check(capacity_Bps, flows);
    std::vector<double> rate(flows.size(), 0);
    fill(capacity_Bps, flows, std::vector<char>(flows.size(), 1), rate);
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
    double now = 0;
    while (running > 0) {
        fill(capacity_Bps, flows, active, rate);
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
