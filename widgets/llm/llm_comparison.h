#pragma once
// 2-4 stored LLM plans side by side (docs/methods/llm.md#views): one column per run, a row per plan
// setting, per time term (llm::namedTerms), per memory term of the peak GPU (llm::namedMemory) and per
// headline figure, each numeric row with its difference from the first run. Qt-free: the compare view
// shows it and its CSV is the export.
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/csv.h"
#include "widgets/llm/llm_shown.h"

namespace partita {

struct LlmComparedRun {
    std::int64_t id = 0;  // results-database row
    std::string name;
    LlmShown shown;       // the stored settings and evaluateLlm(settings)
};

class LlmComparison {
public:
    enum class Unit { Text, Seconds, GiB, TokensPerSecond, Percent, Count };
    struct Row {
        std::string key;    // the CSV's: "time.fwd", "memory.grads", "iteration", "plan.tp"
        std::string label;  // what the view says: "forward", "gradients"
        Unit unit = Unit::Text;
        std::vector<double> values;     // per run, in `unit` (Percent as a fraction); empty for text
        std::vector<std::string> text;  // per run, for text rows
        bool section = false;           // a heading row ("time per iteration"), no values
    };

    LlmComparison() = default;
    explicit LlmComparison(std::vector<LlmComparedRun> runs);

    const std::vector<LlmComparedRun>& runs() const { return runs_; }
    const std::vector<Row>& rows() const { return rows_; }
    const Row* row(const std::string& key) const;  // nullptr for an unknown key

    // Run i's cell as shown ("1.234 s", "12.50 GiB", "41.2 %"); and against run 0: "+0.12 s", "×1.100"
    // ("" for text rows and run 0; "=" for no change; no ratio over 0).
    static std::string cell(const Row& row, std::size_t run);
    static std::string delta(const Row& row, std::size_t run);
    static std::string ratio(const Row& row, std::size_t run);
    static bool allZero(const Row& row);  // a term no run has (the view hides it)

    // One line per row: key, label, unit, each run's value (exact, formatNumber), then Δ and ratio of
    // each run after the first.
    CsvTable csv() const;

private:
    std::vector<LlmComparedRun> runs_;
    std::vector<Row> rows_;
};

std::string llmCompareUnitName(LlmComparison::Unit unit);  // "s", "GiB", "tokens/s", "%", ""

}  // namespace partita
