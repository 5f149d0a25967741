#include "core/model/repeats.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <queue>
#include <string>

namespace partita {

namespace {

using Key = std::vector<std::int64_t>;

void addShape(Key& key, const Shape& s) { key.insert(key.end(), {s.c, s.h, s.w}); }

void addWindow(Key& key, const Window& w) {
    key.insert(key.end(), {w.kernel_h, w.kernel_w, w.stride_h, w.stride_w, w.pad_h, w.pad_w,
                           static_cast<std::int64_t>(w.rounding), w.pad_h_end, w.pad_w_end, w.dilation_h, w.dilation_w});
}

// Everything but names that makes a segment the computation it is (see the header).
class Signatures {
public:
    int of(const Network& net, int entry, int first, int last) {
        Key key;
        addShape(key, entry < 0 ? net.input : net.ops[static_cast<size_t>(entry)].out_shape);
        for (int i = first; i <= last; ++i) {
            const Operator& op = net.ops[static_cast<size_t>(i)];
            key.insert(key.end(), {static_cast<std::int64_t>(op.type), kind(op.source_op), op.out_channels, op.group,
                                   op.output_pad_h, op.output_pad_w, op.average_pool ? 1 : 0, op.pool ? 1 : 0,
                                   op.attention ? op.attention->sequence : 0, op.attention ? op.attention->heads : 0});
            addWindow(key, op.window);
            if (op.pool) addWindow(key, *op.pool);
            for (const Shape& s : {op.layout_shape, op.in_shape, op.pre_pool_shape, op.out_shape}) addShape(key, s);
            key.push_back(static_cast<std::int64_t>(op.input_ids.size()));
            // The entry is -1 wherever the segment is; an inner producer counts from the segment's start.
            for (int in : op.input_ids) key.push_back(in == entry ? -1 : in - first);
        }
        return ids_.emplace(std::move(key), static_cast<int>(ids_.size())).first->second;
    }

private:
    std::int64_t kind(const std::string& source_op) {
        return kinds_.emplace(source_op, static_cast<std::int64_t>(kinds_.size())).first->second;
    }
    std::map<Key, int> ids_;
    std::map<std::string, std::int64_t> kinds_;
};

}  // namespace

std::vector<int> segmentCuts(const Network& net) {
    const int n = static_cast<int>(net.ops.size());
    // last_use[i + 1]: the last operator reading operator i (i = -1: the input); its own index when none.
    std::vector<int> last_use(static_cast<size_t>(n) + 1);
    for (int i = -1; i < n; ++i) last_use[static_cast<size_t>(i + 1)] = i;
    for (int j = 0; j < n; ++j)
        for (int in : net.ops[static_cast<size_t>(j)].input_ids)
            last_use[static_cast<size_t>(in + 1)] = std::max(last_use[static_cast<size_t>(in + 1)], j);
    std::vector<int> cuts{-1};
    int reach = last_use[0];  // the last reader of anything before the operator looked at
    for (int p = 0; p < n; ++p) {
        if (reach <= p || p == n - 1) cuts.push_back(p);
        reach = std::max(reach, last_use[static_cast<size_t>(p + 1)]);
    }
    return cuts;
}

std::vector<RepeatedRun> repeatedRuns(const Network& net) {
    if (net.ops.size() > static_cast<size_t>(kMaxRepeatOperators)) return {};
    const std::vector<int> cuts = segmentCuts(net);
    const int m = static_cast<int>(cuts.size()) - 1;  // segments
    std::vector<int> sig(static_cast<size_t>(std::max(m, 0)));
    Signatures signatures;
    for (int t = 0; t < m; ++t)
        sig[static_cast<size_t>(t)] = signatures.of(net, cuts[static_cast<size_t>(t)], cuts[static_cast<size_t>(t)] + 1,
                                                    cuts[static_cast<size_t>(t) + 1]);
    const auto firstOp = [&](int t) { return cuts[static_cast<size_t>(t)] + 1; };

    // Candidates: for each period k, each maximal stretch of segments that repeats with period k
    // and holds two blocks or more; the most segments covered first, then the shorter block, then
    // the earlier. A stretch cut by a run placed before it goes back in as its free parts.
    struct Stretch {
        int start, length, k;
        int covered() const { return length / k * k; }
        bool operator<(const Stretch& o) const {  // "comes after", for the priority queue
            if (covered() != o.covered()) return covered() < o.covered();
            if (k != o.k) return k > o.k;
            return start > o.start;
        }
    };
    std::priority_queue<Stretch> queue;
    for (int k = 1; k <= kMaxRepeatPeriod && 2 * k <= m; ++k)
        for (int j = 0; j + k < m;) {
            int len = 0;  // segments from j equal to the one k later: the stretch spans len + k
            while (j + len + k < m && sig[static_cast<size_t>(j + len)] == sig[static_cast<size_t>(j + len + k)]) ++len;
            if (len >= k) queue.push({j, len + k, k});
            j += len + 1;
        }
    std::vector<bool> used(static_cast<size_t>(std::max(m, 0)), false);
    std::vector<RepeatedRun> runs;
    while (!queue.empty()) {
        const Stretch s = queue.top();
        queue.pop();
        int free_from = s.start;
        bool whole = true;
        for (int t = s.start; t <= s.start + s.length; ++t) {
            if (t < s.start + s.length && !used[static_cast<size_t>(t)]) continue;
            if (t < s.start + s.length) whole = false;
            if (!whole && t - free_from >= 2 * s.k) queue.push({free_from, t - free_from, s.k});
            free_from = t + 1;
        }
        if (!whole) continue;
        // Spare segments: the blocks may start later by up to that many, at a weighted operator.
        const int members = s.length / s.k;
        int start = s.start;
        for (int shift = 0; shift <= s.length - members * s.k; ++shift)
            if (hasWeights(net.ops[static_cast<size_t>(firstOp(s.start + shift))].type)) {
                start = s.start + shift;
                break;
            }
        for (int t = start; t < start + members * s.k; ++t) used[static_cast<size_t>(t)] = true;
        runs.push_back({firstOp(start), firstOp(start + s.k) - firstOp(start), members});
    }
    std::sort(runs.begin(), runs.end(), [](const RepeatedRun& a, const RepeatedRun& b) { return a.first_op < b.first_op; });
    return runs;
}

bool isResidual(const Network& net, const RepeatedRun& run) {
    if (run.block_ops < 2) return false;
    const Operator& last = net.ops[static_cast<size_t>(run.first_op + run.block_ops - 1)];
    const int entry = run.first_op - 1;
    const auto inside = [&](int in) { return in >= run.first_op && in < run.first_op + run.block_ops; };
    return last.type == OpType::Add && std::count(last.input_ids.begin(), last.input_ids.end(), entry) > 0 &&
           std::any_of(last.input_ids.begin(), last.input_ids.end(), inside);
}

}  // namespace partita
