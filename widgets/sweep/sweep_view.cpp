#include "widgets/sweep/sweep_view.h"

#include <algorithm>
#include <array>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QScrollBar>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/common/model_csv.h"
#include "widgets/common/qt_text.h"
#include "widgets/sweep/sweep_model.h"
#include "widgets/sweep/sweep_multiples.h"
#include "widgets/sweep/sweep_scatter.h"

namespace partita {

namespace {

QComboBox* metricBox(QWidget* parent, sweep::Metric chosen, const QString& tip) {
    auto* box = new QComboBox(parent);
    for (sweep::Metric m : sweep::kMetrics) {
        box->addItem(q(sweep::metricInfo(m).label), static_cast<int>(m));
        if (m == chosen) box->setCurrentIndex(box->count() - 1);
    }
    box->setToolTip(tip);
    return box;
}

sweep::Metric metricOf(const QComboBox* box) { return static_cast<sweep::Metric>(box->currentData().toInt()); }

QHBoxLayout* row(std::initializer_list<QWidget*> widgets) {
    auto* layout = new QHBoxLayout;
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : widgets) layout->addWidget(w);
    layout->addStretch(1);
    return layout;
}

}  // namespace

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    model_ = new SweepTableModel(this);
    filter_ = new SweepFilter(this);
    filter_->setSourceModel(model_);

    summary_ = new QLabel(tr("No sweep: File ▸ Open sweep database… or Run ▸ Start sweep…"), this);
    summary_->setMinimumWidth(100);  // a long line is cut at the right (the path last), not the window widened
    filter_edit_ = new QLineEdit(this);
    filter_edit_->setPlaceholderText(tr("Filter (vgg-a hypar 256)"));
    filter_edit_->setClearButtonEnabled(true);
    filter_edit_->setToolTip(tr("Keeps the points whose columns contain every word; the figures follow"));
    group_box_ = new QComboBox(this);
    group_box_->setToolTip(tr("One row per point, or one row per value of an axis with its best and mean metrics"));
    table_view_ = new QTableView(this);
    table_view_->setModel(filter_);
    table_view_->setSortingEnabled(true);
    table_view_->sortByColumn(-1, Qt::AscendingOrder);  // the database's order until a header is clicked
    table_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_view_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_view_->verticalHeader()->hide();
    table_view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_view_->setToolTip(tr("Click a point's row to open its run"));

    auto* left = new QWidget(this);
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    auto* filter_row = new QHBoxLayout;
    filter_row->addWidget(filter_edit_, 1);
    filter_row->addWidget(new QLabel(tr("Group by"), left));
    filter_row->addWidget(group_box_);
    left_layout->addLayout(filter_row);
    left_layout->addWidget(table_view_);

    scatter_ = new SweepScatter(this);
    x_box_ = metricBox(this, sweep::Metric::StepTime, tr("The scatter's horizontal metric"));
    y_box_ = metricBox(this, sweep::Metric::Energy, tr("The scatter's vertical metric"));
    auto* scatter_page = new QWidget(this);
    auto* scatter_layout = new QVBoxLayout(scatter_page);
    scatter_layout->setContentsMargins(4, 4, 4, 4);
    scatter_layout->addLayout(row({new QLabel(tr("x"), scatter_page), x_box_, new QLabel(tr("y"), scatter_page), y_box_}));
    scatter_layout->addWidget(scatter_, 1);

    multiples_ = new SweepMultiples(this);
    multi_metric_box_ = metricBox(this, sweep::Metric::Speedup, tr("The metric each small chart shows"));
    multi_axis_box_ = new QComboBox(this);
    multi_axis_box_->setToolTip(tr("The axis along each small chart"));
    auto* multi_page = new QWidget(this);
    auto* multi_layout = new QVBoxLayout(multi_page);
    multi_layout->setContentsMargins(4, 4, 4, 4);
    multi_layout->addLayout(row({multi_metric_box_, new QLabel(tr("against"), multi_page), multi_axis_box_}));
    multi_layout->addWidget(multiples_, 1);

    figures_ = new QTabWidget(this);
    figures_->addTab(scatter_page, tr("Pareto front"));
    figures_->addTab(multi_page, tr("Per method"));
    network_box_ = new QComboBox(this);
    network_box_->setObjectName("sweep-network");
    network_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    network_box_->setMinimumContentsLength(12);
    network_box_->setToolTip(tr("The network whose points the figures show: across networks the smallest one "
                                "would win every point of the front"));
    auto* right = new QWidget(this);
    auto* right_layout = new QVBoxLayout(right);
    right_layout->setContentsMargins(0, 0, 0, 0);
    network_label_ = new QLabel(tr("Network"), right);
    right_layout->addLayout(row({network_label_, network_box_}));
    right_layout->addWidget(figures_, 1);

    // Floors below their contents' widest rows, so that the tab fits a 1024-pixel window beside the
    // docks; the splitter gives either side more when there is room.
    left->setMinimumWidth(240);
    right->setMinimumWidth(300);
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->addWidget(left);
    split_->addWidget(right);
    split_->setStretchFactor(0, 2);
    split_->setStretchFactor(1, 3);
    split_->setChildrenCollapsible(false);
    connect(split_, &QSplitter::splitterMoved, this, [this] { split_by_user_ = true; });  // the user's drag only
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(split_, 1);

    connect(filter_edit_, &QLineEdit::textChanged, this, [this](const QString& t) {
        filter_->setText(t);
        refilter();
    });
    connect(group_box_, &QComboBox::currentIndexChanged, this, [this] {
        model_->setGroupAxis(group_box_->currentData().toInt());
        refilter();
    });
    const auto scatter_metrics = [this] { scatter_->setMetrics(metricOf(x_box_), metricOf(y_box_)); };
    connect(x_box_, &QComboBox::currentIndexChanged, this, scatter_metrics);
    connect(y_box_, &QComboBox::currentIndexChanged, this, scatter_metrics);
    for (QComboBox* box : {x_box_, y_box_})  // activated: by the user only
        connect(box, &QComboBox::activated, this, [this] { metrics_chosen_ = true; });
    connect(network_box_, &QComboBox::currentIndexChanged, this, [this] { refigure(); });
    connect(multi_metric_box_, &QComboBox::currentIndexChanged, this,
            [this] { multiples_->setMetric(metricOf(multi_metric_box_)); });
    connect(multi_metric_box_, &QComboBox::activated, this, [this] { multiples_chosen_ = true; });
    connect(multi_axis_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (multi_axis_box_->currentIndex() >= 0) multiples_->setAxis(multi_axis_box_->currentData().toInt());
    });
    connect(table_view_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (const qint64 id = index.data(SweepTableModel::RunIdRole).toLongLong()) emit runChosen(id);
    });
    connect(scatter_, &SweepScatter::runClicked, this, &SweepView::runChosen);
    connect(multiples_, &SweepMultiples::runClicked, this, &SweepView::runChosen);
    scatter_metrics();
}

