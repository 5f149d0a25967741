// UTF-8 checks for names read outside JSON (issue 26 item 10): the first bad byte, exactly.
#include <gtest/gtest.h>

#include "core/util/utf8.h"

namespace partita {
namespace {

TEST(Utf8, TheFirstInvalidByteIsFoundExactly) {
    EXPECT_EQ(invalidUtf8At("plain, é, 漢, 😀"), std::string::npos);
    EXPECT_EQ(invalidUtf8At("ab\xff"), 2u);
    EXPECT_EQ(invalidUtf8At("\xc0\x80"), 0u);       // overlong
    EXPECT_EQ(invalidUtf8At("\xed\xa0\x80"), 0u);   // a surrogate
    EXPECT_EQ(invalidUtf8At("\xe6\xbc"), 0u);       // cut short
    EXPECT_EQ(utf8Problem("x\xfe"), "is not valid UTF-8 (byte 0xFE at offset 1)");
    EXPECT_EQ(validUtf8("a\xffz"), "a\xEF\xBF\xBDz");
}

}  // namespace
}  // namespace partita
