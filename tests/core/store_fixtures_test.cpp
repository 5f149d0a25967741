// Databases written by an earlier program (tests/data/store, see make_store_fixtures_test.cpp) still
// list and re-open with the numbers they were stored with: the guard for every change to storing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "store_fixture_util.h"
#include "store_test_util.h"

namespace partita {
namespace {

namespace fs = std::filesystem;

struct Fixture {
    test::TempDir tmp;
    std::string path;
    Json expected;
    explicit Fixture(const std::string& name) {
        const fs::path dir = fs::path(PARTITA_TEST_DATA) / "store";
        path = tmp.file(name + ".sqlite");
        fs::copy_file(dir / (name + ".sqlite"), path);  // opening may migrate; the fixture stays as made
        std::ifstream in(dir / (name + ".json"));
        expected = Json::parse(in);
    }
};

// Every run re-opened (load, or loadMethod for a run kept as settings) gives the stored numbers.
void checkRuns(const Fixture& f, const Json& runs) {
    ResultsDb db(f.path);
    std::size_t listed = 0;
    for (const Json& want : runs) {
        if (!want.contains("id")) continue;
        ++listed;
        const std::int64_t id = want.at("id").get<std::int64_t>();
        SCOPED_TRACE("run " + std::to_string(id) + " '" + want.value("name", "") + "'");
        Json got;
        if (db.isMethodRun(id)) {
            const MethodRun m = db.loadMethod(id);
            EXPECT_EQ(m.method, want.at("method").get<std::string>());
            got = test::expected(db, id, nullptr, &m);
        } else {
            const Run run = db.load(id);
            EXPECT_EQ(run.method, want.at("method").get<std::string>());
            got = test::expected(db, id, &run, nullptr);
        }
        EXPECT_EQ(got, want) << got.dump(1);
    }
    EXPECT_EQ(db.list().size(), listed);
}

TEST(StoreFixtures, EveryMethodReopensWithItsNumbers) {
    const Fixture f("every-method-v4");
    ASSERT_GT(f.expected.size(), 20u);
    checkRuns(f, f.expected);
}

TEST(StoreFixtures, SweepReopensWithItsPoints) {
    const Fixture f("sweep-v4");
    checkRuns(f, f.expected);
    Json points = Json::array();
    {
        const ResultsDb db(f.path);
        for (const auto& p : db.sweepPoints()) points.push_back({{"key", p.key}, {"run_id", p.run_id}, {"error", p.error}});
    }
    EXPECT_EQ(points, f.expected.back().at("points"));
}

}  // namespace
}  // namespace partita
