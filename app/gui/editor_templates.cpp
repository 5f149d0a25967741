#include "app/gui/editor_templates.h"

#include <iterator>

#include <QObject>

#include "core/edit/templates.h"

namespace partita::gui {

namespace {

// Palette keys and tooltips (with the defaults; a click shows the parameters), in templateCatalog()'s order.
struct Description {
    const char* key;
    const char* tip;
};
constexpr Description kDescriptions[] = {
    {"conv-bn-relu", QT_TR_NOOP("A convolution (by default 3×3, 64 channels, 'same' padding), batch norm and ReLU; click to set its parameters")},
    {"resnet-basic", QT_TR_NOOP("Two 3×3 convs with batch norm and ReLU and a residual add; a 1×1 projection "
                                "shortcut when the channels or stride change (64 channels by default; click to set)")},
    {"resnet-bottleneck", QT_TR_NOOP("1×1, 3×3, 1×1 convs (width 64, expansion 4) with a residual add and a "
                                     "projection shortcut where needed (click to set)")},
    {"inception", QT_TR_NOOP("1×1, 1×1→3×3, 1×1→5×5 and pool→1×1 branches, concatenated (GoogLeNet 3a's widths by default)")},
    {"transformer-encoder", QT_TR_NOOP("Pre-norm encoder: layer norm, Q/K/V projections, score and context "
                                       "MatMuls with softmax, output projection, MLP (4× wide, GELU) and two "
                                       "residual adds; 8 heads (by default) split the input's channels")},
    {"mlp", QT_TR_NOOP("Fully connected layers (256 and 10 by default) with ReLU between them")},
};

static_assert(std::variant_size_v<edit::TemplateParams> == std::size(kDescriptions));

}  // namespace

std::vector<EditorView::Template> editorTemplates() {
    std::vector<EditorView::Template> out;
    for (const edit::TemplateParams& params : edit::templateCatalog()) {
        const Description& d = kDescriptions[params.index()];
        out.push_back({{d.key, QString::fromLatin1(edit::templateLabel(params)), QObject::tr(d.tip)}, params});
    }
    return out;
}

}  // namespace partita::gui
