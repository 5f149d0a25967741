#include <stdexcept>

#include "core/io/array_io.h"
#include "core/io/field_json.h"
#include "core/settings/array_fields.h"
#include "core/util/error.h"

namespace partita {

namespace {

// "accelerators": [{kind, count, throughput_flops, bandwidth_Bps}, ...] (docs/methods/accpar.md#the-hierarchy-over-an-array).
void readGroups(Fields& f, Array& a) {
    const Json& list = f.raw("accelerators");
    const std::string at = f.pointer("accelerators");
    if (!list.is_array() || list.empty())
        throw InputError(f.source(), at, "expected a non-empty list of accelerator groups");
    for (size_t k = 0; k < list.size(); ++k) {
        Fields g(list[k], at + "/" + std::to_string(k), f.source());
        AcceleratorGroup group;
        for (const auto& field : acceleratorGroupFields()) {
            readField(g, field, group);
            if (std::string(field.key) != "kind") continue;
            if (group.kind.empty()) g.fail("kind", "must not be empty");
            for (const auto& other : a.groups)
                if (other.kind == group.kind) g.fail("kind", "kind '" + group.kind + "' is listed twice; merge the groups");
        }
        g.finish();
        a.groups.push_back(group);
    }
    // HyPar-style keys describe a homogeneous array; with groups they would contradict them.
    for (const auto& field : arrayFields()) {
        const std::string key = field.object ? field.object : field.key;
        if (field.models == FieldModels::HyPar && f.has(key))
            f.fail(key, "'" + key + "' cannot be combined with 'accelerators'");
    }
    const int height = treeHeight(a.groups);
    if (a.count() < 2) f.fail("accelerators", "an array needs at least 2 accelerators");
    if (height > Array::kMaxLevels)
        f.fail("accelerators", "the groups need " + std::to_string(height) + " levels; at most " +
                                   std::to_string(Array::kMaxLevels) + " are supported");
    if (f.has("levels")) {
        const auto levels = f.integerIn("levels", 1, Array::kMaxLevels);
        if (levels != height)
            f.fail("levels", "the accelerator groups form " + std::to_string(height) + " levels, not " +
                                 std::to_string(levels) + " (leave 'levels' out to derive it)");
    }
    deriveFromGroups(a);
}

void readLevelBandwidth(Fields& f, Array& a) {
    const Json& list = f.raw("level_bandwidth_Bps");
    const std::string at = f.pointer("level_bandwidth_Bps");
    if (!list.is_array()) throw InputError(f.source(), at, "expected a list of bytes/s per level, H1 first");
    if (static_cast<int>(list.size()) != a.levels)
        throw InputError(f.source(), at, "has " + std::to_string(list.size()) + " entries, the array has " +
                                             std::to_string(a.levels) + " levels");
    for (size_t h = 0; h < list.size(); ++h) {
        if (!list[h].is_number() || !(list[h].get<double>() > 0))
            throw InputError(f.source(), at + "/" + std::to_string(h),
                             "must be a positive number, got " + excerpt(list[h]));
        if (const std::string why = rangeProblem(list[h].get<double>(), arrayRange("level_bandwidth_Bps")); !why.empty())
            throw InputError(f.source(), at + "/" + std::to_string(h), why);
        a.level_bandwidth_Bps.push_back(list[h].get<double>());
    }
}

void readHyparFields(Fields& f, Array& a) {
    readFields(f, arrayFields(), a);
    if (f.has("accelerator")) {
        Fields acc(f.raw("accelerator"), f.pointer("accelerator"), f.source());
        readFields(acc, arrayFields(), a, "accelerator");
        acc.finish();
    }
}

}  // namespace

Array readArrayJson(const std::string& text, const std::string& source) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-array/1");
    Array a;
    if (f.has("accelerators")) {
        readField(f, *findField(arrayFields(), "name"), a);
        readGroups(f, a);
    }
    else readHyparFields(f, a);
    if (f.has("level_bandwidth_Bps")) readLevelBandwidth(f, a);
    f.finish();
    try {
        validate(a);  // what no single field shows: each level's bandwidth from link_bps and level_bw_factor
    } catch (const std::invalid_argument& e) {
        throw InputError(source, "/", e.what());
    }
    return a;
}

Array loadArray(const std::string& path) { return readArrayJson(readTextFile(path), path); }

Json arrayToJson(const Array& a) {
    Json j{{"format", "partita-array/1"}};
    if (!a.groups.empty()) {
        j["name"] = a.name;
        j["levels"] = a.levels;
        Json list = Json::array();
        for (const auto& g : a.groups) {
            Json entry = Json::object();
            writeFields(entry, acceleratorGroupFields(), g);
            list.push_back(entry);
        }
        j["accelerators"] = list;
    } else {
        writeFields(j, arrayFields(), a);
    }
    if (!a.level_bandwidth_Bps.empty()) j["level_bandwidth_Bps"] = a.level_bandwidth_Bps;
    return j;
}

std::string writeArrayJson(const Array& a) { return arrayToJson(a).dump(2) + "\n"; }

}  // namespace partita
