#pragma once
// What the LLM plan and memory views share: the plan they draw, whether it is stale (the inputs no
// longer evaluate: the last valid plan stays, greyed), painting through paintFigure and a tool tip
// per position.
#include <optional>

#include <QWidget>

#include "widgets/common/figure_export.h"
#include "widgets/llm/llm_shown.h"

namespace partita {

class LlmFigure : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit LlmFigure(const QString& name, QWidget* parent = nullptr);
    void setShown(const LlmShown& shown);  // and no longer stale
    void setStale(bool stale);
    bool stale() const { return stale_; }
    bool hasPlan() const { return shown_.has_value(); }
    const LlmShown& shown() const { return *shown_; }
    QSize minimumSizeHint() const override { return {220, 200}; }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    virtual QString toolTipAt(const QPoint& pos) const = 0;  // "" hides the tip
    // A white page; without a plan `empty` centred on it and false (nothing more to draw).
    bool beginFigure(QPainter& p, const QRect& area, const QString& empty) const;

    std::optional<LlmShown> shown_;
    bool stale_ = false;
};

}  // namespace partita
