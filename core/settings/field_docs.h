#pragma once
// A field table rendered as the Markdown table of its docs page (docs/formats/*.md hold it between
// "<!-- fields:NAME -->" and "<!-- /fields:NAME -->"; tests/core/field_table_test.cpp checks it).
#include <algorithm>
#include <string>

#include "core/settings/field.h"

namespace partita {

const char* fieldModelsName(FieldModels m);  // "both", "HyPar", "AccPar"
// "HyPar, DP, MP, OWT, AccPar": the methods a sweep axis over the field changes; "" for none.
std::string axisReadersText(unsigned readers);

// | key | label | meaning | unit | default | range | read by |, one row per field, "object.key" for
// fields of a sub-object, and | sweep axis of | when a row of the table is a sweep axis.
template <class S>
std::string fieldsMarkdown(const FieldTable<S>& table) {
    const bool axes = std::any_of(table.begin(), table.end(), [](const Field<S>& f) { return f.swept_by != 0; });
    std::string out = "| key | label | meaning | unit | default | range | read by |";
    out += axes ? " sweep axis of |\n|---|---|---|---|---|---|---|---|\n" : "\n|---|---|---|---|---|---|---|\n";
    const S defaults{};
    for (const auto& f : table) {
        const std::string key = f.object ? std::string(f.object) + "." + f.key : std::string(f.key);
        std::string def, range;
        switch (f.type) {
        case FieldType::Text: def = f.required ? "required" : "`" + f.getText(defaults) + "`"; break;
        case FieldType::Flag: def = f.defaultValue() != 0 ? "`true`" : "`false`"; break;
        case FieldType::Choice:
            def = "`" + fieldText(f, defaults) + "`";
            for (const auto& c : f.choices) range += (range.empty() ? "`" : ", `") + std::string(c.name) + "`";
            break;
        default:
            def = f.required ? "required" : fieldNumberText(f.defaultValue());
            range = fieldNumberText(f.range.lo) + " … " + fieldNumberText(f.range.hi);
            if (f.type == FieldType::Integer) range += ", whole";
        }
        out += "| `" + key + "` | " + f.label + " | " + f.help + " | " + f.unit + " | " + def + " | " + range + " | " +
               fieldModelsName(f.models) + " |" + (axes ? " " + axisReadersText(f.swept_by) + " |" : "") + "\n";
    }
    return out;
}

}  // namespace partita
