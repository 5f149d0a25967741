// HyPar's search, its DP / MP / OWT baselines and AccPar: analytic plans, previewed
// as soon as they are chosen or their inputs change.
#include "app/gui/main_window.h"
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"

namespace partita::gui {

namespace {

class PlanMethod : public GuiMethod {
public:
    PlanMethod(Method method, QString tip) : method_(method), tip_(std::move(tip)) {}
    QString key() const override { return methodName(method_); }
    QString label() const override { return methodLabel(method_); }
    QString toolTip() const override { return tip_; }
    void start(MainWindow& window, bool store) const override { window.plan(method_, store); }

private:
    Method method_;
    QString tip_;
};

class AccParMethod : public GuiMethod {
public:
    QString key() const override { return "accpar"; }
    QString label() const override { return "AccPar"; }
    QString toolTip() const override {
        return QObject::tr("Types I, II and III with balanced ratios, on any array (AccPar)");
    }
    void start(MainWindow& window, bool store) const override { window.planAccPar(store); }
};

}  // namespace

std::unique_ptr<GuiMethod> planMethod(Method method) {
    static const char* const tips[] = {
        QT_TR_NOOP("HyPar's search: data or model parallel per layer and level, by dynamic programming"),
        QT_TR_NOOP("Data parallelism in every layer and level (baseline)"),
        QT_TR_NOOP("Model parallelism in every layer and level (baseline)"),
        QT_TR_NOOP("One weird trick: data parallel convolutions, model parallel fully connected layers")};
    return std::make_unique<PlanMethod>(method, QObject::tr(tips[static_cast<int>(method)]));
}

std::unique_ptr<GuiMethod> accparMethod() { return std::make_unique<AccParMethod>(); }

}  // namespace partita::gui
