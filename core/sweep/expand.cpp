// The points of a sweep: the cartesian product with zip groups, exclusions and collapsed axes.
#include "core/sweep/spec.h"

#include <algorithm>
#include <unordered_set>

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

int dimensionIndex(const std::vector<Dimension>& dims, const std::string& name) {
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace detail

using detail::dimensionIndex;
using detail::dimensions;

namespace {
bool analytic(const std::string& m) { return m == "hypar" || m == "dp" || m == "mp" || m == "owt"; }
}  // namespace

bool applies(const std::string& axis, const std::string& method) {
    const bool accpar = method == "accpar", simulate = method == "simulate", mcmc = method == "mcmc";
    if (axis == "topology") return simulate || mcmc;
    if (axis == "batch" || axis == "bytes_per_element") return true;
    if (axis == "levels") return !mcmc;
    if (axis == "link_bps" || axis == "level_bw_factor" || axis == "throughput_ops") return analytic(method) || accpar;
    if (axis == "mode" || axis == "out_size") return analytic(method) || simulate;
    if (axis == "ratio_model") return accpar;
    return mcmc;  // iterations, seed, beta
}

Json Point::describe(const Spec& spec) const {
    Json j{{"network", spec.networks[static_cast<size_t>(network)].label},
           {"array", spec.arrays[static_cast<size_t>(array)].label},
           {"method", spec.methods[static_cast<size_t>(method)].label}};
    if (topology >= 0) j["topology"] = spec.topologies[static_cast<size_t>(topology)].label;
    for (const auto& [name, value] : axes) j[name] = value;
    return j;
}

std::vector<Point> expand(const Spec& spec) {
    const auto dims = dimensions(spec);
    // Groups of dimensions that vary together, in the order of their first member.
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
    std::int64_t combinations = 1;
    for (const auto& g : groups) {
        combinations *= static_cast<std::int64_t>(dims[static_cast<size_t>(g[0])].values.size());
        if (combinations > kMaxPoints)
            throw InputError(spec.source, "", "the sweep expands to more than " + withCommas(double(kMaxPoints)) +
                                                  " combinations (the limit); split it into several sweeps");
    }
    const int at_topology = dimensionIndex(dims, "topology"), at_method = dimensionIndex(dims, "method");
    std::vector<size_t> pos(groups.size(), 0), value(dims.size(), 0);
    std::vector<Point> points;
    std::unordered_set<std::string> seen;
    for (std::int64_t c = 0; c < combinations; ++c) {
        for (size_t g = 0; g < groups.size(); ++g)
            for (int d : groups[g]) value[static_cast<size_t>(d)] = pos[g];
        bool excluded = false;
        for (const Json& rule : spec.exclude) {
            bool all = true;
            for (auto it = rule.begin(); it != rule.end() && all; ++it) {
                const size_t d = static_cast<size_t>(dimensionIndex(dims, it.key()));
                const Json& v = dims[d].values[value[d]];
                all = it->is_array() ? std::find(it->begin(), it->end(), v) != it->end() : *it == v;
            }
            excluded = excluded || all;
        }
        if (!excluded) {
            Point p;
            p.network = static_cast<int>(value[0]);
            p.array = static_cast<int>(value[1]);
            p.method = static_cast<int>(value[static_cast<size_t>(at_method)]);
            const std::string& method = spec.methods[static_cast<size_t>(p.method)].method;
            if (at_topology >= 0 && applies("topology", method)) p.topology = static_cast<int>(value[static_cast<size_t>(at_topology)]);
            for (size_t d = static_cast<size_t>(at_method) + 1; d < dims.size(); ++d)
                if (applies(dims[d].name, method)) p.axes.emplace_back(dims[d].name, dims[d].values[value[d]]);
            if (seen.insert(p.describe(spec).dump()).second) {
                p.index = points.size();
                points.push_back(std::move(p));
            }
        }
        for (size_t g = groups.size(); g-- > 0;) {  // the odometer: the last group varies fastest
            if (++pos[g] < dims[static_cast<size_t>(groups[g][0])].values.size()) break;
            pos[g] = 0;
        }
    }
    return points;
}

}  // namespace partita::sweep
