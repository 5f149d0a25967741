#include "core/run/l2s_outcome.h"

#include <cmath>

#include "core/l2s/study.h"
#include "core/util/error.h"

namespace partita {

namespace {

void check(const CancelFn& cancel) {
    if (cancel && cancel()) throw Cancelled();
}

constexpr l2s::Scheme kSchemes[] = {l2s::Scheme::Traditional, l2s::Scheme::Grouped, l2s::Scheme::Sparse};
constexpr L2sScenario kScenarios[] = {L2sScenario::Baseline, L2sScenario::Ss, L2sScenario::SsMask,
                                      L2sScenario::Grouped};

// Spec L9 (Tables V/VI): the scenario on a mesh of n cores, against the traditional scheme there.
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

}  // namespace

L2sOutcome l2sOutcome(const L2sSettings& settings, const CancelFn& cancel) {
    L2sOutcome out;
    check(cancel);
    std::shared_ptr<const l2s::Evaluator> ev = l2sEvaluator(settings);
    out.evaluator = ev;
    out.preset = l2sPreset(settings, ev->layers());
    out.strategies = l2sStrategies(*ev, out.preset, settings.scenario, settings.schemes);
    out.settings = settings;
    out.settings.schemes = schemesOf(out.strategies.shown);
    out.eval = ev->evaluate(out.strategies.shown);
    out.baseline = ev->evaluate(l2s::traditionalStrategy(ev->layers()));

    const size_t layers = ev->layers().size();
    for (l2s::Scheme scheme : kSchemes) {
        check(cancel);
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
        check(cancel);
        out.sweep.push_back(atCores(*ev, out.preset, settings.scenario, n));
    }
    for (L2sScenario s : kScenarios) {
        check(cancel);
        out.scenarios.push_back(ev->evaluate(s == settings.scenario ? out.strategies.scenario
                                                                    : l2s::buildStrategy(ev->layers(), ev->mesh(),
                                                                                         l2sScenarioSpec(*ev, out.preset, s))));
    }
    return out;
}

}  // namespace partita
