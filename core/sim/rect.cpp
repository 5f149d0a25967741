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

Box rectApplyWindow(Box b, const Window& w, const Shape& in) {
    b[2] = windowInput(b[2], w.spanH(), w.stride_h, w.pad_h, in.h);
    b[3] = windowInput(b[3], w.spanW(), w.stride_w, w.pad_w, in.w);
    return b;
}

// The input rows of a transposed conv that reach output rows `out`: o = i * stride - pad + k * dilation.
Interval transposedInput(Interval out, int span, int stride, int pad, std::int64_t in_size) {
    if (out.size() == 0) return {0, 0};
    auto floorDiv = [](std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
    const std::int64_t lo = -floorDiv(-(out.lo + pad - (span - 1)), stride);  // ceil
    const std::int64_t hi = floorDiv(out.hi - 1 + pad, stride) + 1;
    return {std::clamp<std::int64_t>(lo, 0, in_size), std::clamp<std::int64_t>(hi, 0, in_size)};
}

// The input channels a grouped op's output channels read: whole groups.
Interval groupInput(Interval out, int groups, std::int64_t out_c, std::int64_t in_c) {
    if (groups <= 1 || out.size() == 0) return {0, in_c};
    const std::int64_t per_out = out_c / groups, per_in = in_c / groups;
    return {out.lo / per_out * per_in, ((out.hi - 1) / per_out + 1) * per_in};
}

// An input broadcast along an axis (its size 1) is read at index 0 whatever the output range.
Interval broadcastInput(Interval out, std::int64_t in_size) { return in_size == 1 ? Interval{0, out.size() ? 1 : 0} : out; }

}  // namespace

Box prePoolBox(const Operator& op, const Box& out) {
    if (op.type != OpType::Conv || !op.pool) return out;
    return rectApplyWindow(out, *op.pool, op.pre_pool_shape);
}

Box inputBox(const Network& net, const Operator& op, int slot, const Box& out) {
    const int producer = op.input_ids[static_cast<size_t>(slot)];
    const Shape in = shapeOf(net, producer);
    Box b = out;
    switch (op.type) {
    case OpType::Conv:
        b = rectApplyWindow(prePoolBox(op, out), op.window, in);
        b[1] = groupInput(out[1], op.group, op.out_shape.c, in.c);
        break;
    case OpType::ConvTranspose:
        b[1] = groupInput(out[1], op.group, op.out_shape.c, in.c);
        b[2] = transposedInput(out[2], op.window.spanH(), op.window.stride_h, op.window.pad_h, in.h);
        b[3] = transposedInput(out[3], op.window.spanW(), op.window.stride_w, op.window.pad_w, in.w);
        break;
    case OpType::MatMul:  // (G, M, K) x (G, K, N): a row block of A against a column block of B
        b[1] = broadcastInput(out[1], in.c);
        if (slot == 0) b[3] = {0, in.w};
        else b[2] = {0, in.h};
        break;
    case OpType::Elementwise:
        if (op.attention) {
            // Keys and values are read for every token of the piece's sequences (a piece holding part of a
            // sequence gathers the rest, as context parallelism does); a fused input holds each head's q, k
            // and v together, so it is read whole-sequence too and an output head reads its three.
            const std::int64_t s = op.attention->sequence;
            const Interval sequences{out[0].lo / s * s, (out[0].hi + s - 1) / s * s};
            const bool fused = op.input_ids.size() == 1;
            if (out[0].size() > 0 && (fused || slot > 0)) b[0] = sequences;
            b[1] = fused ? groupInput(out[1], static_cast<int>(op.attention->heads), op.out_shape.c, in.c)
                         : broadcastInput(out[1], in.c);
            break;
        }
        b[1] = broadcastInput(out[1], in.c);
        b[2] = broadcastInput(out[2], in.h);
        b[3] = broadcastInput(out[3], in.w);
        break;
    case OpType::Layout:  // a reshape may move any element: a piece reads its samples' whole tensor
        b[1] = {0, in.c};
        b[2] = {0, in.h};
        b[3] = {0, in.w};
        break;
    case OpType::FullyConnected:
        b[1] = {0, in.c};
        b[2] = {0, in.h};
        b[3] = {0, in.w};
        break;
    case OpType::Pool: b = rectApplyWindow(out, op.window, in); break;
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
