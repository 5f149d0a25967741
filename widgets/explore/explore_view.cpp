#include "widgets/explore/explore_view.h"

#include <algorithm>
#include <numeric>

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"
#include "widgets/explore/explore_surface.h"

namespace partita {

namespace {
constexpr int kTopPoints = 50;


QListWidget* checkList(QWidget* parent) {
    auto* list = new QListWidget(parent);
    list->setSelectionMode(QAbstractItemView::NoSelection);
    return list;
}

std::vector<int> checkedRows(const QListWidget* list) {
    std::vector<int> rows;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked) rows.push_back(i);
    return rows;
}
}  // namespace

ExploreView::ExploreView(QWidget* parent) : QWidget(parent) {
    auto* pick = new QGroupBox(tr("Cells to enumerate"), this);
    auto* pick_layout = new QGridLayout(pick);
    levels_ = checkList(pick);
    layers_ = checkList(pick);
    pick_layout->addWidget(new QLabel(tr("Levels"), pick), 0, 0);
    pick_layout->addWidget(new QLabel(tr("Layers"), pick), 0, 1);
    pick_layout->addWidget(levels_, 1, 0);
    pick_layout->addWidget(layers_, 1, 1);
    count_ = new QLabel(pick);
    count_->setWordWrap(true);
    pick_layout->addWidget(count_, 2, 0, 1, 2);
    explore_ = new QPushButton(tr("Explore"), pick);
    explore_->setToolTip(tr("Evaluate every dp/mp assignment of the chosen cells; the other cells keep HyPar's choice"));
    pick_layout->addWidget(explore_, 3, 0, 1, 2);

    auto* out = new QWidget(this);
    auto* out_layout = new QVBoxLayout(out);
    summary_ = new QLabel(tr("No exploration yet: choose cells and press Explore."), out);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    out_layout->addWidget(summary_);
    auto* controls = new QHBoxLayout;
    metric_ = new QComboBox(out);
    metric_->setObjectName("surface-metric");
    metric_->addItems({tr("Performance vs DP"), tr("Total communication")});
    metric_->setToolTip(tr("What colours the points: performance normalised to all data parallel, or total communication"));
    log_ = new QCheckBox(tr("Log colour scale"), out);
    log_->setToolTip(tr("Map the colour on a logarithmic scale, so that small differences stay visible"));
    controls->addWidget(new QLabel(tr("Colour by"), out));
    controls->addWidget(metric_);
    controls->addWidget(log_);
    controls->addStretch(1);
    auto* hint = new QLabel(tr("Click a point to apply it to the grid."), out);
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never what sets the window's width
    hint->setWordWrap(true);  // so on a narrow window it takes two lines instead of losing its end
    hint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    controls->addWidget(hint, 1);
    out_layout->addLayout(controls);
    auto* split = new QSplitter(Qt::Vertical, out);
    surface_ = new ExploreSurface(split);
    surface_->setObjectName("explore-surface");
    split->addWidget(surface_);
    auto* below = new QWidget(split);
    auto* below_layout = new QVBoxLayout(below);
    below_layout->setContentsMargins(0, 0, 0, 0);
    model_ = new ResultTableModel({}, this);
    table_ = makeModelView(below, "explore-table", model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    // The ranked points stay readable however tall the surface is: the header and four rows.
    table_->setMinimumHeight(5 * (fontMetrics().height() + 8) + table_->horizontalScrollBar()->sizeHint().height());
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // rank order until a column is clicked
    table_->setSortingEnabled(true);
    below_layout->addWidget(table_, 1);
    apply_ = new QPushButton(tr("Apply the selected point to the grid"), below);
    apply_->setObjectName("apply-point");
    apply_->setToolTip(tr("Show the grid with the selected row's dp/mp assignment (double-click a row does the same)"));
    apply_->setEnabled(false);
    below_layout->addWidget(apply_);
    split->addWidget(below);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    out_layout->addWidget(split, 1);
    pick->setMaximumWidth(300);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(pick);
    layout->addWidget(out, 1);

    connect(levels_, &QListWidget::itemChanged, this, &ExploreView::updateCount);
    connect(layers_, &QListWidget::itemChanged, this, &ExploreView::updateCount);
    connect(explore_, &QPushButton::clicked, this, [this] { emit exploreRequested(cells()); });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { apply_->setEnabled(result_ && table_->selectionModel()->hasSelection()); });
    auto apply = [this] {
        const int row = currentPoint();
        if (!result_ || row < 0 || row >= static_cast<int>(row_codes_.size())) return;
        emit applyRequested(result_->exploration->grid(result_->reference, row_codes_[static_cast<size_t>(row)]));
    };
    connect(apply_, &QPushButton::clicked, this, apply);
    connect(surface_, &ExploreSurface::pointClicked, this, [this](std::uint64_t code) {
        if (result_) emit applyRequested(result_->exploration->grid(result_->reference, code));
    });
    connect(metric_, &QComboBox::currentIndexChanged, this, [this](int i) {
        surface_->setMetric(i == 0 ? ExploreSurface::Metric::PerfVsDp : ExploreSurface::Metric::Communication);
    });
    connect(log_, &QCheckBox::toggled, surface_, &ExploreSurface::setLogScale);
    connect(table_, &QTableView::doubleClicked, this, apply);
}

