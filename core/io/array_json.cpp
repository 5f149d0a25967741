#include <stdexcept>

#include "core/io/array_io.h"
#include "core/util/error.h"

namespace partita {

namespace {

// "accelerators": [{kind, count, throughput_flops, bandwidth_Bps}, ...] (docs/methods/accpar.md#the-hierarchy-over-an-array).
void readGroups(Fields& f, Array& a) {
    const Json& list = f.raw("accelerators");
    const std::string at = f.pointer("accelerators");
    if (!list.is_array() || list.empty())
        throw InputError(f.source(), at, "expected a non-empty list of accelerator groups");
    for (size_t k = 0; k < list.size(); ++k) {
        Fields g(list[k], at + "/" + std::to_string(k), f.source());
        AcceleratorGroup group;
        group.kind = g.string("kind");
        if (group.kind.empty()) g.fail("kind", "must not be empty");
        for (const auto& other : a.groups)
            if (other.kind == group.kind) g.fail("kind", "kind '" + group.kind + "' is listed twice; merge the groups");
        group.count = static_cast<int>(g.integerIn("count", 1, 1 << Array::kMaxLevels));
        group.throughput_flops = g.inRange("throughput_flops", arrayRange("throughput_flops"));
        group.bandwidth_Bps = g.inRange("bandwidth_Bps", arrayRange("bandwidth_Bps"));
        g.finish();
        a.groups.push_back(group);
    }
    // HyPar-style keys describe a homogeneous array; with groups they would contradict them.
    for (const char* key : {"topology", "link_bps", "level_bw_factor", "accelerator"})
        if (f.has(key)) f.fail(key, std::string("'") + key + "' cannot be combined with 'accelerators'");
    const int height = treeHeight(a.groups);
    if (a.count() < 2) f.fail("accelerators", "an array needs at least 2 accelerators");
    if (height > Array::kMaxLevels)
        f.fail("accelerators", "the groups need " + std::to_string(height) + " levels; at most " +
                                   std::to_string(Array::kMaxLevels) + " are supported");
    if (f.has("levels")) {
        const auto levels = f.integerIn("levels", 1, Array::kMaxLevels);
        if (levels != height)
            f.fail("levels", "the accelerator groups form " + std::to_string(height) + " levels, not " +
                                 std::to_string(levels) + " (leave 'levels' out to derive it)");
    }
    deriveFromGroups(a);
}

void readLevelBandwidth(Fields& f, Array& a) {
    const Json& list = f.raw("level_bandwidth_Bps");
    const std::string at = f.pointer("level_bandwidth_Bps");
    if (!list.is_array()) throw InputError(f.source(), at, "expected a list of bytes/s per level, H1 first");
    if (static_cast<int>(list.size()) != a.levels)
        throw InputError(f.source(), at, "has " + std::to_string(list.size()) + " entries, the array has " +
                                             std::to_string(a.levels) + " levels");
    for (size_t h = 0; h < list.size(); ++h) {
        if (!list[h].is_number() || !(list[h].get<double>() > 0))
            throw InputError(f.source(), at + "/" + std::to_string(h),
                             "must be a positive number, got " + excerpt(list[h]));
        if (const std::string why = rangeProblem(list[h].get<double>(), arrayRange("level_bandwidth_Bps")); !why.empty())
            throw InputError(f.source(), at + "/" + std::to_string(h), why);
        a.level_bandwidth_Bps.push_back(list[h].get<double>());
    }
}

void readHyparFields(Fields& f, Array& a) {
    a.levels = static_cast<int>(f.integerIn("levels", 1, Array::kMaxLevels));
    const std::string topology = f.string("topology", "htree");
    if (topology == "htree") a.topology = Topology::HTree;
    else if (topology == "torus") a.topology = Topology::Torus;
    else f.fail("topology", "unknown topology '" + topology + "' (use htree or torus)");
    a.link_bps = f.inRange("link_bps", arrayRange("link_bps"), a.link_bps);
    a.level_bw_factor = f.inRange("level_bw_factor", arrayRange("level_bw_factor"), a.level_bw_factor);
    if (f.has("accelerator")) {
        Fields acc(f.raw("accelerator"), f.pointer("accelerator"), f.source());
        auto& s = a.accelerator;
        s.kind = acc.string("kind", s.kind);
        s.throughput_ops = acc.inRange("throughput_ops", arrayRange("throughput_ops"), s.throughput_ops);
        s.e_mult_pj = acc.inRange("e_mult_pj", arrayRange("e_mult_pj"), s.e_mult_pj);
        s.e_add_pj = acc.inRange("e_add_pj", arrayRange("e_add_pj"), s.e_add_pj);
        s.e_dram_pj = acc.inRange("e_dram_pj", arrayRange("e_dram_pj"), s.e_dram_pj);
        s.e_sram_pj = acc.inRange("e_sram_pj", arrayRange("e_sram_pj"), s.e_sram_pj);
        s.e_link_pj_per_bit = acc.inRange("e_link_pj_per_bit", arrayRange("e_link_pj_per_bit"), s.e_link_pj_per_bit);
        acc.finish();
    }
}

}  // namespace

Array readArrayJson(const std::string& text, const std::string& source) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-array/1");
    Array a;
    a.name = f.string("name");
    if (f.has("accelerators")) readGroups(f, a);
    else readHyparFields(f, a);
    if (f.has("level_bandwidth_Bps")) readLevelBandwidth(f, a);
    f.finish();
    try {
        validate(a);  // what no single field shows: each level's bandwidth from link_bps and level_bw_factor
    } catch (const std::invalid_argument& e) {
        throw InputError(source, "/", e.what());
    }
    return a;
}

Array loadArray(const std::string& path) { return readArrayJson(readTextFile(path), path); }

Json arrayToJson(const Array& a) {
    Json j{{"format", "partita-array/1"}, {"name", a.name}};
    if (!a.groups.empty()) {
        j["levels"] = a.levels;
        Json list = Json::array();
        for (const auto& g : a.groups)
            list.push_back({{"kind", g.kind},
                            {"count", g.count},
                            {"throughput_flops", g.throughput_flops},
                            {"bandwidth_Bps", g.bandwidth_Bps}});
        j["accelerators"] = list;
    } else {
        const auto& s = a.accelerator;
        j["levels"] = a.levels;
        j["topology"] = topologyName(a.topology);
        j["link_bps"] = a.link_bps;
        j["level_bw_factor"] = a.level_bw_factor;
        j["accelerator"] = {{"kind", s.kind},
                            {"throughput_ops", s.throughput_ops},
                            {"e_mult_pj", s.e_mult_pj},
                            {"e_add_pj", s.e_add_pj},
                            {"e_dram_pj", s.e_dram_pj},
                            {"e_sram_pj", s.e_sram_pj},
                            {"e_link_pj_per_bit", s.e_link_pj_per_bit}};
    }
    if (!a.level_bandwidth_Bps.empty()) j["level_bandwidth_Bps"] = a.level_bandwidth_Bps;
    return j;
}

std::string writeArrayJson(const Array& a) { return arrayToJson(a).dump(2) + "\n"; }

}  // namespace partita
