// Which reader a topology file needs, told apart by extension and content.
#include "core/topology/import.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

bool importEndsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool yamlName(const std::string& source) { return importEndsWith(source, ".yaml") || importEndsWith(source, ".yml"); }

using Importer = Topology (*)(const Json&, const std::string&, std::vector<std::string>*);

// The importer whose keys a JSON root has (null: none; "format" is partita's own).
Importer importerOf(const Json& root) {
    if (!root.is_object() || root.contains("format")) return nullptr;
    if (root.contains("npus_count")) return readAstraJson;
    if (root.contains("dimensions-count") || root.contains("topologies-per-dim")) return readAstraLegacyJson;
    if (root.contains("networks") || root.contains("matrix")) return readCalculonJson;
    return nullptr;
}

}  // namespace

bool isImportedTopology(const std::string& text, const std::string& source) {
    if (yamlName(source)) return true;
    return importerOf(Json::parse(text, nullptr, false)) != nullptr;
}

Topology readAnyTopology(const std::string& text, const std::string& source, std::vector<std::string>* warnings) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json_like = first != std::string::npos && (text[first] == '{' || text[first] == '[');
    if (yamlName(source) || (!json_like && !importEndsWith(source, ".json"))) return readAstraYaml(text, source, warnings);
    const Json root = parseJsonText(text, source);
    if (root.is_object() && root.contains("format")) return readTopologyJson(text, source);
    if (const Importer read = importerOf(root)) return read(root, source, warnings);
    throw InputError(source, "/",
                     "not a topology: expected \"format\": \"partita-topology/1\", ASTRA-sim's \"npus_count\" or "
                     "\"dimensions-count\", or Calculon's \"networks\"");
}

Topology loadTopology(const std::string& path, std::vector<std::string>* warnings) {
    return readAnyTopology(readTextFile(path), path, warnings);
}

}  // namespace partita::sim
