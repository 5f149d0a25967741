#include "widgets/settings/groups_editor.h"

#include <algorithm>
#include <array>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include "core/model/array.h"
#include "widgets/common/result_table_model.h"
#include "widgets/settings/number_text.h"

namespace partita {

namespace {

const QColor kInvalid(0xff, 0xd6, 0xd6);
constexpr int kMaxCount = 1 << Array::kMaxLevels;  // the array file's bound
constexpr int kVisibleRows = 6;                    // more scroll

// Compact headers fit the ~290 px dock; the long names go into messages and tooltips.
struct ColumnText {
    const char* header;
    const char* name;
    const char* tip;
};
const std::array<ColumnText, GroupsEditor::ColumnCount> kColumns{{
    {"kind", "kind", "Kind: the group's name, unique in the array (e.g. tpu-v3)."},
    {"n", "count", "Count: how many identical accelerators the group has (at least 1; 2 in all)."},
    {"FLOP/s", "throughput (FLOP/s)", "Throughput c of one accelerator in FLOP/s, 2 FLOP per MAC (e.g. 1.23e14)."},
    {"B/s", "bandwidth (B/s)", "Bandwidth b of one accelerator in bytes/s it can receive (e.g. 3.32e11)."},
}};

QString columnName(int c) { return QObject::tr(kColumns[static_cast<size_t>(c)].name); }
QString columnTip(int c) { return QObject::tr(kColumns[static_cast<size_t>(c)].tip); }

QString parseCount(const QString& text, int* value) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return QObject::tr("enter a whole number");
    bool ok = false;
    const int v = QLocale::c().toInt(t, &ok);
    if (!ok) return QObject::tr("'%1' is not a whole number").arg(t);
    if (v < 1 || v > kMaxCount) return QObject::tr("must be between 1 and %1, got %2").arg(kMaxCount).arg(t);
    *value = v;
    return {};
}

// Commits on every keystroke so cells validate as typed, like the form's fields.
class LiveDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QWidget* editor = QStyledItemDelegate::createEditor(parent, option, index);
        auto* edit = qobject_cast<QLineEdit*>(editor);
        if (!edit) return editor;
        auto* self = const_cast<LiveDelegate*>(this);  // commitData is a non-const signal
        const QPersistentModelIndex at(index);
        auto paint = [edit, at] {
            const bool bad = !at.data(GroupsEditor::kProblemRole).toString().isEmpty();
            edit->setStyleSheet(bad ? "QLineEdit { background-color: #ffd6d6; }" : QString());
        };
        paint();
        connect(edit, &QLineEdit::textEdited, self, [self, edit, paint] {
            emit self->commitData(edit);
            paint();
        });
        return editor;
    }

    // A selected invalid cell is highlighted red, so selection does not hide the problem.
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(GroupsEditor::kProblemRole).toString().isEmpty()) return;
        option->palette.setColor(QPalette::Highlight, QColor(0xc6, 0x28, 0x28));
        option->palette.setColor(QPalette::HighlightedText, Qt::white);
    }

    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        // Each commit echoes back here; leave the text, and the cursor, alone when it already matches.
        auto* edit = qobject_cast<QLineEdit*>(editor);
        if (edit && edit->text() == index.data(Qt::EditRole).toString()) return;
        QStyledItemDelegate::setEditorData(editor, index);
    }
};

}  // namespace

GroupsModel::GroupsModel(QObject* parent) : QAbstractTableModel(parent) {}

void GroupsModel::setRows(std::vector<Texts> rows) {
    beginResetModel();
    rows_.clear();
    for (auto& t : rows) rows_.push_back({std::move(t), {}, {}});
    endResetModel();
}

void GroupsModel::appendRow(const Texts& row) {
    const int at = rowCount();
    beginInsertRows({}, at, at);
    rows_.push_back({row, {}, {}});
    endInsertRows();
}

void GroupsModel::removeRowAt(int row) {
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    rows_.erase(rows_.begin() + row);
    endRemoveRows();
}

QString GroupsModel::text(int row, int column) const {
    return rows_[static_cast<size_t>(row)].text[static_cast<size_t>(column)];
}

