#pragma once
// One factory per method (each in its own file here); registry.cpp lists them.
#include <memory>
#include <string>

#include "app/gui/methods/method.h"

namespace partita::gui {

// A grid-plan method of core's registry (HyPar, DP, MP, OWT, or a plug-in's) by key.
std::unique_ptr<GuiMethod> planMethod(const std::string& key);
std::unique_ptr<GuiMethod> accparMethod();
std::unique_ptr<GuiMethod> simulateMethod();
std::unique_ptr<GuiMethod> mcmcMethod();
std::unique_ptr<GuiMethod> mptMethod();
std::unique_ptr<GuiMethod> l2sMethod();
std::unique_ptr<GuiMethod> llmMethod();

}  // namespace partita::gui
