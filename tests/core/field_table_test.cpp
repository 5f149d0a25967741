// Issue 27 item 2: one field table per settings type (core/settings). Every field of the array, cost
// and AccPar tables survives a JSON round trip at a non-default value; a bad value names its key and
// range; unknown keys stay errors; the docs' settings tables are the tables rendered.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/io/array_io.h"
#include "core/io/params_json.h"
#include "core/settings/array_fields.h"
#include "core/settings/cost_fields.h"
#include "core/settings/llm_fields.h"
#include "core/settings/field_docs.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

using test::errorOf;

// A valid value other than the default: 1.5 x the default within the range, the next choice, the
// other flag, a new text.
template <class S>
void setOther(const Field<S>& f, S& s) {
    if (f.type == FieldType::Text) return f.setText(s, "other-" + std::string(f.key));
    const double d = f.defaultValue();
    switch (f.type) {
    case FieldType::Text: return;
    case FieldType::Flag: f.set(s, d != 0 ? 0 : 1); return;
    case FieldType::Choice: f.set(s, static_cast<double>((static_cast<size_t>(d) + 1) % f.choices.size())); return;
    case FieldType::Integer: f.set(s, d + 1 <= f.range.hi ? d + 1 : d - 1); return;
    case FieldType::Number: f.set(s, d > 0 && d * 1.5 <= f.range.hi ? d * 1.5 : (f.range.lo + f.range.hi) / 2); return;
    }
}

template <class S, class Write, class Read>
void expectRoundTrip(const FieldTable<S>& table, const S& base, Write write, Read read) {
    for (const auto& f : table) {
        S s = base;
        setOther(f, s);
        ASSERT_NE(fieldText(f, s), fieldText(f, base)) << f.key;
        const S back = read(write(s));
        EXPECT_EQ(fieldText(f, back), fieldText(f, s)) << f.key;
    }
}

TEST(FieldTable, EveryArrayFieldRoundTripsThroughItsFile) {
    expectRoundTrip(arrayFields(), defaultArray(4), writeArrayJson,
                    [](const std::string& text) { return readArrayJson(text, "a.json"); });
}

TEST(FieldTable, EveryAcceleratorGroupFieldRoundTripsThroughItsFile) {
    Array a = defaultArray(4);
    a.groups = {{"x", 4, 1e12, 1e9}, {"y", 4, 2e12, 3e9}};
    deriveFromGroups(a);
    for (const auto& f : acceleratorGroupFields()) {
        Array changed = a;
        if (std::string(f.key) == "count") f.set(changed.groups[0], 12);  // still 16 in all: the same height
        else setOther(f, changed.groups[0]);
        deriveFromGroups(changed);
        const Array back = readArrayJson(writeArrayJson(changed), "a.json");
        EXPECT_EQ(fieldText(f, back.groups[0]), fieldText(f, changed.groups[0])) << f.key;
        EXPECT_NE(fieldText(f, back.groups[0]), fieldText(f, a.groups[0])) << f.key;
    }
}

TEST(FieldTable, EveryCostAndAccParFieldRoundTripsThroughItsJson) {
    expectRoundTrip(costFields(), CostParams{}, paramsToJson,
                    [](const Json& j) { return readParamsJson(j, "p.json", ""); });
    expectRoundTrip(accparFields(), AccParParams{}, accparParamsToJson,
                    [](const Json& j) { return readAccParParamsJson(j, "p.json", ""); });
}

TEST(FieldTable, DefaultsAreTheStructsOwn) {
    EXPECT_EQ(findField(arrayFields(), "link_bps")->defaultValue(), Array{}.link_bps);
    EXPECT_EQ(findField(arrayFields(), "e_dram_pj")->defaultValue(), AcceleratorSpec{}.e_dram_pj);
    EXPECT_EQ(findField(costFields(), "batch")->defaultValue(), CostParams{}.batch);
    EXPECT_EQ(findField(accparFields(), "bytes_per_element")->defaultValue(), AccParParams{}.bytes_per_element);
    EXPECT_EQ(fieldSummary(*findField(arrayFields(), "link_bps")), "default 1.6e9 bit/s; range 1 to 1e21");
}

TEST(FieldTable, AValueOutOfRangeNamesTheKeyAndTheRange) {
    const auto read = [](const std::string& text) {
        return errorOf<InputError>([&] { readArrayJson(text, "a.json"); });
    };
    EXPECT_EQ(read(R"({"format": "partita-array/1", "name": "x", "levels": 2, "accelerator": {"e_dram_pj": 2e6}})"),
              "a.json: /accelerator/e_dram_pj: must be between 0 and 1000000 pJ, got 2000000 pJ");
    EXPECT_EQ(read(R"({"format": "partita-array/1", "name": "x", "levels": 2, "link_bps": 1e30})"),
              "a.json: /link_bps: must be between 1 and 1e+21 b/s, got 1e+30 b/s");
    EXPECT_EQ(read(R"({"format": "partita-array/1", "name": "x", "levels": 13})"),
              "a.json: /levels: must be between 1 and 12, got 13");
    EXPECT_EQ(errorOf<InputError>([] { readParamsJson(Json{{"out_size", "mid"}}, "p.json", ""); }),
              "p.json: /out_size: expected \"post\" or \"pre\", found 'mid'");
    EXPECT_EQ(errorOf<InputError>([] { readAccParParamsJson(Json{{"ratio_model", "Q"}}, "p.json", ""); }),
              "p.json: /ratio_model: expected \"E\" or \"P\", found 'Q'");
}

