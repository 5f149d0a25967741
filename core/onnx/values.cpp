// Helpers of the ONNX importer: tensor values, broadcasting, attributes.
#include <cstring>
#include <limits>

#include "core/onnx/detail.h"
#include "core/util/limits.h"

namespace partita::onnx::detail {

using ::onnx::AttributeProto;
using ::onnx::TensorProto;

bool Info::known() const {
    if (!rank_known) return false;
    for (const std::int64_t d : dims)
        if (d < 0) return false;
    return true;
}

const AttributeProto* NodeCtx::attr(const char* name) const {
    for (const AttributeProto& a : node.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

std::int64_t NodeCtx::attrInt(const char* name, std::int64_t fallback) const {
    const AttributeProto* a = attr(name);
    return a && a->has_i() ? a->i() : fallback;
}

double NodeCtx::attrFloat(const char* name, double fallback) const {
    const AttributeProto* a = attr(name);
    return a && a->has_f() ? static_cast<double>(a->f()) : fallback;
}

std::string NodeCtx::attrString(const char* name, const std::string& fallback) const {
    const AttributeProto* a = attr(name);
    return a && a->has_s() ? a->s() : fallback;
}

std::optional<std::vector<std::int64_t>> NodeCtx::attrInts(const char* name) const {
    const AttributeProto* a = attr(name);
    if (!a) return std::nullopt;
    return std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::vector<double>> NodeCtx::attrFloats(const char* name) const {
    const AttributeProto* a = attr(name);
    if (!a) return std::nullopt;
    return std::vector<double>(a->floats().begin(), a->floats().end());
}

IntList intsFromInput(const NodeCtx& c, std::size_t index) {
    IntList list;
    const Info* in = c.input(index);
    if (!in) return list;
    list.present = true;
    if (!in->has_values) return list;
    if (in->is_float) throw RuleError("input " + std::to_string(index) + " must hold integers");
    list.known = true;
    list.values = in->ints;
    return list;
}

IntList intsFromAttr(const NodeCtx& c, const char* name) {
    IntList list;
    if (auto v = c.attrInts(name)) {
        list.present = list.known = true;
        list.values = std::move(*v);
    }
    return list;
}

std::int64_t elementCount(const std::vector<std::int64_t>& dims) {
    if (dims.size() > static_cast<std::size_t>(limits::kOnnxRank))
        throw RuleError("a tensor of rank " + std::to_string(dims.size()) + " exceeds the limit of " +
                        std::to_string(limits::kOnnxRank) + " axes");
    std::int64_t n = 1;
    for (const std::int64_t d : dims) {
        if (d < 0) throw RuleError("negative size " + std::to_string(d) + " in " + valuesText(dims));
        if (d > limits::kOnnxTensorElements || (d > 0 && n > limits::kOnnxTensorElements / d))
            throw RuleError("a tensor of " + valuesText(dims) + " exceeds the limit of " +
                            std::to_string(limits::kOnnxTensorElements) + " elements");
        n *= d;
    }
    return n;
}

std::int64_t normalizeAxis(std::int64_t axis, std::size_t rank, const char* what) {
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= r)
        throw RuleError(std::string(what) + " " + std::to_string(axis) + " is outside a rank-" + std::to_string(rank) +
                        " tensor");
    return axis < 0 ? axis + r : axis;
}

std::vector<std::int64_t> broadcastShapes(const std::vector<const Info*>& inputs) {
    std::size_t rank = 0;
    for (const Info* in : inputs) rank = std::max(rank, in->dims.size());
    std::vector<std::int64_t> out(rank, 1);
    for (const Info* in : inputs) {
        const std::size_t shift = rank - in->dims.size();
        for (std::size_t i = 0; i < in->dims.size(); ++i) {
            const std::int64_t d = in->dims[i];
            std::int64_t& o = out[shift + i];
            if (d == o || d == 1) continue;
            if (o == 1) {
                o = d;
                continue;
            }
            std::string shapes;
            for (const Info* x : inputs) shapes += (shapes.empty() ? "" : " and ") + dimsText(x->dims);
            throw RuleError("shapes " + shapes + " do not broadcast");
        }
    }
    return out;
}

std::vector<std::size_t> broadcastIndex(const std::vector<std::int64_t>& from, const std::vector<std::int64_t>& dims) {
    const std::size_t n = static_cast<std::size_t>(elementCount(dims));
    std::vector<std::size_t> index(n, 0);
    const std::size_t shift = dims.size() - from.size();
    // Strides of `from` aligned to the trailing axes of `dims`; a broadcast axis has stride 0.
    std::vector<std::size_t> stride(dims.size(), 0);
    std::size_t s = 1;
    for (std::size_t i = from.size(); i-- > 0;) {
        stride[shift + i] = from[i] == 1 ? 0 : s;
        s *= static_cast<std::size_t>(from[i]);
    }
    std::vector<std::int64_t> pos(dims.size(), 0);
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t at = 0;
        for (std::size_t a = 0; a < dims.size(); ++a) at += static_cast<std::size_t>(pos[a]) * stride[a];
        index[k] = at;
        for (std::size_t a = dims.size(); a-- > 0;) {
            if (++pos[a] < dims[a]) break;
            pos[a] = 0;
        }
    }
    return index;
}

void takeValues(const Info& src, const std::vector<std::size_t>& index, Info& dst) {
    dst.elem_type = src.elem_type;
    dst.is_float = src.is_float;
    dst.has_values = true;
    dst.ints.clear();
    dst.floats.clear();
    if (src.is_float) {
        dst.floats.reserve(index.size());
        for (const std::size_t i : index) dst.floats.push_back(src.floats.at(i));
    } else {
        dst.ints.reserve(index.size());
        for (const std::size_t i : index) dst.ints.push_back(src.ints.at(i));
    }
}

std::vector<std::int64_t> knownDims(const Info& info) {
    if (!info.known()) throw RuleError("a shape is unknown");
    return info.dims;
}

bool isFloatType(int t) {
    return t == TensorProto::FLOAT || t == TensorProto::DOUBLE || t == TensorProto::FLOAT16 ||
           t == TensorProto::BFLOAT16;
}

std::string dtypeName(int t) {
    switch (t) {
        case TensorProto::FLOAT: return "float";
        case TensorProto::UINT8: return "uint8";
        case TensorProto::INT8: return "int8";
        case TensorProto::UINT16: return "uint16";
        case TensorProto::INT16: return "int16";
        case TensorProto::INT32: return "int32";
        case TensorProto::INT64: return "int64";
        case TensorProto::STRING: return "string";
        case TensorProto::BOOL: return "bool";
        case TensorProto::FLOAT16: return "float16";
        case TensorProto::DOUBLE: return "double";
        case TensorProto::UINT32: return "uint32";
        case TensorProto::UINT64: return "uint64";
        case TensorProto::COMPLEX64: return "complex64";
        case TensorProto::COMPLEX128: return "complex128";
        case TensorProto::BFLOAT16: return "bfloat16";
        default: return "";
    }
}

std::string dimsText(const std::vector<std::int64_t>& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ", ";
        s += dims[i] < 0 ? "?" : std::to_string(dims[i]);
    }
    return s + "]";
}

std::string valuesText(const std::vector<std::int64_t>& values) {
    std::string s = "[";
    for (std::size_t i = 0; i < values.size() && i < 16; ++i) s += (i ? ", " : "") + std::to_string(values[i]);
    return s + (values.size() > 16 ? ", …]" : "]");
}

Info shaped(int elem_type, std::vector<std::int64_t> dims) {
    Info info;
    info.elem_type = elem_type;
    info.rank_known = true;
    info.dims = std::move(dims);
    return info;
}

namespace {

// Little-endian element `i` of `raw` (x86 and ARM hosts are little-endian, as ONNX's raw_data is).
template <class T>
T rawAt(const std::string& raw, std::size_t i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    return v;
}

template <class T>
bool readRawInts(const std::string& raw, std::size_t n, std::vector<std::int64_t>& out) {
    if (raw.size() != n * sizeof(T)) return false;
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::int64_t>(rawAt<T>(raw, i));
    return true;
}

template <class T>
bool readRawFloats(const std::string& raw, std::size_t n, std::vector<double>& out) {
    if (raw.size() != n * sizeof(T)) return false;
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<double>(rawAt<T>(raw, i));
    return true;
}

}  // namespace

void readTensor(const TensorProto& t, Info& info) {
    std::vector<std::int64_t> dims(t.dims().begin(), t.dims().end());
    const std::size_t n = static_cast<std::size_t>(elementCount(dims));
    info = shaped(t.data_type(), std::move(dims));
    info.constant = true;
    if (t.data_location() == TensorProto::EXTERNAL) return;  // never read from another file
    if (n > static_cast<std::size_t>(limits::kOnnxFoldedValues)) return;
    // Float values matter only as Resize scales and the like; weights keep just their shape.
    constexpr std::size_t kFloatValues = 64;
    if (isFloatType(t.data_type()) && n > kFloatValues) return;
    const bool raw = t.has_raw_data();
    const std::string& bytes = t.raw_data();
    bool ok = true;
    bool is_float = false;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;
    std::size_t stored = 0;  // values present outside raw_data
    switch (t.data_type()) {
        case TensorProto::FLOAT:
            is_float = true;
            if (raw) ok = readRawFloats<float>(bytes, n, floats);
            else floats.assign(t.float_data().begin(), t.float_data().end()), stored = floats.size();
            break;
        case TensorProto::DOUBLE:
            is_float = true;
            if (raw) ok = readRawFloats<double>(bytes, n, floats);
            else floats.assign(t.double_data().begin(), t.double_data().end()), stored = floats.size();
            break;
        case TensorProto::INT64:
            if (raw) ok = readRawInts<std::int64_t>(bytes, n, ints);
            else ints.assign(t.int64_data().begin(), t.int64_data().end()), stored = ints.size();
            break;
        case TensorProto::INT32:
        case TensorProto::INT16:
        case TensorProto::INT8:
        case TensorProto::UINT16:
        case TensorProto::UINT8:
        case TensorProto::BOOL:
            if (raw) {
                switch (t.data_type()) {
                    case TensorProto::INT32: ok = readRawInts<std::int32_t>(bytes, n, ints); break;
                    case TensorProto::INT16: ok = readRawInts<std::int16_t>(bytes, n, ints); break;
                    case TensorProto::INT8: ok = readRawInts<std::int8_t>(bytes, n, ints); break;
                    case TensorProto::UINT16: ok = readRawInts<std::uint16_t>(bytes, n, ints); break;
                    default: ok = readRawInts<std::uint8_t>(bytes, n, ints); break;
                }
            } else {
                ints.assign(t.int32_data().begin(), t.int32_data().end()), stored = ints.size();
            }
            break;
        case TensorProto::UINT32:
            if (raw) ok = readRawInts<std::uint32_t>(bytes, n, ints);
            else ints.assign(t.uint64_data().begin(), t.uint64_data().end()), stored = ints.size();
            break;
        default:
            return;  // uint64, float16, strings…: the shape is all the importer uses
    }
    if (!raw && stored == 0 && n > 0) return;  // a tensor saved without data: shape only
    if (!ok || (!raw && stored != n))
        throw RuleError("tensor '" + t.name() + "' of " + dimsText(info.dims) + " holds " +
                        std::to_string(raw ? bytes.size() : stored) + (raw ? " bytes" : " values") + " for " +
                        std::to_string(n) + " elements");
    if (t.data_type() == TensorProto::BOOL)
        for (std::int64_t& v : ints) v = v != 0;
    info.has_values = true;
    info.is_float = is_float;
    info.ints = std::move(ints);
    info.floats = std::move(floats);
}

}  // namespace partita::onnx::detail
