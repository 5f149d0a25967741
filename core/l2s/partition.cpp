#include "core/l2s/partition.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/util/enum_names.h"

namespace partita::l2s {

namespace {
constexpr EnumName<ComputeModel> kComputeModels[] = {{ComputeModel::LaneFilling, "lane-filling"},
                                                     {ComputeModel::ChannelOnly, "channel-only"}};
}  // namespace

const char* computeModelName(ComputeModel m) { return enumName(kComputeModels, m); }

ComputeModel parseComputeModel(const std::string& name) {
    if (auto m = parseEnum(kComputeModels, name)) return *m;
    throw std::invalid_argument("compute model '" + name + "': expected lane-filling or channel-only");
}

std::vector<int> balancedBlocks(int total, int n) {
    if (n < 1) throw std::invalid_argument("partition: core count must be positive");
    if (total < 0) throw std::invalid_argument("partition: channel count must not be negative");
    std::vector<int> blocks(static_cast<size_t>(n), total / n);
    for (int c = 0; c < total % n; ++c) ++blocks[static_cast<size_t>(c)];
    return blocks;
}

std::vector<CoreLoad> coreLoads(const WeightedLayer& layer, int n, const std::vector<double>& input_fraction,
                                const CoreParams& p) {
    if (static_cast<int>(input_fraction.size()) != n)
        throw std::invalid_argument("layer " + layer.name + ": one input fraction per core is needed");
    if (p.pe_outputs < 1 || p.pe_inputs < 1 || !(p.bytes_per_element > 0))
        throw std::invalid_argument("core parameters: PE sizes and bytes per element must be positive");
    const std::vector<int> blocks = balancedBlocks(static_cast<int>(layer.c_out), n);
    std::vector<CoreLoad> loads(static_cast<size_t>(n));
    int first = 0;
    for (size_t c = 0; c < loads.size(); ++c) {
        CoreLoad& l = loads[c];
        l.first = first;
        l.channels = blocks[c];
        first += l.channels;
        const double cin = layer.c_in * input_fraction[c];
        l.out_elements = l.channels * layer.out_hw;
        l.in_elements = cin * layer.in_hw;
        l.weights = layer.kernel_area * cin * l.channels;
        l.macs = l.weights * layer.conv_hw;
        l.compute_cycles = p.compute == ComputeModel::LaneFilling
                               ? std::ceil(l.macs / (double(p.pe_outputs) * p.pe_inputs))
                               : layer.conv_hw * layer.kernel_area * std::ceil(l.channels / double(p.pe_outputs)) *
                                     std::ceil(cin / p.pe_inputs);
        l.weights_fit = l.weights * p.bytes_per_element <= p.weight_buffer_bytes;
        l.data_fit = l.in_elements * p.bytes_per_element <= p.data_buffer_bytes &&
                     l.out_elements * p.bytes_per_element <= p.data_buffer_bytes;
    }
    return loads;
}

}  // namespace partita::l2s
