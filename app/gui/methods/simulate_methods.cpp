// FlexFlow's simulator: Simulate times one strategy on a topology, MCMC searches
// for the fastest. Both take seconds, so they start on Run only, set up first.
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"
#include "app/gui/run_controller.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/window_services.h"

namespace partita::gui {

namespace {

class SimulateMethod : public GuiMethod {
public:
    QString key() const override { return "simulate"; }
    Settings settings() const override { return Settings::Simulation; }
    void start(RunController& runs, bool store) const override {
        if (store) runs.services().simulation().runSimulation();
        else runs.askForRun();
    }
};

class McmcMethod : public GuiMethod {
public:
    QString key() const override { return "mcmc"; }
    Settings settings() const override { return Settings::Mcmc; }
    void start(RunController& runs, bool store) const override {
        if (store) runs.services().simulation().runMcmc();
        else runs.askForRun();
    }
};

}  // namespace

std::unique_ptr<GuiMethod> simulateMethod() { return std::make_unique<SimulateMethod>(); }
std::unique_ptr<GuiMethod> mcmcMethod() { return std::make_unique<McmcMethod>(); }

}  // namespace partita::gui
