#pragma once
// Every problem of a topology at once (issue 17): what the editor lists as the user types and
// `partita-cli topology check` prints. Topology::finalize stops at the first problem; this goes
// on, and also names duplicate links and device pairs without a route (once per group of
// devices, not once per pair). A topology without problems finalizes.
#include <string>
#include <vector>

#include "core/topology/topology.h"

namespace partita::sim {

struct TopologyProblem {
    using Element = TopologyError::Element;
    Element element = Element::Topology;
    int index = -1;        // into devices, switches or links; -1 for the topology itself
    std::string message;   // names the element: "link 'nvlink a->b': bandwidth must be positive, got 0 B/s"
    std::string place;     // where a file declared it (a JSON pointer such as "/links/3"); "" otherwise
    bool operator==(const TopologyProblem&) const = default;
};

// In order: the topology (its counts within limits::kTopology*), devices, names, links, then
// connectivity (unlinked devices, missing routes).
std::vector<TopologyProblem> checkTopology(const Topology& topology);

// What does not stop a simulation but is likely a mistake, each said once for all the elements it
// concerns: switches without links, and linked switches no route between devices can pass (no
// device reaches them, or they reach no device). Routing leaves both out (core/topology/routes.h).
std::vector<TopologyProblem> topologyWarnings(const Topology& topology);

// Where each element of a partita-topology/1 file was declared (JSON pointers, one per element).
struct TopologyPlaces {
    std::vector<std::string> devices, switches, links;
};

// partita-topology/1 read as written, without refusing values checkTopology reports (non-positive
// numbers, efficiency above 1, duplicate names, self links; a link to an unknown name gets vertex
// -1): what the editor opens and the check lists. Malformed JSON, unknown keys and wrong types
// still throw InputError naming the file and place.
Topology readTopologyJsonUnchecked(const std::string& text, const std::string& source, TopologyPlaces* places);

// The problems of a topology file with their places: partita-topology/1 is read unchecked; an
// imported format (ASTRA-sim, Calculon) is read by its importer, whose refusal is thrown.
// `read` receives what was read, `warnings` topologyWarnings with places, when given.
std::vector<TopologyProblem> checkTopologyFile(const std::string& path, Topology* read = nullptr,
                                               std::vector<TopologyProblem>* warnings = nullptr);

// "file: /links/3: link 'nvlink a->b': bandwidth must be positive, got 0 B/s" (without a place: "file: ...").
std::string describeProblem(const std::string& source, const TopologyProblem& problem);

}  // namespace partita::sim
