// HyPar's search, its DP / MP / OWT baselines and AccPar: analytic plans, previewed
// as soon as they are chosen or their inputs change.
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"
#include "app/gui/run_controller.h"

namespace partita::gui {

namespace {

// Any grid-plan method of core's registry: built in or a plug-in's (docs/contributing/adding-a-method.md).
class PlanMethod : public GuiMethod {
public:
    explicit PlanMethod(std::string key) : key_(std::move(key)) {}
    QString key() const override { return QString::fromStdString(key_); }
    void start(RunController& runs, bool store) const override { runs.plan(key_, store); }

private:
    std::string key_;
};

class AccParMethod : public GuiMethod {
public:
    QString key() const override { return "accpar"; }
    void start(RunController& runs, bool store) const override { runs.planAccPar(store); }
};

}  // namespace

std::unique_ptr<GuiMethod> planMethod(const std::string& key) { return std::make_unique<PlanMethod>(key); }

std::unique_ptr<GuiMethod> accparMethod() { return std::make_unique<AccParMethod>(); }

}  // namespace partita::gui