TEST(FieldTable, UnknownKeysStayErrors) {
    EXPECT_EQ(errorOf<InputError>([] {
                  readArrayJson(R"({"format": "partita-array/1", "name": "x", "levels": 2, "accelerator": {"e_dram": 1}})",
                                "a.json");
              }),
              "a.json: /accelerator/e_dram: unknown key 'e_dram'");
    EXPECT_EQ(errorOf<InputError>([] { readParamsJson(Json{{"e_dram_pj", 1}}, "p.json", ""); }),
              "p.json: /e_dram_pj: unknown key 'e_dram_pj'");
}

// The API a command line and a sweep use: option names, find by key, set from text with the range check.
TEST(FieldTable, FieldsAreSetFromTextAsTheCommandLineGivesThem) {
    const auto& link = *findField(arrayFields(), "link_bps");
    EXPECT_EQ(link.option(), "link-bps");
    EXPECT_EQ(findField(arrayFields(), "e_link_pj_per_bit")->option(), "e-link-pj-per-bit");
    EXPECT_EQ(findField(arrayFields(), "nope"), nullptr);
    Array a;
    setFieldText(link, a, "2e9");
    EXPECT_EQ(a.link_bps, 2e9);
    EXPECT_EQ(fieldText(link, a), "2e9");
    EXPECT_EQ(errorOf<std::invalid_argument>([&] { setFieldText(link, a, "1e30"); }),
              "link_bps must be between 1 and 1e+21 b/s, got 1e+30 b/s");
    EXPECT_EQ(errorOf<std::invalid_argument>([&] { setFieldText(link, a, "fast"); }),
              "link_bps expects a number, got 'fast'");
    const auto& topology = *findField(arrayFields(), "topology");
    setFieldText(topology, a, "torus");
    EXPECT_EQ(a.topology, Topology::Torus);
    EXPECT_EQ(errorOf<std::invalid_argument>([&] { setFieldText(topology, a, "ring"); }),
              "topology must be htree or torus, got 'ring'");
    CostParams p;
    const auto& batch = *findField(costFields(), "batch");
    EXPECT_EQ(errorOf<std::invalid_argument>([&] { setFieldValue(batch, p, 0.5); }),
              "batch must be an integer from 1 to 16777216, got 0.5");
    setFieldValue(batch, p, 64);
    EXPECT_EQ(p.batch, 64);
    setFieldText(*findField(costFields(), "include_sram_energy"), p, "true");
    EXPECT_TRUE(p.include_sram_energy);
}

// The docs show the tables between markers; this test renders them and compares.
std::filesystem::path docsPage(const std::string& name) {
    return std::filesystem::path(PARTITA_EXAMPLES_DIR) / ".." / "docs" / "formats" / name;
}

void expectDocsBlock(const std::string& page, const std::string& name, const std::string& rendered) {
    const auto path = docsPage(page);
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    const std::string begin = "<!-- fields:" + name + " -->\n", end = "<!-- /fields:" + name + " -->";
    const auto b = text.find(begin), e = text.find(end);
    ASSERT_TRUE(b != std::string::npos && e != std::string::npos && b < e)
        << path << " lacks the markers " << begin << " and " << end;
    const std::string shown = text.substr(b + begin.size(), e - b - begin.size());
    if (shown != rendered && std::getenv("PARTITA_WRITE_DOCS")) {
        text.replace(b + begin.size(), e - b - begin.size(), rendered);
        std::ofstream(path) << text;
        return;
    }
    EXPECT_EQ(shown, rendered) << "The table '" << name << "' in " << path.lexically_normal()
                               << " differs from the field table in core/settings. Regenerate it with\n"
                                  "  PARTITA_WRITE_DOCS=1 build/tests/partita_core_tests --gtest_filter='FieldDocs.*'";
}

TEST(FieldDocs, TheDocsTablesAreTheFieldTables) {
    expectDocsBlock("array.md", "array", fieldsMarkdown(arrayFields()));
    expectDocsBlock("array.md", "accelerator-group", fieldsMarkdown(acceleratorGroupFields()));
    expectDocsBlock("params.md", "cost", fieldsMarkdown(costFields()));
    expectDocsBlock("params.md", "accpar", fieldsMarkdown(accparFields()));
    expectDocsBlock("sweep.md", "llm-plan", fieldsMarkdown(llmPlanFields()));
}

}  // namespace
}  // namespace partita
