// The methods the window offers, in the selector's order: one line each.
#include "app/gui/methods/registry.h"

#include "core/run/method_registry.h"
#include "widgets/common/qt_text.h"

namespace partita::gui {

QString GuiMethod::label() const { return q(method(key().toStdString()).label()); }
QString GuiMethod::toolTip() const { return q(method(key().toStdString()).toolTip()); }

MethodList makeMethods() {
    MethodList methods;
    for (Method m : kAllMethods) methods.push_back(planMethod(m));
    methods.push_back(accparMethod());
    methods.push_back(simulateMethod());
    methods.push_back(mptMethod());
    methods.push_back(l2sMethod());
    methods.push_back(mcmcMethod());
    return methods;
}

}  // namespace partita::gui
