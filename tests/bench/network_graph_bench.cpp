// The network graph view on a generated 1,000-operator network (tests/generated_network.h: residual
// blocks, with and without projection shortcuts, and two-branch concats): Graphviz's dot layout of
// the view's graph, and the paint time of the view into a 1280x800 image, fitted (the whole graph,
// boxes only) and at 100 % (readable text, culled to what is in view). Targets (issue 15): layout < 2 s, paint < 16 ms.
// A separate binary from partita_bench because it needs Qt (built only with the GUI).
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "core/run/run.h"
#include "tests/generated_network.h"
#include "widgets/geometry/graph_layout.h"
#include "widgets/network/network_graph.h"

namespace {

using namespace partita;

InputsPtr inputs() {
    static const InputsPtr in = makeInputs(test::generatedNetwork(1000), defaultArray(4), CostParams{});
    return in;
}

// A view with the graph laid out (in its worker, as the GUI does it).
std::unique_ptr<NetworkGraphView> laidOutView() {
    auto view = std::make_unique<NetworkGraphView>();
    view->resize(1280, 800);
    view->show();  // its resize event now, not in the first render (which would reset the view)
    view->setInputs(inputs());
    view->waitForLayout();
    return view;
}

void BM_NetworkGraphLayout(benchmark::State& state) {
    const auto view = laidOutView();
    const view::GraphSpec spec = view->graphSpec();
    for (auto _ : state) benchmark::DoNotOptimize(view::layoutGraph(spec));
    state.counters["nodes"] = static_cast<double>(spec.nodes.size());
    state.counters["edges"] = static_cast<double>(spec.edges.size());
}
BENCHMARK(BM_NetworkGraphLayout)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_NetworkGraphPaint(benchmark::State& state) {
    const auto view = laidOutView();
    if (state.range(0) == 0) view->fit();
    else view->zoomBy(1.0 / view->scale(), {640, 400});  // 100 %
    QImage image(1280, 800, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        image.fill(Qt::white);
        view->render(&image);
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["scale"] = view->scale();
    state.SetLabel(state.range(0) == 0 ? "fit (whole graph)" : "100 % (text)");
}
BENCHMARK(BM_NetworkGraphPaint)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_NetworkGraphFigure(benchmark::State& state) {
    const auto view = laidOutView();
    const QSize size = view->figureSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        image.fill(Qt::white);
        QPainter p(&image);
        view->paintFigure(p, image.rect());
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["width"] = size.width();
    state.counters["height"] = size.height();
}
BENCHMARK(BM_NetworkGraphFigure)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);  // fonts, the widget and the layout worker's reply need one
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