void GroupsModel::setProblem(int row, int column, const QString& reason) {
    QString& p = rows_[static_cast<size_t>(row)].problem[static_cast<size_t>(column)];
    if (p == reason) return;
    p = reason;
    const QModelIndex i = index(row, column);
    emit dataChanged(i, i, {GroupsEditor::kProblemRole, Qt::BackgroundRole, Qt::ToolTipRole});
}

void GroupsModel::setRaw(int row, int column, QVariant value) {
    QVariant& v = rows_[static_cast<size_t>(row)].raw[static_cast<size_t>(column)];
    if (v == value) return;
    v = std::move(value);
    const QModelIndex i = index(row, column);
    emit dataChanged(i, i, {RawValueRole});
}

int GroupsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int GroupsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : GroupsEditor::ColumnCount; }

QVariant GroupsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = rows_[static_cast<size_t>(index.row())];
    const auto c = static_cast<size_t>(index.column());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return row.text[c];
    case GroupsEditor::kProblemRole: return row.problem[c];
    case RawValueRole: return row.raw[c];
    case Qt::BackgroundRole: return row.problem[c].isEmpty() ? QVariant() : QVariant(QBrush(kInvalid));
    case Qt::ToolTipRole:
        return row.problem[c].isEmpty() ? columnTip(index.column())
                                        : columnName(index.column()) + ": " + row.problem[c] + "\n\n" + columnTip(index.column());
    case Qt::TextAlignmentRole:
        return index.column() == GroupsEditor::Count ? QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter))
                                                     : QVariant();
    default: return {};
    }
}

QVariant GroupsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= GroupsEditor::ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(kColumns[static_cast<size_t>(section)].header);
    if (role == Qt::ToolTipRole) return columnTip(section);
    return {};
}

Qt::ItemFlags GroupsModel::flags(const QModelIndex& index) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

bool GroupsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    QString& t = rows_[static_cast<size_t>(index.row())].text[static_cast<size_t>(index.column())];
    const QString typed = value.toString();
    if (t == typed) return true;
    t = typed;
    emit dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    emit this->typed();
    return true;
}

GroupsEditor::GroupsEditor(QWidget* parent) : QGroupBox(tr("Accelerator groups"), parent) {
    setToolTip(tr("AccPar array: groups of identical accelerators, bisected into a tree by compute (docs/methods/accpar.md#bisection)."));
    table_ = new QTableView(this);
    table_->setObjectName("groups");
    model_ = new GroupsModel(table_);
    table_->setModel(model_);
    table_->setItemDelegate(new LiveDelegate(table_));
    QHeaderView* header = table_->horizontalHeader();
    // B/s takes what is left: in a narrow dock its long exact values elide, not the kinds.
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(Bandwidth, QHeaderView::Stretch);
    header->setMinimumSectionSize(24);
    table_->setWordWrap(false);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->setSelectionBehavior(QAbstractItemView::SelectItems);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    connect(model_, &GroupsModel::typed, this, [this] { revalidate(true); });

    add_ = new QPushButton(tr("Add group"), this);
    add_->setObjectName("add_group");
    add_->setToolTip(tr("Append a group with one accelerator like the selected group's; rename its kind."));
    remove_ = new QPushButton(tr("Remove group"), this);
    remove_->setObjectName("remove_group");
    remove_->setToolTip(tr("Remove the selected group (the last one when none is selected)."));
    connect(add_, &QPushButton::clicked, this, &GroupsEditor::addGroup);
    connect(remove_, &QPushButton::clicked, this, &GroupsEditor::removeGroup);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(table_);
    layout->addLayout(buttons);
}

