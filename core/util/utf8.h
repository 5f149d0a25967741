#pragma once
// UTF-8 checks for text that arrives outside JSON (ONNX names, AccPar text, YAML): every name ends up
// in JSON (files, the results database, --json), whose writer refuses invalid UTF-8 with an error
// that names no file. Checked where it is read, the error names the file and the place.
#include <cstddef>
#include <string>
#include <string_view>

namespace partita {

// The offset of the first byte that does not belong to valid UTF-8, or std::string::npos.
std::size_t invalidUtf8At(std::string_view text);

// "" when `text` is valid UTF-8, else "is not valid UTF-8 (byte 0xFF at offset 3)".
std::string utf8Problem(std::string_view text);

// `text` with each byte that is not valid UTF-8 replaced by U+FFFD: for names made from file paths.
std::string validUtf8(std::string_view text);

}  // namespace partita
