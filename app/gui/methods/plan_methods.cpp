// HyPar's search, its DP / MP / OWT baselines and AccPar: analytic plans, previewed
// as soon as they are chosen or their inputs change.
#include "app/gui/main_window.h"
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"

namespace partita::gui {

namespace {

class PlanMethod : public GuiMethod {
public:
    explicit PlanMethod(Method method) : method_(method) {}
    QString key() const override { return methodName(method_); }
    void start(MainWindow& window, bool store) const override { window.plan(method_, store); }

private:
    Method method_;
};

class AccParMethod : public GuiMethod {
public:
    QString key() const override { return "accpar"; }
    void start(MainWindow& window, bool store) const override { window.planAccPar(store); }
};

}  // namespace

std::unique_ptr<GuiMethod> planMethod(Method method) { return std::make_unique<PlanMethod>(method); }

std::unique_ptr<GuiMethod> accparMethod() { return std::make_unique<AccParMethod>(); }

}  // namespace partita::gui
