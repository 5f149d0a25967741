#include "core/settings/array_fields.h"

namespace partita {

const FieldTable<Array>& arrayFields() {
    using namespace fields;
    constexpr auto hypar = FieldModels::HyPar;
    constexpr const char* acc = "accelerator";
    // The array's axes change HyPar's and AccPar's costs; the simulator reads the levels only (its
    // topology is its own).
    constexpr unsigned models = axis_readers::kGridPlans | axis_readers::kAccPar;
    static const FieldTable<Array> table = [] {
        FieldTable<Array> t{
            text<Array>("name", "Name", "Shown to the user.", [](Array& a) -> auto& { return a.name; }),
            axis(integer<Array>("levels", "Levels", "", Range{1, Array::kMaxLevels, ""},
                                "Hierarchy levels H: 2^H accelerators, H1 the top split.",
                                [](Array& a) -> auto& { return a.levels; }),
                 models | axis_readers::kSimulate),
            choice<Array>("topology", "Topology", {{"htree", "H-tree"}, {"torus", "torus"}},
                          "H-tree: a fat tree, each level's pair exchange has its own links. Torus: a 2-D torus "
                          "with dimension-order routing; exchanges sharing a link split its bandwidth.",
                          [](Array& a) -> auto& { return a.topology; }, hypar),
            axis(number<Array>("link_bps", "Link", "bit/s", ranges::kBitsPerSecond,
                               "Bandwidth of one link at the lowest level.",
                               [](Array& a) -> auto& { return a.link_bps; }, hypar),
                 models),
            axis(number<Array>("level_bw_factor", "Level BW factor", "", ranges::kLevelFactor,
                               "Fat-tree bandwidth ratio between adjacent levels: each level up has this many times "
                               "the bandwidth of the one below (1: equal bandwidth).",
                               [](Array& a) -> auto& { return a.level_bw_factor; }, hypar),
                 models),
            text<Array>("kind", "Kind", "A name for the accelerator.",
                        [](Array& a) -> auto& { return a.accelerator.kind; }, acc),
            axis(number<Array>("throughput_ops", "Throughput", "ops/s", ranges::kOpsPerSecond,
                               "Accelerator throughput R_acc, 2 ops per MAC.",
                               [](Array& a) -> auto& { return a.accelerator.throughput_ops; }, hypar, acc),
                 models),
            number<Array>("e_mult_pj", "Multiply", "pJ", ranges::kEnergyPj, "Energy of one 32-bit float multiply.",
                          [](Array& a) -> auto& { return a.accelerator.e_mult_pj; }, hypar, acc),
            number<Array>("e_add_pj", "Add", "pJ", ranges::kEnergyPj, "Energy of one 32-bit float add.",
                          [](Array& a) -> auto& { return a.accelerator.e_add_pj; }, hypar, acc),
            number<Array>("e_dram_pj", "DRAM", "pJ", ranges::kEnergyPj, "Energy of one 32-bit DRAM access.",
                          [](Array& a) -> auto& { return a.accelerator.e_dram_pj; }, hypar, acc),
            number<Array>("e_sram_pj", "SRAM", "pJ", ranges::kEnergyPj,
                          "Energy of one 32-bit SRAM access; counted only with SRAM energy on.",
                          [](Array& a) -> auto& { return a.accelerator.e_sram_pj; }, hypar, acc),
            number<Array>("e_link_pj_per_bit", "Link", "pJ/bit", ranges::kEnergyPj,
                          "Energy to move one bit over a link.",
                          [](Array& a) -> auto& { return a.accelerator.e_link_pj_per_bit; }, hypar, acc),
        };
        t[0].required = t[1].required = true;
        t[2].choice_noun = "topology";
        t[5].models = hypar;  // the "accelerator" object exists in arrays of identical accelerators only
        return t;
    }();
    return table;
}

const FieldTable<AcceleratorGroup>& acceleratorGroupFields() {
    using namespace fields;
    using G = AcceleratorGroup;
    constexpr auto accpar = FieldModels::AccPar;
    static const FieldTable<G> table = [] {
        FieldTable<G> t{
            text<G>("kind", "Kind", "A name, unique in the array.", [](G& g) -> auto& { return g.kind; }),
            integer<G>("count", "Count", "", Range{1, 1 << Array::kMaxLevels, ""}, "Accelerators of this kind.",
                       [](G& g) -> auto& { return g.count; }, accpar),
            number<G>("throughput_flops", "Throughput", "FLOP/s", ranges::kFlopsPerSecond,
                      "FLOP/s of one accelerator, 2 per MAC.", [](G& g) -> auto& { return g.throughput_flops; },
                      accpar),
            number<G>("bandwidth_Bps", "Bandwidth", "B/s", ranges::kBytesPerSecond,
                      "Bytes/s one accelerator receives.", [](G& g) -> auto& { return g.bandwidth_Bps; }, accpar),
        };
        for (auto& f : t) f.required = true;
        return t;
    }();
    return table;
}

}  // namespace partita
