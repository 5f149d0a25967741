#pragma once
// Topologies from other simulators' files (docs/formats/topology-imports.md): ASTRA-sim's
// analytical network (YAML, its newer JSON form, and the older JSON format) and Calculon's
// system JSON. Each lowers to a Topology and says what it approximated or ignored.
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology/topology.h"

namespace partita::sim {

// Limits on what an import may build (docs/formats/limits.md).
inline constexpr std::int64_t kImportDimensions = 8;
inline constexpr std::int64_t kImportDevices = 4096;
inline constexpr std::int64_t kImportLinks = std::int64_t{1} << 18;  // directed links (262,144)

// One dimension of a multi-dimensional network: every group of `count` devices that differ only
// in this coordinate is joined as a ring, fully connected, or through one switch.
struct Dimension {
    enum class Shape { Ring, FullyConnected, Switch };
    Shape shape = Shape::Ring;
    std::int64_t count = 1;
    double bandwidth_Bps = 0;  // per link and direction
    double latency_s = 0;      // per link
    std::string place;         // where it was read, for errors
};

// Devices = product of the counts (dimension 0 varies fastest), all `device`, named npu<i>;
// node = index / count of dimension 0. Throws InputError(source, place) past the limits.
Topology expandDimensions(const std::vector<Dimension>& dims, const ComputeDevice& device, const std::string& name,
                          const std::string& source);

// The compute device an ASTRA-sim network file implies (it describes none) [A].
ComputeDevice astraDefaultDevice();

// Each reader: text of the file, `source` for errors; `warnings` receives one line per ignored
// or approximated field (may be null).
Topology readAstraYaml(const std::string& text, const std::string& source, std::vector<std::string>* warnings);
Topology readAstraJson(const Json& root, const std::string& source, std::vector<std::string>* warnings);
Topology readAstraLegacyJson(const Json& root, const std::string& source, std::vector<std::string>* warnings);
Topology readCalculonJson(const Json& root, const std::string& source, std::vector<std::string>* warnings);

// Any accepted file: .yaml/.yml is ASTRA-sim YAML; JSON is told apart by its keys ("format",
// "npus_count", "dimensions-count", "networks").
Topology readAnyTopology(const std::string& text, const std::string& source, std::vector<std::string>* warnings);

// Whether `text` is another simulator's topology readAnyTopology imports: a .yaml/.yml `source`, or
// JSON with one of the keys above and no "format". Never throws (File ▸ Open tells kinds apart).
bool isImportedTopology(const std::string& text, const std::string& source);

}  // namespace partita::sim
