// Compute task times: the analytic roofline and the measured-cost CSV.
#include <gtest/gtest.h>

#include "core/sim/compute_cost.h"
#include "core/sim/simulator.h"
#include "core/util/error.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

using test::errorOf;
using test::fcChain;

TEST(SimCost, AnalyticRoofline) {
    const Network net = fcChain();
    const Box whole{Interval{0, 4}, {0, 16}, {0, 1}, {0, 1}};
    const Work w = forwardWork(net, net.ops[0], whole, 4);
    EXPECT_EQ(w.flops, 1024);
    EXPECT_EQ(w.bytes, 896);
    ComputeDevice d = test::device("d", 1e9, 1e9);
    EXPECT_DOUBLE_EQ(analyticTime(w, d), 1.024e-6);
    d.efficiency = 0.5;  // half the peak: 2.048 us
    EXPECT_DOUBLE_EQ(analyticTime(w, d), 2.048e-6);
    d.mem_bandwidth_Bps = 1e8;  // memory bound: 8.96 us
    EXPECT_DOUBLE_EQ(analyticTime(w, d), 8.96e-6);
    const Work b = backwardWork(net.ops[0], w);
    EXPECT_EQ(b.flops, 2048);
    EXPECT_EQ(b.bytes, 1792);
    d.task_overhead_s = 5e-6;  // a fixed launch overhead on top of the roofline
    EXPECT_DOUBLE_EQ(analyticTime(w, d), 13.96e-6);
}

TEST(SimCost, MeasuredTableOverridesMatchingTasks) {
    const Network net = fcChain();
    auto table = std::make_shared<CostTable>(
        CostTable::parse("op,input,output,kernel,batch,degrees,device,forward_s,backward_s\r\n"
                         "fc,8,16x1x1,,4,1x1x1x1,test,1e-6,3e-6\r\n"
                         "\"fc\",8x1x1,16,,4,2x1x1x1,\"test\",0.25e-6,0.5e-6\r\n",
                         "costs.csv"));
    EXPECT_EQ(table->size(), 2u);
    OpConfig whole;
    whole.devices = {0};
    SimOptions opt;
    opt.measured = table;
    const TaskGraph g = buildTaskGraph(net, 4, SoapStrategy{net.name, {whole, whole}}, test::pair(), opt);
    for (size_t t = 0; t < g.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        const TaskInfo& i = g.info(ti);
        if (i.op == 0 && i.phase == Phase::Forward) {
            EXPECT_EQ(g.exe(ti), 1e-6);
        } else if (i.op == 0 && i.phase == Phase::Backward) {
            EXPECT_EQ(g.exe(ti), 3e-6);
        } else if (i.op == 1 && i.phase == Phase::Forward) {
            EXPECT_DOUBLE_EQ(g.exe(ti), 0.576e-6);  // no entry: analytic
        }
    }
    Degrees dp{2, 1, 1, 1};
    EXPECT_EQ(table->lookup(net.ops[0], 4, dp, "test", false), 0.25e-6);
    EXPECT_EQ(table->lookup(net.ops[0], 4, dp, "p100", false), std::nullopt);
    EXPECT_EQ(table->lookup(net.ops[0], 8, dp, "test", false), std::nullopt);
}

TEST(SimCost, MalformedTablesGiveClearErrors) {
    const std::string header = "op,input,output,batch,degrees,device,forward_s,backward_s\n";
    auto parse = [](const std::string& text) { return errorOf([&] { CostTable::parse(text, "c.csv"); }); };
    EXPECT_EQ(parse(""), "c.csv: the cost table is empty (expected a header row)");
    EXPECT_EQ(parse("op,input,output,batch,degrees,device,forward_s\n"), "c.csv: line 1: missing column 'backward_s'");
    EXPECT_EQ(parse("op,input,output,batch,degrees,device,forward_s,backward_s,gpu\n"),
              "c.csv: line 1: unknown column 'gpu'");
    EXPECT_EQ(parse("op,op,input,output,batch,degrees,device,forward_s,backward_s\n"),
              "c.csv: line 1: column 'op' appears twice");
    EXPECT_EQ(parse(header + "lstm,8,16,4,1x1x1x1,p100,1,2\n"),
              "c.csv: line 2, column 'op': unknown operator kind 'lstm' (use conv, fc, pool, add or concat)");
    EXPECT_EQ(parse(header + "fc,8,16,4,1x1x1,p100,1,2\n"),
              "c.csv: line 2, column 'degrees': expected 4 sizes, got '1x1x1'");
    EXPECT_EQ(parse(header + "fc,8x0,16,4,1x1x1x1,p100,1,2\n"),
              "c.csv: line 2, column 'input': sizes must be positive, got '8x0'");
    EXPECT_EQ(parse(header + "fc,8,16,four,1x1x1x1,p100,1,2\n"),
              "c.csv: line 2, column 'batch': expected positive integers separated by 'x', got 'four'");
    EXPECT_EQ(parse(header + "fc,8,16,4,1x1x1x1,p100,-1,2\n"),
              "c.csv: line 2, column 'forward_s': expected a non-negative number of seconds, got '-1'");
    EXPECT_EQ(parse(header + "fc,8,16,4,1x1x1x1,p100,1,2ms\n"),
              "c.csv: line 2, column 'backward_s': expected a non-negative number of seconds, got '2ms'");
    EXPECT_EQ(parse(header + "fc,8,16,4,1x1x1x1,,1,2\n"), "c.csv: line 2, column 'device': the device kind is empty");
    EXPECT_EQ(parse(header + "fc,8,16,4,1x1x1x1,p100,1\n"), "c.csv: line 2: expected 8 fields, found 7");
    EXPECT_EQ(parse(header + "fc,8,16,4,1x1x1x1,p100,1,2\nfc,8x1x1,16,4,1x1x1x1,p100,3,4\n"),
              "c.csv: line 3: this entry repeats an earlier row");
    EXPECT_EQ(parse(header + "fc,8,16,4,1x1x1x1,\"p100,1,2\n"), "c.csv: line 2: a quoted field is not closed");
    EXPECT_EQ(errorOf([] { CostTable::load("/nonexistent/costs.csv"); }),
              "/nonexistent/costs.csv: cannot open the file");
}

}  // namespace
}  // namespace partita::sim
