#pragma once
// A method with a tab of its own whose every choice is a job (MPT, Learn-to-Scale):
// the tab's newest job, what Run stores, the runs it claims and how a stored record
// re-opens. A subclass names its view, settings and engine in a few one-line hooks.
#include <string>
#include <utility>

#include <QObject>

#include "app/gui/input_files.h"
#include "app/gui/job_runner.h"
#include "app/gui/methods/method.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/session.h"
#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "core/run/method_run.h"
#include "widgets/common/qt_text.h"

namespace partita::gui {

template <class View, class MethodSettings>
class TabMethod : public GuiMethod {
public:
    Settings settings() const override { return Settings::OwnTab; }

    // Choosing shows the tab (with the user's network, else the paper's workload); Run stores what it
    // shows, or what it is about to show when its job arrives.
    void start(RunController& runs, bool store) const override {
        WindowServices& window = runs.services();
        show(window);
        if (!store) return;
        if (pending(window)) job_.store = true;
        else if (view_->hasEvaluation()) window.runStore().storeMethod(methodRun(*view_->outcome()));
    }

    void buildViews(RunController& runs) override {
        WindowServices& window = runs.services();
        view_ = new View();
        view_->setObjectName(key() + "-view");
        window.addMethodTab(view_, tabTitle());
        QObject::connect(view_, &View::settingsRequested, view_,
                         [this, &window](const MethodSettings& s) { request(window, s); });
        // A failed or cancelled request leaves the tab as it was; a failure is said there too.
        QObject::connect(&window.jobs(), &JobRunner::failed, view_, [this](quint64 generation, const QString& message) {
            if (generation != job_.generation) return;
            view_->showError(message);
            job_ = {};
        });
        QObject::connect(&window.jobs(), &JobRunner::cancelled, view_, [this](quint64 generation) {
            if (generation == job_.generation) job_ = {};
        });
        addViews(runs);
    }

    bool takeRun(RunController& runs, quint64 generation, const RunPtr& run) override {
        WindowServices& window = runs.services();
        const auto outcome = outcomeOf(*run);
        if (!outcome) return false;
        const bool store = job_.generation == generation && job_.store;
        job_ = {};
        view_->setOutcome(outcome);
        window.showStatus(QObject::tr("%1: evaluated in %2 ms").arg(q(run->name)).arg(run->job_ms, 0, 'f', 1));
        if (store) window.runStore().storeMethod(methodRun(*outcome));
        return true;
    }

    void openStored(RunController& runs, const MethodRun& run) override {
        WindowServices& window = runs.services();
        window.showView(mainView());
        request(window, storedSettings(run));  // the stored settings carry their network text: no file is read
    }

protected:
    // The hooks: the tab's title, the views and exports it adds, the engine's job, and the workload keys.
    virtual QString tabTitle() const = 0;
    virtual void addViews(RunController& runs) = 0;
    virtual decltype(std::declval<View>().outcome()) outcomeOf(const Run& run) const = 0;
    virtual const MethodSettings& storedSettings(const MethodRun& run) const = 0;
    virtual Run compute(const MethodSettings& s, const std::string& examples_dir, const CancelFn& cancel) const = 0;
    virtual QString jobLabel(const MethodSettings& s) const = 0;
    virtual std::string workloadOf(const MethodSettings& s) const = 0;
    // `workload` a key or a file path; the key it means (a built-in's file is that built-in).
    virtual std::string keyOf(const std::string& workload, const std::string& examples_dir) const = 0;
    virtual std::string paperWorkload() const = 0;
    virtual MethodSettings withWorkload(MethodSettings s, const std::string& key) const = 0;
    // Settings for a new workload: its network text is read again and per-layer choices start over.
    virtual MethodSettings fresh(MethodSettings s) const = 0;

    // A job starts only when the tab neither shows nor awaits the wanted workload.
    void show(WindowServices& window) const {
        window.showView(mainView());
        const std::string shown = pending(window)         ? job_.workload
                                  : view_->hasEvaluation() ? workloadOf(view_->settings())
                                                           : std::string();
        std::string wanted = shown.empty() ? paperWorkload() : shown;
        if (const QString chosen = window.session().chosenNetworkPath(); !chosen.isEmpty())
            wanted = keyOf(chosen.toStdString(), examplesDir().toStdString());
        if (wanted != shown) request(window, fresh(withWorkload(view_->settings(), wanted)));
    }

    View* view_ = nullptr;

private:
    struct Job {
        quint64 generation = 0;  // 0: none pending
        bool store = false;      // Run's: stored when it arrives
        std::string workload;
    };

    void request(WindowServices& window, const MethodSettings& given) const {
        const std::string dir = examplesDir().toStdString();
        const MethodSettings s = withWorkload(given, keyOf(workloadOf(given), dir));
        const quint64 generation =
            window.jobs().start(jobLabel(s), [this, s, dir](const ProgressFn&, const CancelFn& cancel) {
                return compute(s, dir, cancel);
            });
        job_ = {generation, false, workloadOf(s)};
    }

    // Only the newest job reports, so the tab's job is pending while no newer one has started.
    bool pending(WindowServices& window) const {
        return job_.generation != 0 && job_.generation == window.jobs().generation();
    }

    mutable Job job_;  // the tab's newest job
};

}  // namespace partita::gui
