#pragma once
// One bounded pool of worker threads for the whole process (data-parallel
// loops such as the 2^N exploration), so that concurrent jobs share the cores
// instead of each starting hardware_concurrency threads of its own.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace partita {

class WorkerPool {
public:
    // `copies` runs of one task. Whoever waits runs the copies no worker has claimed yet, so waiting
    // never deadlocks, even inside a pool task or with every worker busy.
    class Batch {
    public:
        void wait();  // helps, then blocks until every copy has returned; rethrows the first exception
        bool done() const;

    private:
        friend class WorkerPool;
        bool runOne();  // claims and runs one copy; false when none is left
        std::function<void()> task_;
        std::atomic<int> unclaimed_{0};
        int unfinished_ = 0;
        std::exception_ptr failure_;
        mutable std::mutex mutex_;
        std::condition_variable finished_;
    };

    explicit WorkerPool(unsigned threads);
    ~WorkerPool();  // finishes queued work, then joins
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    static WorkerPool& shared();  // hardware_concurrency threads (at least one), started on first use
    unsigned size() const { return static_cast<unsigned>(threads_.size()); }
    std::shared_ptr<Batch> submit(unsigned copies, std::function<void()> task);

private:
    void loop();
    std::vector<std::thread> threads_;
    std::deque<std::shared_ptr<Batch>> queue_;  // one entry per copy
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
};

}  // namespace partita
