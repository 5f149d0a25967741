// Exact per-level DP over a "frontier" state: after each layer, the types of the layers a later layer
// still needs (its DP predecessor, or the source of a residual edge not yet closed). On a chain the
// frontier is the last layer alone, so this is solveChain; inside a ResNet block it is {block source,
// current layer} (3x3 states), and it shrinks back to one layer at the consumer (docs/methods/accpar.md#multi-path-networks).
#include "core/accpar/level_solver.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <string>

#include "core/util/graph.h"

namespace partita {

namespace {

constexpr size_t kMaxStates = size_t{1} << 20;

bool better(double a, double b, double tol) { return a < b - tol * std::max(std::abs(a), std::abs(b)); }

template <class V>
decltype(auto) at(V& v, int i) {
    return v[static_cast<size_t>(i)];
}

void fail(const std::string& what) { throw std::invalid_argument("solveLevel: " + what); }

}  // namespace

TooManyBranches::TooManyBranches(int l, int n, int most)
    : std::invalid_argument("solveLevel: " + std::to_string(n) + " layers are open at layer " + std::to_string(l) +
                            " (at most " + std::to_string(most) + ")"),
      layer(l),
      open(n),
      limit(most) {}

namespace {

std::vector<int> predecessorsOf(const LevelProblem& p) {
    const int n = p.layers;
    std::vector<int> pred = p.predecessor;
    if (pred.empty())
        for (int l = 0; l < n; ++l) pred.push_back(l - 1);
    if (static_cast<int>(pred.size()) != n)
        fail("predecessor has " + std::to_string(pred.size()) + " entries for " + std::to_string(n) + " layers");
    for (int l = 0; l < n; ++l)
        if (at(pred, l) < -1 || at(pred, l) >= n || at(pred, l) == l)
            fail("layer " + std::to_string(l) + " has the invalid predecessor " + std::to_string(at(pred, l)));
    for (const auto& e : p.residuals)
        if (e.source < 0 || e.source >= n || e.consumer < 0 || e.consumer >= n || e.source == e.consumer)
            fail("residual edge " + std::to_string(e.source) + " -> " + std::to_string(e.consumer) +
                 " is out of range");
    return pred;
}

// Adjacency in one array (compressed rows): the items of row r are item[start[r] .. start[r+1]).
struct Rows {
    std::vector<size_t> start;
    std::vector<int> item;
    std::span<const int> operator[](size_t r) const {
        return {item.data() + start[r], item.data() + start[r + 1]};
    }
};

// Builds rows from (row, item) pairs given as a callback over each pair; two passes, no per-row vectors.
template <class ForEach>
Rows makeRows(size_t rows, ForEach forEach) {
    Rows out;
    out.start.assign(rows + 1, 0);
    forEach([&](int row, int) { ++out.start[static_cast<size_t>(row) + 1]; });
    for (size_t r = 0; r < rows; ++r) out.start[r + 1] += out.start[r];
    out.item.resize(out.start[rows]);
    std::vector<size_t> fill(out.start.begin(), out.start.end() - 1);
    forEach([&](int row, int item) { out.item[fill[static_cast<size_t>(row)]++] = item; });
    return out;
}

// Calls visit(input, user) for every layer a layer needs: its predecessor and its edges' sources.
template <class Visit>
void eachNeed(const LevelProblem& p, const std::vector<int>& pred, Visit&& visit) {
    for (size_t l = 0; l < pred.size(); ++l)
        if (pred[l] >= 0) visit(pred[l], static_cast<int>(l));
    for (const auto& e : p.residuals) visit(e.source, e.consumer);
}

// Stable topological order: the lowest-index layer whose inputs (predecessor, edge sources) are done
// (core/util/graph.h).
std::vector<int> solveOrder(const LevelProblem& p, const std::vector<int>& pred) {
    std::vector<std::vector<int>> inputs(static_cast<size_t>(p.layers));
    eachNeed(p, pred, [&](int in, int user) { at(inputs, user).push_back(in); });
    std::vector<int> order = graph::smallestFirstOrder(inputs);
    if (order.size() < inputs.size()) fail("the predecessors and residual edges form a cycle");
    return order;
}

// A topological order that keeps few layers open (solved, still needed later): of the ready layers,
// the one whose solving changes the open count least (it closes the inputs it is the last user of,
// and opens itself if anything needs it), ties to the lowest index. Wide fan-outs listed breadth-first
// (every branch's first layer, then every second layer, ...) are solved branch by branch this way.
// Keys are updated lazily: a ready layer's key can only fall, when an input it needs loses users.
std::vector<int> narrowOrder(const LevelProblem& p, const std::vector<int>& pred) {
    const auto n = static_cast<size_t>(p.layers);
    const Rows users = makeRows(n, [&](auto&& visit) { eachNeed(p, pred, visit); });
    const Rows needs = makeRows(n, [&](auto&& visit) { eachNeed(p, pred, [&](int in, int user) { visit(user, in); }); });
    std::vector<int> pending(n), remaining(n), key(n, 0);
    for (size_t l = 0; l < n; ++l) {
        pending[l] = static_cast<int>(needs[l].size());
        remaining[l] = static_cast<int>(users[l].size());
    }
    std::vector<char> done(n, 0);
    auto change = [&](int u) {  // open-count change if u were solved now
        const auto in = needs[static_cast<size_t>(u)];
        int d = users[static_cast<size_t>(u)].empty() ? 0 : 1;
        for (size_t a = 0; a < in.size(); ++a) {
            if (std::find(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(a), in[a]) != in.begin() + static_cast<std::ptrdiff_t>(a))
                continue;  // counted at its first occurrence
            if (at(remaining, in[a]) == static_cast<int>(std::count(in.begin(), in.end(), in[a]))) --d;
        }
        return d;
    };
    using Entry = std::pair<int, int>;  // (change, layer)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
    auto offer = [&](int u) {
        at(key, u) = change(u);
        ready.push({at(key, u), u});
    };
    for (size_t l = 0; l < n; ++l)
        if (pending[l] == 0) offer(static_cast<int>(l));
    std::vector<int> order;
    order.reserve(n);
    while (!ready.empty()) {
        const auto [d, u] = ready.top();
        ready.pop();
        if (at(done, u) || d != at(key, u)) continue;  // solved, or a stale key
        at(done, u) = 1;
        order.push_back(u);
        for (int j : needs[static_cast<size_t>(u)]) --at(remaining, j);
        for (int w : users[static_cast<size_t>(u)])
            if (--at(pending, w) == 0) offer(w);
        // An input down to its last user or two: those users may now close it.
        for (int j : needs[static_cast<size_t>(u)])
            if (at(remaining, j) > 0 && at(remaining, j) <= 2)
                for (int w : users[static_cast<size_t>(j)])
                    if (!at(done, w) && at(pending, w) == 0 && change(w) != at(key, w)) offer(w);
    }
    if (order.size() < n) fail("the predecessors and residual edges form a cycle");
    return order;
}

// Each layer's place in `order` and the place of its last user (the last layer is kept to the end,
// for the final pick).
struct Places {
    std::vector<int> pos, last_use;
};
Places places(const LevelProblem& p, const std::vector<int>& pred, const std::vector<int>& order) {
    const auto n = order.size();
    Places out{std::vector<int>(n), std::vector<int>(n, -1)};
    for (size_t i = 0; i < n; ++i) out.pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    eachNeed(p, pred, [&](int j, int user) { at(out.last_use, j) = std::max(at(out.last_use, j), at(out.pos, user)); });
    at(out.last_use, order.back()) = static_cast<int>(n);
    return out;
}

// The most layers open after one step of `order` (the DP's state holds k^open states) and the
// layer solved at that step.
std::pair<int, int> widest(const std::vector<int>& order, const Places& where) {
    const size_t n = order.size();
    std::vector<int> delta(n + 1, 0);
    for (size_t j = 0; j < n; ++j)
        if (where.last_use[j] > where.pos[j]) {
            ++delta[static_cast<size_t>(where.pos[j])];
            --delta[static_cast<size_t>(where.last_use[j])];
        }
    std::pair<int, int> most{0, order.empty() ? 0 : order[0]};
    int open = 0;
    for (size_t i = 0; i < n; ++i) {
        open += delta[i];
        if (open > most.first) most = {open, order[i]};
    }
    return most;
}

// The most layers that may be open with k types (k^open <= kMaxStates).
int openLimit(size_t k) {
    int open = 0;
    for (size_t states = k; k > 1 && states <= kMaxStates; states *= k) ++open;
    return k > 1 ? open : std::numeric_limits<int>::max();
}

// The plain chain (every layer after the one before it, no residual edges): the frontier is the last
// layer alone, so the state is its type. Same arithmetic and tie rules as the general DP below, with
// O(k) costs and one byte per layer and type for the back-pointers; ratios are asked again at the end.
LevelSolution solveChainLevel(const LevelProblem& p) {
    const auto n = static_cast<size_t>(p.layers);
    const size_t k = p.allowed.size();
    if (k > 255) fail("too many partition types");
    std::vector<unsigned char> back(n * k, 0);
    std::vector<double> cost(k), next(k);
    for (size_t t = 0; t < k; ++t) cost[t] = p.first(0, p.allowed[t]).cost;
    std::vector<double> step(k * k);
    for (size_t l = 1; l < n; ++l) {
        for (size_t tt = 0; tt < k; ++tt)
            for (size_t t = 0; t < k; ++t) step[tt * k + t] = p.step(static_cast<int>(l), p.allowed[tt], p.allowed[t]).cost;
        for (size_t t = 0; t < k; ++t) {
            size_t pick = 0;
            double c_pick = cost[0] + step[t];
            for (size_t tt = 1; tt < k; ++tt) {
                const double c = cost[tt] + step[tt * k + t];
                if (better(c, c_pick, p.tolerance)) {
                    c_pick = c;
                    pick = tt;
                }
            }
            next[t] = c_pick;
            back[l * k + t] = static_cast<unsigned char>(pick);
        }
        std::swap(cost, next);
    }
    size_t best = 0;
    for (size_t t = 1; t < k; ++t)
        if (better(cost[t], cost[best], p.tolerance)) best = t;
    LevelSolution out;
    out.cost = cost[best];
    std::vector<size_t> digit(n);
    digit[n - 1] = best;
    for (size_t l = n - 1; l > 0; --l) digit[l - 1] = back[l * k + digit[l]];
    for (size_t l = 0; l < n; ++l) {
        out.choice.push_back(p.allowed[digit[l]]);
        out.ratio.push_back(l == 0 ? p.first(0, out.choice[0]).ratio
                                   : p.step(static_cast<int>(l), out.choice[l - 1], out.choice[l]).ratio);
    }
    return out;
}

bool isPlainChain(const LevelProblem& p, const std::vector<int>& pred) {
    if (!p.residuals.empty() || pred[0] != -1) return false;
    for (size_t l = 1; l < pred.size(); ++l)
        if (pred[l] != static_cast<int>(l) - 1) return false;
    return true;
}

}  // namespace

LevelSolution solveLevel(const LevelProblem& p) {
    LevelSolution out;
    if (p.layers <= 0) return out;
    if (p.allowed.empty()) fail("no partition types allowed");
    if (!p.first || !p.step || (!p.residuals.empty() && !p.shortcut)) fail("a cost callback is missing");
    const auto pred = predecessorsOf(p);
    if (isPlainChain(p, pred)) return solveChainLevel(p);
    const size_t k = p.allowed.size();
    auto order = solveOrder(p, pred);
    auto where = places(p, pred, order);
    if (widest(order, where).first > openLimit(k)) {
        order = narrowOrder(p, pred);
        where = places(p, pred, order);
        const auto [open, layer] = widest(order, where);
        if (open > openLimit(k)) throw TooManyBranches(layer, open, openLimit(k));
    }
    const auto n = static_cast<size_t>(p.layers);
    const std::vector<int>& last_use = where.last_use;

    // Per layer the k x k step costs, [l * k * k + tt * k + t] (a layer without a predecessor
    // uses tt = 0 only); per edge the k x k shortcut costs.
    std::vector<StepCost> steps(n * k * k);
    for (size_t l = 0; l < n; ++l)
        for (size_t a = 0; a < (pred[l] < 0 ? 1 : k); ++a)
            for (size_t t = 0; t < k; ++t)
                steps[(l * k + a) * k + t] = pred[l] < 0 ? p.first(static_cast<int>(l), p.allowed[t])
                                                         : p.step(static_cast<int>(l), p.allowed[a], p.allowed[t]);
    std::vector<double> shortcut(p.residuals.size() * k * k);
    for (size_t e = 0; e < p.residuals.size(); ++e)
        for (size_t a = 0; a < k; ++a)
            for (size_t t = 0; t < k; ++t)
                shortcut[(e * k + a) * k + t] = p.shortcut(p.residuals[e], p.allowed[a], p.allowed[t]);
    const Rows edges_into = makeRows(n, [&](auto&& visit) {
        for (size_t e = 0; e < p.residuals.size(); ++e) visit(p.residuals[e].consumer, static_cast<int>(e));
    });

    struct Back {
        size_t prev;
        size_t type;
    };
    std::vector<Back> back;           // every layer's states, in solve order
    std::vector<size_t> back_at(n);   // where layer l's states start in `back`
    std::vector<int> frontier, next;  // layers in the state, oldest (by solve position) first = most significant digit
    std::vector<size_t> place(n, 0);  // k^(digits after it) for each layer in `frontier`
    std::vector<double> cost{0.0}, next_cost;
    std::vector<char> have{1}, next_have;
    for (size_t i = 0; i < n; ++i) {
        const auto l = static_cast<size_t>(order[i]);
        next.clear();
        for (int j : frontier)
            if (at(last_use, j) > static_cast<int>(i)) next.push_back(j);
        if (last_use[l] > static_cast<int>(i)) next.push_back(static_cast<int>(l));
        size_t states = 1;
        for (size_t m = 0; m < next.size(); ++m)
            if ((states *= k) > kMaxStates) fail("too many parallel branches are open at layer " + std::to_string(l));
        // Digit of layer j in a state of `frontier` (j is always present when asked for).
        auto digit = [&](size_t state, int j) { return state / at(place, j) % k; };
        next_cost.assign(states, 0.0);
        next_have.assign(states, 0);
        back_at[l] = back.size();
        back.resize(back.size() + states, {0, 0});
        Back* back_l = back.data() + back_at[l];
        const StepCost* step_l = steps.data() + l * k * k;
        for (size_t s = 0; s < cost.size(); ++s) {
            if (!have[s]) continue;
            const size_t tt = pred[l] < 0 ? 0 : digit(s, pred[l]);
            for (size_t t = 0; t < k; ++t) {
                double c = cost[s] + step_l[tt * k + t].cost;
                for (int e : edges_into[l])
                    c += shortcut[(static_cast<size_t>(e) * k + digit(s, at(p.residuals, e).source)) * k + t];
                size_t ns = 0;
                for (int j : next) ns = ns * k + (j == static_cast<int>(l) ? t : digit(s, j));
                if (!next_have[ns] || better(c, next_cost[ns], p.tolerance)) {
                    next_cost[ns] = c;
                    next_have[ns] = 1;
                    back_l[ns] = {s, t};
                }
            }
        }
        std::swap(frontier, next);
        for (size_t m = frontier.size(), w = 1; m-- > 0; w *= k) at(place, frontier[m]) = w;
        std::swap(cost, next_cost);
        std::swap(have, next_have);
    }
    size_t best = 0;
    for (size_t s = 1; s < cost.size(); ++s)
        if (better(cost[s], cost[best], p.tolerance)) best = s;
    out.cost = cost[best];
    out.choice.assign(n, p.allowed[0]);
    out.ratio.assign(n, 0.5);
    std::vector<size_t> digit_of(n, 0);
    for (size_t i = n, s = best; i-- > 0;) {
        const auto l = static_cast<size_t>(order[i]);
        const Back b = back[back_at[l] + s];
        digit_of[l] = b.type;
        out.choice[l] = p.allowed[digit_of[l]];
        s = b.prev;
    }
    for (size_t l = 0; l < n; ++l)
        out.ratio[l] = steps[(l * k + (pred[l] < 0 ? 0 : at(digit_of, pred[l]))) * k + digit_of[l]].ratio;
    return out;
}

}  // namespace partita
