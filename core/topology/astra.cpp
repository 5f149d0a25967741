// ASTRA-sim's analytical network files (docs/formats/topology-imports.md): the YAML and newer JSON
// form (lists "topology", "npus_count", "bandwidth" in GB/s, "latency" in ns, one entry per
// dimension) and the older JSON format ("topologies-per-dim", "units-count", "links-count", ...).
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "core/topology/import.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

// One list entry as read, with its place in the file.
struct AstraEntry {
    std::string text;  // the scalar as written
    std::string place;
};
using Lists = std::map<std::string, std::vector<AstraEntry>>;

Dimension::Shape astraShapeOf(const AstraEntry& e, const std::string& source) {
    if (e.text == "Ring") return Dimension::Shape::Ring;
    if (e.text == "FullyConnected") return Dimension::Shape::FullyConnected;
    if (e.text == "Switch") return Dimension::Shape::Switch;
    throw InputError(source, e.place, "unknown topology '" + e.text + "' (use Ring, FullyConnected or Switch)");
}

double numberOf(const AstraEntry& e, const std::string& source, const std::string& what, bool zero_allowed) {
    double v = 0;
    size_t used = 0;
    try {
        v = std::stod(e.text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != e.text.size() || !std::isfinite(v) || v < 0 || (!zero_allowed && v == 0))
        throw InputError(source, e.place,
                         what + " must be a " + (zero_allowed ? "non-negative" : "positive") + " number, got '" +
                             e.text.substr(0, 40) + "'");
    return v;
}

std::int64_t countOf(const AstraEntry& e, const std::string& source, const std::string& what) {
    const double v = numberOf(e, source, what, false);
    if (v != std::floor(v) || v > static_cast<double>(kImportDevices))
        throw InputError(source, e.place,
                         what + " must be an integer in 1.." + std::to_string(kImportDevices) + ", got '" +
                             e.text.substr(0, 40) + "'");
    return static_cast<std::int64_t>(v);
}

// The four lists of the YAML / newer JSON form, equally long.
std::vector<Dimension> dimensionsOf(const Lists& lists, const std::string& source) {
    static const char* keys[] = {"topology", "npus_count", "bandwidth", "latency"};
    for (const char* k : keys)
        if (!lists.count(k)) throw InputError(source, "", std::string("missing '") + k + "'");
    const auto& topo = lists.at("topology");
    for (const char* k : keys)
        if (lists.at(k).size() != topo.size())
            throw InputError(source, "", std::string("'") + k + "' has " + std::to_string(lists.at(k).size()) +
                                             " entries but 'topology' has " + std::to_string(topo.size()));
    if (static_cast<std::int64_t>(topo.size()) > kImportDimensions)
        throw InputError(source, topo[kImportDimensions].place,
                         "more than " + std::to_string(kImportDimensions) + " dimensions");
    std::vector<Dimension> dims;
    for (size_t k = 0; k < topo.size(); ++k) {
        Dimension d;
        d.shape = astraShapeOf(topo[k], source);
        d.count = countOf(lists.at("npus_count")[k], source, "npus_count");
        d.bandwidth_Bps = numberOf(lists.at("bandwidth")[k], source, "bandwidth (GB/s)", false) * 1e9;
        d.latency_s = numberOf(lists.at("latency")[k], source, "latency (ns)", true) / 1e9;
        d.place = lists.at("npus_count")[k].place;
        dims.push_back(d);
    }
    return dims;
}

std::string astraPlaceOf(const YAML::Mark& m) {
    if (m.is_null()) return "";
    return "line " + std::to_string(m.line + 1) + ", column " + std::to_string(m.column + 1);
}

std::string scalarText(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A JSON list of scalars (a lone scalar counts as a list of one).
std::vector<AstraEntry> jsonList(const Json& v, const std::string& pointer, const std::string& source) {
    const auto one = [&](const Json& x, const std::string& at) {
        if (!x.is_string() && !x.is_number()) throw InputError(source, at, "expected a string or a number");
        return AstraEntry{scalarText(x), at};
    };
    if (!v.is_array()) return {one(v, pointer)};
    if (static_cast<std::int64_t>(v.size()) > kImportDimensions)
        throw InputError(source, pointer, "more than " + std::to_string(kImportDimensions) + " entries");
    std::vector<AstraEntry> out;
    for (size_t k = 0; k < v.size(); ++k) out.push_back(one(v[k], pointer + "/" + std::to_string(k)));
    return out;
}

void warnIgnored(std::vector<std::string>* warnings, const std::string& source, const std::set<std::string>& keys) {
    if (!warnings || keys.empty()) return;
    std::string list;
    for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
    warnings->push_back(source + ": ignored " + list);
}

std::string stemOf(const std::string& source) {
    const auto slash = source.find_last_of('/');
    return source.substr(slash == std::string::npos ? 0 : slash + 1);
}

Topology build(const std::vector<Dimension>& dims, const std::string& source, std::vector<std::string>* warnings) {
    if (warnings)
        warnings->push_back(source + ": approximated: ASTRA-sim describes no compute; every NPU is an "
                                     "A100-class device (312 TFLOP/s, 2039 GB/s, 80 GiB, efficiency 0.6)");
    return expandDimensions(dims, astraDefaultDevice(), "ASTRA-sim " + stemOf(source), source);
}

}  // namespace

Topology readAstraYaml(const std::string& text, const std::string& source, std::vector<std::string>* warnings) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {  // its own message is yaml-cpp's generic "bad file"
        throw InputError(source, astraPlaceOf(e.mark), "nested deeper than " + std::to_string(e.depth()) + " levels");
    } catch (const YAML::Exception& e) {
        throw InputError(source, astraPlaceOf(e.mark), e.msg);
    }
    if (!root.IsMap()) throw InputError(source, astraPlaceOf(root.Mark()), "expected a mapping of per-dimension lists");
    Lists lists;
    std::set<std::string> ignored;
    for (const auto& kv : root) {
        const std::string at = astraPlaceOf(kv.first.Mark());
        if (!kv.first.IsScalar()) throw InputError(source, at, "expected a plain key");
        const std::string key = kv.first.Scalar();
        if (key != "topology" && key != "npus_count" && key != "bandwidth" && key != "latency") {
            ignored.insert(key);
            continue;
        }
        const YAML::Node& v = kv.second;
        std::vector<AstraEntry> entries;
        if (v.IsScalar()) {
            entries.push_back({v.Scalar(), astraPlaceOf(v.Mark())});
        } else if (v.IsSequence()) {
            if (static_cast<std::int64_t>(v.size()) > kImportDimensions)
                throw InputError(source, astraPlaceOf(v.Mark()),
                                 "more than " + std::to_string(kImportDimensions) + " entries");
            for (const auto& x : v) {
                if (!x.IsScalar()) throw InputError(source, astraPlaceOf(x.Mark()), "expected a scalar");
                entries.push_back({x.Scalar(), astraPlaceOf(x.Mark())});
            }
        } else {
            throw InputError(source, astraPlaceOf(v.Mark()), "'" + key + "' must be a list");
        }
        lists[key] = std::move(entries);
    }
    const auto dims = dimensionsOf(lists, source);
    warnIgnored(warnings, source, ignored);
    return build(dims, source, warnings);
}

