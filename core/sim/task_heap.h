#pragma once
// The simulators' ready queue: a 4-ary min-heap on (ready, task id). Popping
// is most of a list schedule's work after memory; four children per node make
// the heap half as deep as a binary one and keep siblings in one cache line or two.
#include <cstdint>
#include <vector>

namespace partita::sim {

// Strict order on (ready, id) used by both simulators.
inline bool keyLess(double ready_a, std::uint64_t id_a, double ready_b, std::uint64_t id_b) {
    return ready_a < ready_b || (ready_a == ready_b && id_a < id_b);
}

class TaskHeap {
public:
    struct Entry {
        double ready;
        std::uint64_t id;
        int task;
        int resource;  // carried along so that popping needs no look-up
    };

    bool empty() const { return v_.empty(); }
    size_t size() const { return v_.size(); }
    const Entry& top() const { return v_.front(); }
    void clear() { v_.clear(); }
    void reserve(size_t n) { v_.reserve(n); }

    void push(const Entry& e) {
        size_t i = v_.size();
        v_.push_back(e);
        while (i > 0) {
            const size_t parent = (i - 1) / 4;
            if (!less(e, v_[parent])) break;
            v_[i] = v_[parent];
            i = parent;
        }
        v_[i] = e;
    }

    Entry pop() {
        const Entry out = v_.front();
        const Entry last = v_.back();
        v_.pop_back();
        if (!v_.empty()) siftDown(0, last);
        return out;
    }

    // Bulk loading: append() entries in any order, then heapify().
    void append(const Entry& e) { v_.push_back(e); }
    void heapify() {
        for (size_t i = v_.size() / 4 + 1; i-- > 0;)
            if (i < v_.size()) siftDown(i, v_[i]);
    }

private:
    static bool less(const Entry& a, const Entry& b) { return keyLess(a.ready, a.id, b.ready, b.id); }

    // Places e at hole i or below.
    void siftDown(size_t i, const Entry e) {
        const size_t n = v_.size();
        while (true) {
            const size_t first = 4 * i + 1;
            if (first >= n) break;
            size_t best = first;
            const size_t end = first + 4 < n ? first + 4 : n;
            for (size_t c = first + 1; c < end; ++c)
                if (less(v_[c], v_[best])) best = c;
            if (!less(v_[best], e)) break;
            v_[i] = v_[best];
            i = best;
        }
        v_[i] = e;
    }

    std::vector<Entry> v_;
};

}  // namespace partita::sim
