// "partita-topology/1": devices, switches and links, with "for" repetition so a
// 64-GPU cluster takes a few entries (docs/formats/topology.md).
#include <charconv>
#include <climits>
#include <map>
#include <stdexcept>

#include "core/topology/topology.h"
#include "core/topology/check.h"
#include "core/topology/template.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/limits.h"

namespace partita::sim {

namespace {

constexpr const char* kTopologyFormat = "partita-topology/1";

// Where an element came from, so errors found later (finalize) point into the file.
struct Origin {
    std::string pointer;
    std::string vars;  // the "for" binding that produced it, "" without one
};

struct Reader {
    std::string source;
    bool lenient = false;  // readTopologyJsonUnchecked: values are left to checkTopology
    Topology t;
    // Vertex name -> (pointer of its entry, vertex id); devices are all read before switches.
    std::map<std::string, std::pair<std::string, int>> declared;
    std::vector<Origin> devices, switches, links;

    static std::string suffix(const tmpl::Bindings& b) {
        return b.empty() ? "" : " (for " + tmpl::describe(b) + ")";
    }

    std::string expandField(Fields& f, const std::string& key, const std::string& text, const tmpl::Bindings& b) {
        try {
            return tmpl::expand(text, b);
        } catch (const std::invalid_argument& e) {
            f.fail(key, e.what() + suffix(b));
        }
    }

    void declare(Fields& f, const std::string& name, const tmpl::Bindings& b) {
        if (name.empty() && !lenient) f.fail("name", "must not be empty");
        const auto [it, fresh] = declared.emplace(name, std::pair{f.pointer("name"), t.vertexCount()});
        if (!fresh && !lenient) f.fail("name", "'" + name + "'" + suffix(b) + " is already declared at " + it->second.first);
    }

    int vertex(Fields& f, const std::string& key, const std::string& name, const tmpl::Bindings& b) {
        const auto it = declared.find(name);
        if (it == declared.end()) {
            if (lenient) return -1;
            f.fail(key, "unknown device or switch '" + name + "'" + suffix(b));
        }
        return it->second.second;
    }

    // Refuses an entry whose repetitions would take a count past its limit, before building them.
    void room(const std::string& at, size_t have, size_t adding, std::int64_t limit, const std::string& what) const {
        if (static_cast<std::int64_t>(have) + static_cast<std::int64_t>(adding) > limit)
            throw InputError(source, at,
                             "this entry makes " + withCommas(static_cast<double>(adding)) + " " + what + " after " +
                                 withCommas(static_cast<double>(have)) + ": more than the limit of " +
                                 withCommas(static_cast<double>(limit)) + " " + what);
    }

    static const Json& list(Fields& f, const std::string& key) {
        const Json& v = f.raw(key);
        if (!v.is_array()) f.fail(key, "expected a list");
        return v;
    }

    int nodeValue(Fields& f, const Json& node, const tmpl::Bindings& b) {
        std::int64_t n = -1;
        if (node.is_number_integer()) {
            n = node.get<std::int64_t>();
        } else {
            const std::string text = expandField(f, "node", node.get<std::string>(), b);
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
            if (error != std::errc() || end != text.data() + text.size())
                f.fail("node", "must be an integer, got '" + text + "'" + suffix(b));
        }
        if (n < 0 || n > INT_MAX)
            f.fail("node", "must be a non-negative integer, got " + std::to_string(n) + suffix(b));
        return static_cast<int>(n);
    }

