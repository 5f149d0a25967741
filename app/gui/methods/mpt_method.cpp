// MPT (data x Winograd parallel training): its own tab, evaluated as the user clicks.
#include <QTableWidget>

#include "app/gui/export_entries.h"
#include "app/gui/main_window.h"
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/sweep_chart.h"
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
    void start(MainWindow& window, bool store) const override {
        if (store) window.runMpt();
        else window.showMpt();
    }
    QString mainView() const override { return "mpt"; }

    void buildViews(MainWindow& window) override {
        MptView* v = window.mptView();
        const ReadyFn ready = [v] {
            return v->hasEvaluation() ? QString()
                                      : QObject::tr("Nothing to export: MPT has not run (choose it as the method and Run)");
        };
        const TableFn configurations = [v] { return v->compareCsv(); };
        window.views().add(
            {"mpt", v, [v] { return v; }, [&window] { window.showMpt(); },
             {widgetTarget("mpt", QObject::tr("MPT view"), [v] { return v; }, configurations, ready),
              figureTarget("mpt-grid", QObject::tr("MPT choice grid"), v->grid(), [v] { return v->grid()->csv(); }, ready),
              figureTarget("mpt-bars", QObject::tr("MPT time per layer"), v->bars(), [v] { return v->bars()->csv(); },
                           ready),
              figureTarget("mpt-sweep", QObject::tr("MPT scaling"), v->sweepChart(),
                           [v] { return v->sweepChart()->csv(); }, ready),
              widgetTarget("mpt-compare", QObject::tr("MPT configurations"), [v] { return v->compareTable(); },
                           configurations, ready)}});
    }
};

}  // namespace

std::unique_ptr<GuiMethod> mptMethod() { return std::make_unique<MptMethod>(); }

}  // namespace partita::gui
