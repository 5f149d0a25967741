// Accelerator arrays (levels or groups): read and validate.
#include "core/io/array_io.h"
#include "core/model/array.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    partita::fuzz::refusedOrDone([&] {
        const partita::Array array = partita::readArrayJson(partita::fuzz::text(data, size), "fuzz.json");
        partita::validate(array);
    });
    return 0;
}
