// Issue 26 items 9 and 10 through partita-cli merge-db: every input is checked, read-only, before the
// output is created or migrated, so a refusal changes no file (nor puts -wal/-shm beside one); the
// message names the input and the place (a dangling reference, a foreign column).
#include <gtest/gtest.h>

#include "tests/cli/sweep_test_util.h"

namespace partita::cli::test {
namespace {

TEST(MergeCli, MergeDbRefusesAnInputBeforeTouchingAnyFile) {
    Dir d;
    const std::string spec = d.write("s.json", kSmall);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("in.sqlite")}).status, 0);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("ok.sqlite")}).status, 0);
    // OUT at schema 3 (a migration would rewrite it), IN from a newer Partita.
    ASSERT_EQ(cli({"merge-db", d.file("out.sqlite")}).status, 0);
    sql(d.file("out.sqlite"), "DROP TABLE sweep_points; PRAGMA user_version = 3;");
    sql(d.file("in.sqlite"), "PRAGMA user_version = 99;");
    fs::remove(d.file("s.json"));
    const auto before = listing(d);
    const Result r = cli({"merge-db", d.file("out.sqlite"), d.file("ok.sqlite"), d.file("in.sqlite")});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "partita-cli merge-db: error: " + d.file("in.sqlite") +
                         ": written by a newer Partita (schema 99, this build reads up to 4); not modified\n");
    EXPECT_EQ(listing(d), before);  // OUT not migrated, ok.sqlite not merged, no -wal/-shm beside IN
}

TEST(MergeCli, MergeDbMessagesNameTheInputAndThePlace) {
    Dir d;
    const std::string spec = d.write("s.json", kSmall);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("dangling.sqlite")}).status, 0);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("extra.sqlite")}).status, 0);
    // Sweep points whose runs are gone (written with foreign keys off), and a column this version lacks.
    sql(d.file("dangling.sqlite"), "PRAGMA foreign_keys = OFF; UPDATE sweep_points SET run_id = run_id + 1000;");
    sql(d.file("extra.sqlite"), "ALTER TABLE runs ADD COLUMN extra TEXT;");
    fs::remove(d.file("s.json"));
    const auto before = listing(d);
    const Result dangling = cli({"merge-db", d.file("out.sqlite"), d.file("dangling.sqlite")});
    EXPECT_EQ(dangling.status, 1);
    EXPECT_NE(dangling.err.find(d.file("dangling.sqlite") + ": table 'sweep_points', row "), std::string::npos)
        << dangling.err;
    EXPECT_NE(dangling.err.find("refers to a row of 'runs' the file does not hold; nothing was merged"),
              std::string::npos)
        << dangling.err;
    const Result extra = cli({"merge-db", d.file("out.sqlite"), d.file("extra.sqlite")});
    EXPECT_EQ(extra.status, 1);
    EXPECT_EQ(extra.err, "partita-cli merge-db: error: " + d.file("extra.sqlite") +
                             ": table 'runs' has a column 'extra' this version does not know (schema 4); not a "
                             "database this version wrote\n");
    EXPECT_EQ(listing(d), before);
}

}  // namespace
}  // namespace partita::cli::test
