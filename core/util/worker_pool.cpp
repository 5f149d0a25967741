#include "core/util/worker_pool.h"

#include <algorithm>

namespace partita {

bool WorkerPool::Batch::runOne() {
    if (unclaimed_.fetch_sub(1) <= 0) return false;
    try {
        task_();
    } catch (...) {
        const std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
    }
    const std::lock_guard lock(mutex_);
    if (--unfinished_ == 0) finished_.notify_all();
    return true;
}

void WorkerPool::Batch::wait() {
    while (runOne()) {}
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [this] { return unfinished_ == 0; });
    if (failure_) std::rethrow_exception(failure_);
}

bool WorkerPool::Batch::done() const {
    const std::lock_guard lock(mutex_);
    return unfinished_ == 0;
}

WorkerPool::WorkerPool(unsigned threads) {
    for (unsigned t = 0; t < std::max(threads, 1u); ++t) {
        try {
            threads_.emplace_back([this] { loop(); });
        } catch (const std::system_error&) {
            break;  // fewer workers; waiters run the rest themselves
        }
    }
}

WorkerPool::~WorkerPool() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
}

WorkerPool& WorkerPool::shared() {
    static WorkerPool pool(std::max(std::thread::hardware_concurrency(), 1u));
    return pool;
}

std::shared_ptr<WorkerPool::Batch> WorkerPool::submit(unsigned copies, std::function<void()> task) {
    auto batch = std::make_shared<Batch>();
    batch->task_ = std::move(task);
    batch->unclaimed_ = static_cast<int>(copies);
    batch->unfinished_ = static_cast<int>(copies);
    {
        const std::lock_guard lock(mutex_);
        for (unsigned c = 0; c < copies; ++c) queue_.push_back(batch);
    }
    wake_.notify_all();
    return batch;
}

void WorkerPool::loop() {
    for (;;) {
        std::shared_ptr<Batch> batch;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping, nothing left
            batch = std::move(queue_.front());
            queue_.pop_front();
        }
        batch->runOne();  // false when a waiter already ran this copy
    }
}

}  // namespace partita
