#include "core/run/l2s_outcome.h"

#include <cmath>

#include "core/l2s/study.h"
#include "core/util/error.h"

namespace partita {

namespace {

constexpr l2s::Scheme kL2sSchemes[] = {l2s::Scheme::Traditional, l2s::Scheme::Grouped, l2s::Scheme::Sparse};
constexpr L2sScenario kL2sScenarios[] = {L2sScenario::Baseline, L2sScenario::Ss, L2sScenario::SsMask,
                                      L2sScenario::Grouped};

// docs/methods/l2s.md#grouping-advisor-and-core-sweep (Tables V/VI): the scenario on a mesh of n cores, against the traditional scheme there.
L2sOutcome::CoreCount atCores(const l2s::Evaluator& ev, const l2s::Preset& preset, L2sScenario s, int n) {
    L2sOutcome::CoreCount point{n, NAN, NAN};
    try {
        l2s::MeshParams mesh = ev.mesh().params();  // the same NoC model at n cores
        mesh.cores = n;
        mesh.width = mesh.height = 0;
        const l2s::Evaluator at(ev.layers(), l2s::Mesh(mesh), ev.core());
        const auto points = l2s::coreSweep(ev.layers(), {n}, l2sScenarioSpec(at, preset, s), mesh, ev.core());
        point.speedup = points.at(0).vs.speedup;
        point.comm_speedup = points.at(0).vs.comm_speedup;
    } catch (const std::exception&) {
        // e.g. grouping that does not divide on n cores: no point there
    }
    return point;
}

// Table IV is on 16 cores: the shown mesh's evaluations when it has 16, else the same models on 16.
std::vector<l2s::PaperGap> paperGaps(const L2sOutcome& out, const CancelFn& cancel) {
    constexpr int kPaperCores = 16;
    const l2s::Evaluator& ev = *out.evaluator;
    if (!l2s::paperRow(out.preset.title, "SS_Mask", kPaperCores)) return {};
    const bool reasons = out.default_models;
    if (ev.mesh().cores() == kPaperCores)
        return l2s::paperGaps(out.preset.title, kPaperCores, out.baseline,
                              out.scenarios[static_cast<size_t>(L2sScenario::SsMask)], reasons);
    throwIfCancelled(cancel);
    l2s::MeshParams mesh = ev.mesh().params();
    mesh.cores = kPaperCores;
    mesh.width = mesh.height = 0;
    const l2s::Evaluator at(ev.layers(), l2s::Mesh(mesh), ev.core());
    const l2s::Evaluation base = at.evaluate(l2s::traditionalStrategy(at.layers()));
    const l2s::Evaluation ss_mask =
        at.evaluate(l2s::buildStrategy(at.layers(), at.mesh(), l2sScenarioSpec(at, out.preset, L2sScenario::SsMask)));
    return l2s::paperGaps(out.preset.title, kPaperCores, base, ss_mask, reasons);
}

}  // namespace

L2sOutcome l2sOutcome(const L2sSettings& settings, const CancelFn& cancel) {
    L2sOutcome out;
    throwIfCancelled(cancel);
    std::shared_ptr<const l2s::Evaluator> ev = l2sEvaluator(settings);
    out.evaluator = ev;
    out.preset = l2sPreset(settings, ev->layers());
    out.strategies = l2sStrategies(*ev, out.preset, settings.scenario, settings.schemes);
    out.settings = settings;
    out.settings.schemes = schemesOf(out.strategies.shown);
    out.default_models = l2s::defaultModels(settings.compute, ev->mesh().params(), out.preset.hop_keep,
                                            l2sPreset(settings.preset, ev->layers()).hop_keep);
    out.eval = ev->evaluate(out.strategies.shown);
    out.baseline = ev->evaluate(l2s::traditionalStrategy(ev->layers()));

    const size_t layers = ev->layers().size();
    for (l2s::Scheme scheme : kL2sSchemes) {
        throwIfCancelled(cancel);
        std::vector<L2sOutcome::Cell>& row = out.cells.emplace_back(layers);
        for (size_t l = 0; l < layers; ++l) {
            if (l == 0 && scheme != l2s::Scheme::Traditional) {
                row[l].problem = "the first layer reads the image from memory: no boundary to change";
                continue;
            }
            try {
                row[l].row = ev->evaluateLayer(l, l2sChoice(out.strategies.sparse, l, scheme));
            } catch (const std::exception& e) {
                row[l].problem = e.what();
            }
        }
    }
    for (int n : {4, 8, 16, 32}) {
        throwIfCancelled(cancel);
        out.sweep.push_back(atCores(*ev, out.preset, settings.scenario, n));
    }
    for (L2sScenario s : kL2sScenarios) {
        throwIfCancelled(cancel);
        out.scenarios.push_back(ev->evaluate(s == settings.scenario ? out.strategies.scenario
                                                                    : l2s::buildStrategy(ev->layers(), ev->mesh(),
                                                                                         l2sScenarioSpec(*ev, out.preset, s))));
    }
    out.paper = paperGaps(out, cancel);
    return out;
}

}  // namespace partita
