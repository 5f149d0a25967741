// partita-cli sweep and merge-db (issue 18; docs/guide/sweeps.md).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <thread>

#include <unistd.h>

#include "app/cli/commands.h"
#include "app/cli/report.h"
#include "app/cli/sweep_mpi.h"
#include "core/store/results_db.h"
#include "core/sweep/runner.h"
#include "core/sweep/table.h"
#include "core/util/data_dir.h"

namespace partita::cli {

namespace {

// Set by SIGINT (and under MPI by SIGTERM, which mpirun sends every rank on Ctrl+C): no new point
// starts; in-flight points finish and are stored. The handler puts the default back, so a second
// signal ends the process at once.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void onInterrupt(int signal) {
    g_interrupted = true;
    std::signal(signal, SIG_DFL);
}

struct InterruptScope {
    struct sigaction old_int {}, old_term {};
    bool term;
    explicit InterruptScope(bool with_term) : term(with_term) {
        g_interrupted = false;
        struct sigaction sa {};
        sa.sa_handler = onInterrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int);
        if (term) sigaction(SIGTERM, &sa, &old_term);
    }
    ~InterruptScope() {
        sigaction(SIGINT, &old_int, nullptr);
        if (term) sigaction(SIGTERM, &old_term, nullptr);
    }
};

// "i/n" with 0 <= i < n.
std::pair<std::size_t, std::size_t> parseShard(const std::string& text) {
    const auto slash = text.find('/');
    std::size_t i = 0, n = 0;
    try {
        size_t a = 0, b = 0;
        const std::string left = text.substr(0, slash), right = slash == std::string::npos ? "" : text.substr(slash + 1);
        const long long li = std::stoll(left, &a), ln = std::stoll(right, &b);
        if (a == left.size() && b == right.size() && ln >= 1 && ln <= sweep::kMaxPoints && li >= 0 && li < ln) {
            i = static_cast<std::size_t>(li);
            n = static_cast<std::size_t>(ln);
        }
    } catch (const std::exception&) {
    }
    if (n == 0) throw UsageError("--shard expects i/n with 0 <= i < n (e.g. 0/4), got '" + text + "'");
    return {i, n};
}

std::string duration(double s) {
    if (s < 60) return fixed(s, s < 10 ? 1 : 0) + " s";
    if (s < 3600) return std::to_string(static_cast<int>(s / 60)) + " min " + std::to_string(static_cast<int>(s) % 60) + " s";
    return std::to_string(static_cast<int>(s / 3600)) + " h " + std::to_string(static_cast<int>(s / 60) % 60) + " min";
}

// Done/total, rate and ETA: one updating line on a terminal, else a line per tenth of the work.
class ProgressLine {
public:
    ProgressLine(std::ostream& err, bool terminal) : err_(err), terminal_(terminal) {}
    void operator()(const sweep::Progress& p) {
        const auto now = std::chrono::steady_clock::now();
        const bool last = p.done == p.total;
        if (terminal_) {
            if (!last && now - shown_ < std::chrono::milliseconds(100)) return;
        } else if (!last && p.done * 10 / std::max<std::size_t>(p.total, 1) == step_) {
            return;
        }
        shown_ = now;
        step_ = p.done * 10 / std::max<std::size_t>(p.total, 1);
        const double rate = p.elapsed_s > 0 ? static_cast<double>(p.done) / p.elapsed_s : 0;
        std::string line = std::to_string(p.done) + "/" + std::to_string(p.total) + " points";
        if (p.failed) line += ", " + std::to_string(p.failed) + " failed";
        line += ", " + fixed(rate, rate < 10 ? 2 : 1) + " points/s";
        if (!last && rate > 0) line += ", ETA " + duration(static_cast<double>(p.total - p.done) / rate);
        if (terminal_) {
            constexpr std::size_t kBar = 24;
            const std::size_t filled = p.done * kBar / std::max<std::size_t>(p.total, 1);
            err_ << "\r\033[K[" << std::string(filled, '#') << std::string(kBar - filled, '.') << "] " << line
                 << std::flush;
            open_ = !last;
            if (last) err_ << "\n";
        } else {
            err_ << line << "\n";
        }
    }
    void finish() {
        if (open_) err_ << "\n";
        open_ = false;
    }

private:
    std::ostream& err_;
    bool terminal_;
    bool open_ = false;
    std::size_t step_ = 0;
    std::chrono::steady_clock::time_point shown_{};
};

