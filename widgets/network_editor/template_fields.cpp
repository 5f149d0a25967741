#include "widgets/network_editor/template_fields.h"

#include <QObject>

#include "core/util/limits.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

const QStringList kYesNo{QStringLiteral("yes"), QStringLiteral("no")};

// A whole number in [low, limits::kDimension], or why not.
QString parseSize(const QString& text, std::int64_t low, std::int64_t& out) {
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    if (!ok) return QObject::tr("'%1' is not a whole number").arg(text.trimmed());
    if (v < low) return low == 0 ? QObject::tr("must be 0 or more, got %1").arg(v) : QObject::tr("must be positive, got %1").arg(v);
    if (v > limits::kDimension) return QObject::tr("exceeds the limit of %1, got %2").arg(limits::kDimension).arg(v);
    out = v;
    return {};
}

// A size field of P's member `m` (an int or std::int64_t); `low` 0 allows 0 (meaning "automatic").
template <class P, class T>
TemplateField size(const char* key, const QString& label, const QString& tip, T P::*m, std::int64_t low = 1) {
    return {key, label, tip, {},
            [m](const edit::TemplateParams& v) { return QString::number(std::get<P>(v).*m); },
            [m, low](const QString& text, edit::TemplateParams& v) {
                std::int64_t x = 0;
                const QString why = parseSize(text, low, x);
                if (why.isEmpty()) std::get<P>(v).*m = static_cast<T>(x);
                return why;
            }};
}

template <class P>
TemplateField yesNo(const char* key, const QString& label, const QString& tip, bool P::*m) {
    return {key, label, tip, kYesNo,
            [m](const edit::TemplateParams& v) { return std::get<P>(v).*m ? kYesNo[0] : kYesNo[1]; },
            [m](const QString& text, edit::TemplateParams& v) {
                if (!kYesNo.contains(text)) return QObject::tr("choose yes or no");
                std::get<P>(v).*m = text == kYesNo[0];
                return QString();
            }};
}

template <class P>
TemplateField name() {
    return {"template_name", QObject::tr("Name prefix"),
            QObject::tr("The block's operators are called prefix_conv1, prefix_bn1…; a prefix already in use "
                        "becomes prefix_2"),
            {},
            [](const edit::TemplateParams& v) { return q(std::get<P>(v).name); },
            [](const QString& text, edit::TemplateParams& v) {
                const QString t = text.trimmed();
                if (t.isEmpty()) return QObject::tr("the block needs a name prefix");
                if (t.size() > 64) return QObject::tr("at most 64 characters, got %1").arg(t.size());
                std::get<P>(v).name = t.toStdString();
                return QString();
            }};
}

TemplateField mlpWidths() {
    return {"widths", QObject::tr("Widths"),
            QObject::tr("The fully connected layers' output widths, in order, separated by commas (e.g. 256, 10)"),
            {},
            [](const edit::TemplateParams& v) {
                QStringList parts;
                for (std::int64_t w : std::get<edit::MlpParams>(v).widths) parts << QString::number(w);
                return parts.join(QStringLiteral(", "));
            },
            [](const QString& text, edit::TemplateParams& v) {
                const QStringList parts = text.split(',', Qt::SkipEmptyParts);
                if (parts.isEmpty()) return QObject::tr("an MLP needs at least one layer");
                if (parts.size() > 64) return QObject::tr("at most 64 layers here, got %1").arg(parts.size());
                std::vector<std::int64_t> widths;
                for (const QString& part : parts) {
                    std::int64_t w = 0;
                    if (const QString why = parseSize(part, 1, w); !why.isEmpty()) return QObject::tr("a width: %1").arg(why);
                    widths.push_back(w);
                }
                std::get<edit::MlpParams>(v).widths = std::move(widths);
                return QString();
            }};
}

}  // namespace

std::vector<TemplateField> templateFields(const edit::TemplateParams& params) {
    using namespace edit;
    const QString channels_tip = QObject::tr("Output channels of the block");
    const QString stride_tip = QObject::tr("Stride of the block's downsampling conv (1: none)");
    return std::visit(
        [&](const auto& p) -> std::vector<TemplateField> {
            using P = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<P, ConvBnReluParams>)
                return {name<P>(), size("channels", QObject::tr("Channels"), channels_tip, &P::channels),
                        size("kernel", QObject::tr("Kernel"), QObject::tr("Square kernel side; padding is kernel / 2"), &P::kernel),
                        size("stride", QObject::tr("Stride"), QObject::tr("The conv's stride"), &P::stride),
                        yesNo("batch_norm", QObject::tr("Batch norm"), QObject::tr("A batch norm after the conv"), &P::batch_norm),
                        yesNo("relu", QObject::tr("ReLU"), QObject::tr("A ReLU at the end"), &P::relu)};
            else if constexpr (std::is_same_v<P, ResNetBasicParams>)
                return {name<P>(), size("channels", QObject::tr("Channels"), channels_tip, &P::channels),
                        size("stride", QObject::tr("Stride"), stride_tip, &P::stride),
                        yesNo("norm_act", QObject::tr("Norm and ReLU"),
                              QObject::tr("Batch norm after each conv, ReLU inside and after the sum"), &P::norm_act)};
            else if constexpr (std::is_same_v<P, ResNetBottleneckParams>)
                return {name<P>(), size("width", QObject::tr("Width"), QObject::tr("Channels of the 1×1 and 3×3 convs"), &P::width),
                        size("expansion", QObject::tr("Expansion"), QObject::tr("The block's output is width × expansion channels"),
                             &P::expansion),
                        size("stride", QObject::tr("Stride"), stride_tip, &P::stride),
                        yesNo("norm_act", QObject::tr("Norm and ReLU"),
                              QObject::tr("Batch norm after each conv, ReLU inside and after the sum"), &P::norm_act)};
            else if constexpr (std::is_same_v<P, InceptionParams>)
                return {name<P>(),
                        size("b1x1", QObject::tr("1×1"), QObject::tr("Channels of the 1×1 branch"), &P::b1x1),
                        size("b3x3_reduce", QObject::tr("3×3 reduce"), QObject::tr("The 1×1 before the 3×3"), &P::b3x3_reduce),
                        size("b3x3", QObject::tr("3×3"), QObject::tr("Channels of the 3×3 branch"), &P::b3x3),
                        size("b5x5_reduce", QObject::tr("5×5 reduce"), QObject::tr("The 1×1 before the 5×5"), &P::b5x5_reduce),
                        size("b5x5", QObject::tr("5×5"), QObject::tr("Channels of the 5×5 branch"), &P::b5x5),
                        size("pool_proj", QObject::tr("Pool proj"), QObject::tr("The 1×1 after the 3×3 max pool"), &P::pool_proj),
                        yesNo("relu", QObject::tr("ReLU"), QObject::tr("A ReLU after each conv"), &P::relu)};
            else if constexpr (std::is_same_v<P, TransformerEncoderParams>)
                return {name<P>(),
                        size("heads", QObject::tr("Heads"), QObject::tr("Attention heads; they must divide the input's channels"),
                             &P::heads),
                        size("mlp_hidden", QObject::tr("MLP hidden (0: 4×)"), QObject::tr("The MLP's hidden width; 0: 4 × the input's channels"),
                             &P::mlp_hidden, 0)};
            else
                return {name<P>(), mlpWidths(), yesNo("relu", QObject::tr("ReLU"), QObject::tr("A ReLU between layers"), &P::relu)};
        },
        params);
}

}  // namespace partita
