// MPT (data x Winograd parallel training): its own tab. Every choice there is a
// request; a job computes the whole outcome (network read, evaluation, sweep,
// comparison) and the tab draws the immutable result when it arrives.
#include <QTableWidget>

#include "app/gui/export_entries.h"
#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"
#include "core/run/method_run.h"
#include "core/run/mpt_outcome.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/sweep_chart.h"
#include "widgets/common/qt_text.h"
#include "widgets/grid/choice_grid.h"
#include "widgets/mpt/mpt_view.h"

namespace partita::gui {

namespace {

class MptMethod : public GuiMethod {
public:
    QString key() const override { return "mpt"; }
    QString label() const override { return QObject::tr("MPT"); }
    QString toolTip() const override {
        return QObject::tr("Winograd x data-parallel training on 256 near-data workers, per-layer cluster shapes "
                           "(MPT tab)");
    }
    Settings settings() const override { return Settings::OwnTab; }
    QString mainView() const override { return "mpt"; }

    // Choosing shows the tab (with the user's network or the paper's layers); Run stores what it shows,
    // or what it is about to show when its job arrives.
    void start(MainWindow& window, bool store) const override {
        show(window);
        if (!store) return;
        if (pending(window)) job_.store = true;
        else if (view_->hasEvaluation()) window.storeMethodRun(methodRun(*view_->outcome()));
    }

    void buildViews(MainWindow& window) override {
        view_ = new MptView(window.tabs());
        view_->setObjectName("mpt-view");
        window.addViewTab(view_, QObject::tr("MPT"));
        QObject::connect(view_, &MptView::settingsRequested, view_,
                         [this, &window](const MptSettings& s) { request(window, s); });
        // A failed or cancelled request leaves the tab as it was; a failure is said there too.
        QObject::connect(&window.jobs(), &JobRunner::failed, view_, [this](quint64 generation, const QString& message) {
            if (generation != job_.generation) return;
            view_->showError(message);
            job_ = {};
        });
        QObject::connect(&window.jobs(), &JobRunner::cancelled, view_, [this](quint64 generation) {
            if (generation == job_.generation) job_ = {};
        });
        registerViews(window);
    }

    bool takeRun(MainWindow& window, quint64 generation, const RunPtr& run) override {
        if (!run->mpt) return false;
        const bool store = job_.generation == generation && job_.store;
        job_ = {};
        view_->setOutcome(run->mpt);
        window.showStatus(QObject::tr("%1: evaluated in %2 ms").arg(q(run->name)).arg(run->job_ms, 0, 'f', 1));
        if (store) window.storeMethodRun(methodRun(*run->mpt));
        return true;
    }

    void openStored(MainWindow& window, const MethodRun& run) override {
        window.showTab(view_);
        request(window, run.mpt);  // the stored settings carry their network text: no file is read
    }

private:
    struct Job {
        quint64 generation = 0;  // 0: none pending
        bool store = false;      // Run's: stored when it arrives
        std::string workload;
    };

    void request(MainWindow& window, const MptSettings& given) const {
        const std::string dir = examplesDir().toStdString();
        MptSettings s = given;
        s.workload = mptWorkloadKey(s.workload, dir);  // a built-in's file is that built-in
        const quint64 generation = window.jobs().start(
            QObject::tr("Evaluating MPT %1 on %2").arg(q(mpt::scenarioName(s.scenario)), q(s.workload)),
            [s, dir](const ProgressFn&, const CancelFn& cancel) { return mptRun(s, dir, cancel); });
        job_ = {generation, false, s.workload};
    }

    // Only the newest job reports, so the tab's job is pending while no newer one has started.
    bool pending(MainWindow& window) const {
        return job_.generation != 0 && job_.generation == window.jobs().generation();
    }

    // A job starts only when the tab neither shows nor awaits the wanted workload.
    void show(MainWindow& window) const {
        window.showTab(view_);
        const std::string shown = pending(window)         ? job_.workload
                                  : view_->hasEvaluation() ? view_->settings().workload
                                                           : std::string();
        std::string wanted = shown.empty() ? "layers" : shown;
        if (const QString chosen = window.chosenNetworkPath(); !chosen.isEmpty())
            wanted = mptWorkloadKey(chosen.toStdString(), examplesDir().toStdString());
        if (wanted == shown) return;
        MptSettings s = view_->settings();
        s.workload = wanted;
        s.network_json.clear();
        s.overrides.clear();
        request(window, s);
    }

    void registerViews(MainWindow& window) {
        MptView* v = view_;
        const ReadyFn ready = [v] {
            return v->hasEvaluation() ? QString()
                                      : QObject::tr("Nothing to export: MPT has not run (choose it as the method and Run)");
        };
        const TableFn configurations = [v] { return v->compareCsv(); };
        window.views().add(
            {"mpt", v, [v] { return v; }, [this, &window] { show(window); },
             {widgetTarget("mpt", QObject::tr("MPT view"), [v] { return v; }, configurations, ready),
              figureTarget("mpt-grid", QObject::tr("MPT choice grid"), v->grid(), [v] { return v->grid()->csv(); }, ready),
              figureTarget("mpt-bars", QObject::tr("MPT time per layer"), v->bars(), [v] { return v->bars()->csv(); },
                           ready),
              figureTarget("mpt-sweep", QObject::tr("MPT scaling"), v->sweepChart(),
                           [v] { return v->sweepChart()->csv(); }, ready),
              widgetTarget("mpt-compare", QObject::tr("MPT configurations"), [v] { return v->compareTable(); },
                           configurations, ready)}});
    }

    MptView* view_ = nullptr;
    mutable Job job_;  // the tab's newest job
};

}  // namespace

std::unique_ptr<GuiMethod> mptMethod() { return std::make_unique<MptMethod>(); }

}  // namespace partita::gui
