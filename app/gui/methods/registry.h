#pragma once
// One factory per method (each in its own file here); registry.cpp lists them.
#include <memory>

#include "app/gui/methods/method.h"
#include "core/search/methods.h"

namespace partita::gui {

std::unique_ptr<GuiMethod> planMethod(Method method);  // HyPar, DP, MP, OWT
std::unique_ptr<GuiMethod> accparMethod();
std::unique_ptr<GuiMethod> simulateMethod();
std::unique_ptr<GuiMethod> mcmcMethod();
std::unique_ptr<GuiMethod> mptMethod();
std::unique_ptr<GuiMethod> l2sMethod();

}  // namespace partita::gui
