// The LLM views' paint and hit-test times (issue 29): the pipeline timeline of a 1F1B plan with
// p = 8, m = 64 (GPT-3 175B, t8 p8 d1 on 64 A100s) painted into a 1280x800 QImage (target < 16 ms);
// the trade-off view given 10^5 points and repainted once; one hit test among them.
#include <benchmark/benchmark.h>

#include <random>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "core/llm/evaluate.h"
#include "widgets/llm/pipeline_timeline_view.h"
#include "widgets/llm/tradeoff_view.h"

namespace {

using namespace partita;

void BM_LlmTimelinePaint(benchmark::State& state) {
    const auto m = llm::modelPreset("gpt3-175b");
    const auto prof = llm::profilePreset("a100-sxm4-80gb");
    llm::Plan plan;
    plan.tp = 8, plan.pp = 8, plan.dp = 1, plan.micro_batch = 1, plan.global_batch = 64;
    plan.sequence_parallel = true, plan.recompute = llm::Recompute::Selective;
    PipelineTimelineView view;
    view.resize(1280, 800);
    view.setPlan(m, plan, prof, llm::evaluate(m, plan, prof));
    QImage image(1280, 800, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        image.fill(Qt::white);
        QPainter p(&image);
        view.paintFigure(p, image.rect());
        p.end();
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["blocks"] = static_cast<double>(view.timeline().blocks.size());
}
BENCHMARK(BM_LlmTimelinePaint)->Unit(benchmark::kMillisecond);

void BM_LlmTimelineBuild(benchmark::State& state) {
    const auto m = llm::modelPreset("gpt3-175b");
    const auto prof = llm::profilePreset("a100-sxm4-80gb");
    llm::Plan plan;
    plan.tp = 8, plan.pp = 8, plan.dp = 1, plan.micro_batch = 1, plan.global_batch = 64;
    plan.sequence_parallel = true, plan.recompute = llm::Recompute::Selective;
    const auto ev = llm::evaluate(m, plan, prof);
    for (auto _ : state) benchmark::DoNotOptimize(llm::pipelineTimeline(plan, llm::timelineCosts(m, plan, prof, ev)));
}
BENCHMARK(BM_LlmTimelineBuild)->Unit(benchmark::kMillisecond);

std::vector<llm::PlanPoint> syntheticPoints(int n) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> t(0.5, 40), mem(10e9, 200e9);
    std::vector<llm::PlanPoint> pts(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        auto& p = pts[static_cast<size_t>(i)];
        p.plan.tp = 1 << (i % 4), p.plan.pp = 1 << (i / 4 % 4), p.plan.dp = 64 / (p.plan.tp * p.plan.pp) + 1;
        p.plan.global_batch = 512;
        p.plan.recompute = static_cast<llm::Recompute>(i % 3);
        p.iteration_s = t(rng), p.peak_bytes = mem(rng), p.fits = p.peak_bytes < 80e9;
    }
    return pts;
}

void BM_TradeoffSetAndRepaint(benchmark::State& state) {
    const auto pts = syntheticPoints(100000);
    llm::SearchResult r;
    TradeoffView view;
    view.resize(1280, 800);
    view.show();
    QApplication::processEvents();
    QImage image(view.plot()->size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        view.setSearch(pts, r, 80e9, 2048);
        view.plot()->render(&image);
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["points"] = 100000;
}
BENCHMARK(BM_TradeoffSetAndRepaint)->Unit(benchmark::kMillisecond);

void BM_TradeoffRepaintCached(benchmark::State& state) {
    TradeoffView view;
    view.resize(1280, 800);
    view.show();
    QApplication::processEvents();
    view.setSearch(syntheticPoints(100000), {}, 80e9, 2048);
    QImage image(view.plot()->size(), QImage::Format_ARGB32_Premultiplied);
    view.plot()->render(&image);
    for (auto _ : state) {
        view.plot()->render(&image);
        benchmark::DoNotOptimize(image.constBits());
    }
}
BENCHMARK(BM_TradeoffRepaintCached)->Unit(benchmark::kMillisecond);

void BM_TradeoffHitTest(benchmark::State& state) {
    TradeoffView view;
    view.resize(1280, 800);
    view.show();
    QApplication::processEvents();
    view.setSearch(syntheticPoints(100000), {}, 80e9, 2048);
    (void)view.pointAt(QPointF(0, 0));  // index built once, as after the first paint
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> x(0, view.plot()->width()), y(0, view.plot()->height());
    for (auto _ : state) benchmark::DoNotOptimize(view.pointAt(QPointF(x(rng), y(rng))));
}
BENCHMARK(BM_TradeoffHitTest)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
