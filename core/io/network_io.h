#pragma once
// Network files: native JSON "partita-network/1", the AccPar authors' text
// format and ONNX models (core/onnx). Readers return a propagated network or throw InputError.
#include <map>
#include <string>
#include <vector>

#include "core/edit/point.h"
#include "core/io/json_fields.h"
#include "core/model/network.h"

namespace partita {

namespace onnx {
struct InputDims;
struct DefaultedInput;
class OnnxModel;
}

enum class NetworkFormat { Auto, Json, AccParText, Onnx };

NetworkFormat parseNetworkFormat(const std::string& name);  // "json", "accpar", "onnx", "auto"

Network readNetworkJson(const std::string& text, const std::string& source);
// The same with the editor's layout hints: each operator's optional "position": [x, y], by name.
struct LaidOutNetwork {
    Network network;
    std::map<std::string, edit::Point> positions;
};
LaidOutNetwork readNetworkJsonWithLayout(const std::string& text, const std::string& source);
Network readAccParText(const std::string& text, const std::string& source);
// Auto picks ONNX for an ".onnx" extension or a file that starts as an ONNX model does (a
// protobuf ir_version field), AccPar text for ".txt", JSON otherwise. An ONNX model's dynamic
// and symbolic input dimensions take `dims`, else the importer's defaults (onnx::defaultDims).
Network loadNetwork(const std::string& path, NetworkFormat format = NetworkFormat::Auto);
// `defaulted` (optional) lists the ONNX inputs whose open dimensions took the defaults.
Network loadNetwork(const std::string& path, NetworkFormat format, const onnx::InputDims& dims,
                    std::vector<onnx::DefaultedInput>* defaulted = nullptr);
// A parsed ONNX model (read once, its operators and inputs already looked at) imported at `dims`, open
// dimensions defaulted as loadNetwork does; `path` names it.
Network onnxNetwork(onnx::OnnxModel model, const onnx::InputDims& dims, const std::string& path,
                    std::vector<onnx::DefaultedInput>* defaulted = nullptr);
NetworkFormat detectNetworkFormat(const std::string& path);
LaidOutNetwork loadNetworkWithLayout(const std::string& path, NetworkFormat format = NetworkFormat::Auto);  // hints from JSON only

Json networkToJson(const Network& net);
std::string writeNetworkJson(const Network& net);  // pretty, ends with a newline
// With layout hints for the operators named in `positions` (the others get none).
Json networkToJson(const Network& net, const std::map<std::string, edit::Point>& positions);
std::string writeNetworkJson(const Network& net, const std::map<std::string, edit::Point>& positions);

// One operator as partita-network/1 writes it, without its inputs, and read back without deriving
// shapes (the editor's recovery file keeps operators whose shapes do not work out).
Json operatorToJson(const Operator& op);
Operator readOperatorJson(const Json& j, const std::string& pointer, const std::string& source);

}  // namespace partita
