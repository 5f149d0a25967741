#include "core/io/params_json.h"

#include <cmath>

#include "core/util/limits.h"
#include "core/util/ranges.h"

namespace partita {

Json paramsToJson(const CostParams& p) {
    return Json{{"batch", p.batch},
                {"w_intra", p.comm.w_intra},
                {"out_size", p.comm.out_size == OutSize::PostPool ? "post" : "pre"},
                {"bytes_per_element", p.bytes_per_element},
                {"include_sram_energy", p.include_sram_energy}};
}

CostParams readParamsJson(const Json& json, const std::string& source, const std::string& pointer) {
    Fields f(json, pointer, source);
    CostParams p;
    p.batch = f.positive("batch", p.batch);  // written as a double ("256.0"), so read as a number
    if (p.batch != std::floor(p.batch) || p.batch > static_cast<double>(limits::kBatch))
        f.fail("batch", "must be an integer from 1 to " + std::to_string(limits::kBatch) + ", got " + excerpt(f.raw("batch")));
    p.comm.w_intra = f.inRange("w_intra", ranges::kCommWeight, p.comm.w_intra);
    const std::string out_size = f.string("out_size", "post");
    if (out_size == "post") p.comm.out_size = OutSize::PostPool;
    else if (out_size == "pre") p.comm.out_size = OutSize::PrePool;
    else f.fail("out_size", "expected \"post\" or \"pre\", found '" + out_size + "'");
    p.bytes_per_element = f.inRange("bytes_per_element", ranges::kBytesPerElement, p.bytes_per_element);
    p.include_sram_energy = f.boolean("include_sram_energy", p.include_sram_energy);
    f.finish();
    return p;
}

Json accparParamsToJson(const AccParParams& p) {
    return Json{{"ratio_model", ratioModelName(p.ratio_model)},
                {"bytes_per_element", p.bytes_per_element},
                {"balanced_baselines", p.balanced_baselines}};
}

AccParParams readAccParParamsJson(const Json& json, const std::string& source, const std::string& pointer) {
    Fields f(json, pointer, source);
    AccParParams p;
    const std::string model = f.string("ratio_model", "E");
    try {
        p.ratio_model = parseRatioModel(model);
    } catch (const std::invalid_argument&) {
        f.fail("ratio_model", "expected \"E\" or \"P\", found '" + model + "'");
    }
    p.bytes_per_element = f.inRange("bytes_per_element", ranges::kBytesPerElement, p.bytes_per_element);
    p.balanced_baselines = f.boolean("balanced_baselines", p.balanced_baselines);
    f.finish();
    return p;
}

}  // namespace partita
