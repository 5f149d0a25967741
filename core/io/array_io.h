#pragma once
// Accelerator array files, "partita-array/1".
#include <string>

#include "core/io/json_fields.h"
#include "core/model/array.h"

namespace partita {

Array readArrayJson(const std::string& text, const std::string& source);
Array loadArray(const std::string& path);
Json arrayToJson(const Array& array);
std::string writeArrayJson(const Array& array);

}  // namespace partita