    void readDevice(const Json& entry, const std::string& at) {
        Fields f(entry, at, source);
        const auto repeats = tmpl::readRepetition(f);
        const std::string name = f.string("name");
        ComputeDevice d;
        d.kind = f.string("kind", "device");
        if (lenient) {
            d.peak_flops = f.number("peak_flops");
            d.mem_bandwidth_Bps = f.number("mem_bandwidth_Bps");
            d.mem_capacity_B = f.number("mem_capacity_B", 0.0);
            d.efficiency = f.number("efficiency", 1.0);
            d.task_overhead_s = f.number("task_overhead_s", 0.0);
        } else {
            d.peak_flops = f.positive("peak_flops");
            d.mem_bandwidth_Bps = f.positive("mem_bandwidth_Bps");
            d.mem_capacity_B = f.nonNegative("mem_capacity_B", 0.0);
            d.efficiency = f.positive("efficiency", 1.0);
            if (d.efficiency > 1) f.fail("efficiency", "must be in (0, 1], got " + excerpt(f.raw("efficiency")));
            d.task_overhead_s = f.nonNegative("task_overhead_s", 0.0);
        }
        // "node" is an integer or a template such as "{n}".
        const Json node = f.has("node") ? f.raw("node") : Json(0);
        if (!node.is_number_integer() && !node.is_string())
            f.fail("node", "expected an integer or a template such as \"{n}\", found " + excerpt(node));
        f.finish();
        room(at, t.devices.size(), repeats.size(), limits::kTopologyDevices, "compute devices");
        for (const auto& b : repeats) {
            d.name = expandField(f, "name", name, b);
            declare(f, d.name, b);
            d.node = nodeValue(f, node, b);
            t.devices.push_back(d);
            devices.push_back({at, tmpl::describe(b)});
        }
    }

    void readSwitch(const Json& entry, const std::string& at) {
        // A plain string is one switch; an object may repeat a name template.
        const Json object = entry.is_string() ? Json{{"name", entry}} : entry;
        Fields f(object, at, source);
        const auto repeats = tmpl::readRepetition(f);
        const std::string name = f.string("name");
        f.finish();
        room(at, t.switches.size(), repeats.size(), limits::kTopologySwitches, "switches");
        for (const auto& b : repeats) {
            const std::string expanded = expandField(f, "name", name, b);
            if (entry.is_string()) {
                if (expanded.empty() && !lenient) throw InputError(source, at, "a switch name must not be empty");
                const auto [it, fresh] = declared.emplace(expanded, std::pair{at, t.vertexCount()});
                if (!fresh && !lenient)
                    throw InputError(source, at, "'" + expanded + "' is already declared at " + it->second.first);
            } else {
                declare(f, expanded, b);
            }
            t.switches.push_back(expanded);
            switches.push_back({at, tmpl::describe(b)});
        }
    }

    void readLink(const Json& entry, const std::string& at) {
        Fields f(entry, at, source);
        const auto repeats = tmpl::readRepetition(f);
        const std::string from = f.string("from"), to = f.string("to");
        Link l;
        l.kind = f.string("kind", "link");
        l.bandwidth_Bps = lenient ? f.number("bandwidth_Bps") : f.positive("bandwidth_Bps");
        l.latency_s = lenient ? f.number("latency_s", 0.0) : f.nonNegative("latency_s", 0.0);
        const bool duplex = f.boolean("duplex", false);
        const bool named = f.has("name");
        const std::string name = f.string("name", "");
        if (named && duplex)
            f.fail("name", "a duplex entry makes two links; leave 'name' out (they are named '<kind> <from>-><to>')");
        f.finish();
        room(at, t.links.size(), repeats.size() * (duplex ? 2 : 1), limits::kTopologyLinks, "links");
        for (const auto& b : repeats) {
            const std::string a = expandField(f, "from", from, b), z = expandField(f, "to", to, b);
            l.from = vertex(f, "from", a, b);
            l.to = vertex(f, "to", z, b);
            if (l.from == l.to && !lenient) f.fail("to", "a link from '" + a + "' to itself" + suffix(b));
            l.name = named ? expandField(f, "name", name, b) : l.kind + " " + a + "->" + z;
            t.links.push_back(l);
            links.push_back({at, tmpl::describe(b)});
            if (!duplex) continue;
            std::swap(l.from, l.to);
            l.name = l.kind + " " + z + "->" + a;
            t.links.push_back(l);
            links.push_back({at, tmpl::describe(b)});
        }
    }

