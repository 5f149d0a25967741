#pragma once
// A small exact rational (int64 numerator/denominator, always normalised with a
// positive denominator) so Winograd matrices can be checked against direct
// correlation without rounding. Overflow is reported, never wrapped.
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

namespace partita::mpt {

class Rational {
public:
    constexpr Rational(std::int64_t num = 0, std::int64_t den = 1) : num_(num), den_(den) { normalise(); }

    std::int64_t num() const { return num_; }
    std::int64_t den() const { return den_; }
    double toDouble() const { return static_cast<double>(num_) / static_cast<double>(den_); }
    std::string str() const { return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_); }

    friend Rational operator+(Rational a, Rational b) {
        return Rational(add(mul(a.num_, b.den_), mul(b.num_, a.den_)), mul(a.den_, b.den_));
    }
    friend Rational operator-(Rational a, Rational b) { return a + Rational(-b.num_, b.den_); }
    friend Rational operator*(Rational a, Rational b) {
        // Cross-reduce first to keep intermediates small.
        const std::int64_t g1 = std::gcd(a.num_, b.den_), g2 = std::gcd(b.num_, a.den_);
        return Rational(mul(a.num_ / (g1 ? g1 : 1), b.num_ / (g2 ? g2 : 1)),
                        mul(a.den_ / (g2 ? g2 : 1), b.den_ / (g1 ? g1 : 1)));
    }
    friend Rational operator/(Rational a, Rational b) {
        if (b.num_ == 0) throw std::domain_error("Rational: division by zero");
        return a * Rational(b.den_, b.num_);
    }
    Rational operator-() const { return Rational(-num_, den_); }
    Rational& operator+=(Rational o) { return *this = *this + o; }
    Rational& operator-=(Rational o) { return *this = *this - o; }
    Rational& operator*=(Rational o) { return *this = *this * o; }
    friend bool operator==(Rational a, Rational b) { return a.num_ == b.num_ && a.den_ == b.den_; }
    friend bool operator<(Rational a, Rational b) { return (a - b).num_ < 0; }

private:
    static std::int64_t mul(std::int64_t a, std::int64_t b) {
        std::int64_t r = 0;
        if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("Rational: 64-bit overflow");
        return r;
    }
    static std::int64_t add(std::int64_t a, std::int64_t b) {
        std::int64_t r = 0;
        if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("Rational: 64-bit overflow");
        return r;
    }
    constexpr void normalise() {
        if (den_ == 0) throw std::domain_error("Rational: zero denominator");
        if (den_ < 0) {
            num_ = -num_;
            den_ = -den_;
        }
        const std::int64_t g = std::gcd(num_, den_);
        if (g > 1) {
            num_ /= g;
            den_ /= g;
        }
        if (num_ == 0) den_ = 1;
    }
    std::int64_t num_, den_;
};

}  // namespace partita::mpt
