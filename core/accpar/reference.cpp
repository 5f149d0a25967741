// The AccPar authors' program as described in docs/methods/accpar.md#reference-compatible-mode; written from the spec, not their code.
#include "core/accpar/reference.h"

#include <array>
#include <stdexcept>

#include "core/accpar/multipath.h"
#include "core/util/enum_names.h"

namespace partita {

namespace {

constexpr Split kThreeTypes[] = {Split::Batch, Split::Input, Split::Output};
constexpr Split kHyParTypes[] = {Split::Batch, Split::Input};

std::span<const Split> typesOf(const ReferenceOptions& o) {
    if (o.hypar_types_only) return kHyParTypes;
    return kThreeTypes;
}

// The program adds shortcut terms only with three types.
bool shortcutsOn(ReferenceNetworkKind kind, const ReferenceOptions& o) {
    return kind != ReferenceNetworkKind::Plain && !o.hypar_types_only;
}

// Distance from the layer a shortcut enters back to its block's first layer.
int blockSpan(ReferenceNetworkKind kind) { return kind == ReferenceNetworkKind::ResNet50 ? 3 : 2; }

// Per layer: intra amount per type (weight 1) and the input boundary A(F_l), which also sizes the
// inter and block terms into layer l.
struct Terms {
    std::vector<std::array<double, kSplitCount>> intra;
    std::vector<double> input;
};

Terms termsOf(const LayerTable& layers, std::span<const LayerState> state) {
    Terms t;
    t.intra.reserve(layers.size());
    t.input.reserve(layers.size());
    for (size_t l = 0; l < layers.size(); ++l) {
        const Amounts a = amounts(layers[l], state[l], OutSize::PostPool);
        t.intra.push_back({intraAmount(a, Split::Batch), intraAmount(a, Split::Input), intraAmount(a, Split::Output)});
        t.input.push_back(a.input);
    }
    return t;
}

double intraOf(const Terms& t, size_t l, Split s) { return t.intra[l][static_cast<size_t>(index(s))]; }

// interCoefficient(from, to) at ratio 1/2 for every pair, looked up in the per-layer loops.
struct InterTable {
    std::array<std::array<double, kSplitCount>, kSplitCount> c{};
    InterTable() {
        for (Split a : kThreeTypes)
            for (Split b : kThreeTypes) c[static_cast<size_t>(index(a))][static_cast<size_t>(index(b))] = interCoefficient(a, b);
    }
    double operator()(Split a, Split b) const { return c[static_cast<size_t>(index(a))][static_cast<size_t>(index(b))]; }
};

// One level's DP. Strict '<' over candidates in type order keeps the lowest type on ties.
std::vector<Split> solveReferenceLevel(const LayerTable& layers, ReferenceNetworkKind kind,
                                       std::span<const LayerState> state, const ReferenceOptions& o, double& cost) {
    const size_t n = layers.size();
    const Terms terms = termsOf(layers, state);
    const auto types = typesOf(o);
    auto at = [](auto& row, Split s) -> auto& { return row[static_cast<size_t>(index(s))]; };
    const InterTable inter;
    std::vector<std::array<double, kSplitCount>> c(n);
    std::vector<std::array<Split, kSplitCount>> bp(n);
    for (Split t : types) at(c[0], t) = intraOf(terms, 0, t);
    for (size_t l = 1; l < n; ++l) {
        const bool shortcut = shortcutsOn(kind, o) && referenceShortcutEnters(kind, static_cast<int>(l));
        for (Split t : types) {
            bool have = false;
            for (Split tt : types) {
                double v = at(c[l - 1], tt) + inter(tt, t) * terms.input[l] + intraOf(terms, l, t);
                if (shortcut && !(o.quirk && tt == Split::Batch)) {
                    // The block source's type, read greedily from the back-pointers of tt's path.
                    Split a = at(bp[l - 1], tt);
                    if (kind == ReferenceNetworkKind::ResNet50) a = at(bp[l - 2], a);
                    v += referenceBlockCoefficient(a, t) * terms.input[l];
                }
                if (!have || v < at(c[l], t)) {
                    at(c[l], t) = v;
                    at(bp[l], t) = tt;
                    have = true;
                }
            }
        }
    }
    Split last = types.front();
    for (Split t : types)
        if (at(c[n - 1], t) < at(c[n - 1], last)) last = t;
    cost = at(c[n - 1], last);
    std::vector<Split> row(n, last);
    for (size_t l = n - 1; l >= 1; --l) row[l - 1] = at(bp[l], row[l]);
    return row;
}

constexpr EnumName<ReferenceNetworkKind> kKinds[] = {
    {ReferenceNetworkKind::Plain, "plain"}, {ReferenceNetworkKind::ResNet18, "resnet-18"},
    {ReferenceNetworkKind::ResNet34, "resnet-34"}, {ReferenceNetworkKind::ResNet50, "resnet-50"}};
}  // namespace

const char* referenceKindName(ReferenceNetworkKind kind) { return enumName(kKinds, kind); }

ReferenceNetworkKind referenceResNetKind(int depth) {
    if (depth == 18) return ReferenceNetworkKind::ResNet18;
    if (depth == 34) return ReferenceNetworkKind::ResNet34;
    if (depth == 50) return ReferenceNetworkKind::ResNet50;
    throw std::invalid_argument("the AccPar program builds ResNet-18, -34 and -50 only, not ResNet-" +
                                std::to_string(depth));
}

LayerTable referenceResNet(int depth) {
    const auto kind = referenceResNetKind(depth);
    const bool bottleneck = kind == ReferenceNetworkKind::ResNet50;
    const int blocks[4] = {depth == 18 ? 2 : 3, depth == 18 ? 2 : 4, depth == 18 ? 2 : 6, depth == 18 ? 2 : 3};
    LayerTable table;
    table.network = std::string("ResNet-") + std::to_string(depth) + " (AccPar reference)";
    auto add = [&](std::string name, double c_in, double c_out, int k, double in_hw, double conv_hw, double out_hw) {
        WeightedLayer w;
        w.name = std::move(name);
        w.c_in = c_in;
        w.c_out = c_out;
        w.kernel_area = static_cast<double>(k) * k;
        w.in_hw = in_hw;
        w.conv_hw = conv_hw;
        w.out_hw = out_hw;
        w.dp_pred = static_cast<int>(table.layers.size()) - 1;
        if (w.dp_pred >= 0) w.preds = {w.dp_pred};
        table.layers.push_back(std::move(w));
    };
    // conv1: 7x7 stride 2 on 224x224 (112x112), then the 3x3 stride-2 max pool the next layer reads (56x56).
    add("conv1", 3, 64, 7, 224.0 * 224, 112.0 * 112, 56.0 * 56);
    for (int s = 0; s < 4; ++s) {
        const double ch = 64 << s, hw = static_cast<double>(56 >> s) * (56 >> s);
        for (int b = 0; b < blocks[s]; ++b) {
            const std::string tag = "res" + std::to_string(s + 2) + static_cast<char>('a' + b) + "_branch2";
            if (bottleneck) {
                add(tag + "a", ch, ch, 1, hw, hw, hw);
                add(tag + "b", ch, ch, 3, hw, hw, hw);
                add(tag + "c", ch, 4 * ch, 1, hw, hw, hw);
            } else {
                add(tag + "a", ch, ch, 3, hw, hw, hw);
                add(tag + "b", ch, ch, 3, hw, hw, hw);
            }
        }
    }
    add("fc1000", 2048, 1000, 1, 1, 1, 1);
    table.layers.back().is_fc = true;
    return table;
}

bool referenceShortcutEnters(ReferenceNetworkKind kind, int layer) {
    switch (kind) {
    case ReferenceNetworkKind::Plain: return false;
    case ReferenceNetworkKind::ResNet18:
    case ReferenceNetworkKind::ResNet34: return layer > 2 && layer % 2 == 1;
    case ReferenceNetworkKind::ResNet50: return layer > 3 && layer % 3 == 1;
    }
    return false;
}

ReferenceResult referencePlan(const LayerTable& layers, ReferenceNetworkKind kind, const ReferenceOptions& o) {
    if (layers.size() == 0) throw std::invalid_argument("the network has no weighted (conv or fc) layers");
    ReferenceResult result{Grid(o.levels, static_cast<int>(layers.size())), {}, {}};
    auto state = initialState(layers, o.batch);
    for (int h = 0; h < o.levels; ++h) {
        double cost = 0;
        const auto row = solveReferenceLevel(layers, kind, state, o, cost);
        for (size_t l = 0; l < row.size(); ++l) result.grid.at(h, static_cast<int>(l)).split = row[l];
        result.level_cost.push_back(cost);
        shrink(state, result.grid.row(h));
    }
    result.rows = result.grid.toStrings();
    return result;
}

ReferenceResult referencePlan(const LayerTable& layers, ReferenceNetworkKind kind, int levels, double batch,
                              bool hypar_types_only) {
    ReferenceOptions o;
    o.levels = levels;
    o.batch = batch;
    o.hypar_types_only = hypar_types_only;
    return referencePlan(layers, kind, o);
}

double referenceLevelCost(const LayerTable& layers, ReferenceNetworkKind kind, std::span<const LayerState> state,
                          std::span<const Cell> row, const ReferenceOptions& o) {
    const Terms terms = termsOf(layers, state);
    const InterTable inter;
    double total = layers.size() > 0 ? intraOf(terms, 0, row[0].split) : 0.0;
    for (size_t l = 1; l < layers.size(); ++l) {
        const Split tt = row[l - 1].split, t = row[l].split;
        total += inter(tt, t) * terms.input[l] + intraOf(terms, l, t);
        if (shortcutsOn(kind, o) && referenceShortcutEnters(kind, static_cast<int>(l)) &&
            !(o.quirk && tt == Split::Batch))
            total += referenceBlockCoefficient(row[l - static_cast<size_t>(blockSpan(kind))].split, t) * terms.input[l];
    }
    return total;
}

std::vector<double> referenceCosts(const LayerTable& layers, ReferenceNetworkKind kind, const Grid& grid,
                                   const ReferenceOptions& o) {
    std::vector<double> costs;
    auto state = initialState(layers, o.batch);
    for (int h = 0; h < grid.levels(); ++h) {
        costs.push_back(referenceLevelCost(layers, kind, state, grid.row(h), o));
        shrink(state, grid.row(h));
    }
    return costs;
}

}  // namespace partita
