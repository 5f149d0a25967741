#pragma once
// "Stripes", a method that exists only in the tests (docs/contributing/adding-a-method.md): dp on
// even layers and mp on odd ones at every level. A test registers it with StripesRegistered.
#include <memory>
#include <string>

#include "core/run/method_registry.h"
#include "core/run/run.h"

namespace partita::test {

class StripesMethod final : public MethodInfo {
public:
    StripesMethod() {
        sweep_.in_sweeps = true;
        sweep_.axis_reader = axis_readers::kGridPlans;  // HyPar's model prices its grid
    }
    std::string key() const override { return "stripes"; }
    std::string label() const override { return "Stripes"; }
    std::string toolTip() const override { return "dp on even layers, mp on odd ones (a test's method)"; }
    MethodFamily family() const override { return MethodFamily::GridPlan; }
    Run runPoint(const InputsPtr& inputs, const SimulationSpec&, const CancelFn& cancel) const override {
        throwIfCancelled(cancel);
        Grid grid(inputs->array.levels, static_cast<int>(inputs->layers.size()));
        for (int h = 0; h < grid.levels(); ++h)
            for (int l = 1; l < grid.layers(); l += 2) grid.at(h, l).split = Split::Input;
        return gridRun(inputs, grid, RunKind::Search, key());
    }
};

// Registered while it lives.
struct StripesRegistered {
    MethodRegistration registration{std::make_unique<StripesMethod>()};
};

}  // namespace partita::test
