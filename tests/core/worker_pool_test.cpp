// The shared worker pool: every copy runs exactly once, a waiter runs what no worker
// has claimed (so a busy pool or a nested wait never deadlocks), and a task's exception
// reaches the waiter instead of terminating the program.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "core/util/worker_pool.h"

namespace partita {
namespace {

TEST(WorkerPool, RunsEveryCopyOnce) {
    WorkerPool pool(3);
    std::atomic<int> runs{0};
    pool.submit(17, [&] { ++runs; })->wait();
    EXPECT_EQ(runs.load(), 17);
    pool.submit(0, [&] { ++runs; })->wait();  // nothing to do: returns at once
    EXPECT_EQ(runs.load(), 17);
}

TEST(WorkerPool, AWaiterRunsWhatABusyPoolCannot) {
    WorkerPool pool(1);
    std::atomic<bool> release{false};
    const auto blocker = pool.submit(1, [&] {
        while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    std::atomic<int> runs{0};
    const std::thread::id me = std::this_thread::get_id();
    std::atomic<int> on_caller{0};
    pool.submit(4, [&] {
        ++runs;
        if (std::this_thread::get_id() == me) ++on_caller;
    })->wait();
    EXPECT_EQ(runs.load(), 4);
    EXPECT_EQ(on_caller.load(), 4);  // the one worker was busy: the waiter ran them all
    release = true;
    blocker->wait();
}

TEST(WorkerPool, NestedWaitsInsidePoolTasksFinish) {
    WorkerPool pool(2);
    std::atomic<int> inner{0};
    pool.submit(2, [&] { pool.submit(3, [&] { ++inner; })->wait(); })->wait();
    EXPECT_EQ(inner.load(), 6);
}

TEST(WorkerPool, TheFirstExceptionReachesTheWaiter) {
    WorkerPool pool(2);
    std::atomic<int> runs{0};
    const auto batch = pool.submit(5, [&] {
        if (++runs == 3) throw std::runtime_error("copy 3 failed");
    });
    EXPECT_THROW(batch->wait(), std::runtime_error);
    EXPECT_EQ(runs.load(), 5);  // the others still ran: the caller decides what a failure stops
}

TEST(WorkerPool, SharedHasAtLeastOneThread) { EXPECT_GE(WorkerPool::shared().size(), 1u); }

}  // namespace
}  // namespace partita