void SweepView::setTable(std::shared_ptr<const sweep::Table> table, const QString& source) {
    table_ = std::move(table);
    source_ = source;
    const QString group = group_box_->currentText();
    model_->setTable(table_);
    fillAxisCombos();
    setGroupAxis(group == tr("(points)") ? QString() : group);
    refilter();
}

void SweepView::fillAxisCombos() {
    const QSignalBlocker block_group(group_box_), block_axis(multi_axis_box_);
    const QString axis = multi_axis_box_->currentText();
    group_box_->clear();
    multi_axis_box_->clear();
    group_box_->addItem(tr("(points)"), -1);
    if (!table_) return;
    for (std::size_t a = 0; a < table_->axes.size(); ++a) {
        group_box_->addItem(q(table_->axes[a]), static_cast<int>(a));
        if (table_->axes[a] != "method") multi_axis_box_->addItem(q(table_->axes[a]), static_cast<int>(a));
    }
    // The axis kept; else levels, else the first axis that varies (an LLM sweep's tp), else the last.
    int kept = axis.isEmpty() ? -1 : multi_axis_box_->findText(axis);
    const int levels = table_->axisIndex("levels");
    if (kept < 0 && levels >= 0 && table_->varies(levels)) kept = multi_axis_box_->findText("levels");
    for (int i = 0; i < multi_axis_box_->count() && kept < 0; ++i)
        if (table_->varies(multi_axis_box_->itemData(i).toInt()) && multi_axis_box_->itemText(i) != "network") kept = i;
    multi_axis_box_->setCurrentIndex(kept >= 0 ? kept : multi_axis_box_->count() - 1);
    if (multi_axis_box_->currentIndex() >= 0) multiples_->setAxis(multi_axis_box_->currentData().toInt());
}

