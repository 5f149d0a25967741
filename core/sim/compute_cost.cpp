#include "core/sim/compute_cost.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/io/json_fields.h"  // readTextFile
#include "core/sim/task_graph.h"
#include "core/util/error.h"

namespace partita::sim {

Work forwardWork(const Network& net, const Operator& op, const Box& out, double element_bytes) {
    const double n = static_cast<double>(out[0].size()), c = static_cast<double>(out[1].size());
    const double out_elems = static_cast<double>(volume(out));
    double in_elems = 0;
    for (size_t s = 0; s < op.input_ids.size(); ++s)
        in_elems += static_cast<double>(volume(inputBox(net, op, static_cast<int>(s), out)));
    Work w;
    switch (op.type) {
    case OpType::Conv: {
        const Box pre = prePoolBox(op, out);
        const double window =
            double(op.window.kernel_h) * op.window.kernel_w * static_cast<double>(op.in_shape.c) / op.group;
        w.flops = 2 * n * c * static_cast<double>(pre[2].size() * pre[3].size()) * window;
        if (op.pool) w.flops += out_elems * op.pool->kernel_h * op.pool->kernel_w;  // one compare per window element
        w.bytes = (in_elems + out_elems + window * c) * element_bytes;
        break;
    }
    case OpType::FullyConnected: {
        const double features = static_cast<double>(op.in_shape.c);
        w.flops = 2 * n * c * features;
        w.bytes = (in_elems + out_elems + features * c) * element_bytes;
        break;
    }
    case OpType::Pool:
        w.flops = out_elems * op.window.kernel_h * op.window.kernel_w;
        w.bytes = (in_elems + out_elems) * element_bytes;
        break;
    case OpType::Add:
        w.flops = out_elems * static_cast<double>(op.input_ids.size() - 1);
        w.bytes = (in_elems + out_elems) * element_bytes;
        break;
    case OpType::Concat:
    case OpType::Layout:
        w.bytes = (in_elems + out_elems) * element_bytes;  // a copy: memory only
        break;
    case OpType::ConvTranspose: {
        // k^2 C_in / g MACs per input position and output channel, spread evenly over the output positions.
        const double macs = double(op.window.kernel_h) * op.window.kernel_w * static_cast<double>(op.in_shape.c) /
                            op.group * static_cast<double>(op.in_shape.spatial()) /
                            static_cast<double>(op.out_shape.spatial());
        w.flops = 2 * out_elems * macs;
        w.bytes = (in_elems + out_elems +
                   double(op.window.kernel_h) * op.window.kernel_w * static_cast<double>(op.in_shape.c) / op.group * c) *
                  element_bytes;
        break;
    }
    case OpType::MatMul:
        w.flops = 2 * out_elems * static_cast<double>(op.in_shape.w);  // K multiply-adds per output element
        w.bytes = (in_elems + out_elems) * element_bytes;
        break;
    case OpType::Elementwise:
        if (op.attention) {
            // n tokens x c channels of q, k, v in, c channels out; each token's heads score the S keys of
            // its sequence: QK^T and AV 2·S FLOP per channel each, softmax (5 FLOP) and dropout (1 FLOP,
            // a one-byte mask) over n · (c / head size) · S scores (docs/methods/flexflow.md#kernel-curves).
            const double s_len = static_cast<double>(op.attention->sequence);
            const double scores = n * c / (static_cast<double>(op.out_shape.c) / op.attention->heads) * s_len;
            w.matrix_flops = 4 * n * c * s_len;
            w.matrix_bytes = (in_elems + out_elems + 2 * scores) * element_bytes;
            w.flops = w.matrix_flops + 6 * scores;
            w.bytes = w.matrix_bytes + 4 * scores * element_bytes + scores;
            return w;
        }
        w.flops = out_elems * static_cast<double>(std::max<size_t>(1, op.input_ids.size() - 1));
        w.bytes = (in_elems + out_elems) * element_bytes;
        break;
    }
    if (op.type == OpType::Conv || op.type == OpType::FullyConnected || op.type == OpType::ConvTranspose ||
        op.type == OpType::MatMul)
        w.matrix_flops = w.flops, w.matrix_bytes = w.bytes;
    return w;
}

Work backwardWork(const Operator& op, const Work& forward) {
    // Weighted layers compute both the input gradient and the weight gradient; the attention core's
    // two products each need two (the gradients of both operands).
    const double f = hasWeights(op.type) ? 2.0 : 1.0;
    if (op.attention)
        return {forward.flops + forward.matrix_flops, forward.bytes + forward.matrix_bytes, 2 * forward.matrix_flops,
                2 * forward.matrix_bytes};
    return {forward.flops * f, forward.bytes * f, forward.matrix_flops * f, forward.matrix_bytes * f};
}

double KernelCurves::kernelTime(double flops, double bytes, bool matrix_unit) const {
    return device.kernelTime(matrix_unit ? matrix : vector, flops, bytes);
}

double KernelCurves::time(const Operator& op, const Work& forward, bool backward, double overhead_s) const {
    // Backward, each GEMM runs as two passes of its forward size (input and weight gradients, or both
    // operands' gradients for the attention core), as the planner counts them.
    const double gemm_passes = backward && (hasWeights(op.type) || op.attention) ? 2 : 1;
    const double vector_passes = backward && hasWeights(op.type) ? 2 : 1;
    return overhead_s + gemm_passes * kernelTime(forward.matrix_flops, forward.matrix_bytes, true) +
           vector_passes * kernelTime(forward.flops - forward.matrix_flops, forward.bytes - forward.matrix_bytes, false);
}

KernelCurves kernelCurves(const llm::Profile& profile, llm::Dtype dtype) {
    KernelCurves k;
    k.profile = profile.name;
    k.dtype = dtype;
    // fp8 runs GEMMs only (the planner's rule); vector kernels stay in bf16.
    k.matrix = profile.device.unit(true, dtype);
    k.vector = profile.device.unit(false, dtype == llm::Dtype::Fp8 ? llm::Dtype::Bf16 : dtype);
    k.device = profile.device;
    if (!(k.device.hbm_Bps > 0)) throw std::invalid_argument("profile '" + profile.name + "' has no HBM bandwidth");
    return k;
}

void useKernelCurves(SimOptions& options, const llm::Profile& profile, llm::Dtype dtype, const std::string& label) {
    KernelCurves curves = kernelCurves(profile, dtype);
    curves.profile = label;
    options.kernels = std::make_shared<const KernelCurves>(std::move(curves));
    options.element_bytes = dtype == llm::Dtype::Fp32 ? 4 : 2;
    options.gradient_bytes = llm::dtypeBytes(profile.precision.grad_reduce);
}

double analyticTime(const Work& work, const ComputeDevice& device) {
    return device.task_overhead_s +
           std::max(work.flops / (device.peak_flops * device.efficiency), work.bytes / device.mem_bandwidth_Bps);
}

namespace {

std::string computeShapeText(const Shape& s) {
    return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w);
}

std::string keyOf(const std::string& op, const std::string& in, const std::string& out, const std::string& kernel,
                  std::int64_t batch, const std::string& degrees, const std::string& device) {
    return op + "|" + in + "|" + out + "|" + kernel + "|" + std::to_string(batch) + "|" + degrees + "|" + device;
}

// RFC 4180 records: quoted fields may hold commas, quotes ("") and newlines.
std::vector<std::pair<int, std::vector<std::string>>> csvRecords(const std::string& text, const std::string& source) {
    std::vector<std::pair<int, std::vector<std::string>>> out;
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false, any = false;
    int line = 1, record_line = 1;
    auto endRecord = [&] {
        fields.push_back(field);
        if (any || fields.size() > 1 || !fields[0].empty()) out.emplace_back(record_line, fields);
        fields.clear();
        field.clear();
        any = false;
        record_line = line;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        const bool crlf = ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n';
        if (quoted) {
            if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';  // an escaped quote
                ++i;
            } else if (ch == '"') {
                quoted = false;
            } else {
                if (ch == '\n') ++line;
                field += ch;
            }
        } else if (ch == '"') {
            if (!field.empty())
                throw InputError(source, "line " + std::to_string(line), "a quote inside an unquoted field");
            quoted = any = true;
        } else if (ch == ',') {
            fields.push_back(field);
            field.clear();
            any = true;
        } else if (ch == '\n') {
            ++line;
            endRecord();
        } else if (!crlf) {
            field += ch;
        }
    }
    if (quoted) throw InputError(source, "line " + std::to_string(record_line), "a quoted field is not closed");
    endRecord();
    return out;
}

