// StudyView (offscreen): feed the three plots' data, switch plots, check the
// graphs and legend, the CSV behind each, and PNG/SVG/PDF export. With
// PARTITA_STUDY_SHOTS=DIR it also writes the 1280x800 screenshots there.
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include "core/accpar/accpar.h"
#include "core/io/network_io.h"
#include "core/model/layers.h"
#include "core/run/run.h"
#include "core/search/methods.h"
#include "core/study/plots.h"
#include "widgets/charts/study_view.h"

using namespace partita;

namespace {

std::string example(const std::string& rel) { return std::string(PARTITA_EXAMPLES_DIR) + "/" + rel; }
LayerTable net(const std::string& name) { return weightedLayers(loadNetwork(example("networks/" + name + ".json"))); }

}  // namespace

class StudyViewTest : public QObject {
    Q_OBJECT
    ScaleStudy scale_;
    TopologyStudy topology_;
    LayerComm layers_;
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        const CostParams params;
        AccParParams accpar;
        accpar.batch = params.batch;
        scale_ = scaleStudy(net("vgg-a"), defaultArray(4), params, accpar, 6);
        std::vector<LayerTable> nets;
        for (const char* n : {"sfc", "sconv", "lenet-c", "cifar-c", "alexnet", "vgg-a", "vgg-b", "vgg-c", "vgg-d",
                              "vgg-e"})
            nets.push_back(net(n));
        topology_ = topologyStudy(nets, defaultArray(4), params);
        const Run run = planRun(makeInputs(loadNetwork(example("networks/vgg-a.json")), defaultArray(4), {}),
                                Method::HyPar);
        layers_ = layerComm(run);
        QVERIFY(dir_.isValid());
    }

    void emptyViewShowsNoMadeUpData() {
        StudyView v;
        for (int p = 0; p < StudyView::kPlots; ++p) {
            const auto plot = static_cast<StudyView::Plot>(p);
            QVERIFY(!v.hasData(plot));
            QCOMPARE(v.chart(plot)->plottableCount(), 0);
            QVERIFY(!v.chart(plot)->legend->visible());
            QVERIFY(v.csv(plot).rows.empty());
            QVERIFY(!v.csv(plot).header.empty());
        }
    }

    void plotsHaveGraphsAndLegends() {
        StudyView v;
        v.setScaleStudy(scale_);
        v.setTopologyStudy(topology_);
        v.setLayerComm(layers_);
        QCustomPlot* s = v.chart(StudyView::Plot::Scale);
        QCOMPARE(s->graphCount(), 6);  // gain and communication of DP, HyPar, AccPar
        QCOMPARE(s->legend->itemCount(), 6);
        QCOMPARE(s->graph(0)->name(), QStringLiteral("DP speed-up"));
        QCOMPARE(s->graph(1)->dataCount(), 7);
        QCOMPARE(s->graph(3)->valueAxis(), s->yAxis2);
        QCOMPARE(s->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(s->graph(1)->data()->at(6)->value, scale_.rows[6].hypar_gain);
        QCPBars* b = nullptr;
        QCustomPlot* t = v.chart(StudyView::Plot::Topology);
        QCOMPARE(t->plottableCount(), 4);  // three bar series and the DP = 1 line
        QCOMPARE(t->legend->itemCount(), 4);
        b = qobject_cast<QCPBars*>(t->plottable(1));
        QVERIFY(b);
        QCOMPARE(b->dataCount(), 11);  // ten networks and the geometric mean
        QCOMPARE(b->data()->at(10)->value + b->baseValue(), topology_.geomean.hypar_torus);
        QCustomPlot* l = v.chart(StudyView::Plot::Layers);
        QCOMPARE(l->plottableCount(), 4);  // H1..H4 stacked
        QCOMPARE(l->legend->itemCount(), 4);
        QCOMPARE(l->plottable(0)->name(), QStringLiteral("H1"));
        b = qobject_cast<QCPBars*>(l->plottable(3));
        QCOMPARE(b->barBelow(), qobject_cast<QCPBars*>(l->plottable(2)));
        QCOMPARE(b->dataCount(), static_cast<int>(layers_.layers.size()));
    }

    void switchingPlotsChangesCsvAndSignals() {
        StudyView v;
        v.setScaleStudy(scale_);
        v.setTopologyStudy(topology_);
        v.setLayerComm(layers_);
        QSignalSpy spy(&v, &StudyView::plotChanged);
        QCOMPARE(v.plot(), StudyView::Plot::Scale);
        QCOMPARE(v.csv().rows.size(), size_t(7));
        QCOMPARE(v.csv().header[3], std::string("dp_gain_x"));
        v.setPlot(StudyView::Plot::Topology);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(v.plot(), StudyView::Plot::Topology);
        QCOMPARE(v.csv().rows.size(), size_t(11));
        QCOMPARE(v.csv().rows.back().front(), std::string("geomean"));
        v.setPlot(StudyView::Plot::Layers);
        QCOMPARE(v.csv().rows.size(), layers_.layers.size() * 4);
        QCOMPARE(v.csv().header.back(), std::string("total_bytes"));
    }

    void exportsEveryFormat() {
        StudyView v;
        v.resize(1280, 800);
        v.setScaleStudy(scale_);
        v.setTopologyStudy(topology_);
        v.setLayerComm(layers_);
        const char* const names[] = {"study-scale", "study-topology", "study-layers"};
        const QString shots = qEnvironmentVariable("PARTITA_STUDY_SHOTS");
        for (int p = 0; p < StudyView::kPlots; ++p) {
            v.setPlot(static_cast<StudyView::Plot>(p));
            FigureOptions o;
            o.size = QSize(1280, 800);
            const QString base = dir_.filePath(names[p]);
            QCOMPARE(exportFigure(v, base + ".png", o), QString());
            const QImage image(base + ".png");
            QCOMPARE(image.size(), QSize(1280, 800));
            QCOMPARE(exportFigure(v, base + ".svg", o), QString());
            QSvgRenderer svg(base + ".svg");
            QVERIFY(svg.isValid());
            QCOMPARE(exportFigure(v, base + ".pdf", o), QString());
            QFile pdf(base + ".pdf");
            QVERIFY(pdf.open(QIODevice::ReadOnly));
            QVERIFY(pdf.read(4) == "%PDF");
            QCOMPARE(exportCsv(v.csv(), base + ".csv"), QString());
            if (!shots.isEmpty()) QCOMPARE(exportFigure(v, shots + "/" + names[p] + ".png", o), QString());
        }
    }
};

QTEST_MAIN(StudyViewTest)
#include "study_view_test.moc"