Topology readAstraJson(const Json& root, const std::string& source, std::vector<std::string>* warnings) {
    Lists lists;
    std::set<std::string> ignored;
    for (const auto& [key, v] : root.items()) {
        if (key == "topology" || key == "npus_count" || key == "bandwidth" || key == "latency")
            lists[key] = jsonList(v, "/" + key, source);
        else
            ignored.insert(key);
    }
    const auto dims = dimensionsOf(lists, source);
    warnIgnored(warnings, source, ignored);
    return build(dims, source, warnings);
}

Topology readAstraLegacyJson(const Json& root, const std::string& source, std::vector<std::string>* warnings) {
    Fields f(root, "", source);
    const std::int64_t n = f.integerIn("dimensions-count", 1, kImportDimensions);
    Lists lists;
    for (const char* key : {"topologies-per-dim", "units-count", "links-count", "link-latency", "link-bandwidth"}) {
        lists[key] = jsonList(f.raw(key), std::string("/") + key, source);
        if (static_cast<std::int64_t>(lists[key].size()) != n)
            f.fail(key, "has " + std::to_string(lists[key].size()) + " entries but dimensions-count is " +
                            std::to_string(n));
    }
    std::set<std::string> ignored;
    for (const auto& [key, v] : root.items())
        if (!lists.count(key) && key != "dimensions-count") ignored.insert(key);
    std::vector<Dimension> dims;
    bool shared = false;
    for (size_t k = 0; k < static_cast<size_t>(n); ++k) {
        Dimension d;
        d.shape = astraShapeOf(lists["topologies-per-dim"][k], source);
        d.count = countOf(lists["units-count"][k], source, "units-count");
        d.place = lists["units-count"][k].place;
        const std::int64_t links = countOf(lists["links-count"][k], source, "links-count");
        // Links an NPU needs to reach its neighbours once: the bandwidth of links-count links is
        // shared evenly among them (exact when links-count is a multiple).
        const std::int64_t needed = d.count < 2                                 ? 1
                                    : d.shape == Dimension::Shape::FullyConnected ? d.count - 1
                                    : d.shape == Dimension::Shape::Ring && d.count > 2 ? 2
                                                                                      : 1;
        if (links % needed != 0) shared = true;
        d.bandwidth_Bps = numberOf(lists["link-bandwidth"][k], source, "link-bandwidth (GB/s)", false) * 1e9 *
                          static_cast<double>(links) / static_cast<double>(needed);
        d.latency_s = numberOf(lists["link-latency"][k], source, "link-latency (ns)", true) / 1e9;
        dims.push_back(d);
    }
    warnIgnored(warnings, source, ignored);
    if (shared && warnings)
        warnings->push_back(source + ": approximated: a links-count that is not a multiple of an NPU's neighbours "
                                     "is shared evenly among them");
    return build(dims, source, warnings);
}

}  // namespace partita::sim
