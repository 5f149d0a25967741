#include "core/l2s/json.h"

#include <cmath>

namespace partita::l2s {

Json rowJson(const BoundaryRow& r) {
    return Json{{"layer", r.layer}, {"scheme", schemeName(r.scheme)}, {"volume_B", r.volume_B},
                {"traditional_B", r.traditional_B}, {"byte_hops", r.byte_hops}, {"flits", r.flits},
                {"packets", r.packets}, {"max_link_B", r.max_link_B}, {"max_link_flits", r.max_link_flits},
                {"max_port_flits", r.max_port_flits},
                {"bottleneck", r.bottleneck_from < 0 ? Json() : Json(coreName(r.bottleneck_from) + "->" + coreName(r.bottleneck_to))},
                {"longest_hops", r.longest_hops}, {"comm_cycles", r.comm_cycles},
                {"compute_cycles", r.compute_cycles}, {"macs", r.macs}, {"weights", r.weights},
                {"energy_J", r.energy_J}, {"traffic_B", r.traffic}, {"link_load_B", r.link_load}};
}

Json versusJson(const Versus& v) {
    auto num = [](double x) { return std::isfinite(x) ? Json(x) : Json(); };
    return Json{{"speedup", num(v.speedup)}, {"comm_speedup", num(v.comm_speedup)},
                {"traffic_rate", v.traffic_rate}, {"energy_reduction", v.energy_reduction}};
}

Json totalsJson(const Evaluation& e) {
    return Json{{"volume_B", e.volume_B}, {"traditional_B", e.traditional_B}, {"traffic_rate", e.trafficRate()},
                {"byte_hops", e.byte_hops}, {"flits", e.flits}, {"packets", e.packets},
                {"comm_cycles", e.comm_cycles}, {"compute_cycles", e.compute_cycles},
                {"total_cycles", e.total_cycles}, {"time_s", e.time_s}, {"energy_J", e.energy_J}, {"macs", e.macs}};
}

Json paperJson(const PaperRow* p) {
    if (!p) return Json();
    auto num = [](double x) { return std::isnan(x) ? Json() : Json(x); };
    return Json{{"source", p->table + " (paper-reported)"}, {"accuracy", num(p->accuracy)}, {"traffic", num(p->traffic)},
                {"speedup", num(p->speedup)}, {"energy_reduction", num(p->energy_reduction)}, {"baseline", p->baseline}};
}

}  // namespace partita::l2s
