#pragma once
// A compact byte form for handing results between processes (an MPI sweep's workers send their
// stored rows to rank 0): strings length-prefixed, numbers as their 8 bytes in this machine's
// order, so doubles (NaN and infinities included) come back bit for bit. Both ends run the same
// binary on the same architecture; a reader past the end throws instead of reading beyond it.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/error.h"

namespace partita {

class ByteWriter {
public:
    ByteWriter& u64(std::uint64_t v) { return raw(&v, sizeof v); }
    ByteWriter& i64(std::int64_t v) { return raw(&v, sizeof v); }
    ByteWriter& f64(double v) { return raw(&v, sizeof v); }
    ByteWriter& str(std::string_view s) {
        u64(s.size());
        bytes_.append(s);
        return *this;
    }
    ByteWriter& doubles(const std::vector<double>& v) {
        u64(v.size());
        for (double d : v) f64(d);
        return *this;
    }
    const std::string& bytes() const { return bytes_; }
    std::string take() { return std::move(bytes_); }

private:
    ByteWriter& raw(const void* p, std::size_t n) {
        bytes_.append(static_cast<const char*>(p), n);
        return *this;
    }
    std::string bytes_;
};

class ByteReader {
public:
    explicit ByteReader(std::string_view bytes) : rest_(bytes) {}
    std::uint64_t u64() { return get<std::uint64_t>(); }
    std::int64_t i64() { return get<std::int64_t>(); }
    double f64() { return get<double>(); }
    std::string str() {
        const std::uint64_t n = u64();
        need(n);
        std::string s(rest_.substr(0, n));
        rest_.remove_prefix(n);
        return s;
    }
    std::vector<double> doubles() {
        const std::uint64_t n = u64();
        if (n > rest_.size() / sizeof(double)) need(rest_.size() + 1);  // more than is left
        std::vector<double> v(n);
        for (double& d : v) d = f64();
        return v;
    }
    bool done() const { return rest_.empty(); }

private:
    void need(std::uint64_t n) const {
        if (n > rest_.size()) throw Error("truncated message: " + std::to_string(n) + " bytes wanted, " +
                                          std::to_string(rest_.size()) + " left");
    }
    template <class T>
    T get() {
        need(sizeof(T));
        T v;
        std::memcpy(&v, rest_.data(), sizeof(T));
        rest_.remove_prefix(sizeof(T));
        return v;
    }
    std::string_view rest_;
};

}  // namespace partita
