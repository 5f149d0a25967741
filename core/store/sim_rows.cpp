#include "core/store/sim_rows.h"

#include "core/run/simulation_run.h"
#include "core/store/results_db.h"
#include "core/store/sim_codec.h"
#include "core/store/sqlite_util.h"

namespace partita::store {

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
