// Learn-to-Scale (inference across the cores of a chip multiprocessor): its own
// tab, every choice a job (tab_method.h). The Heatmap tab follows the boundary
// the tab shows while Learn-to-Scale is the chosen method.
#include <QTableWidget>

#include "app/gui/export_entries.h"
#include "app/gui/methods/registry.h"
#include "app/gui/methods/tab_method.h"
#include "core/run/l2s_outcome.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/core_count_chart.h"
#include "widgets/common/choice_grid.h"
#include "widgets/common/paper_table.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/l2s/l2s_view.h"

namespace partita::gui {

namespace {

class L2sMethod : public TabMethod<L2sView, L2sSettings> {
public:
    QString key() const override { return "l2s"; }
    QString mainView() const override { return "l2s"; }

protected:
    QString tabTitle() const override { return QObject::tr("L2S"); }
    std::shared_ptr<const L2sOutcome> outcomeOf(const Run& run) const override { return run.l2s; }
    const L2sSettings& storedSettings(const MethodRun& run) const override { return run.l2s; }
    Run compute(const L2sSettings& s, const std::string& dir, const CancelFn& cancel) const override {
        return l2sRun(s, dir, cancel);
    }
    QString jobLabel(const L2sSettings& s) const override {
        return QObject::tr("Evaluating L2S %1 on %2").arg(q(l2sScenarioName(s.scenario)), q(s.preset));
    }
    std::string workloadOf(const L2sSettings& s) const override { return s.preset; }
    std::string keyOf(const std::string& w, const std::string& dir) const override { return l2sPresetKey(w, dir); }
    std::string paperWorkload() const override { return "convnet"; }
    L2sSettings withWorkload(L2sSettings s, const std::string& key) const override {
        s.preset = key;
        return s;
    }
    L2sSettings fresh(L2sSettings s) const override {
        s.network_json.clear();
        s.schemes.clear();
        return s;
    }

    void addViews(RunController& runs) override {
        L2sView* v = view_;
        WindowServices& window = runs.services();
        QObject::connect(v, &L2sView::boundarySelected, v, [this, v, &runs] {
            const ViewEntry* heatmap = runs.services().views().find("heatmap");
            auto* view = heatmap ? qobject_cast<CommHeatmap*>(heatmap->tab) : nullptr;
            if (view && runs.isChosen(*this)) view->setMatrix(v->trafficView()->matrix(), v->trafficView()->title());
        });
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
              figureTarget("l2s-sweep", QObject::tr("L2S core count"), v->coreCountChart(),
                           [v] { return v->coreCountChart()->csv(); }, ready),
              widgetTarget("l2s-compare", QObject::tr("L2S scenarios"), [v] { return v->compareTable(); }, scenarios,
                           ready),
              widgetTarget("l2s-paper", QObject::tr("L2S paper vs engine"), [v] { return v->paperTable(); },
                           [v] { return v->paperCsv(); }, ready)}});
    }
};

}  // namespace

std::unique_ptr<GuiMethod> l2sMethod() { return std::make_unique<L2sMethod>(); }

}  // namespace partita::gui