void SweepView::refilter() {
    filtered_ = filteredRows();
    model_->setGroupRows(filtered_);
    fillNetworkBox(filtered_);
    refigure();
}

void SweepView::refigure() {
    const std::vector<std::size_t> shown = figureRows();
    chooseMetrics(shown);
    scatter_->setScope(network());
    scatter_->setPoints(table_, shown);
    multiples_->setPoints(table_, shown);
    if (!table_) return;
    const std::vector<std::size_t>& rows = filtered_;
    std::size_t failed = 0;
    for (std::size_t r : rows) failed += table_->rows[r].ok() ? 0 : 1;
    QStringList sweeps;
    for (const std::string& s : table_->sweeps()) sweeps << q(s);
    // Axes with one value in every point take room and say nothing: hidden, and named here.
    QStringList constant;
    for (int c = 0; c < model_->columnCount(); ++c) table_view_->setColumnHidden(c, false);
    for (std::size_t a = 0; a < table_->axes.size(); ++a) {
        const auto values = sweep::axisValues(*table_, static_cast<int>(a));
        if (values.size() != 1) continue;
        constant << QString("%1 %2").arg(q(table_->axes[a]), q(values.front()));
        if (model_->groupAxis() < 0) table_view_->setColumnHidden(model_->axisColumn(static_cast<int>(a)), true);
    }
    fitTable();
    const QString scope = network().isEmpty() ? tr("all networks") : network();
    summary_->setText(tr("Sweep %1: %2 of %3 points shown, %4 failed · figures: %5, %6 points, %7 on the Pareto "
                         "front%8 · %9")
                          .arg(sweeps.join(", "))
                          .arg(rows.size())
                          .arg(table_->rows.size())
                          .arg(failed)
                          .arg(scope)
                          .arg(scatter_->drawn().size())
                          .arg(scatter_->front().size())
                          .arg(constant.isEmpty() ? QString() : tr(" · every point has ") + constant.join(", "), source_));
    summary_->setToolTip(summary_->text());
}

QString SweepView::summary() const { return summary_->text(); }

void SweepView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitTable();
}

void SweepView::fitTable() {
    if (split_by_user_ || split_->width() <= 0) return;
    // The widths ResizeToContents gives the shown columns, computed here (the header lays out later):
    // all of them, and those up to the last metric (what a reader compares; status and run may scroll).
    const QAbstractItemView* view = table_view_;  // sizeHintForColumn is public here
    int need = 2 * table_view_->frameWidth() + table_view_->verticalScrollBar()->sizeHint().width(), core = need;
    for (int c = 0; c < filter_->columnCount(); ++c) {
        if (table_view_->isColumnHidden(c)) continue;
        need += std::max(table_view_->horizontalHeader()->sectionSizeHint(c), view->sizeHintForColumn(c));
        if (model_->groupAxis() >= 0 || model_->isMetricOrAxis(c)) core = need;
    }
    // Side by side, the table as wide as it needs up to 55 %; a narrow view (1024 pixels beside the
    // docks) whose table would not fit beside the figures stacks them under it; a table too wide for
    // either keeps 40 % and scrolls.
    const int width = split_->width() - split_->handleWidth();
    const int left_min = split_->widget(0)->minimumWidth();
    const int left_max = std::max(std::min(width * 11 / 20, width - split_->widget(1)->minimumWidth()), left_min);
    const bool stack = core > left_max && core <= width && width < 800;
    split_->setOrientation(stack ? Qt::Vertical : Qt::Horizontal);
    if (stack) {
        const int height = split_->height() - split_->handleWidth();
        split_->setSizes({height / 2, height - height / 2});
        return;
    }
    const int left = core <= left_max ? std::clamp(need, left_min, left_max) : std::max(width * 2 / 5, left_min);
    split_->setSizes({left, width - left});
}

