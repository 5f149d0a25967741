#include <cmath>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "core/io/network_io.h"
#include "core/onnx/convert.h"
#include "core/onnx/import.h"
#include "core/util/error.h"
#include "core/util/input_file.h"
#include "core/util/limits.h"

namespace partita {

namespace {

constexpr double kPositionLimit = 1e9;

// kernel/stride/padding accept one integer or [h, w].
std::pair<int, int> pairField(Fields& f, const std::string& key, int fallback, bool allow_zero) {
    if (!f.has(key)) return {fallback, fallback};
    const Json& v = f.raw(key);
    auto one = [&](const Json& x) {
        if (!x.is_number_integer()) f.fail(key, "expected an integer or [height, width], found " + excerpt(v));
        const bool huge = x.is_number_unsigned() && x.get<std::uint64_t>() > std::uint64_t{limits::kDimension};
        const auto i = huge ? limits::kDimension + 1 : x.get<std::int64_t>();
        if (i > limits::kDimension)
            f.fail(key, "exceeds the limit of " + std::to_string(limits::kDimension) + ", got " + excerpt(v));
        if (i < (allow_zero ? 0 : 1))
            f.fail(key, std::string(allow_zero ? "must not be negative" : "must be positive") + ", got " + excerpt(v));
        return static_cast<int>(i);
    };
    if (v.is_array()) {
        if (v.size() != 2) f.fail(key, "expected [height, width], found " + excerpt(v));
        return {one(v[0]), one(v[1])};
    }
    const int i = one(v);
    return {i, i};
}

Rounding roundingField(Fields& f) {
    const std::string r = f.string("rounding", "exact");
    if (r == "exact") return Rounding::Exact;
    if (r == "floor") return Rounding::Floor;
    if (r == "ceil") return Rounding::Ceil;
    f.fail("rounding", "unknown rounding '" + r + "' (use exact, floor or ceil)");
}

// padding: one integer, [height, width], or [top, left, bottom, right] (ONNX's order).
void paddingField(Fields& f, Window& w) {
    if (f.has("padding") && f.raw("padding").is_array() && f.raw("padding").size() == 4) {
        const Json& v = f.raw("padding");
        int pads[4];
        for (size_t i = 0; i < 4; ++i) {
            if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0 ||
                v[i].get<std::int64_t>() > limits::kDimension)
                f.fail("padding", "expected [top, left, bottom, right] of non-negative integers, found " + excerpt(v));
            pads[i] = static_cast<int>(v[i].get<std::int64_t>());
        }
        w.pad_h = pads[0];
        w.pad_w = pads[1];
        w.pad_h_end = pads[2];
        w.pad_w_end = pads[3];
        return;
    }
    std::tie(w.pad_h, w.pad_w) = pairField(f, "padding", 0, true);
}

Window windowFields(Fields& f, bool kernel_defaults_stride) {
    Window w;
    std::tie(w.kernel_h, w.kernel_w) = pairField(f, "kernel", 0, false);
    if (!f.has("kernel")) f.raw("kernel");  // reports the missing key
    const auto stride = pairField(f, "stride", 1, false);
    w.stride_h = f.has("stride") || !kernel_defaults_stride ? stride.first : w.kernel_h;
    w.stride_w = f.has("stride") || !kernel_defaults_stride ? stride.second : w.kernel_w;
    paddingField(f, w);
    std::tie(w.dilation_h, w.dilation_w) = pairField(f, "dilation", 1, false);
    w.rounding = roundingField(f);
    return w;
}

Shape shapeField(Fields& f, const std::string& key) {
    Fields s(f.raw(key), f.pointer(key), f.source());
    Shape shape;
    shape.c = s.integerIn("channels", 1, limits::kTensorElements);
    shape.h = s.integerIn("height", 1, limits::kDimension, 1);
    shape.w = s.integerIn("width", 1, limits::kDimension, 1);
    s.finish();
    return shape;
}

bool poolMode(Fields& f) {
    const std::string mode = f.string("mode", "max");
    if (mode != "max" && mode != "avg") f.fail("mode", "unknown pool mode '" + mode + "' (use max or avg)");
    return mode == "avg";
}

// "position": [x, y], a layout hint from the editor; finite and within kPositionLimit.
std::optional<edit::Point> positionField(Fields& f) {
    if (!f.has("position")) return std::nullopt;
    const Json& v = f.raw("position");
    auto coordinate = [&](const Json& x) {
        if (!x.is_number() || !std::isfinite(x.get<double>()) || std::abs(x.get<double>()) > kPositionLimit)
            f.fail("position", "expected [x, y] of numbers within +-1e9, found " + excerpt(v));
        return x.get<double>();
    };
    if (!v.is_array() || v.size() != 2) f.fail("position", "expected [x, y], found " + excerpt(v));
    return edit::Point{coordinate(v[0]), coordinate(v[1])};
}

Operator readOperator(const Json& j, const std::string& pointer, const std::string& source,
                      std::map<std::string, edit::Point>* positions) {
    Fields f(j, pointer, source);
    Operator op;
    op.name = f.string("name");
    if (const auto at = positionField(f); at && positions) (*positions)[op.name] = *at;
    const std::string type = f.string("type");
    if (f.has("inputs")) {
        const Json& in = f.raw("inputs");
        if (!in.is_array() || in.empty()) f.fail("inputs", "expected a non-empty list of operator names");
        for (const auto& x : in) {
            if (!x.is_string()) f.fail("inputs", "expected operator names, found " + excerpt(x));
            op.inputs.push_back(x.get<std::string>());
        }
    }
    op.source_op = f.string("op", "");
    if (type == "conv") {
        op.type = OpType::Conv;
        op.out_channels = f.integerIn("out_channels", 1, limits::kDimension);
        op.group = static_cast<int>(f.integerIn("group", 1, limits::kDimension, 1));
        op.window = windowFields(f, false);
        if (f.has("pool")) {
            Fields p(f.raw("pool"), f.pointer("pool"), source);
            op.pool = windowFields(p, true);
            op.average_pool = poolMode(p);
            p.finish();
        }
    } else if (type == "fc") {
        op.type = OpType::FullyConnected;
        op.out_channels = f.integerIn("out_features", 1, limits::kDimension);
    } else if (type == "pool") {
        op.type = OpType::Pool;
        op.window = windowFields(f, true);
        op.average_pool = poolMode(f);
    } else if (type == "add") {
        op.type = OpType::Add;
    } else if (type == "concat") {
        op.type = OpType::Concat;
    } else if (type == "conv_transpose") {
        op.type = OpType::ConvTranspose;
        op.out_channels = f.integerIn("out_channels", 1, limits::kDimension);
        op.group = static_cast<int>(f.integerIn("group", 1, limits::kDimension, 1));
        op.window = windowFields(f, false);
        std::tie(op.output_pad_h, op.output_pad_w) = pairField(f, "output_padding", 0, true);
    } else if (type == "matmul") {
        op.type = OpType::MatMul;
    } else if (type == "elementwise") {
        op.type = OpType::Elementwise;
        if (f.has("attention")) {
            Fields a(f.raw("attention"), f.pointer("attention"), source);
            op.attention = AttentionCore{a.integerIn("sequence", 1, limits::kDimension),
                                         a.integerIn("heads", 1, limits::kDimension)};
            a.finish();
        }
    } else if (type == "layout") {
        op.type = OpType::Layout;
        op.layout_shape = shapeField(f, "shape");
    } else {
        f.fail("type", "unknown operator type '" + type +
                           "' (use conv, fc, pool, add, concat, conv_transpose, matmul, elementwise or layout)");
    }
    f.finish();
    return op;
}

Json windowJson(const Window& w, bool stride_defaults_to_kernel) {
    auto pair = [](int a, int b) { return a == b ? Json(a) : Json::array({a, b}); };
    Json j;
    j["kernel"] = pair(w.kernel_h, w.kernel_w);
    const bool default_stride = stride_defaults_to_kernel ? (w.stride_h == w.kernel_h && w.stride_w == w.kernel_w)
                                                          : (w.stride_h == 1 && w.stride_w == 1);
    if (!default_stride) j["stride"] = pair(w.stride_h, w.stride_w);
    if (!w.symmetric()) j["padding"] = Json::array({w.pad_h, w.pad_w, w.padBottom(), w.padRight()});
    else if (w.pad_h || w.pad_w) j["padding"] = pair(w.pad_h, w.pad_w);
    if (w.dilation_h != 1 || w.dilation_w != 1) j["dilation"] = pair(w.dilation_h, w.dilation_w);
    if (w.rounding == Rounding::Floor) j["rounding"] = "floor";
    if (w.rounding == Rounding::Ceil) j["rounding"] = "ceil";
    return j;
}

}  // namespace

