#include "app/cli/network_input.h"

#include "core/io/network_io.h"

namespace partita::cli {

namespace {

std::int64_t positive(const std::string& text, const std::string& option, const std::string& given) {
    try {
        size_t used = 0;
        const long long v = std::stoll(text, &used);
        if (used == text.size() && v > 0 && v <= limits::kTensorElements) return v;
    } catch (const std::exception&) {
    }
    throw UsageError("--" + option + " " + given + ": sizes must be positive integers, got '" + text + "'");
}

// NAME=VALUE split at the last '=': exported names contain ':' and '.', and may contain '='.
std::pair<std::string, std::string> assignment(const std::string& given, const std::string& option) {
    const auto eq = given.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == given.size())
        throw UsageError("--" + option + " expects NAME=VALUE, got '" + given + "'");
    return {given.substr(0, eq), given.substr(eq + 1)};
}

}  // namespace

void addNetworkOptions(CLI::App& app, bool with_network) {
    if (with_network)
        value(app, "network", "F", "the network: partita-network/1 JSON, AccPar text (.txt) or an ONNX model (.onnx)");
    value(app, "network-format", "F", "auto (default), json, accpar or onnx");
    value(app, "input", "NAME=d0,d1,...",
          "an ONNX graph input's full shape, batch first (repeatable; split at the last '=')");
    value(app, "dim", "SYMBOL=V",
          "an ONNX symbolic dimension (repeatable); open dims default to batch 1,\n"
          "224 for image sides, 128 for sequence lengths");
}

onnx::InputDims inputDims(const Options& a) {
    onnx::InputDims dims;
    for (const std::string& given : a.all("input")) {
        const auto [name, list] = assignment(given, "input");
        std::vector<std::int64_t> values;
        size_t start = 0;
        while (start <= list.size()) {
            const size_t comma = list.find(',', start);
            values.push_back(positive(list.substr(start, comma - start), "input", given));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        dims.inputs[name] = values;
    }
    for (const std::string& given : a.all("dim")) {
        const auto [symbol, value] = assignment(given, "dim");
        dims.symbols[symbol] = positive(value, "dim", given);
    }
    return dims;
}

Network readNetworkArg(const Options& a, const std::string& path, std::vector<onnx::DefaultedInput>* defaulted) {
    const auto format = usage("network-format", [&] { return parseNetworkFormat(a.get("network-format", "auto")); });
    return loadNetwork(path, format, inputDims(a), defaulted);
}

}  // namespace partita::cli
