#pragma once
// "Paper vs engine": each figure a paper reports beside the engine's value for
// the same quantity and their ratio, with one line on why they differ beneath,
// under a note that says what is compared (and when the settings are not the
// defaults the reasons were measured with). The paper column is grey, as in
// the comparison tables, so it never reads as engine output. The reasons take
// the whole width and wrap, so the panel reads at any width; it scrolls when
// short. Method views embed it.
#include <cmath>
#include <vector>

#include <QScrollArea>
#include <QStringList>

class QGridLayout;
class QLabel;

namespace partita {

struct PaperTableRow {
    QString quantity;
    QString paper, engine;  // formatted, with units
    double ratio = NAN;     // engine / paper; NaN shows "—"
    QString reason;         // why they differ; empty: none given
    QStringList extra;      // the extra columns' cells (after the ratio), formatted
};

// Headings beyond the defaults: the engine column's (e.g. naming a preset) and extra columns.
struct PaperTableHeads {
    QString engine;     // empty: "engine"
    QStringList extra;  // shown after "engine / paper", right-aligned like the numbers
};

class PaperTable : public QScrollArea {
    Q_OBJECT
public:
    enum Column { Quantity, Paper, Engine, Ratio, Reason };
    explicit PaperTable(QWidget* parent = nullptr);

    // `warning` (plain, in the warning colour) then `note` (plain) go above the rows.
    void setRows(const std::vector<PaperTableRow>& rows, const QString& note, const QString& warning = {},
                 const PaperTableHeads& heads = {});
    int rowCount() const { return static_cast<int>(cells_.size()); }
    QString note() const;  // warning and note as shown
    QString cell(int row, Column column) const;  // the shown text, "" outside the rows
    QString extraCell(int row, int extra) const;  // "" outside the rows and columns
    QString heading(Column column) const;          // plain text; "" before any rows (Reason has none)

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // Wrapped labels need more height when narrower; a scroll area does not ask its widget, so
    // the widget's minimum height is set from its layout at the viewport's width.
    void fitHeight();

    QLabel* note_ = nullptr;
    QGridLayout* grid_ = nullptr;
    std::vector<std::vector<QLabel*>> cells_;  // [row][Column], then the extra columns
    QStringList heads_;                         // Quantity .. Ratio
};

}  // namespace partita
