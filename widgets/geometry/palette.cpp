#include "widgets/geometry/palette.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace partita::view {

Rgb okabeIto(int index) {
    static const Rgb colours[] = {{0, 0, 0},       {230, 159, 0},  {86, 180, 233}, {0, 158, 115},
                                  {240, 228, 66},  {0, 114, 178},  {213, 94, 0},   {204, 121, 167}};
    const int n = static_cast<int>(std::size(colours));
    return colours[((index % n) + n) % n];
}

Rgb splitColour(int type) { return okabeIto(type == 0 ? 2 : type == 1 ? 1 : 3); }

Rgb viridis(double t) {
    // Anchors of matplotlib's viridis at t = 0, 1/8, ..., 1.
    static const Rgb anchors[] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},   {44, 113, 142}, {33, 144, 141},
                                  {39, 173, 129}, {92, 200, 99},  {170, 220, 50},  {253, 231, 37}};
    if (!(t > 0)) return anchors[0];
    if (t >= 1) return anchors[8];
    const double pos = t * 8;
    const int i = static_cast<int>(pos);
    const double f = pos - i;
    auto mix = [f](std::uint8_t a, std::uint8_t b) {
        return static_cast<std::uint8_t>(std::lround(a + (b - a) * f));
    };
    return {mix(anchors[i].r, anchors[i + 1].r), mix(anchors[i].g, anchors[i + 1].g), mix(anchors[i].b, anchors[i + 1].b)};
}

Rgb textOn(Rgb bg) {
    // Relative luminance (sRGB approximation) against a mid threshold.
    const double lum = 0.2126 * bg.r + 0.7152 * bg.g + 0.0722 * bg.b;
    return lum > 140 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
}

}  // namespace partita::view
