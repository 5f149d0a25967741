// partita-cli sweep --mpi (issue 18 acceptance): the 500-point analytic example gives the same
// database with one job, two jobs, two merged shards, mpirun -n 3 and mpirun -n 1; seeded MCMC
// points find the same strategies locally and under MPI; an MPI sweep killed half-way and run
// again finishes with no duplicate and no lost point; a bad spec ends every rank with an error.
// These start mpirun on the built partita-cli, so they exist only where CMake found MPI (and not
// under the sanitizers, see tests/CMakeLists.txt; there MPI is never started in-process either).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sweep_test_util.h"

namespace partita::cli::test {
namespace {

// Checked before MPI is started, so in-process in every build.
TEST(SweepMpi, MpiExcludesJobsAndDryRun) {
    const std::string spec = example("sweeps/analytic-500.json");
    EXPECT_EQ(cli({"sweep", spec, "--mpi", "--jobs", "2", "--db", "x.sqlite"}).err,
              "partita-cli sweep: --mpi runs one process per MPI rank; drop --jobs (or --mpi)\n");
    EXPECT_EQ(cli({"sweep", spec, "--mpi", "--dry-run"}).err,
              "partita-cli sweep: --mpi runs one process per MPI rank; drop --dry-run (or --mpi)\n");
}

}  // namespace
}  // namespace partita::cli::test

#ifdef PARTITA_MPI_TESTS

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>

namespace partita::cli::test {
namespace {

// mpirun --oversubscribe -n K partita-cli ARGS..., its output in `log`; returns its pid.
pid_t startMpi(int ranks, const std::vector<std::string>& args, const std::string& log) {
    std::vector<std::string> all{partitaTestMpiexec(), "--oversubscribe", "--allow-run-as-root", "-n", std::to_string(ranks),
                                 partitaTestCliBinary()};
    all.insert(all.end(), args.begin(), args.end());
    const pid_t pid = ::fork();
    if (pid == 0) {
        // CI runs as root; OpenMPI wants both the option and these to agree to it.
        ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        std::vector<char*> argv;
        for (auto& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

// The exit status, or -signal; gives up (and kills the job) after a minute, so a hang fails.
int finish(pid_t pid) {
    int status = 0;
    for (int i = 0; i < 6000; ++i) {
        if (::waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ADD_FAILURE() << "mpirun did not finish within a minute";
    return -1000;
}

struct Mpi {
    int status;
    std::string log;
};

Mpi mpi(const Dir& d, int ranks, const std::vector<std::string>& args) {
    const std::string log = d.file("mpirun.log");
    const int status = finish(startMpi(ranks, args, log));
    std::ifstream in(log);
    return {status, std::string(std::istreambuf_iterator<char>(in), {})};
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST(SweepMpi, FiveHundredAnalyticPointsGiveTheSameDatabaseLocallyShardedAndUnderMpi) {
    Dir d;
    const std::string spec = example("sweeps/analytic-500.json");
    const Result one = cli({"sweep", spec, "--db", d.file("one.sqlite"), "--jobs", "1"});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(firstLine(one.out), "Sweep 'analytic-500': 500 points; 0 stored, 0 failed earlier; 500 to run on 1 job");
    const auto expected = contents(d.file("one.sqlite"));
    ASSERT_EQ(expected.size(), 500u);

    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("two.sqlite"), "--jobs", "2"}).status, 0);
    EXPECT_EQ(contents(d.file("two.sqlite")), expected);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("s0.sqlite"), "--shard", "0/2"}).status, 0);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("s1.sqlite"), "--shard", "1/2"}).status, 0);
    ASSERT_EQ(cli({"merge-db", d.file("merged.sqlite"), d.file("s0.sqlite"), d.file("s1.sqlite")}).status, 0);
    EXPECT_EQ(contents(d.file("merged.sqlite")), expected);

    const Mpi three = mpi(d, 3, {"sweep", spec, "--mpi", "--db", d.file("mpi.sqlite")});
    ASSERT_EQ(three.status, 0) << three.log;
    EXPECT_NE(three.log.find("Sweep 'analytic-500': 500 points; 0 stored, 0 failed earlier; 500 to run on 2 MPI "
                             "workers\n"),
              std::string::npos)
        << three.log;
    EXPECT_NE(three.log.find(": 500 stored, 0 failed; database " + d.file("mpi.sqlite")), std::string::npos);
    EXPECT_EQ(contents(d.file("mpi.sqlite")), expected);
    // Run again: everything is stored, nothing runs.
    const Mpi again = mpi(d, 3, {"sweep", spec, "--mpi", "--db", d.file("mpi.sqlite")});
    EXPECT_NE(again.log.find("500 stored, 0 failed earlier; 0 to run on 2 MPI workers"), std::string::npos)
        << again.log;
    EXPECT_EQ(contents(d.file("mpi.sqlite")), expected);

    // One rank computes alone.
    const Mpi alone = mpi(d, 1, {"sweep", spec, "--mpi", "--db", d.file("alone.sqlite")});
    ASSERT_EQ(alone.status, 0) << alone.log;
    EXPECT_NE(alone.log.find("500 to run on 1 job\n"), std::string::npos) << alone.log;
    EXPECT_EQ(contents(d.file("alone.sqlite")), expected);
}

