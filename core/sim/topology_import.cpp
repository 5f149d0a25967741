// Which reader a topology file needs, told apart by extension and content.
#include "core/sim/topology_import.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

Topology readAnyTopology(const std::string& text, const std::string& source, std::vector<std::string>* warnings) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json_like = first != std::string::npos && (text[first] == '{' || text[first] == '[');
    if (endsWith(source, ".yaml") || endsWith(source, ".yml") || (!json_like && !endsWith(source, ".json")))
        return readAstraYaml(text, source, warnings);
    const Json root = parseJsonText(text, source);
    if (root.is_object()) {
        if (root.contains("format")) return readTopologyJson(text, source);
        if (root.contains("npus_count")) return readAstraJson(root, source, warnings);
        if (root.contains("dimensions-count") || root.contains("topologies-per-dim"))
            return readAstraLegacyJson(root, source, warnings);
        if (root.contains("networks") || root.contains("matrix")) return readCalculonJson(root, source, warnings);
    }
    throw InputError(source, "/",
                     "not a topology: expected \"format\": \"partita-topology/1\", ASTRA-sim's \"npus_count\" or "
                     "\"dimensions-count\", or Calculon's \"networks\"");
}

Topology loadTopology(const std::string& path, std::vector<std::string>* warnings) {
    return readAnyTopology(readTextFile(path), path, warnings);
}

}  // namespace partita::sim
