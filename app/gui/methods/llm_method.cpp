// The LLM planner (core/llm): its own tab whose knobs re-evaluate on the GUI thread at every edit (an
// evaluation takes microseconds); Run stores the shown plan; Search runs llm::search as a job (progress,
// Cancel), stores the best plan and loads it into the knobs. Views of the plan are pages of the tab:
// one more is a page (LlmView::addView) and a ViewEntry here.
#include <memory>

#include <QAction>
#include <QMenu>

#include "app/gui/export_entries.h"
#include "app/gui/job_runner.h"
#include "app/gui/methods/registry.h"
#include "app/gui/options.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "core/llm/search.h"
#include "core/run/method_run.h"
#include "widgets/common/qt_text.h"
#include "widgets/llm/llm_settings_panel.h"
#include "widgets/llm/llm_view.h"
#include "widgets/llm/memory_view.h"
#include "widgets/llm/plan_view.h"

namespace partita::gui {

namespace {

class LlmMethod : public GuiMethod {
public:
    QString key() const override { return "llm"; }
    Settings settings() const override { return Settings::OwnTab; }
    QString mainView() const override { return "llm-plan"; }

    void start(RunController& runs, bool store) const override {
        WindowServices& window = runs.services();
        window.showView(mainView());
        if (!store) return;
        if (!view_->valid())
            return window.showStatus(QObject::tr("LLM: nothing stored, the inputs are invalid (see the knobs)"));
        window.runStore().storeMethod(methodRun(view_->shown().settings, view_->shown().eval));
    }

    void buildViews(RunController& runs) override {
        WindowServices& window = runs.services();
        view_ = new LlmView();
        view_->setObjectName("llm-view");
        window.addMethodTab(view_, QObject::tr("LLM"));
        QObject::connect(view_, &LlmView::searchRequested, view_,
                         [this, &window](const LlmSettings& s) { startSearch(window, s, true); });
        QObject::connect(&window.jobs(), &JobRunner::failed, view_, [this](quint64 generation, const QString& message) {
            if (generation != search_.generation) return;
            view_->panel()->showError("", message);
            endSearch();
        });
        QObject::connect(&window.jobs(), &JobRunner::cancelled, view_, [this, &window](quint64 generation) {
            if (generation != search_.generation) return;
            endSearch();
            window.showStatus(QObject::tr("LLM search cancelled: the knobs are as they were"));
        });
        LlmView* v = view_;
        const ReadyFn ready = [v] {
            return v->hasEvaluation() ? QString() : QObject::tr("Nothing to export: no LLM plan evaluates (see the knobs)");
        };
        // A view of the plan: a page of the tab and its --view name. The tab offers every page's export
        // target, so the first entry (the one its tab finds) lists them all.
        const auto addView = [&](const QString& name, QWidget* page, std::vector<ExportEntry> exports) {
            window.views().add({name, v, [v, page] {
                                    v->showPage(page);
                                    return static_cast<QWidget*>(v);
                                },
                                [this, &window] { window.showView(mainView()); }, std::move(exports)});
        };
        addView("llm-plan", v->planView(),
                {figureTarget("llm-plan", QObject::tr("LLM plan (GPU grid)"), v->planView(),
                              [v] { return v->planView()->csv(); }, ready),
                 figureTarget("llm-memory", QObject::tr("LLM memory per stage"), v->memoryView(),
                              [v] { return v->memoryView()->csv(); }, ready)});
        addView("llm-memory", v->memoryView(), {});
    }

    void addRunActions(RunController& runs, QMenu* run) override {
        if (!run) return;
        auto* search = new QAction(QObject::tr("Search LLM &plan"), run);
        search->setObjectName("llm-search-action");
        search->setToolTip(QObject::tr("The LLM tab's fastest plan that fits its GPUs and global batch: searched, "
                                       "stored and loaded into the knobs"));
        QObject::connect(search, &QAction::triggered, view_, [this, &runs] {
            runs.chooseMethod(key());
            view_->requestSearch();
        });
        run->addSeparator();
        run->addAction(search);
    }

    // --llm-model, --llm-profile, --llm-gpus: the inputs set, then the best plan searched (not stored).
    void applyOptions(RunController& runs, const Options& o) override {
        if (o.llm_model.isEmpty() && o.llm_profile.isEmpty() && o.llm_gpus <= 0 && o.llm_global_batch <= 0) return;
        LlmSettingsPanel* panel = view_->panel();
        if (!o.llm_model.isEmpty()) panel->setModel(o.llm_model);
        if (!o.llm_profile.isEmpty()) panel->setProfile(o.llm_profile);
        if (o.llm_gpus > 0) panel->setGpus(o.llm_gpus);
        if (o.llm_global_batch > 0) panel->setGlobalBatch(o.llm_global_batch);
        try {
            startSearch(runs.services(), panel->settings(), false);
        } catch (const llm::FieldError& e) {
            panel->showError(e.field(), q(e.what()));
        }
    }

    bool takeRun(RunController& runs, quint64 generation, const RunPtr&) override {
        if (generation != search_.generation || !search_.result) return false;
        WindowServices& window = runs.services();
        const auto result = search_.result;
        LlmSettings s = search_.settings;
        const bool store = search_.store;
        endSearch();
        if (!result->found) {
            view_->panel()->showError("gpus", QObject::tr("No plan of %1 GPUs fits (%2 evaluated)")
                                                  .arg(s.plan.gpus())
                                                  .arg(result->evaluated));
            return true;
        }
        s.plan = result->best.plan;
        s.searched = true;
        view_->setSettings(s);
        window.showView(mainView());
        window.showStatus(QObject::tr("LLM search: %1 plans evaluated, %2 fit; the best is in the knobs")
                              .arg(result->evaluated)
                              .arg(result->feasible));
        if (store && view_->valid()) window.runStore().storeMethod(methodRun(view_->shown().settings, view_->shown().eval));
        return true;
    }

    void openStored(RunController& runs, const MethodRun& run) override {
        runs.services().showView(mainView());
        view_->setSettings(run.llm);
    }

    LlmView* view() const { return view_; }

private:
    struct Search {
        quint64 generation = 0;  // 0: none running
        bool store = false;
        LlmSettings settings;
        std::shared_ptr<llm::SearchResult> result;
    };

    void startSearch(WindowServices& window, const LlmSettings& s, bool store) {
        auto result = std::make_shared<llm::SearchResult>();
        llm::SearchOptions o;
        o.model = s.kind;
        o.gpus = s.plan.gpus();
        o.global_batch = s.plan.global_batch;
        const QString label =
            QObject::tr("Searching plans of %1 on %2 GPUs").arg(q(s.model.name)).arg(o.gpus);
        view_->panel()->setSearching(true);
        search_ = {0, store, s, result};
        search_.generation = window.jobs().start(label, [s, o, result](const ProgressFn& progress, const CancelFn& cancel) {
            *result = llm::search(s.model, s.profile, o, progress, cancel);
            Run run;
            run.name = "LLM search " + s.model.name;
            run.method = "llm";
            return run;
        });
    }

    void endSearch() {
        search_ = {};
        view_->panel()->setSearching(false);
    }

    LlmView* view_ = nullptr;
    Search search_;
};

}  // namespace

std::unique_ptr<GuiMethod> llmMethod() { return std::make_unique<LlmMethod>(); }

}  // namespace partita::gui
