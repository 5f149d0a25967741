#include "app/cli/accpar_report.h"

#include <ostream>

#include "app/cli/report.h"

namespace partita::cli {

namespace {

using Json = nlohmann::json;

const char* typeName(Split s) { return s == Split::Batch ? "I" : s == Split::Input ? "II" : "III"; }

double sum(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}

// Total elements all group pairs move, sum_h 2^h com_h (the reference code's per-level totals).
double totalElements(const std::vector<double>& level) {
    double t = 0;
    for (size_t h = 0; h < level.size(); ++h) t += static_cast<double>(1LL << h) * level[h];
    return t;
}

}  // namespace

std::string splitLabel(const PlanTree& tree, int node) {
    const PlanNode& n = tree.nodes[static_cast<size_t>(node)];
    if (n.leaf) return n.label;
    return tree.nodes[static_cast<size_t>(n.child_i)].label + " | " + tree.nodes[static_cast<size_t>(n.child_j)].label;
}

Json planJson(const PlanTree& tree) {
    Json ratios = Json::array(), nodes = Json::array(), comm = Json::array();
    for (int h = 0; h < tree.grid.levels(); ++h) {
        Json row = Json::array();
        for (const Cell& c : tree.grid.row(h)) row.push_back(c.ratio);
        ratios.push_back(row);
        const int id = tree.grid_nodes[static_cast<size_t>(h)];
        const PlanNode& n = tree.nodes[static_cast<size_t>(id)];
        nodes.push_back(splitLabel(tree, id));
        comm.push_back(
            {{"elements_i", sum(n.elements_i)}, {"elements_j", sum(n.elements_j)}, {"time_s", sum(n.comm_s)}});
    }
    return Json{{"grid", tree.grid.toStrings()}, {"ratios", ratios},     {"grid_nodes", nodes},
                {"uniform", tree.uniform},       {"level_comm", comm},   {"layer_time_s", tree.layer_time_s},
                {"step_time_s", tree.step_time_s}};
}

Json treeJson(const PlanTree& tree) {
    Json nodes = Json::array();
    for (size_t id = 0; id < tree.nodes.size(); ++id) {
        const PlanNode& n = tree.nodes[id];
        Json j{{"id", id}, {"depth", n.depth}, {"members", n.label}, {"leaf", n.leaf}, {"time_s", sum(n.layer_time_s)}};
        if (!n.leaf) {
            std::string digits;
            Json ratios = Json::array();
            for (const Cell& c : n.row) {
                digits += splitDigit(c.split);
                ratios.push_back(c.ratio);
            }
            j.update(Json{{"child_i", n.child_i}, {"child_j", n.child_j}, {"row", digits}, {"ratios", ratios},
                          {"c_i_flops", n.pair.c_i}, {"b_i_Bps", n.pair.b_i}, {"c_j_flops", n.pair.c_j},
                          {"b_j_Bps", n.pair.b_j}, {"objective", n.objective}, {"comm_s", sum(n.comm_s)}});
        }
        nodes.push_back(j);
    }
    return nodes;
}

void printAccPar(std::ostream& out, const LayerTable& layers, const Array& array, const AccParParams& params,
                 const AccParResult& r) {
    out << "Network   " << layers.network << " (" << layers.size() << " weighted layers), batch "
        << withCommas(params.batch) << "\n";
    out << "Array     " << array.name << ": " << array.count() << " accelerators, " << array.levels << " levels\n";
    out << "Model     ratio model " << ratioModelName(params.ratio_model) << ", " << params.bytes_per_element
        << " bytes per element, " << (params.objective == Objective::Time ? "time" : "communication only")
        << (params.balanced_baselines ? ", balanced baselines" : ", baselines at ratio 1/2") << "\n\n";
    std::vector<std::string> header{"level", "split"};
    for (const auto& l : layers.layers) header.push_back(l.name);
    header.push_back("comm");
    TextTable t(header);
    const PlanTree& plan = r.accpar;
    for (int h = 0; h < plan.grid.levels(); ++h) {
        const int id = plan.grid_nodes[static_cast<size_t>(h)];
        std::vector<std::string> cells{"H" + std::to_string(h + 1), splitLabel(plan, id)};
        for (const Cell& c : plan.grid.row(h))
            cells.push_back(std::string(typeName(c.split)) + " " + fixed(c.ratio, 3));
        cells.push_back(seconds(sum(plan.nodes[static_cast<size_t>(id)].comm_s)));
        t.add(cells);
    }
    t.print(out);
    if (!plan.uniform)
        out << "(each row is the first split of its level; other nodes of a level may differ: see --json \"tree\")\n";
    out << "\nStep time   " << seconds(plan.step_time_s) << "\n\n";
    TextTable b({"scheme", "step time", "AccPar speedup (x)"});
    for (const auto* tree : {&r.dp, &r.owt, &r.hypar})
        if (tree != &r.hypar || r.hypar_refused.empty())
            b.add({schemeLabel(tree->scheme), seconds(tree->step_time_s), fixed(r.speedupOver(*tree), 3)});
        else
            b.add({schemeLabel(tree->scheme), "refused", "-"});
    b.print(out);
    if (!r.hypar_refused.empty()) out << "\nHyPar refused: " << r.hypar_refused << "\n";
    out << "\ncells: type (I batch, II input, III output) and the first group's ratio alpha\n";
}

Json referenceJson(const ReferenceReport& r) {
    const double dp = totalElements(r.dp_cost);
    auto scheme = [](const std::vector<std::string>* rows, const std::vector<double>& cost) {
        Json j{{"level_comm_elements", cost}, {"total_comm_elements", totalElements(cost)}};
        if (rows) j["grid"] = *rows;
        return j;
    };
    Json ratios = Json::array();
    for (size_t h = 0; h < r.accpar_rows.size(); ++h) ratios.push_back(std::vector<double>(r.layers.size(), 0.5));
    Json j{{"mode", "reference-compatible"},
           {"layers", Json::array()},
           {"grid", r.accpar_rows},
           {"ratios", ratios},
           {"level_comm_elements", r.accpar_cost},
           {"total_comm_elements", totalElements(r.accpar_cost)},
           {"step_time_s", nullptr},
           {"comm_reduction_vs_dp", dp / totalElements(r.accpar_cost)},
           {"comm_reduction_vs_owt", totalElements(r.owt_cost) / totalElements(r.accpar_cost)},
           {"comm_reduction_vs_hypar", totalElements(r.hypar_cost) / totalElements(r.accpar_cost)},
           {"baselines",
            {{"dp", scheme(nullptr, r.dp_cost)}, {"owt", scheme(nullptr, r.owt_cost)},
             {"hypar", scheme(&r.hypar_rows, r.hypar_cost)}}}};
    for (const auto& l : r.layers.layers) j["layers"].push_back(l.name);
    return j;
}

void printReference(std::ostream& out, const ReferenceReport& r, const std::string& array, double batch) {
    out << "Reference-compatible mode (the AccPar authors' program: alpha = 1/2, communication only)\n";
    out << "Network   " << r.layers.network << " (" << r.layers.size() << " weighted layers), batch "
        << withCommas(batch) << "\nArray     " << array << "\n\n";
    TextTable t({"level", "AccPar", "elements", "HyPar", "elements", "OWT elements", "DP elements"});
    for (size_t h = 0; h < r.accpar_rows.size(); ++h)
        t.add({"H" + std::to_string(h + 1), r.accpar_rows[h], withCommas(r.accpar_cost[h]), r.hypar_rows[h],
               withCommas(r.hypar_cost[h]), withCommas(r.owt_cost[h]), withCommas(r.dp_cost[h])});
    t.print(out);
    out << "\nrows: one digit per layer, 0 = Type-I, 1 = Type-II, 2 = Type-III; elements per group pair and level\n";
}

}  // namespace partita::cli
