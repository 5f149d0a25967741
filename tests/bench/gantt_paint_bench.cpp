// Paint time of the Gantt view with 10^5 bars into a 1280x800 QImage: the whole
// run (sub-pixel bars merge), zoomed to 1 % (culling), and with the critical
// path and a selected layer highlighted. A separate binary from partita_bench
// because it needs Qt (built only with the GUI).
#include <benchmark/benchmark.h>

#include <random>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "widgets/timeline/gantt_canvas.h"
#include "widgets/timeline/gantt_view.h"

namespace {

using namespace partita;

// 16 devices on 4 nodes and 16 links, 3125 bars each, 1-20 us long with small gaps.
std::shared_ptr<const view::GanttInput> syntheticRun(int bars = 100000) {
    auto in = std::make_shared<view::GanttInput>();
    for (int d = 0; d < 16; ++d) in->resources.push_back({"n" + std::to_string(d / 4) + ".gpu" + std::to_string(d % 4), "node " + std::to_string(d / 4), false});
    for (int l = 0; l < 16; ++l) in->resources.push_back({"link " + std::to_string(l), l < 8 ? "nvlink" : "infiniband", true});
    for (int op = 0; op < 20; ++op) in->op_names.push_back("layer" + std::to_string(op));
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> len(1e-6, 20e-6), gap(0, 2e-6);
    const int lanes = static_cast<int>(in->resources.size());
    std::uint64_t id = 0;
    for (int r = 0; r < lanes; ++r) {
        double t = 0;
        for (int k = 0; k < bars / lanes; ++k) {
            const double start = t + gap(rng), end = start + len(rng);
            const auto phase = static_cast<sim::Phase>(r >= 16 ? 2 + k % 2 : k % 2);
            in->records.push_back({r, id, k % 20, phase, k % 4, start, end, r >= 16 ? 1e6 : 0});
            if (r == 0 && k % 16 == 0) in->critical_path.push_back(id);
            ++id;
            t = end;
        }
        in->makespan = std::max(in->makespan, t);
    }
    return in;
}

void paintOnce(const GanttView& view, QImage& image) {
    image.fill(Qt::white);
    QPainter p(&image);
    view.paintFigure(p, image.rect());
}

void BM_GanttPaint(benchmark::State& state) {
    GanttView view;
    view.resize(1280, 800);
    view.setInput(syntheticRun());
    view.setIdleLinksHidden(false);
    if (state.range(0) == 1) view.canvas()->zoom(100, view.canvas()->axis().x0 + 600);
    if (state.range(0) == 2) {
        view.setCriticalPathShown(true);
        view.selectOperator(3);
    }
    QImage image(1280, 800, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        paintOnce(view, image);
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["bars"] = static_cast<double>(view.model().barCount());
    state.SetLabel(state.range(0) == 0 ? "fit all" : state.range(0) == 1 ? "zoomed 100x" : "critical path + selection");
}
BENCHMARK(BM_GanttPaint)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_GanttModelBuild(benchmark::State& state) {
    const auto input = syntheticRun();
    for (auto _ : state) benchmark::DoNotOptimize(view::GanttModel(input));
}
BENCHMARK(BM_GanttModelBuild)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);  // fonts and the widget need one
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