int ExploreView::currentPoint() const {
    const QModelIndex i = table_->currentIndex();
    return i.isValid() ? sortModelOf(table_)->mapToSource(i).row() : -1;
}

void ExploreView::setInputs(const InputsPtr& inputs) {
    inputs_ = inputs;
    const QSignalBlocker block_levels(levels_), block_layers(layers_);
    levels_->clear();
    layers_->clear();
    if (!inputs) return updateCount();
    const int levels = inputs->array.levels;
    const int layers = static_cast<int>(inputs->layers.size());
    for (int h = 0; h < levels; ++h) levels_->addItem("H" + QString::number(h + 1));
    for (const auto& l : inputs->layers.layers) layers_->addItem(q(l.name));
    for (int i = 0; i < levels_->count(); ++i) levels_->item(i)->setCheckState(Qt::Unchecked);
    for (int i = 0; i < layers_->count(); ++i) layers_->item(i)->setCheckState(Qt::Unchecked);
    std::vector<int> all_levels(static_cast<size_t>(levels)), all_layers(static_cast<size_t>(layers));
    std::iota(all_levels.begin(), all_levels.end(), 0);
    std::iota(all_layers.begin(), all_layers.end(), 0);
    if (levels * layers <= 16) return setSelection(all_levels, all_layers);
    // HyPar Fig. 10's choice: the last conv and the first fc layer, every level.
    int last_conv = -1, first_fc = -1;
    for (int l = 0; l < layers; ++l) {
        if (!inputs->layers[static_cast<size_t>(l)].is_fc) last_conv = l;
        else if (first_fc < 0) first_fc = l;
    }
    std::vector<int> chosen;
    for (int l : {last_conv, first_fc})
        if (l >= 0) chosen.push_back(l);
    if (chosen.empty()) chosen.push_back(0);
    setSelection(all_levels, chosen);
}

void ExploreView::setSelection(const std::vector<int>& levels, const std::vector<int>& layers) {
    const QSignalBlocker block_levels(levels_), block_layers(layers_);
    for (int i = 0; i < levels_->count(); ++i)
        levels_->item(i)->setCheckState(std::count(levels.begin(), levels.end(), i) ? Qt::Checked : Qt::Unchecked);
    for (int i = 0; i < layers_->count(); ++i)
        layers_->item(i)->setCheckState(std::count(layers.begin(), layers.end(), i) ? Qt::Checked : Qt::Unchecked);
    updateCount();
}

std::vector<CellRef> ExploreView::cells() const {
    // Two layers over several levels read best layer by layer (HyPar Fig. 10:
    // rows conv5_2 at H1-H4, columns fc1); otherwise level by level (Fig. 9).
    const auto levels = checkedRows(levels_), layers = checkedRows(layers_);
    std::vector<CellRef> out;
    if (layers.size() == 2 && levels.size() > 1) {
        for (int l : layers)
            for (int h : levels) out.push_back({h, l});
    } else {
        for (int h : levels)
            for (int l : layers) out.push_back({h, l});
    }
    return out;
}

void ExploreView::updateCount() {
    const size_t k = cells().size();
    explore_->setEnabled(k > 0 && std::uint64_t{1} << std::min<size_t>(k, 62) <= kMaxExplorePoints);
    if (k == 0) count_->setText(tr("Choose at least one level and one layer."));
    else if (k > 30) count_->setText(tr("%1 cells: 2^%1 points is more than this tool enumerates (2^30).").arg(k));
    else
        count_->setText(tr("%1 cells: %2 points").arg(k).arg(q(withCommas(static_cast<double>(std::uint64_t{1} << k)))));
}

