#include "core/sweep/runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <unordered_set>

#include "core/store/results_db.h"
#include "core/util/bytes.h"
#include "core/util/worker_pool.h"

namespace partita::sweep {

namespace {

// Each point with its preparation and whether this run computes it; `todo` decides whether a key is
// new (each key runs once).
template <class Todo>
void scan(const PointInputs& inputs, const std::unordered_map<std::string, std::string>& states,
          const Options& options, PlanCounts& counts, Todo todo,
          const std::function<void(const Point&, Prepared&&, bool run)>& visit) {
    forEachPoint(inputs.spec(), [&](const Point& point) {
        Prepared prepared = inputs.prepare(point);
        ++counts.points;
        bool run = false;
        if (point.index % options.shards == options.shard) {
            ++counts.in_shard;
            const auto it = states.find(prepared.key);
            const bool stored = it != states.end() && it->second.empty();
            const bool failed = it != states.end() && !it->second.empty();
            counts.stored += stored;
            counts.failed += failed;
            run = !stored && !(failed && !options.retry_failed) && todo(prepared.key);
            counts.todo += run;
        }
        visit(point, std::move(prepared), run);
        return true;
    });
}

}  // namespace

Plan plan(const PointInputs& inputs, const std::unordered_map<std::string, std::string>& states,
          const Options& options) {
    Plan p;
    PlanCounts counts;
    std::unordered_set<std::string> planned;
    scan(inputs, states, options, counts, [&](const std::string& key) { return planned.insert(key).second; },
         [&](const Point& point, Prepared&& prepared, bool run) {
             p.points.push_back(point);
             p.keys.push_back(std::move(prepared.key));
             p.errors.push_back(std::move(prepared.error));
             if (run) p.todo.push_back(point.index);
         });
    p.in_shard = counts.in_shard;
    p.stored = counts.stored;
    p.failed = counts.failed;
    return p;
}

PlanCounts planCounts(const PointInputs& inputs, const std::unordered_map<std::string, std::string>& states,
                      const Options& options) {
    PlanCounts counts;
    // A 64-bit hash per planned key (SHA-256 hex: collisions are beyond any sweep's size).
    std::unordered_set<std::size_t> planned;
    scan(inputs, states, options, counts,
         [&](const std::string& key) { return planned.insert(std::hash<std::string>{}(key)).second; },
         [](const Point&, Prepared&&, bool) {});
    return counts;
}

namespace {

double since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Outcome compute(const PointInputs& inputs, const Point& point) {
    Outcome o;
    o.index = point.index;
    try {
        const Prepared prepared = inputs.prepare(point);
        o.key = prepared.key;
        o.rows = pointRows(prepared);
    } catch (const std::exception& e) {
        o.error = e.what();
    }
    return o;
}

std::string encode(const Outcome& o) {
    ByteWriter w;
    w.u64(o.index).str(o.key).str(o.error).u64(o.rows ? 1 : 0);
    if (o.rows) w.str(store::encode(*o.rows));
    return w.take();
}

Outcome decodeOutcome(std::string_view bytes) {
    ByteReader r(bytes);
    Outcome o;
    o.index = r.u64();
    o.key = r.str();
    o.error = r.str();
    if (r.u64()) o.rows = store::decodeRunRows(r.str());
    if (!r.done()) throw Error("a sweep point's message is longer than its fields");
    return o;
}

Writer::Writer(const PointInputs& inputs, const Plan& plan, ResultsDb& db, const Options& options)
    : inputs_(inputs), plan_(plan), db_(db), start_(std::chrono::steady_clock::now()) {
    progress_.total = plan.todo.size();
    if (options.retry_failed) return;
    const auto states = db.sweepPointStates();
    for (const Point& point : plan.points) {
        if (point.index % options.shards != options.shard) continue;
        const auto it = states.find(plan.keys[point.index]);
        if (it != states.end() && !it->second.empty())
            report_.failures.push_back({point.index, point.describe(inputs.spec()).dump(), it->second, true});
    }
}

void Writer::store(const std::vector<Outcome>& batch) {
    std::vector<ResultsDb::SweepRows> rows;
    for (const Outcome& o : batch) {
        store::SweepPointRow row;
        row.key = plan_.keys[o.index];
        row.sweep = inputs_.spec().name;
        row.point_json = plan_.points[o.index].describe(inputs_.spec()).dump();
        row.error = o.error;
        rows.emplace_back(std::move(row), o.rows ? &*o.rows : nullptr);
    }
    std::vector<std::string> refused;  // runs the database would not take: their points failed
    db_.storeSweepRows(rows, &refused);
    for (size_t i = 0; i < batch.size(); ++i) {
        ++report_.ran;
        const std::string& error = batch[i].error.empty() ? refused[i] : batch[i].error;
        if (!error.empty()) {
            ++report_.failed;
            report_.failures.push_back({batch[i].index, rows[i].first.point_json, error, false});
        }
    }
    progress_.done = report_.ran;
    progress_.failed = report_.failed;
    progress_.elapsed_s = since(start_);
}

Report Writer::finish() {
    std::stable_sort(report_.failures.begin(), report_.failures.end(),
                     [](const Failure& a, const Failure& b) { return a.index < b.index; });  // not arrival order
    report_.stopped = report_.ran < plan_.todo.size();
    report_.elapsed_s = since(start_);
    return report_;
}

Report run(const PointInputs& inputs, const Plan& plan, ResultsDb& db, const Options& options,
           const std::function<void(const Progress&)>& progress, const std::function<bool()>& stop) {
    Writer writer(inputs, plan, db, options);
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
            Outcome o = compute(inputs, plan.points[plan.todo[slot]]);
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
    std::exception_ptr failure;
    // What arrived while the last transaction ran is stored in the next one, so the writer keeps up
    // with many workers; a batch is bounded so that progress stays live.
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
        try {
            writer.store(taken);
        } catch (...) {
            failure = std::current_exception();
            abort = true;
            continue;
        }
        if (progress) progress(writer.progress());
    }
    batch->wait();
    if (failure) std::rethrow_exception(failure);
    return writer.finish();
}

}  // namespace partita::sweep
