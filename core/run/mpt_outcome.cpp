#include "core/run/mpt_outcome.h"

#include <algorithm>

#include "core/util/error.h"

namespace partita {

namespace {

bool isReduction(mpt::Scenario s) { return s == mpt::Scenario::WMpPlus || s == mpt::Scenario::WMpPlusStar; }

}  // namespace

bool MptOutcome::reduction() const { return isReduction(settings.scenario); }

MptOutcome mptOutcome(const MptSettings& settings, const CancelFn& cancel, const std::string& examples_dir) {
    MptOutcome out;
    out.settings = settings;
    std::vector<std::optional<mpt::GridConfig>>& overrides = out.settings.overrides;
    // No override set is the same evaluation as none given: one form, so equal settings store once.
    if (std::none_of(overrides.begin(), overrides.end(), [](const auto& o) { return o.has_value(); }))
        overrides.clear();
    throwIfCancelled(cancel);
    out.layers = mptLayers(out.settings);
    if (!overrides.empty() && overrides.size() != out.layers.size())
        throw Error("MPT workload '" + settings.workload + "': " + std::to_string(overrides.size()) +
                    " layer overrides for " + std::to_string(out.layers.size()) + " layers");
    const mpt::ScenarioParams p = mptParams(out.settings);
    const mpt::Scenario shown = out.settings.scenario;
    out.eval = mpt::evaluate(out.layers, shown, p, overrides);
    throwIfCancelled(cancel);
    out.w_dp = mpt::evaluate(out.layers, mpt::Scenario::WDp, p);
    if (shown != mpt::Scenario::DDp && shown != mpt::Scenario::WDp)
        out.dynamic = mpt::evaluate(out.layers, isReduction(shown) ? mpt::Scenario::WMpPlusStar : mpt::Scenario::WMpStar, p);
    out.rows = mpt::allowedConfigs(p.model.p, mpt::ConfigSet::Paper);
    std::sort(out.rows.begin(), out.rows.end(), [](const auto& a, const auto& b) { return a.n_g > b.n_g; });
    throwIfCancelled(cancel);
    // The sweep (docs/methods/mpt.md#the-six-configurations): the same layers and batch on 1 ... 256 workers; overrides do not apply (they name 256-worker grids).
    try {
        out.sweep = mpt::sweep(out.layers, p, isReduction(shown));
    } catch (const std::exception& e) {
        out.sweep_problem = e.what();
    }
    for (mpt::Scenario s : mpt::allScenarios()) {
        throwIfCancelled(cancel);
        out.scenarios.push_back(s == shown ? out.eval : mpt::evaluate(out.layers, s, p));
    }
    if (!examples_dir.empty()) {
        try {
            out.paper = mptPaperStudy(out.settings.model, examples_dir, cancel);
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            out.paper_problem = e.what();
        }
    }
    return out;
}

}  // namespace partita
