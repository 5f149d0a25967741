// MPT (data x Winograd parallel training): its own tab, every choice a job (tab_method.h).
#include <QTableWidget>

#include "app/gui/export_entries.h"
#include "app/gui/methods/registry.h"
#include "app/gui/methods/tab_method.h"
#include "core/run/mpt_outcome.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/core_count_chart.h"
#include "widgets/common/choice_grid.h"
#include "widgets/common/paper_table.h"
#include "widgets/mpt/mpt_view.h"

namespace partita::gui {

namespace {

class MptMethod : public TabMethod<MptView, MptSettings> {
public:
    QString key() const override { return "mpt"; }
    QString mainView() const override { return "mpt"; }

protected:
    QString tabTitle() const override { return QObject::tr("MPT"); }
    std::shared_ptr<const MptOutcome> outcomeOf(const Run& run) const override { return run.mpt; }
    const MptSettings& storedSettings(const MethodRun& run) const override { return run.mpt; }
    Run compute(const MptSettings& s, const std::string& dir, const CancelFn& cancel) const override {
        return mptRun(s, dir, cancel);
    }
    QString jobLabel(const MptSettings& s) const override {
        return QObject::tr("Evaluating MPT %1 on %2").arg(q(mpt::scenarioName(s.scenario)), q(s.workload));
    }
    std::string workloadOf(const MptSettings& s) const override { return s.workload; }
    std::string keyOf(const std::string& w, const std::string& dir) const override { return mptWorkloadKey(w, dir); }
    std::string paperWorkload() const override { return "layers"; }
    MptSettings withWorkload(MptSettings s, const std::string& key) const override {
        s.workload = key;
        return s;
    }
    MptSettings fresh(MptSettings s) const override {
        s.network_json.clear();
        s.overrides.clear();
        return s;
    }

    void addViews(RunController& runs) override {
        MptView* v = view_;
        WindowServices& window = runs.services();
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
              figureTarget("mpt-sweep", QObject::tr("MPT scaling"), v->coreCountChart(),
                           [v] { return v->coreCountChart()->csv(); }, ready),
              widgetTarget("mpt-compare", QObject::tr("MPT configurations"), [v] { return v->compareTable(); },
                           configurations, ready),
              widgetTarget("mpt-paper", QObject::tr("MPT paper vs engine"), [v] { return v->paperTable(); },
                           [v] { return v->paperCsv(); }, ready)}});
    }
};

}  // namespace

std::unique_ptr<GuiMethod> mptMethod() { return std::make_unique<MptMethod>(); }

}  // namespace partita::gui
