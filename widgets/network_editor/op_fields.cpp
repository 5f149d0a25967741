#include "widgets/network_editor/op_fields.h"

#include <QObject>
#include <QRegularExpression>

#include "core/util/limits.h"

namespace partita {

namespace {

QString tr(const char* text) { return QObject::tr(text); }

// Integers separated by commas, spaces or ×; each in [lo, limits::kDimension].
QString parseInts(const QString& text, int lo, std::vector<int>* out) {
    const QStringList parts = text.trimmed().split(QRegularExpression("[,×x\\s]+"), Qt::SkipEmptyParts);
    if (parts.isEmpty()) return tr("enter a number");
    out->clear();
    for (const QString& p : parts) {
        bool ok = false;
        const qlonglong v = p.toLongLong(&ok);
        if (!ok) return QObject::tr("'%1' is not a whole number").arg(p);
        if (v < lo) return lo > 0 ? QObject::tr("must be positive, got %1").arg(p) : QObject::tr("must not be negative, got %1").arg(p);
        if (v > limits::kDimension) return QObject::tr("exceeds the limit of %1, got %2").arg(limits::kDimension).arg(p);
        out->push_back(static_cast<int>(v));
    }
    return {};
}

QString pairText(int a, int b) { return a == b ? QString::number(a) : QStringLiteral("%1, %2").arg(a).arg(b); }

// One value, or [height, width].
QString parsePair(const QString& text, int lo, int* a, int* b) {
    std::vector<int> v;
    if (QString why = parseInts(text, lo, &v); !why.isEmpty()) return why;
    if (v.size() > 2) return tr("give one value, or height, width");
    *a = v[0];
    *b = v.size() == 2 ? v[1] : v[0];
    return {};
}

QString padText(const Window& w) {
    return w.symmetric() ? pairText(w.pad_h, w.pad_w)
                         : QStringLiteral("%1, %2, %3, %4").arg(w.pad_h).arg(w.pad_w).arg(w.padBottom()).arg(w.padRight());
}

QString parsePad(const QString& text, Window& w) {
    std::vector<int> v;
    if (QString why = parseInts(text, 0, &v); !why.isEmpty()) return why;
    if (v.size() == 3 || v.size() > 4) return tr("give one value, height, width, or top, left, bottom, right");
    w.pad_h = v[0];
    w.pad_w = v.size() >= 2 ? v[1] : v[0];
    w.pad_h_end = v.size() == 4 ? v[2] : -1;
    w.pad_w_end = v.size() == 4 ? v[3] : -1;
    return {};
}

QString roundingText(Rounding r) { return r == Rounding::Floor ? "floor" : r == Rounding::Ceil ? "ceil" : "exact"; }

// kernel, stride, padding (and dilation) of a window reached through `at`, labelled "Kernel"... or,
// with a `label` ("Pool"), "Pool kernel"...; a pool's stride follows its kernel while they are equal
// (the file format's default).
void windowFields(std::vector<OpField>& out, const QString& prefix, const QString& what, const QString& label,
                  std::function<Window*(Operator&)> at, bool dilation, bool stride_follows,
                  std::function<bool(const Operator&)> applies) {
    const auto cw = [at](const Operator& op) { return at(const_cast<Operator&>(op)); };
    const auto named = [&label](const QString& word) { return label.isEmpty() ? word : label + " " + word.toLower(); };
    out.push_back({prefix + "kernel", named(QObject::tr("Kernel")),
                   QObject::tr("%1 kernel size: one value, or height, width").arg(what), {},
                   [cw](const Operator& op) { return pairText(cw(op)->kernel_h, cw(op)->kernel_w); },
                   [at, stride_follows](const QString& t, Operator& op) {
                       Window& w = *at(op);
                       int h = 0, v = 0;
                       if (QString why = parsePair(t, 1, &h, &v); !why.isEmpty()) return why;
                       if (stride_follows && w.stride_h == w.kernel_h && w.stride_w == w.kernel_w) {
                           w.stride_h = h;
                           w.stride_w = v;
                       }
                       w.kernel_h = h;
                       w.kernel_w = v;
                       return QString();
                   },
                   applies});
    out.push_back({prefix + "stride", named(QObject::tr("Stride")),
                   QObject::tr("%1 stride: one value, or height, width").arg(what), {},
                   [cw](const Operator& op) { return pairText(cw(op)->stride_h, cw(op)->stride_w); },
                   [at](const QString& t, Operator& op) { return parsePair(t, 1, &at(op)->stride_h, &at(op)->stride_w); },
                   applies});
    out.push_back({prefix + "padding", named(QObject::tr("Padding")),
                   QObject::tr("%1 zero padding: one value, height, width, or top, left, bottom, right").arg(what), {},
                   [cw](const Operator& op) { return padText(*cw(op)); },
                   [at](const QString& t, Operator& op) { return parsePad(t, *at(op)); }, applies});
    if (dilation)
        out.push_back({prefix + "dilation", named(QObject::tr("Dilation")),
                       QObject::tr("%1 dilation: one value, or height, width (1 = none)").arg(what), {},
                       [cw](const Operator& op) { return pairText(cw(op)->dilation_h, cw(op)->dilation_w); },
                       [at](const QString& t, Operator& op) {
                           return parsePair(t, 1, &at(op)->dilation_h, &at(op)->dilation_w);
                       },
                       applies});
    out.push_back({prefix + "rounding", named(QObject::tr("Rounding")),
                   QObject::tr("%1: exact (the window must tile the input), floor or ceil").arg(what),
                   {"exact", "floor", "ceil"}, [cw](const Operator& op) { return roundingText(cw(op)->rounding); },
                   [at](const QString& t, Operator& op) {
                       at(op)->rounding = t == "floor" ? Rounding::Floor : t == "ceil" ? Rounding::Ceil : Rounding::Exact;
                       return QString();
                   },
                   applies});
}

OpField channels(const QString& key, const QString& label, const QString& tip) {
    return {key, label, tip, {}, [](const Operator& op) { return QString::number(op.out_channels); },
            [](const QString& t, Operator& op) {
                std::vector<int> v;
                if (QString why = parseInts(t, 1, &v); !why.isEmpty()) return why;
                if (v.size() != 1) return tr("give one number");
                op.out_channels = v[0];
                return QString();
            }};
}

OpField groups() {
    return {"group", QObject::tr("Groups"),
            QObject::tr("Channel groups: each output channel reads C_in / groups input channels (1 = a full conv)"), {},
            [](const Operator& op) { return QString::number(op.group); },
            [](const QString& t, Operator& op) {
                std::vector<int> v;
                if (QString why = parseInts(t, 1, &v); !why.isEmpty()) return why;
                if (v.size() != 1) return tr("give one number");
                op.group = v[0];
                return QString();
            }};
}

OpField sourceOp(const QString& tip) {
    return {"op", QObject::tr("Op name"), tip, {}, [](const Operator& op) { return QString::fromStdString(op.source_op); },
            [](const QString& t, Operator& op) {
                op.source_op = t.trimmed().toStdString();
                return QString();
            }};
}

const Window* poolOf(const Operator& op) { return op.pool ? &*op.pool : nullptr; }

}  // namespace

std::vector<OpField> opFields(OpType type) {
    std::vector<OpField> out;
    const auto always = [](const Operator&) { return true; };
    const auto window = [](Operator& op) { return &op.window; };
    switch (type) {
    case OpType::Conv:
    case OpType::ConvTranspose:
        out.push_back(channels("out_channels", QObject::tr("Out channels"), QObject::tr("Output channels (filters)")));
        out.push_back(groups());
        windowFields(out, "", QObject::tr("Convolution"), QString(), window, true, false, always);
        if (type == OpType::ConvTranspose) {
            out.pop_back();  // a transposed conv's size has no rounding
            out.push_back({"output_padding", QObject::tr("Output padding"),
                           QObject::tr("Extra rows and columns at the end of the output: one value, or height, width"),
                           {}, [](const Operator& op) { return pairText(op.output_pad_h, op.output_pad_w); },
                           [](const QString& t, Operator& op) { return parsePair(t, 0, &op.output_pad_h, &op.output_pad_w); }});
            break;
        }
        out.push_back({"pool", QObject::tr("Pool after"),
                       QObject::tr("A pooling fused after the convolution (none, max or average)"),
                       {"none", "max", "avg"},
                       [](const Operator& op) { return !op.pool ? "none" : op.average_pool ? "avg" : "max"; },
                       [](const QString& t, Operator& op) {
                           if (t == "none") op.pool.reset();
                           else if (!op.pool) op.pool = Window{2, 2, 2, 2, 0, 0, Rounding::Exact};
                           op.average_pool = t == "avg";
                           return QString();
                       }});
        windowFields(
            out, "pool_", QObject::tr("Fused pool"), QObject::tr("Pool"), [](Operator& op) { return op.pool ? &*op.pool : &op.window; },
            false, true, [](const Operator& op) { return poolOf(op) != nullptr; });
        break;
    case OpType::FullyConnected:
        out.push_back(channels("out_features", QObject::tr("Out features"),
                               QObject::tr("Output features (neurons); the input is flattened")));
        break;
    case OpType::Pool:
        out.push_back({"mode", QObject::tr("Mode"), QObject::tr("Max or average pooling (the same cost)"), {"max", "avg"},
                       [](const Operator& op) { return op.average_pool ? "avg" : "max"; },
                       [](const QString& t, Operator& op) {
                           op.average_pool = t == "avg";
                           return QString();
                       }});
        windowFields(out, "", QObject::tr("Pooling"), QString(), window, false, true, always);
        break;
    case OpType::Layout:
        for (const char* axis : {"c", "h", "w"}) {
            const QString a = axis;
            out.push_back({"shape_" + a, a == "c" ? QObject::tr("Out C") : a == "h" ? QObject::tr("Out H") : QObject::tr("Out W"),
                           QObject::tr("The output shape (per sample): %1").arg(a == "c" ? QObject::tr("channels")
                                                                               : a == "h" ? QObject::tr("height")
                                                                                          : QObject::tr("width")),
                           {},
                           [a](const Operator& op) {
                               const Shape& s = op.layout_shape;
                               return QString::number(a == "c" ? s.c : a == "h" ? s.h : s.w);
                           },
                           [a](const QString& t, Operator& op) {
                               std::vector<int> v;
                               if (QString why = parseInts(t, 1, &v); !why.isEmpty()) return why;
                               if (v.size() != 1) return tr("give one number");
                               (a == "c" ? op.layout_shape.c : a == "h" ? op.layout_shape.h : op.layout_shape.w) = v[0];
                               return QString();
                           }});
        }
        out.push_back(sourceOp(QObject::tr("What the layout does, informational: Reshape, Transpose, Slice, Pad...")));
        break;
    case OpType::Elementwise:
        out.push_back(sourceOp(QObject::tr("The element-wise op, informational: Relu, Softmax, LayerNorm, Mul...")));
        break;
    case OpType::Add:
    case OpType::Concat:
    case OpType::MatMul: break;
    }
    return out;
}

Operator defaultOperator(OpType type) {
    Operator op;
    op.type = type;
    switch (type) {
    case OpType::Conv:
        op.out_channels = 64;
        op.window = {3, 3, 1, 1, 1, 1, Rounding::Exact};
        break;
    case OpType::ConvTranspose:
        op.out_channels = 64;
        op.window = {2, 2, 2, 2, 0, 0, Rounding::Exact};
        break;
    case OpType::FullyConnected: op.out_channels = 10; break;
    case OpType::Pool: op.window = {2, 2, 2, 2, 0, 0, Rounding::Exact}; break;
    case OpType::Layout:
        op.layout_shape = {1, 1, 1};
        op.source_op = "Reshape";
        break;
    case OpType::Elementwise: op.source_op = "Relu"; break;
    case OpType::Add:
    case OpType::Concat:
    case OpType::MatMul: break;
    }
    return op;
}

std::vector<OpType> allOpTypes() {
    return {OpType::Conv,        OpType::FullyConnected, OpType::Pool,   OpType::Add,   OpType::Concat,
            OpType::ConvTranspose, OpType::MatMul,       OpType::Elementwise, OpType::Layout};
}

QString opTypeLabel(OpType type) {
    switch (type) {
    case OpType::Conv: return QObject::tr("Convolution");
    case OpType::FullyConnected: return QObject::tr("Fully connected");
    case OpType::Pool: return QObject::tr("Pooling");
    case OpType::Add: return QObject::tr("Add");
    case OpType::Concat: return QObject::tr("Concat");
    case OpType::ConvTranspose: return QObject::tr("Transposed conv");
    case OpType::MatMul: return QObject::tr("MatMul");
    case OpType::Elementwise: return QObject::tr("Element-wise");
    case OpType::Layout: return QObject::tr("Layout");
    }
    return {};
}

QString opTypeTip(OpType type) {
    switch (type) {
    case OpType::Conv: return QObject::tr("A convolution with weights (optionally grouped, with a fused pool after it)");
    case OpType::FullyConnected: return QObject::tr("A fully connected layer: flattens its input, weights C_in × C_out");
    case OpType::Pool: return QObject::tr("Max or average pooling over a window, no weights");
    case OpType::Add: return QObject::tr("The sum of two or more inputs of one shape (a residual join)");
    case OpType::Concat: return QObject::tr("Two or more inputs joined along the channels (same height and width)");
    case OpType::ConvTranspose: return QObject::tr("A transposed (up-sampling) convolution with weights");
    case OpType::MatMul:
        return QObject::tr("A batched product of two activations (G, M, K) × (G, K, N), no weights (attention)");
    case OpType::Elementwise:
        return QObject::tr("Unary, binary or normalising ops (Relu, Mul, Softmax, LayerNorm) with broadcasting");
    case OpType::Layout:
        return QObject::tr("Reshape, transpose, slice or pad: an explicit output shape, no arithmetic");
    }
    return {};
}

}  // namespace partita