int GroupsEditor::currentRow() const {
    const QModelIndex i = table_->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void GroupsEditor::setGroups(const std::vector<AcceleratorGroup>& groups) {
    std::vector<GroupsModel::Texts> rows;
    for (const AcceleratorGroup& g : groups)
        rows.push_back({QString::fromStdString(g.kind), QString::number(g.count), numberText(g.throughput_flops),
                        numberText(g.bandwidth_Bps)});
    model_->setRows(std::move(rows));
    groups_ = groups;
    revalidate(false);
}

void GroupsEditor::addGroup() {
    const int n = model_->rowCount();
    const int from = currentRow() >= 0 ? currentRow() : n - 1;
    QStringList kinds;
    for (int r = 0; r < n; ++r) kinds << model_->text(r, Kind).trimmed();
    QString kind;
    for (int k = n + 1; kind.isEmpty() || kinds.contains(kind); ++k) kind = tr("kind-%1").arg(k);
    model_->appendRow({kind, "1", from >= 0 ? model_->text(from, Throughput) : "1",
                       from >= 0 ? model_->text(from, Bandwidth) : "1"});
    revalidate(true);
    table_->setCurrentIndex(model_->index(n, Kind));
}

void GroupsEditor::removeGroup() {
    const int n = model_->rowCount();
    if (n <= 1) return;
    model_->removeRowAt(currentRow() >= 0 ? currentRow() : n - 1);
    revalidate(true);
}

void GroupsEditor::revalidate(bool by_user) {
    problems_.clear();
    std::vector<AcceleratorGroup> parsed;
    auto mark = [this](int r, int c, const QString& reason) { model_->setProblem(r, c, reason); };
    long total = 0;
    for (int r = 0; r < model_->rowCount(); ++r) {
        AcceleratorGroup g;
        std::array<QString, ColumnCount> reason;
        const QString kind = model_->text(r, Kind).trimmed();
        if (kind.isEmpty()) reason[Kind] = tr("must not be empty");
        for (int o = 0; o < r && reason[Kind].isEmpty(); ++o)
            if (model_->text(o, Kind).trimmed() == kind)
                reason[Kind] = tr("'%1' is listed twice; merge the groups").arg(kind);
        g.kind = kind.toStdString();
        reason[Count] = parseCount(model_->text(r, Count), &g.count);
        reason[Throughput] = parseNumber(model_->text(r, Throughput), false, &g.throughput_flops);
        reason[Bandwidth] = parseNumber(model_->text(r, Bandwidth), false, &g.bandwidth_Bps);
        // The limits files and the command line check (docs/formats/limits.md).
        if (reason[Throughput].isEmpty())
            reason[Throughput] = QString::fromStdString(rangeProblem(g.throughput_flops, arrayRange("throughput_flops")));
        if (reason[Bandwidth].isEmpty())
            reason[Bandwidth] = QString::fromStdString(rangeProblem(g.bandwidth_Bps, arrayRange("bandwidth_Bps")));
        model_->setRaw(r, Count, reason[Count].isEmpty() ? QVariant(qint64(g.count)) : QVariant());
        model_->setRaw(r, Throughput, reason[Throughput].isEmpty() ? QVariant(g.throughput_flops) : QVariant());
        model_->setRaw(r, Bandwidth, reason[Bandwidth].isEmpty() ? QVariant(g.bandwidth_Bps) : QVariant());
        for (int c = 0; c < ColumnCount; ++c) {
            mark(r, c, reason[static_cast<size_t>(c)]);
            if (!reason[static_cast<size_t>(c)].isEmpty())
                problems_ << tr("Group %1 %2: %3").arg(r + 1).arg(columnName(c), reason[static_cast<size_t>(c)]);
        }
        if (reason[Count].isEmpty()) total += g.count;
        parsed.push_back(g);
    }
    // Whole-array limits, checked once every cell reads (the tree needs every count).
    if (problems_.isEmpty()) {
        QString whole;
        if (total < 2) whole = tr("need at least 2 accelerators in all, got %1").arg(total);
        else if (const int height = treeHeight(parsed); height > Array::kMaxLevels)
            whole = tr("these groups need %1 levels; at most %2 are supported").arg(height).arg(Array::kMaxLevels);
        if (!whole.isEmpty()) {
            for (int r = 0; r < model_->rowCount(); ++r) mark(r, Count, whole);
            problems_ << tr("Accelerator groups: %1").arg(whole);
        }
    }
    if (problems_.isEmpty()) groups_ = std::move(parsed);
    remove_->setEnabled(model_->rowCount() > 1);
    fitHeight();
    if (by_user) emit edited();
}

void GroupsEditor::fitHeight() {
    const int rows = std::min(std::max(model_->rowCount(), 1), kVisibleRows);
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
    height += rows * table_->verticalHeader()->defaultSectionSize();
    if (table_->horizontalScrollBar()->isVisible()) height += table_->horizontalScrollBar()->sizeHint().height();
    table_->setFixedHeight(height);
}

}  // namespace partita
