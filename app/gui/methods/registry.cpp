// The methods the window offers, in the selector's order: one line each.
#include "app/gui/methods/registry.h"

namespace partita::gui {

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
