// The AccPar authors' network text format (issue 2, item 3): values are read by
// position; keys are checked only to give a helpful message.
#include <algorithm>
#include <vector>

#include "core/io/network_io.h"
#include "core/util/error.h"
#include "core/util/limits.h"
#include "core/util/utf8.h"

namespace partita {

namespace {

// The blanks `>>` skips in the C locale.
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The words of a line. Every line of the format has at most two, so only the first two are kept
// (short strings, no allocation); `size()` still counts them all for the error messages.
struct Words {
    std::string first[2];
    size_t count = 0;
    size_t size() const { return count; }
    bool empty() const { return count == 0; }
    const std::string& operator[](size_t i) const { return first[i]; }
};

struct Line {
    int number = 0;
    Words words;
};

// Reads one non-blank line ahead of the caller, so memory stays O(1) in the file's length.
class LineReader {
public:
    LineReader(const std::string& text, std::string source) : text_(text), source_(std::move(source)) { advance(); }

    Line next(const std::string& expecting) {
        if (done()) endsEarly(expecting);
        Line line = std::move(ahead_);
        advance();
        return line;
    }

    [[noreturn]] void endsEarly(const std::string& expecting) const {
        fail(number_, "the file ends early: expected " + expecting);
    }

    // A "key value" line; returns the value as a positive integer.
    std::int64_t value(const std::string& key, const std::string& layer) {
        if (done()) endsEarly("'" + key + "' of layer '" + layer + "'");
        const Line line = next(key);
        if (line.words.size() != 2) fail(line.number, "expected '" + key + " <value>' for layer '" + layer + "'");
        if (line.words[0] != key)
            fail(line.number, "expected '" + key + "' for layer '" + layer + "', found '" + line.words[0] + "'");
        return positive(line, line.words[1], key, limits::kDimension);
    }

    std::int64_t positive(const Line& line, const std::string& word, const std::string& what, std::int64_t max) {
        std::int64_t v = 0;
        size_t used = 0;
        try {
            v = std::stoll(word, &used);
        } catch (const std::out_of_range&) {
            fail(line.number, what + " " + word + " exceeds the limit of " + std::to_string(max));
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != word.size()) fail(line.number, what + " must be an integer, found '" + word + "'");
        if (v <= 0) fail(line.number, what + " must be positive, got " + word);
        if (v > max) fail(line.number, what + " " + word + " exceeds the limit of " + std::to_string(max));
        return v;
    }

    bool done() const { return !have_ahead_; }
    const Line& peek() const { return ahead_; }
    [[noreturn]] void fail(int line, const std::string& message) const {
        throw InputError(source_, "line " + std::to_string(line), message);
    }

private:
    // Splits lines by hand until one has words (a string stream per line made reading dominate).
    void advance() {
        have_ahead_ = false;
        while (!have_ahead_ && pos_ < text_.size()) {
            ++number_;
            const size_t end = std::min(text_.find('\n', pos_), text_.size());
            ahead_ = Line{number_, {}};
            for (size_t i = pos_; i < end;) {
                while (i < end && isSpace(text_[i])) ++i;
                const size_t word = i;
                while (i < end && !isSpace(text_[i])) ++i;
                if (i == word) continue;
                if (ahead_.words.count < 2) ahead_.words.first[ahead_.words.count].assign(text_, word, i - word);
                ++ahead_.words.count;
            }
            have_ahead_ = !ahead_.words.empty();
            pos_ = end + 1;
        }
    }

