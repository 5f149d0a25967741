// Issue 26 item 8: a FIFO, device or folder given where an input file belongs is refused by name by
// every loader and by the results database, never opened in a way that blocks. Guarded by a harness
// time limit (errorWithin10s).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "core/io/array_io.h"
#include "core/io/json_fields.h"
#include "core/io/network_io.h"
#include "core/topology/check.h"
#include "core/sweep/spec.h"
#include "store_test_util.h"

namespace partita {
namespace {

using test::errorOf;

using test::TempDir;
using test::errorWithin10s;

TEST(InputFiles, AFifoIsRefusedByNameByEveryLoaderWithoutBlocking) {
    TempDir dir;
    const std::string fifo = dir.file("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string why = fifo + ": cannot open the file: it is a FIFO (named pipe), not a regular file";
    EXPECT_EQ(errorWithin10s([&] { readTextFile(fifo); }), why);
    EXPECT_EQ(errorWithin10s([&] { loadNetwork(fifo); }), why);
    EXPECT_EQ(errorWithin10s([&] { loadNetwork(fifo, NetworkFormat::Onnx); }), why);
    EXPECT_EQ(errorWithin10s([&] { loadArray(fifo); }), why);
    EXPECT_EQ(errorWithin10s([&] { sim::loadTopology(fifo); }), why);
    EXPECT_EQ(errorWithin10s([&] { sim::checkTopologyFile(fifo); }), why);
    EXPECT_EQ(errorWithin10s([&] { sweep::loadSpec(fifo, PARTITA_EXAMPLES_DIR); }), why);
    EXPECT_EQ(errorWithin10s([&] { ResultsDb db(fifo); }),
              fifo + ": it is a FIFO (named pipe), not a regular file; a results database is a regular file; not opened");
    EXPECT_EQ(errorWithin10s([&] { ResultsDb db(fifo, true); }),
              fifo + ": it is a FIFO (named pipe), not a regular file; a results database is a regular file; not opened");
    // A FIFO beside a database, where SQLite would open its write-ahead log.
    const std::string db = dir.file("x.sqlite");
    { ResultsDb created(db); }
    ASSERT_EQ(::mkfifo((db + "-wal").c_str(), 0600), 0);
    EXPECT_EQ(errorWithin10s([&] { ResultsDb opened(db); }),
              db + "-wal: it is a FIFO (named pipe), not a regular file (beside the results database " + db +
                  "); not opened");
    EXPECT_EQ(detectNetworkFormat(fifo), NetworkFormat::Json);  // looked at without opening it
    EXPECT_EQ(errorWithin10s([&] { readTextFile("/dev/null"); }),
              "/dev/null: cannot open the file: it is a device, not a regular file");
}

}  // namespace
}  // namespace partita
