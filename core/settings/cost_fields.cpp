#include "core/settings/cost_fields.h"

#include "core/util/limits.h"

namespace partita {

const FieldTable<CostParams>& costFields() {
    using namespace fields;
    using P = CostParams;
    using namespace axis_readers;
    static const FieldTable<P> table{
        axis(integer<P>("batch", "Batch", "", Range{1, static_cast<double>(limits::kBatch), ""},
                        "Mini-batch size B: samples per training step.", [](P& p) -> auto& { return p.batch; }),
             kAll),
        number<P>("w_intra", "Intra-layer weight", "", ranges::kCommWeight,
                  "Weight of intra-layer amounts: 2 = cal, the paper-calibrated model; 1 = lit, Tables 1-2 as "
                  "printed.",
                  [](P& p) -> auto& { return p.comm.w_intra; }),
        axis(choice<P>("out_size", "Output size", {{"post", "post-pool"}, {"pre", "pre-pool"}},
                       "Which output size prices Type-II partial sums: after pooling or before it.",
                       [](P& p) -> auto& { return p.comm.out_size; }),
             kGridPlans | kSimulate),
        // As an axis it sets AccPar's element size too (the same key in accparFields()).
        axis(number<P>("bytes_per_element", "Bytes / element", "", ranges::kBytesPerElement,
                       "Bytes per tensor element (4 = fp32); converts elements to GB and bits on the links.",
                       [](P& p) -> auto& { return p.bytes_per_element; }),
             kAll),
        flag<P>("include_sram_energy", "Include SRAM energy",
                "Add the optional term of 2 SRAM reads per MAC to the energy.",
                [](P& p) -> auto& { return p.include_sram_energy; }),
    };
    return table;
}

const FieldTable<AccParParams>& accparFields() {
    using namespace fields;
    using P = AccParParams;
    static const FieldTable<P> table{
        axis(choice<P>("ratio_model", "Ratio model", {{"E", "E (exact balance)"}, {"P", "P (paper-literal)"}},
                       "How AccPar balances a split between two groups. E: the ratio that makes both groups' "
                       "compute plus communication time exactly equal. P: the paper's linear rule as printed.",
                       [](P& p) -> auto& { return p.ratio_model; }, FieldModels::AccPar),
             axis_readers::kAccPar),
        flag<P>("balanced_baselines", "Balanced baselines",
                "Give DP, OWT and HyPar the ratio model's balanced ratios instead of 1/2, so the baselines also use "
                "unequal groups well.",
                [](P& p) -> auto& { return p.balanced_baselines; }, FieldModels::AccPar),
        number<P>("bytes_per_element", "Bytes / element", "", ranges::kBytesPerElement,
                  "Bytes per tensor element in AccPar's cost (2 = bf16); divides communicated bytes by the groups' "
                  "bandwidth.",
                  [](P& p) -> auto& { return p.bytes_per_element; }, FieldModels::AccPar),
    };
    return table;
}

}  // namespace partita
