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
    EXPECT_EQ(axisNames(), "batch, levels, link_bps, level_bw_factor, throughput_ops, bytes_per_element, mode, "
                           "out_size, ratio_model, iterations, seed, beta, tp, pp, dp, micro_batch, global_batch, "
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

}  // namespace
}  // namespace partita::sweep
