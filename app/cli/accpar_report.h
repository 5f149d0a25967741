#pragma once
// Text and JSON output of partita-cli accpar.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/accpar/accpar.h"

namespace partita::cli {

// "64 x tpu-v3 | 64 x tpu-v2": the two children of a tree node.
std::string splitLabel(const PlanTree& tree, int node);

// grid (H1 first, 0/1/2 per layer), ratios, grid_nodes, uniform, level_comm, layer_time_s, step_time_s.
nlohmann::json planJson(const PlanTree& tree);
// Every tree node: depth, members, children, types, ratios, group aggregates.
nlohmann::json treeJson(const PlanTree& tree);

void printAccPar(std::ostream& out, const LayerTable& layers, const Array& array, const AccParParams& params,
                 const AccParResult& result);

// The reference-compatible mode's numbers (element counts per level).
struct ReferenceReport {
    const LayerTable& layers;  // the caller keeps it alive while the report is used
    std::vector<std::string> accpar_rows;
    std::vector<double> accpar_cost;
    std::vector<std::string> hypar_rows;
    std::vector<double> hypar_cost, dp_cost, owt_cost;
};
nlohmann::json referenceJson(const ReferenceReport& r);
void printReference(std::ostream& out, const ReferenceReport& r, const std::string& array, double batch);

}  // namespace partita::cli
