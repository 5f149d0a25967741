#include "core/store/sim_rows.h"

#include "core/run/simulation_run.h"
#include "core/store/results_db.h"
#include "core/store/sim_codec.h"
#include "core/store/sqlite_util.h"

namespace partita::store {

void storeSimulation(sqlite3* db, const std::string& path, std::int64_t id, const Run& run) {
    const SimulationResult& s = *run.simulation;
    const SimulationSpec& spec = s.spec;
    const std::string topology_json = sim::writeTopologyJson(*spec.topology);
    const std::string topology_hash = contentHash(topology_json);
    const bool mcmc = spec.source == SimSource::Mcmc;
    Statement(db, path, "INSERT OR IGNORE INTO topologies (hash, name, devices, json) VALUES (?1, ?2, ?3, ?4)")
        .bind(1, topology_hash).bind(2, spec.topology->name).bind(3, spec.topology->deviceCount())
        .bind(4, topology_json).run();
    Statement(db, path, R"sql(
INSERT INTO simulations (run_id, source, topology_hash, topology_origin, strategy_origin, strategy_json,
                         options_json, search_json, makespan_s)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9))sql")
        .bind(1, id).bind(2, std::string(simSourceName(spec.source))).bind(3, topology_hash)
        .bind(4, spec.topology_origin).bind(5, spec.strategy_origin)
        .bind(6, sim::writeSoapJson(s.strategy, run.inputs->network))
        .bind(7, simOptionsToJson(spec.options, mcmc ? &spec.mcmc : nullptr).dump())
        .bind(8, s.mcmc ? mcmcSummaryToJson(*s.mcmc).dump() : std::string())
        .bind(9, s.makespan_s).run();
}

std::optional<Run> loadSimulatedRun(sqlite3* db, const std::string& path, std::int64_t id, const InputsPtr& inputs,
                                    const Grid& grid, const CancelFn& cancel) {
    Statement s(db, path, R"sql(
SELECT m.source, t.json, m.topology_origin, m.strategy_origin, m.strategy_json, m.options_json, m.search_json
FROM simulations m JOIN topologies t ON t.hash = m.topology_hash WHERE m.run_id = ?1)sql");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    SimulationSpec spec;
    spec.source = parseSimSource(s.text(0));
    spec.topology = std::make_shared<const sim::Topology>(sim::readTopologyJson(s.text(1), "stored topology"));
    spec.topology_origin = s.text(2);
    spec.strategy_origin = s.text(3);
    sim::SoapStrategy strategy = sim::readSoapJson(s.text(4), "stored strategy", inputs->network);
    const std::string options_source = "stored simulation options";
    spec.options = readSimOptionsJson(parseJsonText(s.text(5), options_source), options_source, &spec.mcmc);
    std::optional<McmcSummary> summary;
    if (!s.text(6).empty()) {
        const std::string source = "stored MCMC summary";
        summary = readMcmcSummaryJson(parseJsonText(s.text(6), source), source);
    }
    return simulatedRun(inputs, spec, std::move(strategy), grid, std::move(summary), cancel);
}

}  // namespace partita::store
