#pragma once
// The teaching view (issue 6 item 5): for one cell of a run's grid (level h,
// layer l) the tensors F_l, W_l, F_l+1, E_l, E_l+1 and dW_l drawn as blocks
// split between the level's two groups (HyPar Figs. 1-2, AccPar's transitions),
// with what moves inside the layer and across both boundaries, the formula and
// this run's numbers. Forward -> backward -> gradient can be stepped or played.
// The data comes from core/study/teaching.h; this file only shows it.
#include <optional>

#include <QWidget>

#include "core/run/run.h"
#include "core/study/teaching.h"
#include "widgets/common/figure_export.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QPushButton;
class QTimer;

namespace partita {

class TeachingView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit TeachingView(QWidget* parent = nullptr);

    // Shows `run`'s grid (nullptr clears); keeps the cell when it still exists.
    void setRun(RunPtr run);
    // What the empty view says (why there is nothing to teach for the shown run).
    void setEmptyText(const QString& text);
    QString emptyText() const { return empty_text_; }
    RunPtr run() const { return run_; }
    // Selects the cell (clamped to the grid); does not emit cellChanged.
    void setCell(int level, int layer);
    int level() const { return level_; }
    int layer() const { return layer_; }

    // The highlighted phase. step(+1) goes forward -> backward -> gradient and
    // wraps around; step(-1) goes back.
    void setPhase(Phase phase);
    void step(int delta);
    Phase phase() const { return phase_; }
    // Plays the phases on a timer (stepping still works while playing).
    void setPlaying(bool playing);
    bool playing() const;

    // The explanation drawn, if a cell is shown.
    const TeachingCell* teaching() const { return teaching_ ? &*teaching_ : nullptr; }
    // What moves in the current phase, e.g. "backward: 25,600 elements (102.4 kB)"; as shown.
    QString phaseSummary() const;
    // One row per exchange of the cell in every phase, elements and bytes (units in the header).
    CsvTable csv() const;

    QSize figureSize() const override { return {1280, 720}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;
    QSize sizeHint() const override { return {1280, 800}; }

signals:
    // The user picked another level or layer in the view's own combo boxes.
    void cellChanged(int level, int layer);
    void phaseChanged(int phase);  // static_cast<int>(Phase)

private:
    void rebuild();        // teaching_ from run_, level_, layer_
    void fillCombos();
    void syncControls();   // combos, phase buttons and summary follow the state

    RunPtr run_;
    int level_ = 0, layer_ = 0;
    Phase phase_ = Phase::Forward;
    std::optional<TeachingCell> teaching_;
    QString empty_text_ = tr("Choose a run to see how a layer is split.");

    QComboBox* level_box_ = nullptr;
    QComboBox* layer_box_ = nullptr;
    QButtonGroup* phases_ = nullptr;
    QPushButton* play_ = nullptr;
    QLabel* summary_ = nullptr;
    QWidget* canvas_ = nullptr;
    QTimer* timer_ = nullptr;
    bool syncing_ = false;  // programmatic combo changes emit nothing
};

}  // namespace partita
