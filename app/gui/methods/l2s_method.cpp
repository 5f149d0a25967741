// Learn-to-Scale (inference across the cores of a chip multiprocessor): its own tab.
#include <QTableWidget>

#include "app/gui/export_entries.h"
#include "app/gui/main_window.h"
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/sweep_chart.h"
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
    void start(MainWindow& window, bool store) const override {
        if (store) window.runL2s();
        else window.showL2s();
    }
    QString mainView() const override { return "l2s"; }

    void buildViews(MainWindow& window) override {
        L2sView* v = window.l2sView();
        const ReadyFn ready = [v] {
            return v->hasEvaluation() ? QString()
                                      : QObject::tr("Nothing to export: L2S has not run (choose it as the method and Run)");
        };
        const TableFn scenarios = [v] { return v->compareCsv(); };
        window.views().add(
            {"l2s", v, [v] { return v; }, [&window] { window.showL2s(); },
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
};

}  // namespace

std::unique_ptr<GuiMethod> l2sMethod() { return std::make_unique<L2sMethod>(); }

}  // namespace partita::gui
