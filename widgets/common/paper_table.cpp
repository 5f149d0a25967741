#include "widgets/common/paper_table.h"

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
    grid_->setHorizontalSpacing(16);
    grid_->setColumnStretch(Reason, 1);
    column->addLayout(grid_);
    column->addStretch(1);
    setWidget(inner);
    setMinimumWidth(200);
}

void PaperTable::setRows(const std::vector<PaperTableRow>& rows, const QString& note, const QString& warning) {
    note_->setText((warning.isEmpty() ? QString()
                                      : QStringLiteral("<b style='color:#a05a00'>%1</b> ").arg(warning.toHtmlEscaped())) +
                   note.toHtmlEscaped());
    while (QLayoutItem* item = grid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    cells_.clear();
    QWidget* inner = widget();
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    if (!rows.empty()) {
        const QString heads[] = {tr("quantity"), tr("paper"), tr("engine"), tr("engine / paper")};
        for (int c = Quantity; c <= Ratio; ++c)
            grid_->addWidget(label("<b>" + heads[c] + "</b>", inner, c == Quantity ? Qt::AlignLeft : right), 0, c);
    }
    for (size_t r = 0; r < rows.size(); ++r) {
        const PaperTableRow& row = rows[r];
        const int line = 1 + 2 * static_cast<int>(r);
        std::vector<QLabel*>& cells = cells_.emplace_back();
        cells.push_back(label(row.quantity, inner));
        cells.push_back(label(row.paper, inner, right));
        cells.push_back(label(row.engine, inner, right));
        cells.push_back(label(std::isfinite(row.ratio) ? QString::number(row.ratio, 'f', 2) : QStringLiteral("—"), inner,
                              right));
        cells[Paper]->setStyleSheet("color: #6e6e6e");
        for (int c = Quantity; c <= Ratio; ++c) grid_->addWidget(cells[static_cast<size_t>(c)], line, c);
        // The reason under its row, across the whole width, so it wraps at any width.
        QLabel* why = label(row.reason, inner);
        why->setWordWrap(true);
        why->setIndent(12);
        QFont italic = why->font();
        italic.setItalic(true);
        why->setFont(italic);
        cells.push_back(why);
        grid_->addWidget(why, line + 1, Quantity, 1, Reason + 1);
    }
}

QString PaperTable::note() const { return note_->text(); }

QString PaperTable::cell(int row, Column column) const {
    if (row < 0 || row >= rowCount()) return {};
    return cells_[static_cast<size_t>(row)][static_cast<size_t>(column)]->text();
}

}  // namespace partita
