#pragma once
// A sweep point made concrete: its inputs read (each network, array and topology of the spec once),
// its key, and the run it computes, built by the same functions as a run started alone (planRun,
// accparRun, simulationRun, mcmcRun), so it is stored the same way and the runs dock shows it.
#include <memory>
#include <string>
#include <vector>

#include "core/run/run.h"
#include "core/run/simulation.h"
#include "core/store/run_rows.h"
#include "core/sweep/spec.h"

namespace partita::sweep {

// Everything runPoint needs, or the error that makes the point fail without running.
struct Prepared {
    std::string key;     // pointKey
    std::string error;   // non-empty: the point cannot be set up (a missing file, a bad array)
    const MethodEntry* method = nullptr;
    std::shared_ptr<const Network> network;
    std::string network_origin, array_origin;
    std::string network_hash, topology_hash;  // content hashes, computed once per spec entry
    std::string array_hash;                   // the entry's, or a hash of it and the array axes' values
    Array array;
    CostParams params;
    AccParParams accpar;
    SimulationSpec sim;  // simulate and mcmc
    // A settings method (MethodEntry::settingsSweep): the point's values of its axes, applied to the
    // entry's settings when the point runs.
    std::vector<std::pair<std::string, Json>> axes;
};

class PointInputs {
public:
    // Reads every network, array and topology of `spec` (a file that cannot be read is remembered as
    // the error of the points that use it).
    explicit PointInputs(const Spec& spec);
    // Thread-safe: reads only what the constructor loaded.
    Prepared prepare(const Point& point) const;
    const Spec& spec() const { return spec_; }

private:
    template <class T>
    struct Loaded {
        std::shared_ptr<const T> value;
        std::string hash, origin, error;
    };
    const Spec& spec_;
    std::vector<Loaded<Network>> networks_;
    std::vector<Loaded<Array>> arrays_;
    std::vector<Loaded<sim::Topology>> topologies_;
};

// The point's key: SHA-256 of a byte form of {the app version, the method and its options, the network's
// content hash, the array's (with the values of the array axes), the cost and AccPar parameters as a run stores them, and for simulated
// methods the topology's content hash, the simulation options and MCMC settings}. Two points with
// the same key compute the same run. A point that cannot be set up is keyed by its description.
std::string pointKey(const Prepared& p);

// The point's run (throws what the run functions throw: HyPar on a branching network, ...).
// In-flight points are never cancelled: an interrupted sweep stores only whole runs.
Run runPoint(const Prepared& p);
// What storing the point's run writes: runPoint's, or a settings method's evaluation (SettingsSweep::run,
// which throws naming the field for an invalid point).
store::RunRows pointRows(const Prepared& p);

}  // namespace partita::sweep
