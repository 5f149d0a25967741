#pragma once
// One partition vocabulary for every method (docs/contributing/architecture.md#one-partition-vocabulary): a cell says which
// dimension a layer splits at one hierarchy level and with what ratio.
// HyPar's dp/mp are Type-I/Type-II; AccPar adds Type-III and ratios != 1/2.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace partita {

enum class Split : std::uint8_t {
    Batch = 0,   // Type-I, HyPar "dp": split the batch
    Input = 1,   // Type-II, HyPar "mp": split the input dimension D_i
    Output = 2,  // Type-III: split the output dimension D_o
};
constexpr int kSplitCount = 3;

inline int index(Split s) { return static_cast<int>(s); }
char splitDigit(Split s);                 // '0' '1' '2'
const char* splitShortName(Split s);      // "dp" "mp" "III" (HyPar words for I/II)
const char* splitTypeName(Split s);       // "Type-I" ...

struct Cell {
    Split split = Split::Batch;
    double ratio = 0.5;  // share of the first group (alpha); the other gets 1 - ratio
    bool operator==(const Cell&) const = default;
};

// choice[level][layer], level 0 = H1 (top split).
class Grid {
public:
    Grid() = default;
    Grid(int levels, int layers, Cell fill = {});

    int levels() const { return levels_; }
    int layers() const { return layers_; }
    Cell& at(int level, int layer) { return cells_[static_cast<size_t>(level * layers_ + layer)]; }
    const Cell& at(int level, int layer) const { return cells_[static_cast<size_t>(level * layers_ + layer)]; }
    Split split(int level, int layer) const { return at(level, layer).split; }
    std::span<const Cell> row(int level) const {
        return {cells_.data() + static_cast<size_t>(level * layers_), static_cast<size_t>(layers_)};
    }
    bool operator==(const Grid&) const = default;

    // Per-level digit strings, H1 first, layer 0 first ("0011").
    std::vector<std::string> toStrings() const;
    // Parses per-level strings of 0/1/2; throws std::invalid_argument naming
    // the level and position. `max_split` bounds the digits allowed.
    static Grid fromStrings(const std::vector<std::string>& rows, int layers, Split max_split = Split::Output);
    // "0011,0010,0000,0011" -> rows.
    static std::vector<std::string> splitList(const std::string& text);

private:
    int levels_ = 0, layers_ = 0;
    std::vector<Cell> cells_;
};

}  // namespace partita
