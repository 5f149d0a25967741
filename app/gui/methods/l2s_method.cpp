// Learn-to-Scale (inference across the cores of a chip multiprocessor): its own
// tab. Every choice there is a request; a job computes the whole outcome and the
// tab draws the immutable result when it arrives. The Heatmap tab follows the
// boundary the tab shows while Learn-to-Scale is the chosen method.
#include <QTableWidget>

#include "app/gui/export_entries.h"
#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"
#include "core/run/method_run.h"
#include "core/run/l2s_outcome.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/sweep_chart.h"
#include "widgets/common/qt_text.h"
#include "widgets/grid/choice_grid.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/l2s/l2s_view.h"

namespace partita::gui {

namespace {

class L2sMethod : public GuiMethod {
public:
    QString key() const override { return "l2s"; }
    QString label() const override { return QObject::tr("Learn-to-Scale"); }
    QString toolTip() const override {
        return QObject::tr("Single-image inference split by output channel across the cores of a mesh (L2S tab)");
    }
    Settings settings() const override { return Settings::OwnTab; }
    QString mainView() const override { return "l2s"; }

    // Choosing shows the tab (with the user's network or the paper's ConvNet); Run stores what it shows,
    // or what it is about to show when its job arrives.
    void start(MainWindow& window, bool store) const override {
        show(window);
        if (!store) return;
        if (pending(window)) job_.store = true;
        else if (view_->hasEvaluation()) window.storeMethodRun(methodRun(*view_->outcome()));
    }

    void buildViews(MainWindow& window) override {
        view_ = new L2sView(window.tabs());
        view_->setObjectName("l2s-view");
        window.addViewTab(view_, QObject::tr("L2S"));
        QObject::connect(view_, &L2sView::settingsRequested, view_,
                         [this, &window](const L2sSettings& s) { request(window, s); });
        // A failed or cancelled request leaves the tab as it was; a failure is said there too.
        QObject::connect(&window.jobs(), &JobRunner::failed, view_, [this](quint64 generation, const QString& message) {
            if (generation != job_.generation) return;
            view_->showError(message);
            job_ = {};
        });
        QObject::connect(&window.jobs(), &JobRunner::cancelled, view_, [this](quint64 generation) {
            if (generation == job_.generation) job_ = {};
        });
        QObject::connect(view_, &L2sView::boundarySelected, view_, [this, &window] {
            if (window.isChosen(*this))
                window.heatmapView()->setMatrix(view_->trafficView()->matrix(), view_->trafficView()->title());
        });
        registerViews(window);
    }

    bool takeRun(MainWindow& window, quint64 generation, const RunPtr& run) override {
        if (!run->l2s) return false;
        const bool store = job_.generation == generation && job_.store;
        job_ = {};
        view_->setOutcome(run->l2s);
        window.showStatus(QObject::tr("%1: evaluated in %2 ms").arg(q(run->name)).arg(run->job_ms, 0, 'f', 1));
        if (store) window.storeMethodRun(methodRun(*run->l2s));
        return true;
    }

    void openStored(MainWindow& window, const MethodRun& run) override {
        window.showTab(view_);
        request(window, run.l2s);  // the stored settings carry their network text: no file is read
    }

private:
    struct Job {
        quint64 generation = 0;  // 0: none pending
        bool store = false;      // Run's: stored when it arrives
        std::string preset;
    };

    void request(MainWindow& window, const L2sSettings& given) const {
        const std::string dir = examplesDir().toStdString();
        L2sSettings s = given;
        s.preset = l2sPresetKey(s.preset, dir);  // a built-in's file is that preset
        const quint64 generation = window.jobs().start(
            QObject::tr("Evaluating L2S %1 on %2").arg(q(l2sScenarioName(s.scenario)), q(s.preset)),
            [s, dir](const ProgressFn&, const CancelFn& cancel) { return l2sRun(s, dir, cancel); });
        job_ = {generation, false, s.preset};
    }

    // Only the newest job reports, so the tab's job is pending while no newer one has started.
    bool pending(MainWindow& window) const {
        return job_.generation != 0 && job_.generation == window.jobs().generation();
    }

    // A job starts only when the tab neither shows nor awaits the wanted workload.
    void show(MainWindow& window) const {
        window.showTab(view_);
        const std::string shown = pending(window)         ? job_.preset
                                  : view_->hasEvaluation() ? view_->settings().preset
                                                           : std::string();
        std::string wanted = shown.empty() ? "convnet" : shown;
        if (const QString chosen = window.chosenNetworkPath(); !chosen.isEmpty())
            wanted = l2sPresetKey(chosen.toStdString(), examplesDir().toStdString());
        if (wanted == shown) return;
        L2sSettings s = view_->settings();
        s.preset = wanted;
        s.network_json.clear();
        s.schemes.clear();
        request(window, s);
    }

    void registerViews(MainWindow& window) {
        L2sView* v = view_;
        const ReadyFn ready = [v] {
            return v->hasEvaluation() ? QString()
                                      : QObject::tr("Nothing to export: L2S has not run (choose it as the method and Run)");
        };
        const TableFn scenarios = [v] { return v->compareCsv(); };
        window.views().add(
            {"l2s", v, [v] { return v; }, [this, &window] { show(window); },
             {widgetTarget("l2s", QObject::tr("L2S view"), [v] { return v; }, scenarios, ready),
              figureTarget("l2s-grid", QObject::tr("L2S choice grid"), v->grid(), [v] { return v->grid()->csv(); }, ready),
              figureTarget("l2s-traffic", QObject::tr("L2S traffic matrix"), v->trafficView(),
                           [v] { return v->trafficView()->csv(); }, ready),
              figureTarget("l2s-links", QObject::tr("L2S link loads"), v->linkView(),
                           [v] { return v->linkView()->csv(); }, ready),
              figureTarget("l2s-bars", QObject::tr("L2S cycles per layer"), v->bars(), [v] { return v->bars()->csv(); },
                           ready),
              figureTarget("l2s-sweep", QObject::tr("L2S core count"), v->sweepChart(),
                           [v] { return v->sweepChart()->csv(); }, ready),
              widgetTarget("l2s-compare", QObject::tr("L2S scenarios"), [v] { return v->compareTable(); }, scenarios,
                           ready)}});
    }

    L2sView* view_ = nullptr;
    mutable Job job_;  // the tab's newest job
};

}  // namespace

std::unique_ptr<GuiMethod> l2sMethod() { return std::make_unique<L2sMethod>(); }

}  // namespace partita::gui
