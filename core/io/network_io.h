#pragma once
// Network files: native JSON "partita-network/1" and the AccPar authors' text
// format. Readers return a propagated network or throw InputError.
#include <string>

#include "core/io/json_fields.h"
#include "core/model/network.h"

namespace partita {

enum class NetworkFormat { Auto, Json, AccParText };

NetworkFormat parseNetworkFormat(const std::string& name);  // "json", "accpar", "auto"

Network readNetworkJson(const std::string& text, const std::string& source);
Network readAccParText(const std::string& text, const std::string& source);
// Auto picks AccPar text for a ".txt" extension, JSON otherwise.
Network loadNetwork(const std::string& path, NetworkFormat format = NetworkFormat::Auto);

Json networkToJson(const Network& net);
std::string writeNetworkJson(const Network& net);  // pretty, ends with a newline

}  // namespace partita