// A local sweep, or rank 0 of an MPI sweep: plan against the database, run, report.
int sweepOnRankZero(MpiSweep& mpi, const Options& a, const std::string& spec_path, const sweep::Options& options,
                    std::ostream& out, std::ostream& err) {
    const bool dry = a.flag("dry-run");
    const sweep::Spec spec = sweep::loadSpec(spec_path, examplesDir());
    const sweep::PointInputs inputs(spec);
    std::unique_ptr<ResultsDb> db;
    std::unordered_map<std::string, std::string> states;
    const std::string db_path = a.get("db");
    if (!dry || (!db_path.empty() && std::filesystem::exists(db_path))) {
        db = std::make_unique<ResultsDb>(db_path, dry);  // a dry run never writes
        states = db->sweepPointStates();
    }
    const auto summary = [&](const sweep::PlanCounts& c) {
        out << "Sweep '" << spec.name << "': " << c.points << " points";
        if (options.shards > 1) out << "; shard " << options.shard << "/" << options.shards << ": " << c.in_shard;
        out << "; " << c.stored << " stored, " << c.failed << " failed earlier; " << c.todo << " to run on ";
        if (mpi.workers() > 0) out << mpi.workers() << (mpi.workers() == 1 ? " MPI worker" : " MPI workers") << "\n";
        else out << options.jobs << (options.jobs == 1 ? " job" : " jobs") << "\n";
    };
    if (dry) {  // counted one point at a time: a sweep of 10^6 points is never held
        summary(sweep::planCounts(inputs, states, options));
        return 0;
    }
    const sweep::Plan plan = sweep::plan(inputs, states, options);
    summary({plan.points.size(), plan.in_shard, plan.stored, plan.failed, plan.todo.size()});
    mpi.ready();

    // Under mpirun, rank 0's stderr is a pipe even on a terminal; mpirun gives its stdout a pty then.
    const bool terminal =
        &err == &std::cerr && (::isatty(STDERR_FILENO) || (mpi.enabled() && ::isatty(STDOUT_FILENO)));
    ProgressLine line(err, terminal);
    sweep::Report r;
    {
        const InterruptScope scope(a.flag("mpi"));
        const auto show = [&](const sweep::Progress& p) { line(p); };
        const auto stop = [] { return g_interrupted.load(); };
        r = mpi.workers() > 0 ? mpi.run(inputs, plan, *db, options, show, stop)
                              : sweep::run(inputs, plan, *db, options, show, stop);
        line.finish();
    }
    const double rate = r.elapsed_s > 0 ? static_cast<double>(r.ran) / r.elapsed_s : 0;
    out << "Ran " << r.ran << " points in " << duration(r.elapsed_s) << " (" << fixed(rate, 2) << " points/s): "
        << r.ran - r.failed << " stored, " << r.failed << " failed; database " << db->path() << "\n";
    if (!r.failures.empty()) {
        out << "Failed points (" << r.failures.size() << "):\n";
        constexpr std::size_t kListed = 20;  // the rest are in the database (sweep_points.error)
        for (std::size_t i = 0; i < std::min(r.failures.size(), kListed); ++i) {
            const auto& f = r.failures[i];
            out << "  #" << f.index << " " << f.point << (f.earlier ? " (earlier run)" : "") << ": " << f.error << "\n";
        }
        if (r.failures.size() > kListed)
            out << "  ... and " << r.failures.size() - kListed << " more (table sweep_points, column error)\n";
        out << "Rerun with --retry-failed to try them again.\n";
    }
    if (r.stopped) {
        out << "Interrupted: " << plan.todo.size() - r.ran << " points not run; rerun the same command to finish.\n";
        return 130;
    }
    return r.failures.empty() ? 0 : 1;
}

