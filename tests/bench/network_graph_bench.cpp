// The network graph view on a generated 1,000-operator network (a chain of residual blocks, with
// projection shortcuts and two-branch concats): Graphviz's dot layout of the view's graph, and the
// paint time of the view into a 1280x800 image, fitted (the whole graph, boxes only) and at 100 %
// (readable text, culled to what is in view). Targets (issue 15): layout < 2 s, paint < 16 ms.
// A separate binary from partita_bench because it needs Qt (built only with the GUI).
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "core/run/run.h"
#include "widgets/geometry/graph_layout.h"
#include "widgets/network/network_graph.h"

namespace {

using namespace partita;

Operator op(const std::string& name, OpType type, std::vector<std::string> inputs, std::int64_t out = 0) {
    Operator o;
    o.name = name;
    o.type = type;
    o.inputs = std::move(inputs);
    o.out_channels = out;
    if (type == OpType::Conv) o.window = {3, 3, 1, 1, 1, 1, Rounding::Exact};
    return o;
}

// Blocks in turn: a residual block with a conv on its shortcut (4 operators), an identity
// residual block (3) and a two-branch concat (3), until `operators` - 1; then an fc.
Network generated(int operators) {
    Network net;
    net.name = "Generated-" + std::to_string(operators);
    net.input = {16, 8, 8};
    std::string x = "input";
    std::int64_t channels = 16;
    const auto add = [&](Operator o) { net.ops.push_back(std::move(o)); };
    for (int b = 0; static_cast<int>(net.ops.size()) + 4 < operators; ++b) {
        const std::string n = std::to_string(b);
        switch (b % 3) {
        case 0:
            add(op("a" + n, OpType::Conv, {x}, 32));
            add(op("b" + n, OpType::Conv, {"a" + n}, 32));
            add(op("proj" + n, OpType::Conv, {x}, 32));
            add(op("add" + n, OpType::Add, {"b" + n, "proj" + n}));
            channels = 32;
            x = "add" + n;
            break;
        case 1:
            add(op("a" + n, OpType::Conv, {x}, channels));
            add(op("b" + n, OpType::Conv, {"a" + n}, channels));
            add(op("add" + n, OpType::Add, {"b" + n, x}));
            x = "add" + n;
            break;
        default:
            add(op("l" + n, OpType::Conv, {x}, 8));
            add(op("r" + n, OpType::Conv, {x}, 8));
            add(op("cat" + n, OpType::Concat, {"l" + n, "r" + n}));
            channels = 16;
            x = "cat" + n;
        }
    }
    while (static_cast<int>(net.ops.size()) + 1 < operators) {  // pad to the count with convs
        const std::string n = "pad" + std::to_string(net.ops.size());
        add(op(n, OpType::Conv, {x}, channels));
        x = n;
    }
    add(op("fc", OpType::FullyConnected, {x}, 10));
    propagate(net, net.name);
    return net;
}

InputsPtr inputs() {
    static const InputsPtr in = makeInputs(generated(1000), defaultArray(4), CostParams{});
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
