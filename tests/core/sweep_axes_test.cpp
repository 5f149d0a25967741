// The sweep's axes (core/sweep/axes.h): their nesting order, and the axes over settings taking their
// checks and members from the field tables.
#include <gtest/gtest.h>

#include "core/settings/array_fields.h"
#include "core/settings/cost_fields.h"
#include "core/sweep/axes.h"
#include "core/sweep/point_run.h"

namespace partita::sweep {
namespace {

TEST(SweepAxes, NestInTheDocumentedOrder) {
    // The order decides which axis varies fastest and the table's columns: changing it reorders
    // every sweep's points (docs/formats/sweep.md#axes).
    // The settings methods' axes follow (llm's plan fields from llmPlanFields(), then gpus and seq).
    // The settings' axes in their tables' order (cost, array, AccPar) with the mode after the cost rows.
    EXPECT_EQ(axisNames(), "batch, out_size, bytes_per_element, mode, levels, link_bps, level_bw_factor, "
                           "throughput_ops, ratio_model, iterations, seed, beta, tp, pp, dp, micro_batch, global_batch, "
                           "interleave, schedule, recompute, sequence_parallel, zero, distributed_optimizer, gpus, seq");
    EXPECT_EQ(findAxis("nope"), nullptr);
}

TEST(SweepAxes, SettingAxesTakeTheirFieldsValues) {
    const AxisDef& bytes = *findAxis("bytes_per_element");
    const Range r = findField(costFields(), "bytes_per_element")->range;
    EXPECT_EQ(bytes.problem(Json(r.lo)), "");
    EXPECT_EQ(bytes.problem(Json(r.hi)), "");
    EXPECT_NE(bytes.problem(Json(r.lo / 2)), "");
    EXPECT_NE(bytes.problem(Json(r.hi * 2)), "");
    const AxisDef& out = *findAxis("out_size");
    for (const FieldChoice& c : findField(costFields(), "out_size")->choices) EXPECT_EQ(out.problem(Json(c.name)), "");
    EXPECT_EQ(out.problem(Json("post-pool")), "takes \"post\" or \"pre\"");
    const Range levels = findField(arrayFields(), "levels")->range;
    EXPECT_EQ(findAxis("levels")->problem(Json(static_cast<int>(levels.hi) + 1)),
              "takes integers from 1 to " + std::to_string(static_cast<int>(levels.hi)));
}

TEST(SweepAxes, ApplyingAnAxisSetsTheFieldsMember) {
    Prepared p;
    findAxis("link_bps")->apply(p, Json(3.2e9));
    EXPECT_EQ(p.array.link_bps, 3.2e9);
    findAxis("throughput_ops")->apply(p, Json(1e12));
    EXPECT_EQ(p.array.accelerator.throughput_ops, 1e12);
    findAxis("bytes_per_element")->apply(p, Json(2));
    EXPECT_EQ(p.params.bytes_per_element, 2);
    EXPECT_EQ(p.accpar.bytes_per_element, 2);  // both models' element size
    findAxis("out_size")->apply(p, Json("pre"));
    EXPECT_EQ(p.params.comm.out_size, OutSize::PrePool);
    findAxis("ratio_model")->apply(p, Json("P"));
    EXPECT_EQ(p.accpar.ratio_model, RatioModel::P);
    findAxis("mode")->apply(p, Json("lit"));
    EXPECT_EQ(p.params.comm.w_intra, 1.0);
    findAxis("seed")->apply(p, Json(7));
    EXPECT_EQ(p.sim.mcmc.seed, 7u);
    EXPECT_EQ(findAxis("link_bps")->stage, AxisStage::Array);
    EXPECT_EQ(findAxis("seed")->stage, AxisStage::Mcmc);
}

// Each field row marked as an axis is one, read by the methods its row names, and no other row is.
TEST(SweepAxes, TheFieldRowsDeclareWhichAxesExistAndWhoReadsThem) {
    std::vector<std::string> from_rows;
    const auto collect = [&](const auto& table) {
        for (const auto& f : table) {
            const AxisDef* a = findAxis(f.key);
            if (f.swept_by == 0) {
                if (std::string(f.key) != "bytes_per_element") {  // AccPar's follows the cost model's
                    EXPECT_EQ(a, nullptr) << f.key;
                }
                continue;
            }
            from_rows.push_back(f.key);
            ASSERT_NE(a, nullptr) << f.key;
            EXPECT_EQ(a->readers, f.swept_by) << f.key;
        }
    };
    collect(costFields());
    collect(arrayFields());
    collect(accparFields());
    EXPECT_EQ(from_rows, (std::vector<std::string>{"batch", "out_size", "bytes_per_element", "levels", "link_bps",
                                                   "level_bw_factor", "throughput_ops", "ratio_model"}));
    // Who reads what follows from the readers: HyPar's model prices the array's links, the simulator does not.
    const auto read = [](const char* method) { return axesRead(*findMethod(method)); };
    EXPECT_EQ(read("hypar"), (std::vector<std::string>{"batch", "out_size", "bytes_per_element", "mode", "levels",
                                                       "link_bps", "level_bw_factor", "throughput_ops"}));
    EXPECT_EQ(read("dp"), read("hypar"));
    EXPECT_EQ(read("accpar"), (std::vector<std::string>{"batch", "bytes_per_element", "levels", "link_bps",
                                                        "level_bw_factor", "throughput_ops", "ratio_model"}));
    EXPECT_EQ(read("simulate"),
              (std::vector<std::string>{"topology", "batch", "out_size", "bytes_per_element", "mode", "levels"}));
    EXPECT_EQ(read("mcmc"),
              (std::vector<std::string>{"topology", "batch", "bytes_per_element", "iterations", "seed", "beta"}));
    EXPECT_TRUE(readsAxis(*findMethod("llm"), "tp"));
    EXPECT_FALSE(readsAxis(*findMethod("llm"), "link_bps"));
    EXPECT_FALSE(readsAxis(*findMethod("llm"), "topology"));
    EXPECT_FALSE(readsAxis(*findMethod("hypar"), "tp"));
}

}  // namespace
}  // namespace partita::sweep
