#pragma once
// The numbers a stored run is checked by, as tests/data/store/*.json keep them: written by
// make_store_fixtures_test.cpp with the program that made the databases, compared by
// store_fixtures_test.cpp with what today's program re-opens.
#include <gtest/gtest.h>

#include "core/run/method_run.h"
#include "core/run/run.h"
#include "core/run/simulation.h"
#include "core/store/results_db.h"

namespace partita::test {

inline Json expected(const ResultsDb& db, std::int64_t id, const partita::Run* run, const MethodRun* m) {
    Json j{{"id", id}};
    for (const RunSummary& s : db.list())
        if (s.id == id)
            j.update({{"name", s.name}, {"method", s.method}, {"kind", runKindName(s.kind)},
                      {"network", s.network_name}, {"array", s.array_name}, {"topology", s.topology_name},
                      {"total_elements", s.total_elements}, {"time_step_s", s.time_step_s},
                      {"perf_vs_dp", s.perf_vs_dp}});
    if (run) {
        j["grid"] = run->grid.toStrings();
        j["reference"] = run->reference.toStrings();
        j["step_time_s"] = run->stepTime();
        j["energy_j"] = run->eval().energy_j;
        if (run->simulation) j["makespan_s"] = run->simulation->makespan_s;
        if (run->exploration) j["explored_points"] = run->exploration->size();
    }
    if (m) j["summary"] = {m->summary.time_s, m->summary.speedup, m->summary.traffic_B, m->summary.energy_J};
    return j;
}

}  // namespace partita::test
