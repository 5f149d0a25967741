// FlexFlow's simulator: Simulate times one strategy on a topology, MCMC searches
// for the fastest. Both take seconds, so they start on Run only, set up first.
#include "app/gui/main_window.h"
#include "app/gui/methods/method.h"
#include "app/gui/methods/registry.h"
#include "app/gui/simulation_controller.h"

namespace partita::gui {

namespace {

class SimulateMethod : public GuiMethod {
public:
    QString key() const override { return "simulate"; }
    Settings settings() const override { return Settings::Simulation; }
    void start(MainWindow& window, bool store) const override {
        if (store) window.simulation().runSimulation();
        else window.askForRun();
    }
};

class McmcMethod : public GuiMethod {
public:
    QString key() const override { return "mcmc"; }
    Settings settings() const override { return Settings::Mcmc; }
    void start(MainWindow& window, bool store) const override {
        if (store) window.simulation().runMcmc();
        else window.askForRun();
    }
};

}  // namespace

std::unique_ptr<GuiMethod> simulateMethod() { return std::make_unique<SimulateMethod>(); }
std::unique_ptr<GuiMethod> mcmcMethod() { return std::make_unique<McmcMethod>(); }

}  // namespace partita::gui
