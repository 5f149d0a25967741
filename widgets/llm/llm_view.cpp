#include "widgets/llm/llm_view.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/llm/numbers.h"
#include "widgets/common/qt_text.h"
#include "widgets/llm/llm_settings_panel.h"
#include "widgets/llm/memory_view.h"
#include "widgets/llm/plan_view.h"

namespace partita {

LlmView::LlmView(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    panel_ = new LlmSettingsPanel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFixedWidth(std::min(panel_->sizeHint().width() + 24, 248));  // the views keep the rest at 1024 px
    row->addWidget(scroll);
    auto* right = new QVBoxLayout;
    summary_ = new QLabel;
    summary_->setObjectName("llm-summary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(summary_);
    pages_ = new QTabWidget;
    plan_ = new LlmPlanView;
    memory_ = new LlmMemoryView;
    pages_->addTab(plan_, tr("Plan"));
    pages_->addTab(memory_, tr("Memory"));
    right->addWidget(pages_, 1);
    row->addLayout(right, 1);
    connect(panel_, &LlmSettingsPanel::changed, this, [this] {
        if (!loading_) searched_ = false;  // an edit: no longer the search's plan
        reevaluate();
    });
    connect(panel_, &LlmSettingsPanel::searchRequested, this, &LlmView::requestSearch);
    reevaluate();
}

void LlmView::requestSearch() {
    try {
        emit searchRequested(panel_->settings());
    } catch (const llm::FieldError& e) {
        panel_->showError(e.field(), q(e.what()));
    }
}

void LlmView::addView(QWidget* view, const QString& title) { pages_->addTab(view, title); }

void LlmView::showPage(QWidget* view) { pages_->setCurrentWidget(view); }

void LlmView::setSettings(const LlmSettings& s) {
    // What the knobs do not show: whether the plan is a search's best.
    searched_ = s.searched;
    loading_ = true;
    panel_->setSettings(s);
    loading_ = false;
    reevaluate();
}

QString LlmView::summary() const {
    if (!shown_) return tr("No plan evaluated yet.");
    const llm::Evaluation& e = shown_->eval;
    const QString fit = e.fits ? tr("fits") : tr("<span style='color:#c00000'><b>does not fit</b></span>");
    QString t = tr("<b>%1</b> on %2 × %3: iteration <b>%4</b> · MFU <b>%5 %</b> · %6 tokens/s · peak %7 GiB of %8 GiB per GPU (%9)")
                    .arg(q(shown_->settings.model.name))
                    .arg(shown_->settings.plan.gpus())
                    .arg(q(shown_->settings.profile.name), q(seconds(e.iteration_s)))
                    .arg(100 * e.mfu, 0, 'f', 1)
                    .arg(q(withCommas(std::round(e.tokens_per_s))))
                    .arg(e.peak_bytes / llm::kGiB, 0, 'f', 2)
                    .arg(e.capacity_bytes / llm::kGiB, 0, 'f', 2)
                    .arg(fit);
    if (!valid_) t = tr("<span style='color:gray'>The inputs are invalid (see the knobs); last valid plan: %1</span>").arg(t);
    return t;
}

void LlmView::reevaluate() {
    try {
        LlmSettings s = panel_->settings();
        s.searched = searched_;
        llm::Evaluation e = evaluateLlm(s);
        shown_ = LlmShown{std::move(s), std::move(e)};
        valid_ = true;
        panel_->clearErrors();
        plan_->setShown(*shown_);
        memory_->setShown(*shown_);
        summary_->setText(summary());
        emit shownChanged(*shown_);
    } catch (const llm::FieldError& e) {
        valid_ = false;
        panel_->showError(e.field(), q(e.what()));
    } catch (const std::exception& e) {
        valid_ = false;
        panel_->showError("", q(e.what()));
    }
    if (!valid_) {
        plan_->setStale(true);
        memory_->setStale(true);
        summary_->setText(summary());
    }
}

}  // namespace partita
