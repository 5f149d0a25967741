// StudyView's shell: the plot selector, the stacked charts, CSV and figure
// export. The charts are filled in study_charts.cpp.
#include "widgets/charts/study_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "core/util/format.h"
#include "widgets/common/plot_frame.h"

namespace partita {

namespace {

std::string num(double v) { return formatNumber(v); }

}  // namespace

StudyView::StudyView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    auto* label = new QLabel(tr("Plot:"), this);
    selector_ = new QComboBox(this);
    selector_->addItem(tr("Scalability: 1-64 accelerators (HyPar Fig. 11)"));
    selector_->addItem(tr("H-tree vs torus (HyPar Fig. 12)"));
    selector_->addItem(tr("Communication per layer"));
    selector_->setToolTip(tr("Which study to plot: scaling over accelerators, H-tree against torus, or communication per layer"));
    label->setBuddy(selector_);
    bar->addWidget(label);
    bar->addWidget(selector_);
    bar->addStretch(1);
    layout->addLayout(bar);
    stack_ = new QStackedWidget(this);
    for (auto& c : charts_) {
        c = new QCustomPlot(stack_);
        stylePlot(c);
        stack_->addWidget(c);
    }
    layout->addWidget(stack_, 1);
    connect(selector_, &QComboBox::currentIndexChanged, this, [this](int i) {
        stack_->setCurrentIndex(i);
        emit plotChanged(static_cast<Plot>(i));
    });
    fillScale();
    fillTopology();
    fillLayers();
}

void StudyView::setScaleStudy(const ScaleStudy& study) {
    scale_ = study;
    fillScale();
}

void StudyView::setTopologyStudy(const TopologyStudy& study) {
    topology_ = study;
    fillTopology();
}

void StudyView::setLayerComm(const LayerComm& comm) {
    layers_ = comm;
    fillLayers();
}

void StudyView::setPlot(Plot plot) { selector_->setCurrentIndex(static_cast<int>(plot)); }

StudyView::Plot StudyView::plot() const { return static_cast<Plot>(selector_->currentIndex()); }

bool StudyView::hasData(Plot plot) const {
    switch (plot) {
    case Plot::Scale: return scale_.has_value();
    case Plot::Topology: return topology_.has_value();
    case Plot::Layers: return layers_.has_value();
    }
    return false;
}

CsvTable StudyView::csv(Plot plot) const {
    CsvTable t;
    if (plot == Plot::Scale) {
        t.header = {"network",           "accelerators",          "levels",
                    "dp_gain_x",         "hypar_gain_x",          "accpar_gain_x",
                    "dp_total_comm_GB",  "hypar_total_comm_GB",   "accpar_total_comm_GB"};
        if (scale_)
            for (const ScaleRow& r : scale_->rows)
                t.rows.push_back({scale_->network, std::to_string(r.accelerators), std::to_string(r.levels),
                                  num(r.dp_gain), num(r.hypar_gain), num(r.accpar_gain), num(r.dp_total_gb),
                                  num(r.hypar_total_gb), num(r.accpar_total_gb)});
    } else if (plot == Plot::Topology) {
        t.header = {"network", "levels", "hypar_htree_vs_dp_htree_x", "hypar_torus_vs_dp_htree_x",
                    "dp_torus_vs_dp_htree_x"};
        if (topology_) {
            auto add = [&](const TopologyRow& r) {
                t.rows.push_back({r.network, std::to_string(topology_->levels), num(r.hypar_htree),
                                  num(r.hypar_torus), num(r.dp_torus)});
            };
            for (const TopologyRow& r : topology_->rows) add(r);
            add(topology_->geomean);
        }
    } else {
        t.header = {"layer", "level", "intra_layer_bytes", "inter_layer_bytes", "total_bytes"};
        if (layers_)
            for (size_t l = 0; l < layers_->layers.size(); ++l)
                for (int h = 0; h < layers_->levels; ++h) {
                    const size_t i = static_cast<size_t>(h) * layers_->layers.size() + l;
                    t.rows.push_back({layers_->layers[l], "H" + std::to_string(h + 1), num(layers_->intra_bytes[i]),
                                      num(layers_->inter_bytes[i]),
                                      num(layers_->intra_bytes[i] + layers_->inter_bytes[i])});
                }
    }
    return t;
}

QSize StudyView::figureSize() const {
    const QSize s = chart(plot())->size();
    return s.width() >= 320 && s.height() >= 240 ? s : QSize(960, 600);  // hidden or unlaid-out: a sane default
}

void StudyView::paintFigure(QPainter& painter, const QRect& area) const {
    paintPlotFigure(chart(plot()), painter, area);
}

}  // namespace partita
