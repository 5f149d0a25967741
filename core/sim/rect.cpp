#include "core/sim/rect.h"

#include <algorithm>

namespace partita::sim {

Interval intersect(Interval a, Interval b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }

Box intersect(const Box& a, const Box& b) {
    Box r;
    for (size_t d = 0; d < kDims; ++d) r[d] = intersect(a[d], b[d]);
    return r;
}

std::int64_t volume(const Box& box) {
    std::int64_t v = 1;
    for (const Interval& i : box) v *= i.size();
    return v;
}

Box outputBox(const Extent& extent, const OpConfig& config, int k) {
    const Degrees c = config.coords(k);
    Box b;
    for (size_t d = 0; d < kDims; ++d) {
        const std::int64_t step = extent[d] / config.degree[d];
        b[d] = {c[d] * step, (c[d] + 1) * step};
    }
    return b;
}

Interval windowInput(Interval out, int kernel, int stride, int pad, std::int64_t in_size) {
    if (out.size() == 0) return {0, 0};
    const std::int64_t lo = out.lo * stride - pad;
    const std::int64_t hi = (out.hi - 1) * stride - pad + kernel;
    return {std::max<std::int64_t>(lo, 0), std::min(hi, in_size)};
}

namespace {

Shape shapeOf(const Network& net, int id) { return id < 0 ? net.input : net.ops[static_cast<size_t>(id)].out_shape; }

Box applyWindow(Box b, const Window& w, const Shape& in) {
    b[2] = windowInput(b[2], w.kernel_h, w.stride_h, w.pad_h, in.h);
    b[3] = windowInput(b[3], w.kernel_w, w.stride_w, w.pad_w, in.w);
    return b;
}

}  // namespace

Box prePoolBox(const Operator& op, const Box& out) {
    if (op.type != OpType::Conv || !op.pool) return out;
    return applyWindow(out, *op.pool, op.pre_pool_shape);
}

Box inputBox(const Network& net, const Operator& op, int slot, const Box& out) {
    const int producer = op.input_ids[static_cast<size_t>(slot)];
    const Shape in = shapeOf(net, producer);
    Box b = out;
    switch (op.type) {
    case OpType::Conv:
        b = applyWindow(prePoolBox(op, out), op.window, in);
        b[1] = {0, in.c};
        break;
    case OpType::FullyConnected:
        b[1] = {0, in.c};
        b[2] = {0, in.h};
        b[3] = {0, in.w};
        break;
    case OpType::Pool: b = applyWindow(out, op.window, in); break;
    case OpType::Add: break;
    case OpType::Concat: {
        std::int64_t offset = 0;
        for (int s = 0; s < slot; ++s) offset += shapeOf(net, op.input_ids[static_cast<size_t>(s)]).c;
        const Interval mine = intersect(out[1], Interval{offset, offset + in.c});
        b[1] = mine.size() > 0 ? Interval{mine.lo - offset, mine.hi - offset} : Interval{0, 0};
        break;
    }
    }
    return b;
}

}  // namespace partita::sim
