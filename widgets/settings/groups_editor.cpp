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
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/model/array.h"
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

GroupsEditor::GroupsEditor(QWidget* parent) : QGroupBox(tr("Accelerator groups"), parent) {
    setToolTip(tr("AccPar array: groups of identical accelerators, bisected into a tree by compute (docs/methods/accpar.md#bisection)."));
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName("groups");
    table_->setItemDelegate(new LiveDelegate(table_));
    for (int c = 0; c < ColumnCount; ++c) {
        auto* head = new QTableWidgetItem(tr(kColumns[static_cast<size_t>(c)].header));
        head->setToolTip(columnTip(c));
        table_->setHorizontalHeaderItem(c, head);
    }
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
    connect(table_, &QTableWidget::itemChanged, this, [this] {
        if (!quiet_) revalidate(true);
    });

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

void GroupsEditor::setGroups(const std::vector<AcceleratorGroup>& groups) {
    quiet_ = true;
    table_->setRowCount(static_cast<int>(groups.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const AcceleratorGroup& g = groups[static_cast<size_t>(r)];
        table_->setItem(r, Kind, new QTableWidgetItem(QString::fromStdString(g.kind)));
        table_->setItem(r, Count, new QTableWidgetItem(QString::number(g.count)));
        table_->setItem(r, Throughput, new QTableWidgetItem(numberText(g.throughput_flops)));
        table_->setItem(r, Bandwidth, new QTableWidgetItem(numberText(g.bandwidth_Bps)));
        table_->item(r, Count)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    quiet_ = false;
    groups_ = groups;
    revalidate(false);
}

void GroupsEditor::addGroup() {
    const int from = table_->currentRow() >= 0 ? table_->currentRow() : table_->rowCount() - 1;
    QStringList kinds;
    for (int r = 0; r < table_->rowCount(); ++r) kinds << table_->item(r, Kind)->text().trimmed();
    QString kind;
    for (int n = table_->rowCount() + 1; kind.isEmpty() || kinds.contains(kind); ++n) kind = tr("kind-%1").arg(n);
    const int row = table_->rowCount();
    quiet_ = true;
    table_->insertRow(row);
    table_->setItem(row, Kind, new QTableWidgetItem(kind));
    table_->setItem(row, Count, new QTableWidgetItem("1"));
    table_->item(row, Count)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    for (int c : {int(Throughput), int(Bandwidth)})
        table_->setItem(row, c, new QTableWidgetItem(from >= 0 ? table_->item(from, c)->text() : "1"));
    quiet_ = false;
    revalidate(true);
    table_->setCurrentCell(row, Kind);
}

void GroupsEditor::removeGroup() {
    if (table_->rowCount() <= 1) return;
    const int row = table_->currentRow() >= 0 ? table_->currentRow() : table_->rowCount() - 1;
    table_->removeRow(row);
    revalidate(true);
}

void GroupsEditor::revalidate(bool by_user) {
    quiet_ = true;
    problems_.clear();
    std::vector<AcceleratorGroup> parsed;
    auto mark = [this](int r, int c, const QString& reason) {
        QTableWidgetItem* item = table_->item(r, c);
        item->setData(kProblemRole, reason);
        item->setBackground(reason.isEmpty() ? QBrush() : QBrush(kInvalid));
        item->setToolTip(reason.isEmpty() ? columnTip(c) : columnName(c) + ": " + reason + "\n\n" + columnTip(c));
    };
    long total = 0;
    for (int r = 0; r < table_->rowCount(); ++r) {
        AcceleratorGroup g;
        std::array<QString, ColumnCount> reason;
        const QString kind = table_->item(r, Kind)->text().trimmed();
        if (kind.isEmpty()) reason[Kind] = tr("must not be empty");
        for (int o = 0; o < r && reason[Kind].isEmpty(); ++o)
            if (table_->item(o, Kind)->text().trimmed() == kind)
                reason[Kind] = tr("'%1' is listed twice; merge the groups").arg(kind);
        g.kind = kind.toStdString();
        reason[Count] = parseCount(table_->item(r, Count)->text(), &g.count);
        reason[Throughput] = parseNumber(table_->item(r, Throughput)->text(), false, &g.throughput_flops);
        reason[Bandwidth] = parseNumber(table_->item(r, Bandwidth)->text(), false, &g.bandwidth_Bps);
        // The limits files and the command line check (docs/formats/limits.md).
        if (reason[Throughput].isEmpty())
            reason[Throughput] = QString::fromStdString(rangeProblem(g.throughput_flops, arrayRange("throughput_flops")));
        if (reason[Bandwidth].isEmpty())
            reason[Bandwidth] = QString::fromStdString(rangeProblem(g.bandwidth_Bps, arrayRange("bandwidth_Bps")));
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
            for (int r = 0; r < table_->rowCount(); ++r) mark(r, Count, whole);
            problems_ << tr("Accelerator groups: %1").arg(whole);
        }
    }
    if (problems_.isEmpty()) groups_ = std::move(parsed);
    remove_->setEnabled(table_->rowCount() > 1);
    fitHeight();
    quiet_ = false;
    if (by_user) emit edited();
}

void GroupsEditor::fitHeight() {
    const int rows = std::min(std::max(table_->rowCount(), 1), kVisibleRows);
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
    height += rows * table_->verticalHeader()->defaultSectionSize();
    if (table_->horizontalScrollBar()->isVisible()) height += table_->horizontalScrollBar()->sizeHint().height();
    table_->setFixedHeight(height);
}

}  // namespace partita
