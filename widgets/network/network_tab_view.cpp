#include "widgets/network/network_tab_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/model/counts.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_table.h"

namespace partita {

namespace {

using Mode = NetworkGraphView::ColourMode;
constexpr Mode kModes[] = {Mode::Partition, Mode::Macs, Mode::Weights, Mode::Communication};

QToolButton* toolButton(QWidget* parent, const QString& name, const QString& text, const QString& tip) {
    auto* b = new QToolButton(parent);
    b->setObjectName(name);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

}  // namespace

NetworkTabView::NetworkTabView(QWidget* parent) : QWidget(parent) {
    setObjectName("network-view");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    title_ = new QLabel(this);
    title_->setObjectName("network-title");
    title_->setWordWrap(true);
    layout->addWidget(title_);

    pages_ = new QTabWidget(this);
    pages_->setObjectName("network-pages");
    pages_->setDocumentMode(true);
    auto* graph_page = new QWidget(pages_);
    auto* column = new QVBoxLayout(graph_page);
    column->setContentsMargins(0, 4, 0, 0);
    column->setSpacing(2);
    auto* controls = new QHBoxLayout;
    controls->setSpacing(6);
    colour_ = new QComboBox(graph_page);
    colour_->setObjectName("network-colour");
    colour_->setToolTip(tr("What the node colours show: the shown run's choice at one level, MACs, weights, or "
                           "the run's communication per layer"));
    const QString mode_tips[] = {tr("The partition the shown run chose for each layer at the level on the right"),
                                 tr("Forward multiply-accumulates per sample of each weighted layer (log scale)"),
                                 tr("Weight elements of each weighted layer (log scale)"),
                                 tr("Bytes each layer exchanges over the whole array in the shown run (log scale)")};
    for (int i = 0; i < 4; ++i) {
        colour_->addItem(tr("Colour: %1").arg(NetworkGraphView::colourModeName(kModes[i])), i);
        colour_->setItemData(i, mode_tips[i], Qt::ToolTipRole);
    }
    level_ = new QComboBox(graph_page);
    level_->setObjectName("network-level");
    level_->setToolTip(tr("The hierarchy level whose choices colour the nodes (H1 is the top split); follows the "
                          "grid's current cell"));
    zoom_out_ = toolButton(graph_page, "network-zoom-out", tr("−"), tr("Zoom out (−, or the mouse wheel)"));
    zoom_in_ = toolButton(graph_page, "network-zoom-in", tr("+"), tr("Zoom in (+, or the mouse wheel)"));
    fit_ = toolButton(graph_page, "network-fit", tr("Fit"), tr("Show the whole graph (0 or F)"));
    collapse_ = toolButton(graph_page, "network-collapse", tr("Collapse repeats"), {});  // its tip: syncCollapse()
    collapse_->setCheckable(true);
    auto* hint = new QLabel(tr("Wheel zooms · drag pans · click selects · double-click collapses"), graph_page);
    hint->setObjectName("network-hint");
    hint->setStyleSheet("color: #666");
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the window
    controls->addWidget(colour_);
    controls->addWidget(level_);
    controls->addSpacing(8);
    controls->addWidget(zoom_out_);
    controls->addWidget(zoom_in_);
    controls->addWidget(fit_);
    controls->addWidget(collapse_);
    controls->addSpacing(8);
    controls->addWidget(hint, 1);
    column->addLayout(controls);
    graph_ = new NetworkGraphView(graph_page);
    column->addWidget(graph_, 1);
    pages_->addTab(graph_page, tr("Graph"));
    table_ = new NetworkTable(pages_);
    pages_->addTab(table_, tr("Table"));
    pages_->setTabToolTip(0, tr("The network drawn as a graph, laid out by Graphviz"));
    pages_->setTabToolTip(1, tr("Every operator with its shapes, weights and MACs"));
    layout->addWidget(pages_, 1);

    connect(colour_, &QComboBox::activated, this, [this](int i) {
        graph_->setColourMode(kModes[colour_->itemData(i).toInt()]);
        syncControls();
    });
    connect(level_, &QComboBox::activated, this, [this](int i) { graph_->setLevel(i); });
    connect(zoom_in_, &QToolButton::clicked, graph_, &NetworkGraphView::zoomIn);
    connect(zoom_out_, &QToolButton::clicked, graph_, &NetworkGraphView::zoomOut);
    connect(fit_, &QToolButton::clicked, graph_, &NetworkGraphView::fit);
    connect(collapse_, &QToolButton::clicked, graph_, &NetworkGraphView::setCollapseRepeats);
    connect(graph_, &NetworkGraphView::collapsedChanged, this, &NetworkTabView::syncCollapse);
    connect(graph_, &NetworkGraphView::runChanged, this, &NetworkTabView::syncControls);
    connect(graph_, &NetworkGraphView::layerSelected, this,
            [this](int layer) { emit currentCellChanged(graph_->level(), layer); });
    // The table's row and the graph's node are the same operator.
    connect(graph_, &NetworkGraphView::operatorSelected, this, [this](int op) {
        const QSignalBlocker quiet(table_);  // the graph has told the grid already
        table_->setCurrentOperator(op);
    });
    connect(table_, &NetworkTable::operatorChosen, this, [this](int row) {
        graph_->selectOperator(row);  // its collapsed run's node, if it is in one
        if (const int layer = graph_->layerOfOperator(row); layer >= 0) emit currentCellChanged(graph_->level(), layer);
    });
    syncControls();
    syncCollapse();
}

void NetworkTabView::setInputs(const InputsPtr& inputs) {
    graph_->setInputs(inputs);
    syncCollapse();
    {
        const QSignalBlocker quiet(table_);  // refilling it is not the user choosing a row
        table_->setInputs(inputs);
    }
    if (!inputs) {
        title_->clear();
        return;
    }
    const Network& net = inputs->network;
    const Shape& in = net.input;
    QString description = q(net.description).trimmed();
    if (!description.isEmpty() && !description.endsWith('.')) description += '.';
    // MACs as `partita-cli inspect` counts them: weighted layers and matmuls of two activations.
    title_->setText(tr("<b>%1</b> — %2 Input %3; %4 operators, %5 weighted layers, %6 MACs per sample.")
                        .arg(q(net.name).toHtmlEscaped(), description.toHtmlEscaped(),
                             QStringLiteral("%1×%2×%3").arg(in.c).arg(in.h).arg(in.w))
                        .arg(net.ops.size())
                        .arg(inputs->layers.size())
                        .arg(q(withCommas(countNetwork(net).macs_per_sample))));
}

void NetworkTabView::setRun(const RunPtr& run) { graph_->setRun(run); }

CsvTable NetworkTabView::csv() const { return table_->csv(); }

void NetworkTabView::setCurrentCell(int level, int layer) {
    if (level >= 0 && level < graph_->levels() && level != graph_->level()) {
        graph_->setLevel(level);
        level_->setCurrentIndex(level);
    }
    graph_->selectLayer(layer);
    const QSignalBlocker quiet(table_);
    const InputsPtr in = graph_->inputs();
    if (in && layer >= 0 && static_cast<size_t>(layer) < in->layers.size()) table_->setCurrentOperator(in->layers[static_cast<size_t>(layer)].op_id);
}

void NetworkTabView::syncCollapse() {
    const bool any = !graph_->repeats().empty();
    collapse_->setToolTip(tr("Draw each run of identical blocks (a ResNet stage's residual blocks, transformer layers) "
                             "as one node; double-click a node, or right-click it, to collapse or expand one run") +
                          (any ? QString() : tr(". This network repeats no block.")));
    collapse_->setEnabled(any);
    collapse_->setChecked(graph_->allCollapsed());
}

void NetworkTabView::syncControls() {
    auto* model = qobject_cast<QStandardItemModel*>(colour_->model());
    for (int i = 0; i < colour_->count(); ++i)
        if (model) model->item(i)->setEnabled(graph_->colourModeAvailable(kModes[colour_->itemData(i).toInt()]));
    for (int i = 0; i < colour_->count(); ++i)
        if (kModes[colour_->itemData(i).toInt()] == graph_->colourMode()) colour_->setCurrentIndex(i);
    const int levels = graph_->levels();
    if (level_->count() != levels) {
        level_->clear();
        for (int h = 0; h < levels; ++h) level_->addItem(QStringLiteral("H%1").arg(h + 1));
    }
    level_->setCurrentIndex(graph_->level());
    level_->setVisible(levels > 0);
    level_->setEnabled(graph_->colourMode() == Mode::Partition);
}

}  // namespace partita
