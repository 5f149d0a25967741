#pragma once
// Axis ticks at 1-2-5 steps, with labels in a unit scaled to the span
// (seconds: s, ms, us, ns; any other unit: plain numbers or k/M/G prefixes).
#include <string>
#include <vector>

namespace partita::view {

struct Tick {
    double value = 0;
    std::string label;
};

// At most `max_ticks` ticks covering [lo, hi] at a 1-2-5 step.
std::vector<Tick> niceTicks(double lo, double hi, int max_ticks);
// The same, labelled as times ("0 ms", "2.5 ms"); the unit follows the step.
std::vector<Tick> timeTicks(double lo_s, double hi_s, int max_ticks);
// Ticks for a log axis over [lo, hi] (lo > 0): the powers of ten inside it,
// every k-th decade when there are more than max_ticks, or 1-2-5 multiples
// when fewer than two powers fall inside. Labels are left empty (callers add units).
std::vector<Tick> logTicks(double lo, double hi, int max_ticks);
// A 1-2-5 step no smaller than span / max_ticks.
double niceStep(double span, int max_ticks);

}  // namespace partita::view