int cmdSweep(const Options& a, std::ostream& out, std::ostream& err) {
    if (!a.has("spec"))
        throw UsageError("usage: partita-cli sweep SPEC --db FILE [--jobs N | --mpi] [--shard i/n] [--dry-run] "
                         "[--retry-failed]");
    const std::string spec_path = a.get("spec");
    const bool dry = a.flag("dry-run");
    if (!dry && !a.has("db")) throw UsageError("option --db is required (the results database to fill)");
    if (a.flag("mpi") && (dry || a.has("jobs")))
        throw UsageError(std::string("--mpi runs one process per MPI rank; drop ") + (dry ? "--dry-run" : "--jobs") +
                         " (or --mpi)");
    sweep::Options options;
    const unsigned cores = std::max(std::thread::hardware_concurrency(), 1u);
    options.jobs = static_cast<unsigned>(a.integer64("jobs", cores));
    if (a.has("shard")) std::tie(options.shard, options.shards) = parseShard(a.get("shard"));
    options.retry_failed = a.flag("retry-failed");

    // With --mpi, ranks 1.. only compute: they never read the database, print nothing but errors.
    MpiSweep mpi(a.flag("mpi"));
    if (mpi.worker()) return mpi.work(spec_path, err);
    if (a.flag("mpi")) options.jobs = 1;  // rank 0 alone (mpirun -n 1) computes on its one process
    try {
        return sweepOnRankZero(mpi, a, spec_path, options, out, err);
    } catch (const std::exception& e) {
        if (!mpi.enabled() || mpi.started()) throw;
        // Said before the workers hear of it: mpirun ends the whole job once any rank exits non-zero.
        err << "partita-cli sweep: error: " << e.what() << std::endl;
        return 1;
    }
}

// The sweep table of a database (docs/guide/sweeps.md#the-sweep-table): CSV, or JSON with --json.
int cmdSweepTable(const Options& a, std::ostream& out) {
    if (!a.has("db")) throw UsageError("usage: partita-cli sweep-table --db FILE [--sweep NAME] [--json]");
    const std::string path = a.get("db");
    if (!std::filesystem::exists(path)) throw UsageError("--db " + path + ": no such file");
    const ResultsDb db(path, true);
    const sweep::Table table = sweep::readTable(db, a.get("sweep"));
    if (a.flag("json")) out << jsonText(sweep::tableJson(table)) << "\n";
    else out << toCsv(sweep::tableCsv(table));
    return 0;
}

int cmdMergeDb(const Options& a, std::ostream& out) {
    const std::vector<std::string> argv = a.all("databases");
    if (argv.empty()) throw UsageError("usage: partita-cli merge-db OUT [IN...]");
    // Every input is checked (read-only, nothing created beside it) before OUT is created or migrated,
    // so a refusal leaves every file as it was.
    for (size_t i = 1; i < argv.size(); ++i) ResultsDb::checkMergeInput(argv[i], argv[0]);
    ResultsDb db(argv[0]);  // created, or migrated to this schema: merge-db OUT alone does just that
    if (argv.size() == 1) out << argv[0] << ": schema " << ResultsDb::kSchemaVersion << ", nothing to merge\n";
    for (size_t i = 1; i < argv.size(); ++i) {
        const ResultsDb::MergeCount c = db.merge(argv[i]);
        out << argv[i] << ": " << c.runs_added << " runs added, " << c.runs_skipped << " already present; "
            << c.points_added << " sweep points added, " << c.points_skipped << " already present\n";
    }
    return 0;
}

}  // namespace

void addSweepCommands(CLI::App& app, RunContext& ctx) {
    CLI::App* sweep = command(app, ctx, "sweep",
                              "every point of a partita-sweep/1 spec on local threads (or MPI ranks), stored in\n"
                              "the results database; a rerun resumes",
                              cmdSweep);
    positional(*sweep, "spec", "the partita-sweep/1 spec (docs/guide/sweeps.md)");
    value(*sweep, "db", "FILE", "the results database to fill (required unless --dry-run)");
    value(*sweep, "jobs", "N", "worker threads (one per core)")->check(integerIn(1, 1024));
    value(*sweep, "shard", "i/n", "run only shard i of n (1-based)");
    flag(*sweep, "dry-run", "list the points and what is already stored; run nothing");
    flag(*sweep, "retry-failed", "run the points that failed before again");
    flag(*sweep, "mpi", "one process per MPI rank (mpirun -n N partita-cli sweep ... --mpi)");

    CLI::App* table = command(app, ctx, "sweep-table",
                              "the sweep points of a results database as a table: axes, metrics, status and\n"
                              "run id per point (CSV, or --json)",
                              cmdSweepTable);
    value(*table, "db", "FILE", "the results database (required)");
    value(*table, "sweep", "NAME", "only the points of this sweep (its spec's name)");
    flag(*table, "json", "JSON instead of CSV");

    CLI::App* merge = command(app, ctx, "merge-db",
                              "add the runs and sweep points of databases IN to OUT, without duplicates\n"
                              "(OUT alone: create it or migrate it to this version's schema)",
                              cmdMergeDb);
    positional(*merge, "databases", "OUT [IN...]")->expected(0, CLI::detail::expected_max_vector_size)->allow_extra_args();
}

}  // namespace partita::cli