std::vector<std::int64_t> parseDims(const std::string& text, size_t min_count, size_t max_count) {
    std::vector<std::int64_t> out;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t x = std::min(text.find('x', pos), text.size());
        const std::string part = text.substr(pos, x - pos);
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 12)
            throw std::invalid_argument("expected positive integers separated by 'x', got '" + text + "'");
        out.push_back(std::stoll(part));
        if (out.back() <= 0) throw std::invalid_argument("sizes must be positive, got '" + text + "'");
        pos = x + 1;
    }
    if (out.size() < min_count || out.size() > max_count)
        throw std::invalid_argument("expected " + std::to_string(min_count) +
                                    (min_count == max_count ? "" : " to " + std::to_string(max_count)) +
                                    " sizes, got '" + text + "'");
    return out;
}

std::string joinDims(const std::vector<std::int64_t>& d) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i) s += (i ? "x" : "") + std::to_string(d[i]);
    return s;
}

}  // namespace

CostTable CostTable::parse(const std::string& text, const std::string& source) {
    const auto records = csvRecords(text, source);
    if (records.empty()) throw InputError(source, "", "the cost table is empty (expected a header row)");
    static const char* const required[] = {"op",      "input",  "output",    "batch",
                                           "degrees", "device", "forward_s", "backward_s"};
    std::map<std::string, size_t> column;
    const auto& header = records[0].second;
    for (size_t i = 0; i < header.size(); ++i) {
        if (!column.emplace(header[i], i).second)
            throw InputError(source, "line 1", "column '" + header[i] + "' appears twice");
        if (header[i] != "kernel" &&
            std::find(std::begin(required), std::end(required), header[i]) == std::end(required))
            throw InputError(source, "line 1", "unknown column '" + header[i] + "'");
    }
    for (const char* name : required)
        if (!column.count(name)) throw InputError(source, "line 1", std::string("missing column '") + name + "'");
    CostTable table;
    for (size_t r = 1; r < records.size(); ++r) {
        // Not a structured binding: clang 14 cannot capture one in the lambda below.
        const auto line = records[r].first;
        const auto& cells = records[r].second;
        const std::string where = "line " + std::to_string(line);
        if (cells.size() != header.size())
            throw InputError(
                source, where,
                "expected " + std::to_string(header.size()) + " fields, found " + std::to_string(cells.size()));
        auto cell = [&](const char* name) { return cells[column.at(name)]; };
        std::string current;
        try {
            current = "op";
            const std::string op = cell("op");
            if (op != "conv" && op != "fc" && op != "pool" && op != "add" && op != "concat")
                throw std::invalid_argument("unknown operator kind '" + op + "' (use conv, fc, pool, add or concat)");
            current = "input";
            auto in = parseDims(cell("input"), 1, 3);
            in.resize(3, 1);
            current = "output";
            auto out = parseDims(cell("output"), 1, 3);
            out.resize(3, 1);
            current = "kernel";
            const std::string k = column.count("kernel") ? cell("kernel") : "";
            const std::string kernel = k.empty() ? "1x1" : joinDims(parseDims(k, 2, 2));
            current = "batch";
            const std::int64_t batch = parseDims(cell("batch"), 1, 1)[0];
            current = "degrees";
            const auto degrees = parseDims(cell("degrees"), 4, 4);
            current = "device";
            if (cell("device").empty()) throw std::invalid_argument("the device kind is empty");
            Times t;
            for (const char* name : {"forward_s", "backward_s"}) {
                current = name;
                size_t used = 0;
                double v = -1;
                try {
                    v = std::stod(cell(name), &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (used == 0 || used != cell(name).size() || !std::isfinite(v) || v < 0)
                    throw std::invalid_argument("expected a non-negative number of seconds, got '" + cell(name) + "'");
                (std::string(name) == "forward_s" ? t.forward : t.backward) = v;
            }
            current.clear();
            const std::string key =
                keyOf(op, joinDims(in), joinDims(out), kernel, batch, joinDims(degrees), cell("device"));
            if (!table.entries_.emplace(key, t).second)
                throw std::invalid_argument("this entry repeats an earlier row");
        } catch (const std::invalid_argument& e) {
            throw InputError(source, where + (current.empty() ? "" : ", column '" + current + "'"), e.what());
        }
    }
    return table;
}

CostTable CostTable::load(const std::string& path) { return parse(readTextFile(path), path); }

std::optional<double> CostTable::lookup(const Operator& op, std::int64_t batch, const Degrees& degrees,
                                        const std::string& device_kind, bool backward) const {
    if (entries_.empty()) return std::nullopt;
    const Window* w =
        op.type == OpType::Conv || op.type == OpType::Pool || op.type == OpType::ConvTranspose ? &op.window : nullptr;
    const std::string kernel = w ? std::to_string(w->kernel_h) + "x" + std::to_string(w->kernel_w) : "1x1";
    const std::string deg = std::to_string(degrees[0]) + "x" + std::to_string(degrees[1]) + "x" +
                            std::to_string(degrees[2]) + "x" + std::to_string(degrees[3]);
    const auto it = entries_.find(
        keyOf(opTypeName(op.type), computeShapeText(op.in_shape), computeShapeText(op.out_shape), kernel, batch, deg, device_kind));
    if (it == entries_.end()) return std::nullopt;
    return backward ? it->second.backward : it->second.forward;
}

}  // namespace partita::sim