void SweepView::fillNetworkBox(const std::vector<std::size_t>& rows) {
    const QSignalBlocker block(network_box_);
    const QString kept = network_box_->currentData().toString();
    const bool had_all = network_box_->currentIndex() >= 0 && kept.isEmpty();
    network_box_->clear();
    const int axis = table_ ? table_->axisIndex("network") : -1;
    // An LLM sweep's points have no network: no empty box.
    network_label_->setVisible(axis >= 0 || !table_);
    network_box_->setVisible(axis >= 0 || !table_);
    if (axis < 0) return;
    QStringList names;
    for (std::size_t r : rows) {
        const QString name = q(table_->rows[r].axes[static_cast<std::size_t>(axis)]);
        if (!names.contains(name)) names << name;
    }
    for (const QString& n : names) network_box_->addItem(n, n);
    if (names.size() > 1) network_box_->addItem(tr("All networks"), QString());
    // The choice stays while it applies; else the first network.
    const int i = had_all ? network_box_->count() - 1 : kept.isEmpty() ? 0 : network_box_->findData(kept);
    network_box_->setCurrentIndex(std::max(i, 0));
}

QString SweepView::network() const { return network_box_->currentData().toString(); }

void SweepView::setNetwork(const QString& network) {
    const int i = network.isEmpty() ? network_box_->count() - 1 : network_box_->findData(network);
    if (i >= 0) network_box_->setCurrentIndex(i);  // "": all networks, the last entry
}

std::vector<std::size_t> SweepView::figureRows() const {
    std::vector<std::size_t> rows = filtered_;
    const int axis = table_ ? table_->axisIndex("network") : -1;
    const std::string chosen = network().toStdString();
    if (axis >= 0 && !chosen.empty())
        std::erase_if(rows, [&](std::size_t r) { return table_->rows[r].axes[static_cast<std::size_t>(axis)] != chosen; });
    return rows;
}

