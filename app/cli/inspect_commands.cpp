// partita-cli inspect (a per-operator table and totals for any network format) and
// convert (any format to partita-network/1 JSON).
#include <fstream>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/network_input.h"
#include "app/cli/report.h"
#include "core/io/network_io.h"
#include "core/model/counts.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace partita::cli {

namespace {

using Json = nlohmann::json;

std::string shapeText(const Shape& s) { return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w); }

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::string typeOf(const Operator& op) {
    return op.source_op.empty() ? opTypeName(op.type) : op.source_op + " (" + opTypeName(op.type) + ")";
}

// The nodes an ONNX import refused, as JSON and as a table.
int reportUnsupported(const onnx::UnsupportedOperators& e, bool json, std::ostream& out) {
    if (json) {
        Json list = Json::array();
        for (const auto& n : e.nodes())
            list.push_back({{"name", n.name}, {"op_type", n.op_type}, {"domain", n.domain}, {"index", n.index}});
        out << jsonText(Json{{"unsupported", list}, {"error", e.what()}}) << "\n";
    } else {
        TextTable t({"node", "op type", "domain", "position"});
        for (const auto& n : e.nodes()) t.add({n.name, n.op_type, n.domain.empty() ? "ai.onnx" : n.domain, std::to_string(n.index)});
        out << "Unsupported operators:\n";
        t.print(out);
    }
    return 1;
}

std::string sizesText(const std::vector<std::int64_t>& dims) {
    std::string s;
    for (const std::int64_t d : dims) s += (s.empty() ? "" : ",") + std::to_string(d);
    return s;
}

int cmdInspect(const Options& a, std::ostream& out) {
    const std::string path = a.required("network");
    Network net;
    std::vector<onnx::DefaultedInput> defaulted;  // said, so that 224 px is never a silent guess
    try {
        net = readNetworkArg(a, path, &defaulted);
    } catch (const onnx::UnsupportedOperators& e) {
        reportUnsupported(e, a.flag("json"), out);
        throw;
    }
    const NetworkCounts totals = countNetwork(net);
    if (a.flag("json")) {
        Json defaults_json = Json::array();
        for (const onnx::DefaultedInput& d : defaulted) defaults_json.push_back({{"input", d.name}, {"sizes", d.dims}});
        Json ops = Json::array();
        for (const Operator& op : net.ops) {
            const OperatorCount c = countOperator(op);
            ops.push_back({{"name", op.name},
                           {"type", opTypeName(op.type)},
                           {"op", op.source_op},
                           {"inputs", op.inputs},
                           {"output_shape", {op.out_shape.c, op.out_shape.h, op.out_shape.w}},
                           {"weights", c.weights},
                           {"macs_per_sample", c.macs_per_sample},
                           {"view", isImportView(op)}});
        }
        out << jsonText(Json{{"network", net.name},
                    {"input_shape", {net.input.c, net.input.h, net.input.w}},
                    {"operators", totals.operators},
                    {"weighted_layers", totals.weighted_layers},
                    {"weights", totals.weights},
                    {"macs_per_sample", totals.macs_per_sample},
                    {"unsupported", Json::array()},
                    {"input_defaults", defaults_json},
                    {"operator_table", ops}})
            << "\n";
        return 0;
    }
    TextTable t({"operator", "type", "inputs", "output (c x h x w)", "weights", "MACs / sample"});
    for (const Operator& op : net.ops) {
        const OperatorCount c = countOperator(op);
        t.add({op.name, typeOf(op), joined(op.inputs), shapeText(op.out_shape), withCommas(c.weights),
               withCommas(c.macs_per_sample)});
    }
    out << net.name << ": input " << shapeText(net.input) << " per sample\n";
    if (!defaulted.empty()) {
        out << "Input sizes not given, defaults used:";
        for (const onnx::DefaultedInput& d : defaulted) out << " --input " << d.name << "=" << sizesText(d.dims);
        out << " (set them with --input NAME=d0,d1,... or --dim SYMBOL=V)\n";
    }
    t.print(out);
    out << "\noperators " << totals.operators << " (views inserted by an import not counted) · weighted layers "
        << totals.weighted_layers << " · weights " << withCommas(totals.weights) << " · MACs per sample "
        << withCommas(totals.macs_per_sample) << "\n";
    return 0;
}

int cmdConvert(const Options& a, std::ostream& out) {
    const Network net = readNetworkArg(a, a.required("network"));
    const std::string target = a.required("out");
    std::ofstream file(target, std::ios::binary);
    if (!file) throw Error(target + ": cannot write the file");
    file << writeNetworkJson(net);
    if (!file) throw Error(target + ": writing failed");
    out << "wrote " << target << " (" << countNetwork(net).operators << " operators)\n";
    return 0;
}

}  // namespace

void addInspectCommands(CLI::App& app, RunContext& ctx) {
    CLI::App* inspect = command(app, ctx, "inspect",
                                "per-operator table (type, inputs, output shape, weights, MACs per sample) and totals",
                                [](const Options& a, std::ostream& out, std::ostream&) { return cmdInspect(a, out); });
    addNetworkOptions(*inspect);
    flag(*inspect, "json", "one JSON object on stdout");
    CLI::App* convert = command(app, ctx, "convert", "write any network as partita-network/1 JSON",
                                [](const Options& a, std::ostream& out, std::ostream&) { return cmdConvert(a, out); });
    addNetworkOptions(*convert);
    value(*convert, "out", "F.json", "the file to write");
}

}  // namespace partita::cli