NetworkFormat parseNetworkFormat(const std::string& name) {
    if (name == "auto") return NetworkFormat::Auto;
    if (name == "json") return NetworkFormat::Json;
    if (name == "accpar") return NetworkFormat::AccParText;
    if (name == "onnx") return NetworkFormat::Onnx;
    throw std::invalid_argument("unknown network format '" + name + "' (use json, accpar, onnx or auto)");
}

namespace {

Network readJson(const std::string& text, const std::string& source, std::map<std::string, edit::Point>* positions) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, "partita-network/1");
    Network net;
    net.name = f.string("name");
    net.description = f.string("description", "");
    {
        Fields in(f.raw("input"), f.pointer("input"), source);
        net.input.c = in.integerIn("channels", 1, limits::kDimension);
        net.input.h = in.integerIn("height", 1, limits::kDimension, 1);
        net.input.w = in.integerIn("width", 1, limits::kDimension, 1);
        in.finish();
    }
    const Json& ops = f.raw("operators");
    if (!ops.is_array()) f.fail("operators", "expected a list of operators");
    if (ops.size() > static_cast<size_t>(limits::kOperators))
        f.fail("operators", std::to_string(ops.size()) + " operators exceed the limit of " + std::to_string(limits::kOperators));
    for (size_t i = 0; i < ops.size(); ++i)
        net.ops.push_back(readOperator(ops[i], "/operators/" + std::to_string(i), source, positions));
    f.finish();
    propagate(net, source);
    return net;
}

}  // namespace

