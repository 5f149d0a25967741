// The points of a sweep: the cartesian product with zip groups, exclusions and collapsed axes.
#include "core/sweep/spec.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_set>

#include "core/sweep/axes.h"
#include "core/sweep/dimensions.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace partita::sweep {

namespace detail {

std::vector<Dimension> dimensions(const Spec& s) {
    auto labels = [](const auto& list) {
        std::vector<Json> v;
        for (const auto& e : list) v.emplace_back(e.label);
        return v;
    };
    std::vector<Dimension> d{{"network", labels(s.networks)}, {"array", labels(s.arrays)}};
    if (!s.topologies.empty()) d.push_back({"topology", labels(s.topologies)});
    d.push_back({"method", labels(s.methods)});
    for (const Axis& a : s.axes) d.push_back({a.name, a.values});
    return d;
}

std::string valueKey(const Json& v) {
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d == std::floor(d) && std::fabs(d) < 9.2e18) return "n" + std::to_string(static_cast<std::int64_t>(d));
        return "n" + v.dump();
    }
    if (v.is_number_unsigned()) return "n" + std::to_string(v.get<std::uint64_t>());
    if (v.is_number_integer()) return "n" + std::to_string(v.get<std::int64_t>());
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

int dimensionIndex(const std::vector<Dimension>& dims, const std::string& name) {
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace detail

using detail::dimensionIndex;
using detail::dimensions;

bool applies(const std::string& axis, const std::string& method) {
    const MethodInfo* m = findMethod(method);
    return m && readsAxis(*m, axis);
}

Json Point::describe(const Spec& spec) const {
    const MethodEntry& m = spec.methods[static_cast<size_t>(method)];
    Json j{{"method", m.label}};
    if (!m.settingsSweep()) {  // a settings method's inputs are its settings, not a network and an array
        j["network"] = spec.networks[static_cast<size_t>(network)].label;
        j["array"] = spec.arrays[static_cast<size_t>(array)].label;
    }
    if (topology >= 0) j["topology"] = spec.topologies[static_cast<size_t>(topology)].label;
    for (const auto& [name, value] : axes) j[name] = value;
    return j;
}

namespace {

// Dimensions that vary together (zip groups), in the order of their first member.
std::vector<std::vector<int>> groupsOf(const Spec& spec, const std::vector<detail::Dimension>& dims) {
    std::vector<std::vector<int>> groups;
    std::vector<int> group_of(dims.size(), -1);
    for (size_t d = 0; d < dims.size(); ++d) {
        if (group_of[d] >= 0) continue;
        std::vector<int> members{static_cast<int>(d)};
        for (const auto& zip : spec.zip)
            if (std::find(zip.begin(), zip.end(), dims[d].name) != zip.end()) {
                members.clear();
                for (const auto& name : zip) members.push_back(dimensionIndex(dims, name));
            }
        for (int m : members) group_of[static_cast<size_t>(m)] = static_cast<int>(groups.size());
        groups.push_back(members);
    }
    return groups;
}

[[noreturn]] void tooMany(const std::string& source) {
    throw InputError(source, "", "the sweep expands to more than " + withCommas(double(kMaxPoints)) +
                                     " combinations (the limit); split it into several sweeps");
}

// The product of `sizes`, or tooMany() as soon as it passes kMaxPoints (never overflows).
std::int64_t boundedProduct(const std::vector<std::int64_t>& sizes, const std::string& source) {
    std::int64_t product = 1;
    for (const std::int64_t n : sizes)
        if (__builtin_mul_overflow(product, n, &product) || product > kMaxPoints) tooMany(source);
    return product;
}

// One exclude rule as a table per dimension it names: value index -> matches.
struct Rule {
    std::vector<std::pair<size_t, std::vector<char>>> keys;
};

std::vector<Rule> compileRules(const Spec& spec, const std::vector<detail::Dimension>& dims) {
    std::vector<Rule> rules;
    for (const Json& rule : spec.exclude) {
        Rule r;
        for (auto it = rule.begin(); it != rule.end(); ++it) {
            const size_t d = static_cast<size_t>(dimensionIndex(dims, it.key()));
            std::vector<char> match(dims[d].values.size(), 0);
            std::unordered_set<std::string> listed;
            for (const Json& x : it->is_array() ? *it : Json::array({*it})) listed.insert(detail::valueKey(x));
            for (size_t v = 0; v < match.size(); ++v) match[v] = listed.count(detail::valueKey(dims[d].values[v])) > 0;
            r.keys.emplace_back(d, std::move(match));
        }
        rules.push_back(std::move(r));
    }
    return rules;
}

}  // namespace

std::int64_t combinations(const Spec& spec) {
    const auto dims = dimensions(spec);
    std::vector<std::int64_t> sizes;
    for (const auto& g : groupsOf(spec, dims))
        sizes.push_back(static_cast<std::int64_t>(dims[static_cast<size_t>(g[0])].values.size()));
    return boundedProduct(sizes, spec.source);
}

void forEachPoint(const Spec& spec, const std::function<bool(const Point&)>& visit) {
    const std::int64_t count = combinations(spec);
    const auto dims = dimensions(spec);
    const auto groups = groupsOf(spec, dims);
    const std::vector<Rule> rules = compileRules(spec, dims);
    const int at_topology = dimensionIndex(dims, "topology"), at_method = dimensionIndex(dims, "method");
    const size_t first_axis = static_cast<size_t>(at_method) + 1;
    // Per method entry, the groups none of whose dimensions it uses (network, array and method always
    // count), with more than one value: combinations differing only there are one point (the first).
    // When no exclude rule names them, the first is the one at their value 0; otherwise a set of the
    // kept points' used values decides.
    struct Ignored {
        std::vector<size_t> groups;
        bool ruled = false;
    };
    std::vector<Ignored> ignored(spec.methods.size());
    for (size_t m = 0; m < spec.methods.size(); ++m)
        for (size_t g = 0; g < groups.size(); ++g) {
            bool used = false;
            for (int d : groups[g]) {
                const auto& name = dims[static_cast<size_t>(d)].name;
                // 0, 1: network and array, which every method but a settings method reads
                used = used || (d <= 1 && !spec.methods[m].settingsSweep()) || d == at_method ||
                       readsAxis(*spec.methods[m].info, name);
            }
            if (used || dims[static_cast<size_t>(groups[g][0])].values.size() < 2) continue;
            ignored[m].groups.push_back(g);
            for (const Rule& r : rules)
                for (const auto& [d, match] : r.keys)
                    if (std::find(groups[g].begin(), groups[g].end(), static_cast<int>(d)) != groups[g].end())
                        ignored[m].ruled = true;
        }
    std::unordered_set<std::int64_t> kept;  // used values as one mixed-radix number (ignored groups: their size)
    std::vector<size_t> pos(groups.size(), 0), value(dims.size(), 0);
    Point p;
    std::size_t index = 0;
    for (std::int64_t c = 0; c < count; ++c) {
        for (size_t g = 0; g < groups.size(); ++g)
            for (int d : groups[g]) value[static_cast<size_t>(d)] = pos[g];
        bool excluded = false;
        for (size_t r = 0; r < rules.size() && !excluded; ++r) {
            bool all = true;
            for (const auto& [d, match] : rules[r].keys) all = all && match[value[d]];
            excluded = all;
        }
        const size_t method = value[static_cast<size_t>(at_method)];
        const Ignored& skip = ignored[method];
        bool first = !excluded;
        if (first && !skip.groups.empty()) {
            if (!skip.ruled) {
                for (size_t g : skip.groups) first = first && pos[g] == 0;
            } else {
                std::int64_t key = 0;  // below 2^16 x kMaxPoints: at most 16 groups of (size + 1)
                for (size_t g = 0; g < groups.size(); ++g) {
                    const auto size = static_cast<std::int64_t>(dims[static_cast<size_t>(groups[g][0])].values.size());
                    const bool off = std::find(skip.groups.begin(), skip.groups.end(), g) != skip.groups.end();
                    key = key * (size + 1) + (off ? size : static_cast<std::int64_t>(pos[g]));
                }
                first = kept.insert(key).second;
            }
        }
        if (first) {
            p.index = index++;
            p.network = static_cast<int>(value[0]);
            p.array = static_cast<int>(value[1]);
            p.method = static_cast<int>(method);
            const MethodInfo& info = *spec.methods[method].info;
            p.topology = at_topology >= 0 && readsAxis(info, "topology") ? static_cast<int>(value[static_cast<size_t>(at_topology)]) : -1;
            p.axes.clear();
            for (size_t d = first_axis; d < dims.size(); ++d)
                if (readsAxis(info, dims[d].name)) p.axes.emplace_back(dims[d].name, dims[d].values[value[d]]);
            if (!visit(p)) return;
        }
        for (size_t g = groups.size(); g-- > 0;) {  // the odometer: the last group varies fastest
            if (++pos[g] < dims[static_cast<size_t>(groups[g][0])].values.size()) break;
            pos[g] = 0;
        }
    }
}

std::vector<Point> expand(const Spec& spec) {
    std::vector<Point> points;
    forEachPoint(spec, [&](const Point& p) {
        points.push_back(p);
        return true;
    });
    return points;
}

}  // namespace partita::sweep
