#pragma once
// The LLM method's tab: the knobs (LlmSettingsPanel) beside the views of the evaluated plan (Plan,
// Memory, and whatever addView() adds), with a one-line summary above them. Every edit re-evaluates
// on the spot (an evaluation takes microseconds); inputs that cannot be evaluated are explained
// under their knob while the views keep the last good plan, greyed.
#include <optional>

#include <QWidget>

#include "widgets/llm/llm_shown.h"

class QLabel;
class QTabWidget;

namespace partita {

class LlmMemoryView;
class LlmPlanView;
class LlmSettingsPanel;

class LlmView : public QWidget {
    Q_OBJECT
public:
    explicit LlmView(QWidget* parent = nullptr);

    LlmSettingsPanel* panel() const { return panel_; }
    LlmPlanView* planView() const { return plan_; }
    LlmMemoryView* memoryView() const { return memory_; }
    // A view of the shown plan as a page beside Plan and Memory; it follows shownChanged().
    void addView(QWidget* view, const QString& title);
    void showPage(QWidget* view);  // brings a page forward

    bool hasEvaluation() const { return shown_.has_value(); }
    const LlmShown& shown() const { return *shown_; }  // the last plan that evaluated
    bool valid() const { return valid_; }               // the knobs' inputs evaluate
    QString summary() const;                            // the line above the views
    void setSettings(const LlmSettings& s);             // knobs set, evaluated
    void requestSearch();  // searchRequested() with the knobs' settings, or their error shown

signals:
    void shownChanged(const partita::LlmShown& shown);
    void searchRequested(const partita::LlmSettings& s);

private:
    void reevaluate();

    LlmSettingsPanel* panel_ = nullptr;
    LlmPlanView* plan_ = nullptr;
    LlmMemoryView* memory_ = nullptr;
    QTabWidget* pages_ = nullptr;
    QLabel* summary_ = nullptr;
    std::optional<LlmShown> shown_;
    bool valid_ = false;
    bool searched_ = false, loading_ = false;
};

}  // namespace partita
