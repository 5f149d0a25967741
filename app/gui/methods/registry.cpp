// The methods the window offers, in the selector's order: one line each.
#include "app/gui/methods/registry.h"

#include "core/run/method_registry.h"
#include "widgets/common/qt_text.h"

namespace partita::gui {

QString GuiMethod::label() const { return q(method(key().toStdString()).label()); }
QString GuiMethod::toolTip() const { return q(method(key().toStdString()).toolTip()); }

MethodList makeMethods() {
    MethodList methods;
    // Every grid-plan method registered in core, in registration order: HyPar, the baselines, then
    // any a plug-in or a test added.
    for (const MethodInfo* m : allMethods())
        if (m->family() == MethodFamily::GridPlan) methods.push_back(planMethod(m->key()));
    methods.push_back(accparMethod());
    methods.push_back(simulateMethod());
    methods.push_back(mptMethod());
    methods.push_back(l2sMethod());
    methods.push_back(llmMethod());
    methods.push_back(mcmcMethod());
    return methods;
}

}  // namespace partita::gui