Network readNetworkJson(const std::string& text, const std::string& source) { return readJson(text, source, nullptr); }

LaidOutNetwork readNetworkJsonWithLayout(const std::string& text, const std::string& source) {
    LaidOutNetwork out;
    out.network = readJson(text, source, &out.positions);
    return out;
}

Json networkToJson(const Network& net) { return networkToJson(net, {}); }

Json networkToJson(const Network& net, const std::map<std::string, edit::Point>& positions) {
    Json j;
    j["format"] = "partita-network/1";
    j["name"] = net.name;
    if (!net.description.empty()) j["description"] = net.description;
    j["input"] = {{"channels", net.input.c}, {"height", net.input.h}, {"width", net.input.w}};
    Json ops = Json::array();
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const Operator& op = net.ops[i];
        Json o;
        o["name"] = op.name;
        o["type"] = opTypeName(op.type);
        if (!op.source_op.empty()) o["op"] = op.source_op;
        const std::string implicit = i == 0 ? "input" : net.ops[i - 1].name;
        if (!(op.inputs.size() == 1 && op.inputs[0] == implicit)) o["inputs"] = op.inputs;
        switch (op.type) {
        case OpType::Conv:
            o["out_channels"] = op.out_channels;
            if (op.group != 1) o["group"] = op.group;
            o.update(windowJson(op.window, false));
            if (op.pool) {
                Json p = windowJson(*op.pool, true);
                if (op.average_pool) p["mode"] = "avg";
                o["pool"] = p;
            }
            break;
        case OpType::FullyConnected: o["out_features"] = op.out_channels; break;
        case OpType::Pool:
            o.update(windowJson(op.window, true));
            if (op.average_pool) o["mode"] = "avg";
            break;
        case OpType::ConvTranspose:
            o["out_channels"] = op.out_channels;
            if (op.group != 1) o["group"] = op.group;
            o.update(windowJson(op.window, false));
            if (op.output_pad_h || op.output_pad_w)
                o["output_padding"] = op.output_pad_h == op.output_pad_w ? Json(op.output_pad_h)
                                                                         : Json::array({op.output_pad_h, op.output_pad_w});
            break;
        case OpType::Layout:
            o["shape"] = {{"channels", op.layout_shape.c}, {"height", op.layout_shape.h}, {"width", op.layout_shape.w}};
            break;
        case OpType::Elementwise:
            if (op.attention) o["attention"] = {{"sequence", op.attention->sequence}, {"heads", op.attention->heads}};
            break;
        case OpType::Add:
        case OpType::Concat:
        case OpType::MatMul: break;
        }
        if (const auto at = positions.find(op.name); at != positions.end())
            o["position"] = Json::array({at->second.x, at->second.y});
        ops.push_back(o);
    }
    j["operators"] = ops;
    return j;
}

