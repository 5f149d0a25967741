#pragma once
// Colour-blind-safe colours as plain RGB: the Okabe-Ito qualitative palette
// (categories: phases, split types) and the viridis sequential map (values).
#include <cstdint>

namespace partita::view {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb&) const = default;
};

// Okabe & Ito (2008): black, orange, sky blue, bluish green, yellow, blue,
// vermillion, reddish purple. Index wraps around.
Rgb okabeIto(int index);

// The colour of a partition type wherever one is drawn (grid, network graph): Type-I / dp (0) sky
// blue, Type-II / mp (1) orange, Type-III (2) bluish green, distinct for all common colour vision types.
Rgb splitColour(int type);

// Viridis at t in [0, 1] (clamped), interpolated between 9 anchor colours.
Rgb viridis(double t);

// Black or white, whichever reads better on `background`.
Rgb textOn(Rgb background);

}  // namespace partita::view
