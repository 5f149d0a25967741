#include "widgets/common/paper_table.h"

#include <algorithm>

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace partita {

namespace {

QLabel* label(const QString& text, QWidget* parent, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter) {
    auto* l = new QLabel(text, parent);
    l->setAlignment(align);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

}  // namespace

PaperTable::PaperTable(QWidget* parent) : QScrollArea(parent) {
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* inner = new QWidget(this);
    auto* column = new QVBoxLayout(inner);
    note_ = label({}, inner);
    note_->setObjectName("paper-note");
    note_->setWordWrap(true);
    column->addWidget(note_);
    grid_ = new QGridLayout;
    grid_->setHorizontalSpacing(12);
    column->addLayout(grid_);
    column->addStretch(1);
    setWidget(inner);
    setMinimumWidth(200);
}

void PaperTable::setRows(const std::vector<PaperTableRow>& rows, const QString& note, const QString& warning,
                         const PaperTableHeads& heads) {
    note_->setText((warning.isEmpty() ? QString()
                                      : QStringLiteral("<b style='color:#a05a00'>%1</b> ").arg(warning.toHtmlEscaped())) +
                   note.toHtmlEscaped());
    while (QLayoutItem* item = grid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    cells_.clear();
    heads_.clear();
    QWidget* inner = widget();
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    const int extras = static_cast<int>(heads.extra.size());
    const int columns = Ratio + 1 + extras;  // the reason spans them all
    for (int c = 0; c < grid_->columnCount(); ++c) grid_->setColumnStretch(c, 0);
    grid_->setColumnStretch(columns, 1);  // an empty column takes the slack: numbers stay by their headings
    if (!rows.empty()) {
        heads_ = {tr("quantity"), tr("paper"), heads.engine.isEmpty() ? tr("engine") : heads.engine, tr("engine / paper")};
        heads_ += heads.extra;
        for (int c = 0; c < columns; ++c)
            grid_->addWidget(label("<b>" + heads_[c].toHtmlEscaped() + "</b>", inner, c == Quantity ? Qt::AlignLeft : right),
                             0, c);
    }
    for (size_t r = 0; r < rows.size(); ++r) {
        const PaperTableRow& row = rows[r];
        const int line = 1 + 2 * static_cast<int>(r);
        std::vector<QLabel*>& cells = cells_.emplace_back();
        cells.push_back(label(row.quantity, inner));
        // Names up to 160 px stay on one line; longer ones wrap so that the numbers fit a narrow pane.
        cells.back()->setWordWrap(true);
        cells.back()->setMinimumWidth(std::min(160, cells.back()->fontMetrics().horizontalAdvance(row.quantity) + 4));
        cells.push_back(label(row.paper, inner, right));
        cells.push_back(label(row.engine, inner, right));
        cells.push_back(label(std::isfinite(row.ratio) ? QString::number(row.ratio, 'f', 2) : QStringLiteral("—"), inner,
                              right));
        cells[Paper]->setStyleSheet("color: #6e6e6e");
        for (int c = Quantity; c <= Ratio; ++c) grid_->addWidget(cells[static_cast<size_t>(c)], line, c);
        std::vector<QLabel*> extra;
        for (int k = 0; k < extras; ++k) {
            extra.push_back(label(k < row.extra.size() ? row.extra[k] : QString(), inner, right));
            grid_->addWidget(extra.back(), line, Ratio + 1 + k);
        }
        // The reason under its row, across the whole width, so it wraps at any width.
        QLabel* why = label(row.reason, inner);
        why->setWordWrap(true);
        why->setIndent(12);
        QFont italic = why->font();
        italic.setItalic(true);
        why->setFont(italic);
        cells.push_back(why);
        cells.insert(cells.end(), extra.begin(), extra.end());
        grid_->addWidget(why, line + 1, Quantity, 1, columns + 1);
    }
    fitHeight();
}

void PaperTable::resizeEvent(QResizeEvent* event) {
    QScrollArea::resizeEvent(event);
    fitHeight();
}

void PaperTable::fitHeight() {
    QWidget* inner = widget();
    QLayout* layout = inner->layout();
    const int width = std::max(viewport()->width(), layout->minimumSize().width());
    inner->setMinimumHeight(layout->hasHeightForWidth() ? layout->totalHeightForWidth(width) : layout->sizeHint().height());
}

QString PaperTable::note() const { return note_->text(); }

QString PaperTable::cell(int row, Column column) const {
    if (row < 0 || row >= rowCount()) return {};
    return cells_[static_cast<size_t>(row)][static_cast<size_t>(column)]->text();
}

QString PaperTable::extraCell(int row, int extra) const {
    if (row < 0 || row >= rowCount() || extra < 0) return {};
    const auto& cells = cells_[static_cast<size_t>(row)];
    const size_t at = static_cast<size_t>(Reason) + 1 + static_cast<size_t>(extra);
    return at < cells.size() ? cells[at]->text() : QString();
}

QString PaperTable::heading(Column column) const { return column < heads_.size() ? heads_[column] : QString(); }

}  // namespace partita
