#include "core/util/utf8.h"

#include <cstdio>

namespace partita {

std::size_t invalidUtf8At(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        // Lead byte: length and the range of the second byte (no overlongs, surrogates or > U+10FFFF).
        std::size_t len = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c == 0xE0) len = 3, lo = 0xA0;
        else if (c >= 0xE1 && c <= 0xEC) len = 3;
        else if (c == 0xED) len = 3, hi = 0x9F;
        else if (c >= 0xEE && c <= 0xEF) len = 3;
        else if (c == 0xF0) len = 4, lo = 0x90;
        else if (c >= 0xF1 && c <= 0xF3) len = 4;
        else if (c == 0xF4) len = 4, hi = 0x8F;
        else return i;
        if (i + len > n) return i;
        if (s[i + 1] < lo || s[i + 1] > hi) return i;
        for (std::size_t k = 2; k < len; ++k)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
        i += len;
    }
    return std::string::npos;
}

std::string utf8Problem(std::string_view text) {
    const std::size_t at = invalidUtf8At(text);
    if (at == std::string::npos) return {};
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[at])));
    return "is not valid UTF-8 (byte " + std::string(byte) + " at offset " + std::to_string(at) + ")";
}

std::string validUtf8(std::string_view text) {
    std::string out;
    for (std::size_t at; (at = invalidUtf8At(text)) != std::string::npos;) {
        out.append(text.substr(0, at));
        out += "\xEF\xBF\xBD";
        text.remove_prefix(at + 1);
    }
    out.append(text);
    return out;
}

}  // namespace partita