void SweepView::chooseMetrics(const std::vector<std::size_t>& rows) {
    // What the shown points have: every one of them (all), or at least one (any).
    std::array<bool, sweep::kMetricCount> all{}, any{};
    bool stored = false;
    for (std::size_t m = 0; m < sweep::kMetricCount; ++m) all[m] = true;
    for (std::size_t r : rows) {
        const sweep::TableRow& row = table_->rows[r];
        if (!row.ok()) continue;
        stored = true;
        for (std::size_t m = 0; m < sweep::kMetricCount; ++m) {
            all[m] = all[m] && row.has(sweep::kMetrics[m]);
            any[m] = any[m] || row.has(sweep::kMetrics[m]);
        }
    }
    const QSignalBlocker block_x(x_box_), block_y(y_box_), block_multi(multi_metric_box_);
    // The table's names for the metrics: an LLM sweep's are its summary figures ("iteration (s)").
    const auto columns = table_ ? table_->columns : sweep::metricColumns();
    for (QComboBox* box : {x_box_, y_box_, multi_metric_box_})
        for (int i = 0; i < box->count(); ++i) {
            const auto m = static_cast<std::size_t>(box->itemData(i).toInt());
            box->setItemText(i, q(columns[m].label.empty() ? sweep::metricColumns()[m].label : columns[m].label));
            // A yes/no column (an LLM plan's fits) is the table's and the colour's, not a scatter axis.
            const bool yes_no = columns[m].yes_no && box != multi_metric_box_;
            const bool usable = (!stored || any[m]) && !yes_no;
            if (auto* item = qobject_cast<QStandardItemModel*>(box->model())->item(i)) {
                item->setEnabled(usable);
                item->setToolTip(usable    ? QString()
                                 : yes_no ? tr("A yes/no column: see the table")
                                          : tr("No point shown has this metric (simulated points have no energy or "
                                               "element count)"));
            }
        }
    auto index = [](sweep::Metric m) { return static_cast<std::size_t>(m); };
    // The small multiples' metric, unless the user chose one every point has: the speed-up, else the
    // first metric every shown point has (an LLM sweep's iteration time).
    if (stored && !(multiples_chosen_ && any[index(metricOf(multi_metric_box_))])) {
        multiples_chosen_ = false;
        sweep::Metric metric = sweep::Metric::Speedup;
        if (!all[index(metric)] || columns[index(metric)].yes_no)
            for (sweep::Metric m : sweep::kMetrics)
                if (all[index(m)] && !columns[index(m)].yes_no) {
                    metric = m;
                    break;
                }
        multi_metric_box_->setCurrentIndex(multi_metric_box_->findData(static_cast<int>(metric)));
        multiples_->setMetric(metric);
    }
    const bool chosen_apply = stored && any[index(metricOf(x_box_))] && any[index(metricOf(y_box_))];
    if (!stored || (metrics_chosen_ && chosen_apply)) {
        scatter_->setMetrics(metricOf(x_box_), metricOf(y_box_));
        return;
    }
    metrics_chosen_ = false;
    // Step time against the first other cost every point has (energy; an LLM sweep's peak memory, the
    // front issue 28 plans on); else the next metric every point has. Never a yes/no column.
    auto pick = [&](sweep::Metric preferred, sweep::Metric other, bool cost) {
        auto fits = [&](sweep::Metric m, bool need_cost) {
            return all[index(m)] && m != other && !columns[index(m)].yes_no && (!need_cost || !columns[index(m)].maximise);
        };
        if (fits(preferred, cost)) return preferred;
        for (const bool need_cost : {cost, false})
            for (sweep::Metric m : sweep::kMetrics)
                if (fits(m, need_cost)) return m;
        return preferred;
    };
    const sweep::Metric x = pick(sweep::Metric::StepTime, sweep::Metric::Energy, false);
    const sweep::Metric y = pick(sweep::Metric::Energy, x, true);
    x_box_->setCurrentIndex(x_box_->findData(static_cast<int>(x)));
    y_box_->setCurrentIndex(y_box_->findData(static_cast<int>(y)));
    scatter_->setMetrics(x, y);
}

std::vector<std::size_t> SweepView::filteredRows() const {
    std::vector<std::size_t> rows;
    if (!table_) return rows;
    // The filter reads the point rows: with the table grouped, ask it for each point directly.
    SweepTableModel points;
    points.setTable(table_);
    SweepFilter words;
    words.setSourceModel(&points);
    words.setText(filter_edit_->text());
    for (int r = 0; r < words.rowCount(); ++r) rows.push_back(static_cast<std::size_t>(words.index(r, 0).data(SweepTableModel::RowRole).toInt()));
    return rows;
}

void SweepView::setFilterText(const QString& text) { filter_edit_->setText(text); }

void SweepView::setGroupAxis(const QString& axis) {
    const int i = axis.isEmpty() ? 0 : group_box_->findText(axis);
    group_box_->setCurrentIndex(std::max(i, 0));
    if (model_->groupAxis() != group_box_->currentData().toInt()) {
        model_->setGroupAxis(group_box_->currentData().toInt());
        refilter();
    }
}

void SweepView::setScatterMetrics(sweep::Metric x, sweep::Metric y) {
    metrics_chosen_ = true;
    x_box_->setCurrentIndex(x_box_->findData(static_cast<int>(x)));
    y_box_->setCurrentIndex(y_box_->findData(static_cast<int>(y)));
}

void SweepView::setMultiples(sweep::Metric metric, const QString& axis) {
    multiples_chosen_ = true;
    multi_metric_box_->setCurrentIndex(multi_metric_box_->findData(static_cast<int>(metric)));
    const int i = multi_axis_box_->findText(axis);
    if (i >= 0) multi_axis_box_->setCurrentIndex(i);
}

void SweepView::showFigure(int index) { figures_->setCurrentIndex(index); }

CsvTable SweepView::csv() const { return csvFromModel(*filter_); }

}  // namespace partita
