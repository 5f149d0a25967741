#include "core/search/explore.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <system_error>
#include <exception>
#include <mutex>
#include <thread>

#include "core/search/methods.h"
#include "core/util/error.h"
#include "core/util/worker_pool.h"

namespace partita {

std::uint64_t codeOf(const Grid& grid, const std::vector<CellRef>& cells, int radix) {
    std::uint64_t code = 0;
    for (const auto& c : cells) code = code * static_cast<std::uint64_t>(radix) + static_cast<std::uint64_t>(index(grid.split(c.level, c.layer)));
    return code;
}

void applyCode(Grid& grid, const std::vector<CellRef>& cells, int radix, std::uint64_t code) {
    for (size_t i = cells.size(); i-- > 0;) {
        grid.at(cells[i].level, cells[i].layer).split = static_cast<Split>(code % static_cast<std::uint64_t>(radix));
        code /= static_cast<std::uint64_t>(radix);
    }
}

std::string digits(std::uint64_t code, int radix, int cells, int first, int count) {
    std::string all(static_cast<size_t>(cells), '0');
    for (int i = cells; i-- > 0;) {
        all[static_cast<size_t>(i)] = static_cast<char>('0' + code % static_cast<std::uint64_t>(radix));
        code /= static_cast<std::uint64_t>(radix);
    }
    return all.substr(static_cast<size_t>(first), static_cast<size_t>(count));
}

Grid ExploreResult::grid(const Grid& base, std::uint64_t code) const {
    Grid g = base;
    applyCode(g, cells, radix, code);
    return g;
}

std::vector<CellRef> levelCells(const std::vector<int>& levels, int layers) {
    std::vector<CellRef> cells;
    for (int h : levels)
        for (int l = 0; l < layers; ++l) cells.push_back({h, l});
    return cells;
}

std::vector<CellRef> layerCells(const std::vector<int>& layer_ids, int levels) {
    std::vector<CellRef> cells;
    for (int l : layer_ids)
        for (int h = 0; h < levels; ++h) cells.push_back({h, l});
    return cells;
}

ExploreResult explore(const LayerTable& layers, const Array& array, const CostParams& params,
                      const ExploreRequest& request, const ProgressFn& progress, const CancelFn& cancel) {
    const Grid& base = request.base;
    if (base.levels() != array.levels || base.layers() != static_cast<int>(layers.size()))
        throw std::invalid_argument("the base grid does not match the network and array");
    if (request.radix < 2 || request.radix > kSplitCount) throw std::invalid_argument("radix must be 2 or 3");
    if (request.cells.empty()) throw std::invalid_argument("choose at least one cell to explore");
    std::uint64_t points = 1;
    for (size_t i = 0; i < request.cells.size(); ++i) {
        const auto& c = request.cells[i];
        if (c.level < 0 || c.level >= base.levels() || c.layer < 0 || c.layer >= base.layers())
            throw std::invalid_argument("cell (H" + std::to_string(c.level + 1) + ", layer " + std::to_string(c.layer + 1) +
                                        ") is outside the grid");
        for (size_t j = 0; j < i; ++j)
            if (request.cells[j] == c) throw std::invalid_argument("a cell is listed twice");
        points *= static_cast<std::uint64_t>(request.radix);
        if (points > kMaxExplorePoints)
            throw std::invalid_argument("the space has more than " + std::to_string(kMaxExplorePoints) +
                                        " points; choose fewer cells");
    }

    ExploreResult result;
    result.cells = request.cells;
    result.radix = request.radix;
    result.total_elements.assign(points, 0);
    result.time_step_s.assign(points, 0);
    result.base_code = codeOf(base, request.cells, request.radix);
    const Evaluation dp = evaluate(layers, array, baselineGrid(Method::DataParallel, layers, array.levels), params);
    result.time_step_dp_s = dp.time_step_s;
    const double t_comp = computeTime(layers, array, params);
    const auto bandwidth = array.levelBandwidths();

    constexpr std::uint64_t kChunk = 2048;
    std::atomic<std::uint64_t> next{0}, done{0};
    std::atomic<bool> stop{false};
    // Claims and evaluates one chunk of codes; false when none are left.
    auto runChunk = [&](Grid& grid, std::vector<LayerState>& scratch) {
        const std::uint64_t begin = next.fetch_add(kChunk);
        if (begin >= points || stop.load(std::memory_order_relaxed)) return false;
        const std::uint64_t end = std::min(points, begin + kChunk);
        for (std::uint64_t code = begin; code < end; ++code) {
            applyCode(grid, request.cells, request.radix, code);
            const QuickCost q = quickCost(layers, grid, params, scratch, bandwidth);
            result.total_elements[code] = q.total_elements;
            result.time_step_s[code] = stepTime(t_comp, q.time_comm_s);
        }
        done.fetch_add(end - begin);
        return true;
    };
    // An exception in a worker (e.g. bad_alloc) must not reach std::terminate: the first one stops
    // every worker and is rethrown to the caller once all have joined.
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto worker = [&] {
        try {
            Grid grid = base;
            std::vector<LayerState> scratch;
            while (runChunk(grid, scratch)) {}
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            stop = true;
        }
    };
    // The process's one bounded pool (WorkerPool::shared): concurrent explorations share its threads.
    WorkerPool& pool = WorkerPool::shared();
    unsigned threads = request.threads > 0 ? static_cast<unsigned>(request.threads) : pool.size();
    threads = static_cast<unsigned>(std::clamp<std::uint64_t>(std::min<std::uint64_t>(threads, points / kChunk + 1), 1, 64));
    // The calling thread works too unless it has to watch; then it only polls, and joins in at the end.
    const bool watch = progress || cancel;
    const auto batch = pool.submit(watch ? threads : threads - 1, worker);
    if (watch) {
        while (done.load() < points && !stop.load() && !batch->done()) {
            if (cancel && cancel()) { stop = true; break; }
            if (progress) progress(static_cast<double>(done.load()) / static_cast<double>(points));
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    } else {
        worker();
    }
    batch->wait();  // runs any copy no pool thread has started (a busy pool), then joins
    if (failure) std::rethrow_exception(failure);
    if (stop) throw Cancelled();
    if (progress) progress(1.0);
    for (std::uint64_t code = 1; code < points; ++code) {
        if (result.total_elements[code] < result.total_elements[result.best_comm_code]) result.best_comm_code = code;
        if (result.time_step_s[code] < result.time_step_s[result.best_time_code]) result.best_time_code = code;
    }
    return result;
}

}  // namespace partita
