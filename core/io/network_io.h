#pragma once
// Network files: native JSON "partita-network/1", the AccPar authors' text
// format and ONNX models (core/onnx). Readers return a propagated network or throw InputError.
#include <string>

#include "core/io/json_fields.h"
#include "core/model/network.h"

namespace partita {

namespace onnx {
struct InputDims;
}

enum class NetworkFormat { Auto, Json, AccParText, Onnx };

NetworkFormat parseNetworkFormat(const std::string& name);  // "json", "accpar", "onnx", "auto"

Network readNetworkJson(const std::string& text, const std::string& source);
Network readAccParText(const std::string& text, const std::string& source);
// Auto picks ONNX for an ".onnx" extension or a file that starts as an ONNX model does (a
// protobuf ir_version field), AccPar text for ".txt", JSON otherwise. An ONNX model's dynamic
// and symbolic input dimensions take `dims`, else the importer's defaults (onnx::defaultDims).
Network loadNetwork(const std::string& path, NetworkFormat format = NetworkFormat::Auto);
Network loadNetwork(const std::string& path, NetworkFormat format, const onnx::InputDims& dims);
NetworkFormat detectNetworkFormat(const std::string& path);

Json networkToJson(const Network& net);
std::string writeNetworkJson(const Network& net);  // pretty, ends with a newline

}  // namespace partita