    const std::string& text_;
    std::string source_;
    Line ahead_;
    bool have_ahead_ = false;
    size_t pos_ = 0;
    int number_ = 0;  // lines read so far; at the end, the file's last line
};

// Finds stride and padding (and whether to honour the pool factor) so that a
// conv with `kernel` maps `in` to the `out` the consumer sees. Prefers a
// stride-1 "same" conv; the file's `pool` is advisory (the authors' code ignores it).
// Order of preference: pool factor (file's, 1, 2), then stride 1..kernel, then the "same"
// padding before 0..kernel. For one stride the admissible paddings form an interval, so each
// stride costs O(1) and the search O(kernel) (all values are within limits::kDimension).
bool fitConv(std::int64_t in, std::int64_t kernel, std::int64_t out, std::int64_t pool, std::int64_t& stride,
             std::int64_t& pad, std::int64_t& used_pool) {
    const std::int64_t same = (kernel - 1) / 2;
    const std::int64_t span_max = in + kernel;  // span = in + 2 pad - kernel, pad in [0, kernel]
    for (std::int64_t p : {pool, std::int64_t{1}, std::int64_t{2}}) {
        // The conv output must be `out` (no pool) or floor(conv / p) == out.
        const std::int64_t lo = p > 1 ? out * p : out;
        const std::int64_t hi = p > 1 ? out * p + p - 1 : out;
        for (std::int64_t s = 1; s <= kernel; ++s) {
            // conv = span / s + 1 in [lo, hi]  <=>  span in [(lo - 1) s, hi s - 1].
            if (lo - 1 > span_max / s) break;  // larger strides need larger spans still
            const std::int64_t a = std::max<std::int64_t>((lo - 1) * s, 0);
            const std::int64_t b = hi > (span_max + 1) / s ? span_max : hi * s - 1;
            auto fits = [&](std::int64_t pd) {
                const std::int64_t span = in + 2 * pd - kernel;
                return pd >= 0 && pd <= kernel && span >= a && span <= b;
            };
            std::int64_t pd = same;
            if (!fits(pd)) {
                pd = std::max<std::int64_t>(0, (a - in + kernel + 1) / 2);  // smallest pad reaching span a
                if (!fits(pd)) continue;
            }
            stride = s;
            pad = pd;
            used_pool = p;
            return true;
        }
    }
    return false;
}

}  // namespace

Network readAccParText(const std::string& text, const std::string& source) {
    LineReader reader(text, source);
    const Line head = reader.next("'num_layers N'");
    if (head.words.size() != 2 || head.words[0] != "num_layers")
        reader.fail(head.number, "expected 'num_layers N' on the first line");
    const auto count = reader.positive(head, head.words[1], "num_layers", limits::kOperators);

    Network net;
    const auto slash = source.find_last_of('/');
    net.name = validUtf8(source.substr(slash == std::string::npos ? 0 : slash + 1));  // a path may hold any byte
    if (net.name.size() > 4 && net.name.compare(net.name.size() - 4, 4, ".txt") == 0) net.name.resize(net.name.size() - 4);
    net.description = "imported from AccPar text format";
    Shape current{};
    net.ops.reserve(static_cast<size_t>(std::min<std::int64_t>(count, static_cast<std::int64_t>(text.size() / 16))));  // a layer takes >= 16 bytes
    for (std::int64_t i = 0; i < count; ++i) {
        if (reader.done()) reader.endsEarly("layer " + std::to_string(i + 1) + " of " + std::to_string(count));
        const Line header = reader.next("");
        if (header.words.size() != 2 || (header.words[1] != "FC" && header.words[1] != "CONV"))
            reader.fail(header.number, "expected '<name> FC' or '<name> CONV', found '" +
                                           (header.words.empty() ? std::string() : header.words[0]) +
                                           (header.words.size() > 1 ? " " + header.words[1] : std::string()) + "'");
        Operator op;
        op.name = header.words[0];
        if (const std::string why = utf8Problem(op.name); !why.empty()) reader.fail(header.number, "the layer name " + why);
        if (header.words[1] == "FC") {
            op.type = OpType::FullyConnected;
            const auto in_ch = reader.value("in_ch", op.name);
            op.out_channels = reader.value("out_ch", op.name);
            if (i == 0) current = net.input = Shape{in_ch, 1, 1};
            if (in_ch != current.elements())
                reader.fail(header.number, "layer '" + op.name + "' has in_ch " + std::to_string(in_ch) +
                                               " but the previous layer produces " + std::to_string(current.elements()) +
                                               " values per sample");
            current = Shape{op.out_channels, 1, 1};
        } else {
            op.type = OpType::Conv;
            const auto in_ch = reader.value("in_ch", op.name);
            const auto in_h = reader.value("in_fmap_h", op.name);
            const auto in_w = reader.value("in_fmap_w", op.name);
            const auto kernel = reader.value("kernel", op.name);
            op.out_channels = reader.value("out_ch", op.name);
            const auto out_h = reader.value("out_fmap_h", op.name);
            const auto out_w = reader.value("out_fmap_w", op.name);
            const auto pool = reader.value("pool", op.name);
            if (i == 0) current = net.input = Shape{in_ch, in_h, in_w};
            if (!(Shape{in_ch, in_h, in_w} == current))
                reader.fail(header.number, "layer '" + op.name + "' reads " + std::to_string(in_ch) + "x" +
                                               std::to_string(in_h) + "x" + std::to_string(in_w) +
                                               " but the previous layer produces " + std::to_string(current.c) + "x" +
                                               std::to_string(current.h) + "x" + std::to_string(current.w));
            std::int64_t sh = 1, ph = 0, poolh = 1, sw = 1, pw = 0, poolw = 1;
            if (!fitConv(in_h, kernel, out_h, pool, sh, ph, poolh) || !fitConv(in_w, kernel, out_w, pool, sw, pw, poolw))
                reader.fail(header.number, "no stride and padding map " + std::to_string(in_h) + "x" + std::to_string(in_w) +
                                               " to " + std::to_string(out_h) + "x" + std::to_string(out_w) +
                                               " with kernel " + std::to_string(kernel) + " in layer '" + op.name + "'");
            // Every value is within limits::kDimension, so these fit an int.
            const auto i = [](std::int64_t v) { return static_cast<int>(v); };
            op.window = Window{i(kernel), i(kernel), i(sh), i(sw), i(ph), i(pw), Rounding::Floor};
            if (poolh > 1 || poolw > 1) op.pool = Window{i(poolh), i(poolw), i(poolh), i(poolw), 0, 0, Rounding::Floor};
            current = Shape{op.out_channels, out_h, out_w};
        }
        net.ops.push_back(std::move(op));
    }
    if (!reader.done())
        reader.fail(reader.peek().number, "unexpected text after the " + std::to_string(count) +
                                              " layers announced by num_layers");
    propagate(net, source);
    return net;
}

}  // namespace partita
