#include "core/store/identical.h"

#include "core/run/simulation.h"
#include "core/sim/soap.h"
#include "core/sim/topology.h"
#include "core/store/results_db.h"
#include "core/store/run_codec.h"
#include "core/store/sim_codec.h"
#include "core/store/sqlite_util.h"

namespace partita::store {

bool sameExploration(sqlite3* db, const std::string& path, std::int64_t id, const Run& run) {
    Statement s(db, path, "SELECT request_json FROM explorations WHERE run_id = ?1");
    s.bind(1, id);
    const bool stored = s.step();
    const auto& x = run.exploration;
    if (!x || !stored) return !x && !stored;
    return s.text(0) == exploreRequestToJson(*x, x->grid(run.grid, x->base_code)).dump();
}

bool sameSimulation(sqlite3* db, const std::string& path, std::int64_t id, const Run& run) {
    Statement s(db, path,
                "SELECT source, topology_hash, strategy_json, options_json FROM simulations WHERE run_id = ?1");
    s.bind(1, id);
    const bool stored = s.step();
    if (!run.simulation || !stored) return !run.simulation && !stored;
    const SimulationResult& sim = *run.simulation;
    const SimulationSpec& spec = sim.spec;
    const bool mcmc = spec.source == SimSource::Mcmc;
    return s.text(0) == simSourceName(spec.source) &&
           s.text(1) == contentHash(sim::writeTopologyJson(*spec.topology)) &&
           s.text(2) == sim::writeSoapJson(sim.strategy, run.inputs->network) &&
           s.text(3) == simOptionsToJson(spec.options, mcmc ? &spec.mcmc : nullptr).dump();
}

}  // namespace partita::store
