#include "app/gui/runs_dock.h"

#include <algorithm>

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace partita::gui {

RunsDock::RunsDock(QWidget* parent) : QDockWidget(tr("Runs"), parent) {
    setObjectName("runs");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* filters = new QHBoxLayout;
    const char* names[3] = {"network", "array", "method"};
    for (int i = 0; i < 3; ++i) {
        filters_[i] = new QComboBox(body);
        filters_[i]->setObjectName(QString("filter-") + names[i]);
        filters_[i]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        filters_[i]->setMinimumContentsLength(6);  // its usual width; it may shrink below that:
        filters_[i]->setMinimumWidth(48);           // the dock gives way to the tabs on a narrow window
        filters_[i]->setToolTip(tr("Show only runs with this %1").arg(names[i]));
        filters->addWidget(filters_[i], 1);
        connect(filters_[i], &QComboBox::activated, this, [this] { refresh(db_); });
    }
    layout->addLayout(filters);

    model_ = new RunsModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    view_ = new QTableView(body);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(RunsModel::Created, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    layout->addWidget(view_, 1);

    status_ = new QLabel(body);
    status_->setWordWrap(true);
    layout->addWidget(status_);

    // Tool buttons, as wide as their text, in one row, or two rows of two where the dock is narrower:
    // the dock gives way to the tabs on a narrow window.
    buttons_box_ = new QWidget(body);
    buttons_ = new QGridLayout(buttons_box_);
    buttons_->setContentsMargins(0, 0, 0, 0);
    const auto button = [body](const QString& text) {
        auto* b = new QToolButton(body);
        b->setText(text);
        b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        return b;
    };
    open_ = button(tr("Open"));
    compare_ = button(tr("Compare"));
    rename_ = button(tr("Rename"));
    delete_ = button(tr("Delete"));
    open_->setToolTip(tr("Show the selected run in the grid (double-click does the same)"));
    compare_->setToolTip(tr("Compare 2 to 4 selected runs side by side"));
    rename_->setToolTip(tr("Edit the selected run's name (double-click its name does the same)"));
    delete_->setToolTip(tr("Delete the selected runs from the results database"));
    arrangeButtons(4);
    int widest = 0;
    for (const auto* b : {open_, compare_, rename_, delete_}) widest = std::max(widest, b->sizeHint().width());
    buttons_box_->setMinimumWidth(2 * widest + buttons_->horizontalSpacing());
    buttons_box_->installEventFilter(this);
    layout->addWidget(buttons_box_);
    setWidget(body);

    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() != RunsModel::Name) emit openRequested(proxy_->data(index, RunsModel::IdRole).toLongLong());
    });
    connect(open_, &QToolButton::clicked, this, [this] {
        const auto ids = selectedIds();
        if (!ids.empty()) emit openRequested(ids.front());
    });
    connect(compare_, &QToolButton::clicked, this, [this] { emit compareRequested(selectedIds()); });
    connect(delete_, &QToolButton::clicked, this, [this] { emit deleteRequested(selectedIds()); });
    connect(rename_, &QToolButton::clicked, this, [this] {
        const QModelIndexList rows = view_->selectionModel()->selectedRows(RunsModel::Name);
        if (!rows.isEmpty()) view_->edit(rows.front());
    });
    connect(model_, &RunsModel::renameRequested, this, &RunsDock::renameRequested);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsDock::updateButtons);
    updateButtons();
}

void RunsDock::arrangeButtons(int columns) {
    if (columns == button_columns_) return;
    button_columns_ = columns;
    int i = 0;
    for (QToolButton* b : {open_, compare_, rename_, delete_}) {
        buttons_->removeWidget(b);
        buttons_->addWidget(b, i / columns, i % columns);
        ++i;
    }
}

bool RunsDock::eventFilter(QObject* watched, QEvent* event) {
    if (watched == buttons_box_ && event->type() == QEvent::Resize) {
        int row = 3 * buttons_->horizontalSpacing();
        for (const auto* b : {open_, compare_, rename_, delete_}) row += b->sizeHint().width();
        arrangeButtons(buttons_box_->width() >= row ? 4 : 2);
    }
    return QDockWidget::eventFilter(watched, event);
}

QComboBox* RunsDock::filter(int which) const { return filters_[which]; }

void RunsDock::fillFilter(QComboBox* box, const std::vector<std::string>& values) {
    const QString current = box->currentIndex() > 0 ? box->currentText() : QString();
    box->clear();
    box->addItem(tr("all %1s").arg(box->objectName().mid(7)));
    for (const auto& v : values) box->addItem(QString::fromStdString(v));
    const int index = current.isEmpty() ? 0 : box->findText(current);
    box->setCurrentIndex(index < 0 ? 0 : index);
}

void RunsDock::refresh(const ResultsDb* db, const QString& problem) {
    db_ = db;
    if (!db) {
        model_->setRuns({});
        status_->setText(problem.isEmpty() ? tr("No results database.") : problem);
        updateButtons();
        return;
    }
    const std::vector<std::int64_t> keep = selectedIds();
    fillFilter(filters_[0], db->networkNames());
    fillFilter(filters_[1], db->arrayNames());
    fillFilter(filters_[2], db->methods());
    RunFilter f;
    if (filters_[0]->currentIndex() > 0) f.network_name = filters_[0]->currentText().toStdString();
    if (filters_[1]->currentIndex() > 0) f.array_name = filters_[1]->currentText().toStdString();
    if (filters_[2]->currentIndex() > 0) f.method = filters_[2]->currentText().toStdString();
    model_->setRuns(db->list(f));
    view_->resizeColumnsToContents();
    status_->setText((db->readOnly() ? tr("%n run(s) in %1 (read-only: new runs are not stored)", nullptr, model_->rowCount())
                                     : tr("%n run(s) in %1", nullptr, model_->rowCount()))
                         .arg(QString::fromStdString(db->path())));
    status_->setToolTip(QString::fromStdString(db->path()));
    select(keep);
    updateButtons();
}

QString RunsDock::statusText() const { return status_->text(); }

std::vector<std::int64_t> RunsDock::selectedIds() const {
    std::vector<std::int64_t> ids;
    for (const QModelIndex& row : view_->selectionModel()->selectedRows())
        ids.push_back(proxy_->data(row, RunsModel::IdRole).toLongLong());
    return ids;
}

void RunsDock::select(const std::vector<std::int64_t>& ids) {
    view_->clearSelection();
    for (std::int64_t id : ids) {
        const int row = model_->rowOf(id);
        if (row < 0) continue;
        const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
        view_->selectionModel()->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

void RunsDock::updateButtons() {
    emit selectionChanged();
    const size_t n = selectedIds().size();
    open_->setEnabled(n == 1);
    rename_->setEnabled(n == 1);
    delete_->setEnabled(n >= 1);
    compare_->setEnabled(n >= 2 && n <= 4);
}

}  // namespace partita::gui
