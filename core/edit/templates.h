#pragma once
// The editor's parameterised blocks (issue 16), each built as one Patch whose block reads a given
// node's output, and repeat(), which chains copies of a selected block. The blocks use the native
// operator kinds the way examples/networks/ops-tour.json does: batch norm, ReLU, GELU, layer norm
// and softmax are element-wise ops named by their `op`; a linear layer over positions is a 1x1 conv
// (`op` "MatMul"); attention heads are layouts around two activation x activation matmuls.
//
// A block's names share one prefix (the params' `name`, else name_2, name_3... until every name of
// the block is free), e.g. res_conv1, res_bn1... Every function throws std::invalid_argument (and
// builds nothing) for an absent input node, an input without a shape when the block needs it, or a
// parameter out of range.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/edit/document.h"

namespace partita::edit {

struct Placement {
    NodeId after = kNetworkInput;  // the block reads this node's output
    bool rewire = false;           // the nodes that read `after` read the block's output instead
    std::optional<Point> at;       // the block's top-left layout hint; none: no hints (auto layout)
};

struct ConvBnReluParams {
    static constexpr const char* kLabel = "Conv-BN-ReLU";
    std::string name = "conv";
    std::int64_t channels = 64;
    int kernel = 3, stride = 1;  // padding kernel / 2 ("same" for odd kernels), floor rounding
    bool batch_norm = true, relu = true;
};

struct ResNetBasicParams {  // two 3x3 convs; a 1x1 projection shortcut when channels or stride change
    static constexpr const char* kLabel = "ResNet basic block";
    std::string name = "res";
    std::int64_t channels = 64;
    int stride = 1;         // in the first conv and the projection
    bool norm_act = true;   // batch norm after each conv, ReLU inside and after the sum
};

struct ResNetBottleneckParams {  // 1x1, 3x3, 1x1 (width x expansion channels); projection as above
    static constexpr const char* kLabel = "ResNet bottleneck block";
    std::string name = "res";
    std::int64_t width = 64;
    int expansion = 4;
    int stride = 1;         // in the 3x3 conv, as torchvision
    bool norm_act = true;
};

struct InceptionParams {  // 1x1, 1x1 -> 3x3, 1x1 -> 5x5, 3x3 max pool -> 1x1; concatenated (GoogLeNet 3a)
    static constexpr const char* kLabel = "Inception block";
    std::string name = "mixed";
    std::int64_t b1x1 = 64, b3x3_reduce = 96, b3x3 = 128, b5x5_reduce = 16, b5x5 = 32, pool_proj = 32;
    bool relu = true;  // after each conv
};

// Pre-norm: x + proj(attention(ln1(x))), then y + fc2(gelu(fc1(ln2(y)))). The input (d, h, w) is d
// features at h x w positions; the heads split d.
struct TransformerEncoderParams {
    static constexpr const char* kLabel = "Transformer encoder block";
    std::string name = "enc";
    int heads = 8;                // divides the input's channels
    std::int64_t mlp_hidden = 0;  // 0: 4 x the input's channels
};

struct MlpParams {  // fully connected layers (the first flattens its input)
    static constexpr const char* kLabel = "MLP";
    std::string name = "mlp";
    std::vector<std::int64_t> widths{256, 10};
    bool relu = true;  // between layers
};

using TemplateParams = std::variant<ConvBnReluParams, ResNetBasicParams, ResNetBottleneckParams, InceptionParams,
                                    TransformerEncoderParams, MlpParams>;

const char* templateLabel(const TemplateParams& params);
std::vector<TemplateParams> templateCatalog();  // one of each with default parameters, in palette order

Patch insertTemplate(const Document& doc, const TemplateParams& params, const Placement& where);
Patch convBnRelu(const Document& doc, const ConvBnReluParams& p, const Placement& where);
Patch resnetBasic(const Document& doc, const ResNetBasicParams& p, const Placement& where);
Patch resnetBottleneck(const Document& doc, const ResNetBottleneckParams& p, const Placement& where);
Patch inception(const Document& doc, const InceptionParams& p, const Placement& where);
Patch transformerEncoder(const Document& doc, const TransformerEncoderParams& p, const Placement& where);
Patch mlp(const Document& doc, const MlpParams& p, const Placement& where);

// Chains n copies of the block `ids` after it. The block reads exactly one operator outside itself,
// has one exit (the only node nothing in the block reads), and only the exit is read outside it.
// Copy k reads copy k-1's exit where the block read its outside input; the exit's outside readers
// read the last copy's exit. Names are uniqueName(original); hints move down by the block's height.
// Throws std::invalid_argument otherwise, or for n < 0 or a result beyond limits::kOperators.
Patch repeat(const Document& doc, const std::vector<NodeId>& ids, int n);

}  // namespace partita::edit