    // Maps an error from finalize() to the entry that made the element.
    [[noreturn]] void rethrow(const TopologyError& e) const {
        const std::vector<Origin>* from = e.element == TopologyError::Element::Device   ? &devices
                                          : e.element == TopologyError::Element::Switch ? &switches
                                          : e.element == TopologyError::Element::Link   ? &links
                                                                                        : nullptr;
        if (!from || e.index < 0 || e.index >= static_cast<int>(from->size())) throw InputError(source, "/", e.what());
        const Origin& o = (*from)[static_cast<size_t>(e.index)];
        throw InputError(source, o.pointer, std::string(e.what()) + (o.vars.empty() ? "" : " (for " + o.vars + ")"));
    }
};

bool defaultName(const Topology& t, const Link& l) {
    return l.name == l.kind + " " + t.vertexName(l.from) + "->" + t.vertexName(l.to);
}

}  // namespace

namespace {

Reader read(const std::string& text, const std::string& source, bool lenient) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, kTopologyFormat);
    Reader r;
    r.source = source;
    r.lenient = lenient;
    r.t.name = f.string("name");
    const Json& devices = Reader::list(f, "devices");
    if (devices.empty() && !lenient) f.fail("devices", "expected at least one compute device");
    for (size_t k = 0; k < devices.size(); ++k) r.readDevice(devices[k], "/devices/" + std::to_string(k));
    if (f.has("switches")) {
        const Json& switches = Reader::list(f, "switches");
        for (size_t k = 0; k < switches.size(); ++k) r.readSwitch(switches[k], "/switches/" + std::to_string(k));
    }
    if (f.has("links")) {
        const Json& links = Reader::list(f, "links");
        for (size_t k = 0; k < links.size(); ++k) r.readLink(links[k], "/links/" + std::to_string(k));
    }
    f.finish();
    return r;
}

}  // namespace

Topology readTopologyJsonUnchecked(const std::string& text, const std::string& source, TopologyPlaces* places) {
    Reader r = read(text, source, true);
    if (places) {
        const auto pointers = [](const std::vector<Origin>& o) {
            std::vector<std::string> p;
            for (const Origin& x : o) p.push_back(x.pointer + (x.vars.empty() ? "" : " (for " + x.vars + ")"));
            return p;
        };
        *places = {pointers(r.devices), pointers(r.switches), pointers(r.links)};
    }
    return std::move(r.t);
}

Topology readTopologyJson(const std::string& text, const std::string& source) {
    Reader r = read(text, source, false);
    try {
        r.t.finalize();
    } catch (const TopologyError& e) {
        r.rethrow(e);
    }
    return std::move(r.t);
}

Json topologyToJson(const Topology& t) {
    Json devices = Json::array();
    for (const auto& d : t.devices) {
        devices.push_back({{"name", d.name},
                           {"kind", d.kind},
                           {"node", d.node},
                           {"peak_flops", d.peak_flops},
                           {"mem_bandwidth_Bps", d.mem_bandwidth_Bps},
                           {"mem_capacity_B", d.mem_capacity_B},
                           {"efficiency", d.efficiency}});
        if (d.task_overhead_s != 0) devices.back()["task_overhead_s"] = d.task_overhead_s;  // optional field
    }
    Json links = Json::array();
    for (size_t k = 0; k < t.links.size(); ++k) {
        const Link& l = t.links[k];
        Json j{{"kind", l.kind},
               {"from", t.vertexName(l.from)},
               {"to", t.vertexName(l.to)},
               {"bandwidth_Bps", l.bandwidth_Bps},
               {"latency_s", l.latency_s}};
        // A link followed by its identical reverse is written once as a duplex entry.
        const Link* next = k + 1 < t.links.size() ? &t.links[k + 1] : nullptr;
        if (next && next->from == l.to && next->to == l.from && next->kind == l.kind &&
            next->bandwidth_Bps == l.bandwidth_Bps && next->latency_s == l.latency_s && defaultName(t, l) &&
            defaultName(t, *next)) {
            j["duplex"] = true;
            ++k;
        } else if (!defaultName(t, l)) {
            j["name"] = l.name;
        }
        links.push_back(j);
    }
    return {{"format", kTopologyFormat}, {"name", t.name}, {"devices", devices}, {"switches", t.switches}, {"links", links}};
}

std::string writeTopologyJson(const Topology& t) { return topologyToJson(t).dump(2) + "\n"; }

}  // namespace partita::sim
