#include <stdexcept>

#include "core/io/array_io.h"
#include "core/util/error.h"

namespace partita {

Array readArrayJson(const std::string& text, const std::string& source) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-array/1");
    Array a;
    a.name = f.string("name");
    a.levels = static_cast<int>(f.integerIn("levels", 1, Array::kMaxLevels));
    const std::string topology = f.string("topology", "htree");
    if (topology == "htree") a.topology = Topology::HTree;
    else if (topology == "torus") a.topology = Topology::Torus;
    else f.fail("topology", "unknown topology '" + topology + "' (use htree or torus)");
    a.link_bps = f.positive("link_bps", a.link_bps);
    a.level_bw_factor = f.positive("level_bw_factor", a.level_bw_factor);
    if (f.has("accelerator")) {
        Fields acc(f.raw("accelerator"), f.pointer("accelerator"), source);
        auto& s = a.accelerator;
        s.kind = acc.string("kind", s.kind);
        s.throughput_ops = acc.positive("throughput_ops", s.throughput_ops);
        s.e_mult_pj = acc.nonNegative("e_mult_pj", s.e_mult_pj);
        s.e_add_pj = acc.nonNegative("e_add_pj", s.e_add_pj);
        s.e_dram_pj = acc.nonNegative("e_dram_pj", s.e_dram_pj);
        s.e_sram_pj = acc.nonNegative("e_sram_pj", s.e_sram_pj);
        s.e_link_pj_per_bit = acc.nonNegative("e_link_pj_per_bit", s.e_link_pj_per_bit);
        acc.finish();
    }
    f.finish();
    return a;
}

Array loadArray(const std::string& path) { return readArrayJson(readTextFile(path), path); }

Json arrayToJson(const Array& a) {
    const auto& s = a.accelerator;
    return Json{{"format", "partita-array/1"},
                {"name", a.name},
                {"levels", a.levels},
                {"topology", topologyName(a.topology)},
                {"link_bps", a.link_bps},
                {"level_bw_factor", a.level_bw_factor},
                {"accelerator",
                 {{"kind", s.kind},
                  {"throughput_ops", s.throughput_ops},
                  {"e_mult_pj", s.e_mult_pj},
                  {"e_add_pj", s.e_add_pj},
                  {"e_dram_pj", s.e_dram_pj},
                  {"e_sram_pj", s.e_sram_pj},
                  {"e_link_pj_per_bit", s.e_link_pj_per_bit}}}};
}

std::string writeArrayJson(const Array& a) { return arrayToJson(a).dump(2) + "\n"; }

}  // namespace partita
