#include "core/sweep/runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "core/store/results_db.h"
#include "core/util/worker_pool.h"

namespace partita::sweep {

Plan plan(const PointInputs& inputs, const std::unordered_map<std::string, std::string>& states,
          const Options& options) {
    Plan p;
    p.points = expand(inputs.spec());
    std::unordered_set<std::string> planned;
    for (const Point& point : p.points) {
        const Prepared prepared = inputs.prepare(point);
        p.keys.push_back(prepared.key);
        p.errors.push_back(prepared.error);
        if (point.index % options.shards != options.shard) continue;
        ++p.in_shard;
        const auto it = states.find(prepared.key);
        const bool stored = it != states.end() && it->second.empty();
        const bool failed = it != states.end() && !it->second.empty();
        p.stored += stored;
        p.failed += failed;
        if (stored || (failed && !options.retry_failed)) continue;
        if (planned.insert(prepared.key).second) p.todo.push_back(point.index);
    }
    return p;
}

namespace {

struct Outcome {
    std::size_t index = 0;
    std::optional<Run> run;
    std::string error;
};

double since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Report run(const PointInputs& inputs, const Plan& plan, ResultsDb& db, const Options& options,
           const std::function<void(const Progress&)>& progress, const std::function<bool()>& stop) {
    const auto start = std::chrono::steady_clock::now();
    const Spec& spec = inputs.spec();
    Report report;
    if (!options.retry_failed) {
        const auto states = db.sweepPointStates();
        for (const Point& point : plan.points) {
            if (point.index % options.shards != options.shard) continue;
            const auto it = states.find(plan.keys[point.index]);
            if (it != states.end() && !it->second.empty())
                report.failures.push_back({point.index, point.describe(spec).dump(), it->second, true});
        }
    }
    const unsigned jobs = std::max(options.jobs, 1u);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> abort{false};
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<Outcome> outcomes;
    unsigned finished = 0, workers = jobs;
    auto work = [&] {
        for (;;) {
            if (abort || (stop && stop())) break;
            const std::size_t slot = next++;
            if (slot >= plan.todo.size()) break;
            Outcome o;
            o.index = plan.todo[slot];
            try {
                o.run = runPoint(inputs.prepare(plan.points[o.index]));
            } catch (const std::exception& e) {
                o.error = e.what();
            }
            const std::lock_guard lock(mutex);
            outcomes.push_back(std::move(o));
            ready.notify_one();
        }
        const std::lock_guard lock(mutex);
        ++finished;
        ready.notify_one();
    };
    WorkerPool pool(jobs);
    workers = pool.size();  // fewer when the system refused a thread
    const auto batch = pool.submit(workers, work);
    Progress shown{0, plan.todo.size(), 0, 0};
    std::exception_ptr failure;
    // What arrived while the last transaction ran is stored in the next one, so the writer keeps up
    // with many workers; a batch is bounded so that progress stays live.
    constexpr std::size_t kBatch = 64;
    std::vector<Outcome> taken;
    for (;;) {
        {
            std::unique_lock lock(mutex);
            ready.wait(lock, [&] { return !outcomes.empty() || finished == workers; });
            if (outcomes.empty()) break;
            taken.clear();
            while (!outcomes.empty() && taken.size() < kBatch) {
                taken.push_back(std::move(outcomes.front()));
                outcomes.pop_front();
            }
        }
        if (failure) continue;  // drained, not stored
        std::vector<ResultsDb::SweepPoint> rows;
        for (const Outcome& o : taken) {
            store::SweepPointRow row;
            row.key = plan.keys[o.index];
            row.sweep = spec.name;
            row.point_json = plan.points[o.index].describe(spec).dump();
            row.error = o.error;
            rows.emplace_back(std::move(row), o.run ? &*o.run : nullptr);
        }
        try {
            db.storeSweepPoints(rows);
        } catch (...) {
            failure = std::current_exception();
            abort = true;
            continue;
        }
        for (size_t i = 0; i < taken.size(); ++i) {
            ++report.ran;
            if (!taken[i].error.empty()) {
                ++report.failed;
                report.failures.push_back({taken[i].index, rows[i].first.point_json, taken[i].error, false});
            }
        }
        shown.done = report.ran;
        shown.failed = report.failed;
        shown.elapsed_s = since(start);
        if (progress) progress(shown);
    }
    batch->wait();
    if (failure) std::rethrow_exception(failure);
    std::stable_sort(report.failures.begin(), report.failures.end(),
                     [](const Failure& a, const Failure& b) { return a.index < b.index; });  // not arrival order
    report.stopped = report.ran < plan.todo.size();
    report.elapsed_s = since(start);
    return report;
}

}  // namespace partita::sweep