void ExploreView::setResult(const RunPtr& run) {
    result_ = run && run->exploration ? run : nullptr;
    model_->setColumns({});
    row_codes_.clear();
    apply_->setEnabled(false);
    if (!result_) {
        summary_->setText(tr("No exploration yet: choose cells and press Explore."));
        surface_->setResult(nullptr, {});
        return;
    }
    std::vector<std::string> names;
    for (const auto& l : result_->inputs->layers.layers) names.push_back(l.name);
    surface_->setResult(result_->exploration, std::move(names));
    const ExploreResult& x = *result_->exploration;
    const auto& layers = result_->inputs->layers;
    const std::uint64_t hypar = x.base_code;
    const bool greedy_optimal = x.total_elements[hypar] == x.total_elements[x.best_comm_code];
    const auto ties = std::count(x.total_elements.begin(), x.total_elements.end(), x.total_elements[x.best_comm_code]);
    summary_->setText(
        tr("<b>%1 points</b> over %2 cells (%3 ms). Least communication: <b>%4 elements</b> (%5 point(s) tie). "
           "HyPar's greedy answer: %6 elements, %7× DP — <b>%8</b>. Fastest point: %9× DP.")
            .arg(q(withCommas(static_cast<double>(x.size()))))
            .arg(x.cells.size())
            .arg(result_->job_ms, 0, 'f', 1)
            .arg(q(withCommas(x.total_elements[x.best_comm_code])))
            .arg(ties)
            .arg(q(withCommas(x.total_elements[hypar])))
            .arg(x.perfVsDp(hypar), 0, 'f', 3)
            .arg(greedy_optimal ? tr("a global optimum of this space") : tr("not optimal here"))
            .arg(x.perfVsDp(x.best_time_code), 0, 'f', 3));

    // The fastest points, ties broken by code so the order is stable.
    std::vector<std::uint64_t> order(x.size());
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    const size_t top = std::min<size_t>(kTopPoints, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                      [&](std::uint64_t a, std::uint64_t b) {
                          return x.time_step_s[a] != x.time_step_s[b] ? x.time_step_s[a] < x.time_step_s[b] : a < b;
                      });
    order.resize(top);
    if (std::find(order.begin(), order.end(), hypar) == order.end()) order.push_back(hypar);

    // One column per explored layer: its choices at the explored levels, top level
    // first, as bit strings (dp = 0, mp = 1) like the paper's figures.
    std::vector<int> layer_ids;
    for (const CellRef& c : x.cells)
        if (std::find(layer_ids.begin(), layer_ids.end(), c.layer) == layer_ids.end()) layer_ids.push_back(c.layer);
    std::vector<ResultColumn> columns{{tr("rank"), "rank"}};
    for (int l : layer_ids) {
        QStringList levels;
        for (const CellRef& c : x.cells)
            if (c.layer == l) levels << "H" + QString::number(c.level + 1);
        const QString name = q(layers[static_cast<size_t>(l)].name);
        columns.push_back({name + " (" + levels.join(",") + ")", (name + "_" + levels.join("_")).toStdString(), false});
    }
    columns.push_back({tr("total communication (elements)"), "comm_elements"});
    columns.push_back({tr("step time"), "time_step_s"});
    columns.push_back({tr("perf vs DP (×)"), "perf_vs_dp_x"});
    columns.push_back({tr("note"), "note", false});
    const int k = static_cast<int>(x.cells.size());
    QFont mono("monospace");
    std::vector<ResultTableModel::Row> rows;
    for (size_t r = 0; r < order.size(); ++r) {
        const std::uint64_t code = order[r];
        const std::string all = digits(code, x.radix, k, 0, k);
        ResultTableModel::Row row{countCell(r < top ? QString::number(r + 1) : QString("—"), qint64(r + 1))};
        row.front().tooltip = row.front().text;
        for (int l : layer_ids) {
            QString bits;
            for (int i = 0; i < k; ++i)
                if (x.cells[static_cast<size_t>(i)].layer == l) bits += QChar(all[static_cast<size_t>(i)]);
            ResultCell cell = textCell(bits);
            cell.font = mono;
            cell.tooltip = tr("0 = dp, 1 = mp, one digit per level");
            row.push_back(cell);
        }
        QStringList note;
        if (code == hypar) note << tr("HyPar");
        if (code == x.best_comm_code) note << tr("least communication");
        if (code == x.best_time_code) note << tr("fastest");
        const double perf = x.perfVsDp(code);
        row.push_back(numberCell(q(withCommas(x.total_elements[code])), x.total_elements[code]));
        row.push_back(numberCell(q(seconds(x.time_step_s[code])), x.time_step_s[code]));
        row.push_back(numberCell(QString::number(perf, 'f', 3), perf));
        row.push_back(textCell(note.join(", ")));
        for (size_t c = 1 + layer_ids.size(); c < row.size(); ++c) row[c].tooltip = row[c].text;
        rows.push_back(std::move(row));
        row_codes_.push_back(code);
    }
    model_->setColumns(std::move(columns));
    model_->setRows(std::move(rows));
    table_->resizeColumnsToContents();
}

}  // namespace partita
