#include "core/io/params_json.h"

#include "core/io/field_json.h"
#include "core/settings/cost_fields.h"

namespace partita {

Json paramsToJson(const CostParams& p) {
    Json j = Json::object();
    writeFields(j, costFields(), p);
    return j;
}

CostParams readParamsJson(const Json& json, const std::string& source, const std::string& pointer) {
    Fields f(json, pointer, source);
    CostParams p;
    readFields(f, costFields(), p);
    f.finish();
    return p;
}

Json accparParamsToJson(const AccParParams& p) {
    Json j = Json::object();
    writeFields(j, accparFields(), p);
    return j;
}

AccParParams readAccParParamsJson(const Json& json, const std::string& source, const std::string& pointer) {
    Fields f(json, pointer, source);
    AccParParams p;
    readFields(f, accparFields(), p);
    f.finish();
    return p;
}

}  // namespace partita