// 2 networks x 2 batches x 6 seeds: long enough (about 2 s on two cores) to be killed half-way.
constexpr const char* kMcmc = R"({"format": "partita-sweep/1", "name": "mcmc",
  "networks": ["lenet-c", "alexnet"], "topologies": ["p100-16"],
  "methods": [{"method": "mcmc", "iterations": 300, "starts": ["dp", "owt", "random"]}],
  "axes": {"batch": [64, 128], "seed": [1, 2, 3, 4, 5, 6]}})";

std::size_t storedPoints(const std::string& path) {
    sqlite3* db = nullptr;
    std::size_t n = 0;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sweep_points", -1, &s, nullptr) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW)
            n = static_cast<std::size_t>(sqlite3_column_int64(s, 0));
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return n;
}

TEST(SweepMpi, SeededMcmcPointsFindTheSameStrategiesAndAKilledJobResumes) {
    Dir d;
    const std::string spec = d.write("mcmc.json", kMcmc);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("local.sqlite"), "--jobs", "2"}).status, 0);
    const auto expected = contents(d.file("local.sqlite"));
    ASSERT_EQ(expected.size(), 24u);
    EXPECT_NE(expected[0].find("\"iterations\":300"), std::string::npos) << expected[0];

    // Ctrl+C on mpirun once some points are stored: it ends every rank.
    const std::string db = d.file("mpi.sqlite");
    const pid_t job = startMpi(3, {"sweep", spec, "--mpi", "--db", db}, d.file("killed.log"));
    for (int i = 0; i < 3000 && storedPoints(db) < 4; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(job, SIGINT);
    const int status = finish(job);
    const std::size_t stored = storedPoints(db);
    // A machine fast enough to store every point in its first batch leaves nothing to interrupt.
    if (status == 0 && stored == expected.size()) GTEST_SKIP() << "the job ended before Ctrl+C reached it";
    EXPECT_NE(status, 0);
    EXPECT_GE(stored, 4u);
    // The rerun runs what is missing: the same 24 points, each once, as computed locally.
    const Mpi rerun = mpi(d, 3, {"sweep", spec, "--mpi", "--db", db});
    ASSERT_EQ(rerun.status, 0) << rerun.log;
    EXPECT_NE(rerun.log.find("24 points; " + std::to_string(stored) + " stored, 0 failed earlier; " +
                             std::to_string(24 - stored) + " to run"),
              std::string::npos)
        << rerun.log;
    EXPECT_EQ(contents(db), expected);
}

TEST(SweepMpi, ABadSpecEndsEveryRankWithAnError) {
    Dir d;
    const std::string bad = d.write("bad.json", R"({"format": "partita-sweep/1", "networks": ["lenet-c"],
        "methods": ["hypar"], "axes": {"levels": [0]}})");
    const Mpi r = mpi(d, 3, {"sweep", bad, "--mpi", "--db", d.file("x.sqlite")});
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.log.find("partita-cli sweep: error: " + bad +
                         ": /axes/levels/0: axis 'levels' takes integers from 1 to 12, found 0\n"),
              std::string::npos)
        << r.log;
    EXPECT_EQ(r.log.find("MPI rank"), std::string::npos) << r.log;  // the workers said nothing
}

}  // namespace
}  // namespace partita::cli::test

#elif !defined(PARTITA_HAVE_MPI)  // built without MPI

namespace partita::cli::test {
namespace {

TEST(SweepMpi, WithoutMpiTheOptionIsAUsageError) {
    const Result r = cli({"sweep", example("sweeps/analytic-500.json"), "--mpi", "--db", "x.sqlite"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.substr(0, r.err.find(" (")), "partita-cli sweep: this partita-cli was built without MPI");
}

}  // namespace
}  // namespace partita::cli::test

#endif
