#include "widgets/geometry/ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace partita::view {

double niceStep(double span, int max_ticks) {
    if (!(span > 0) || max_ticks < 1) return 1;
    const double raw = span / max_ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw * (1 - 1e-12)) return m * mag;
    return 10 * mag;
}

namespace {
std::vector<double> positions(double lo, double hi, double step) {
    std::vector<double> out;
    const double first = std::ceil(lo / step - 1e-9);
    for (double k = first; k * step <= hi + step * 1e-9; k += 1) out.push_back(k * step == 0 ? 0.0 : k * step);
    return out;
}

std::string number(double v, double step) {
    // Enough decimals to tell neighbouring ticks apart.
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}
}  // namespace

std::vector<Tick> niceTicks(double lo, double hi, int max_ticks) {
    const double step = niceStep(hi - lo, max_ticks);
    std::vector<Tick> ticks;
    for (double v : positions(lo, hi, step)) ticks.push_back({v, number(v, step)});
    return ticks;
}

std::vector<Tick> timeTicks(double lo, double hi, int max_ticks) {
    const double step = niceStep(hi - lo, max_ticks);
    static const struct { double scale; const char* unit; } units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
    // The unit follows the largest magnitude shown, so labels stay short.
    const double magnitude = std::max(std::fabs(lo), std::fabs(hi));
    double scale = 1e-9;
    const char* unit = "ns";
    for (const auto& u : units)
        if (magnitude >= u.scale * (1 - 1e-12)) { scale = u.scale; unit = u.unit; break; }
    std::vector<Tick> ticks;
    for (double v : positions(lo, hi, step)) ticks.push_back({v, number(v / scale, step / scale) + " " + unit});
    return ticks;
}

std::vector<Tick> logTicks(double lo, double hi, int max_ticks) {
    std::vector<Tick> ticks;
    if (!(lo > 0) || !(hi >= lo) || max_ticks < 1) return ticks;
    const double eps = 1e-9;
    const int first = static_cast<int>(std::ceil(std::log10(lo) - eps));
    const int last = static_cast<int>(std::floor(std::log10(hi) + eps));
    if (last - first + 1 >= 2) {
        const int every = std::max(1, (last - first + max_ticks) / max_ticks);  // ceil(decades / max)
        for (int k = first; k <= last; k += every) ticks.push_back({std::pow(10.0, k), {}});
        return ticks;
    }
    // Less than two decades: 1-2-5 multiples inside the range.
    for (int k = first - 1; k <= last; ++k)
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, k);
            if (v >= lo * (1 - eps) && v <= hi * (1 + eps)) ticks.push_back({v, {}});
        }
    const size_t every = (ticks.size() + static_cast<size_t>(max_ticks) - 1) / static_cast<size_t>(max_ticks);
    std::vector<Tick> thinned;
    for (size_t i = 0; i < ticks.size(); i += std::max<size_t>(every, 1)) thinned.push_back(ticks[i]);
    return thinned;
}

}  // namespace partita::view