std::string writeNetworkJson(const Network& net) { return networkToJson(net).dump(2) + "\n"; }

std::string writeNetworkJson(const Network& net, const std::map<std::string, edit::Point>& positions) {
    return networkToJson(net, positions).dump(2) + "\n";
}

namespace {
bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

NetworkFormat detectNetworkFormat(const std::string& path) {
    if (endsWith(path, ".onnx")) return NetworkFormat::Onnx;
    if (endsWith(path, ".txt")) return NetworkFormat::AccParText;
    // Only a regular file is looked into (a FIFO would block); anything else is left to the reader,
    // which refuses it by name.
    if (!notARegularFile(path).empty()) return NetworkFormat::Json;
    std::ifstream in(path, std::ios::binary);
    char first = 0;
    // ModelProto's first field is ir_version (field 1, varint): the byte 0x08. JSON starts otherwise.
    if (in.get(first) && first == 0x08) return NetworkFormat::Onnx;
    return NetworkFormat::Json;
}

Network loadNetwork(const std::string& path, NetworkFormat format) { return loadNetwork(path, format, onnx::InputDims{}); }

LaidOutNetwork loadNetworkWithLayout(const std::string& path, NetworkFormat format) {
    if (format == NetworkFormat::Auto) format = detectNetworkFormat(path);
    if (format == NetworkFormat::Json) return readNetworkJsonWithLayout(readTextFile(path), path);
    return {loadNetwork(path, format), {}};
}

Network onnxNetwork(onnx::OnnxModel model, const onnx::InputDims& dims, const std::string& path,
                    std::vector<onnx::DefaultedInput>* defaulted) {
    // Dimensions the user left open take the importer's suggestion (batch 1, 224 px, 128 tokens).
    const onnx::InputDims given = onnx::withDefaults(model.inputs(), dims, defaulted);
    return onnx::toNetwork(std::move(model).import(given), path).network;
}

Network loadNetwork(const std::string& path, NetworkFormat format, const onnx::InputDims& dims,
                    std::vector<onnx::DefaultedInput>* defaulted) {
    if (format == NetworkFormat::Auto) format = detectNetworkFormat(path);
    if (format == NetworkFormat::Onnx)  // parsed once: its inputs, then the import
        return onnxNetwork(onnx::OnnxModel::read(path), dims, path, defaulted);
    const std::string text = readTextFile(path);
    return format == NetworkFormat::AccParText ? readAccParText(text, path) : readNetworkJson(text, path);
}

Json operatorToJson(const Operator& op) {
    Network one;
    one.ops = {op};
    one.ops[0].inputs = {"input"};  // implicit for a first operator: written without "inputs"
    return networkToJson(one)["operators"][0];
}

Operator readOperatorJson(const Json& j, const std::string& pointer, const std::string& source) {
    Operator op = readOperator(j, pointer, source, nullptr);
    op.inputs.clear();
    return op;
}

}  // namespace partita
