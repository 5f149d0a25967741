#include "widgets/llm/llm_comparison.h"

#include <cmath>

#include "core/llm/numbers.h"

namespace partita {

namespace {

using Unit = LlmComparison::Unit;
using Row = LlmComparison::Row;

// The GPU that holds the most: the row the memory terms are read from (docs/methods/llm.md#views).
llm::StageMemory peakStage(const llm::Evaluation& e) {
    for (const llm::StageMemory& s : e.stages)
        if (s.stage == e.peak_stage) return s;
    return e.stages.empty() ? llm::StageMemory{} : e.stages.front();
}

std::string scheduleText(const llm::Plan& p) {
    std::string s = llm::scheduleName(p.schedule);
    if (p.interleave > 1) s += " x" + std::to_string(p.interleave);
    return s;
}

std::string zeroText(const llm::Plan& p) {
    if (p.zero > 0) return "ZeRO-" + std::to_string(p.zero);
    return p.distributed_optimizer ? "distributed optimizer" : "off";
}

std::string signedText(double d, const std::string& magnitude) { return (d > 0 ? "+" : d < 0 ? "-" : "") + magnitude; }

}  // namespace

std::string llmCompareUnitName(Unit unit) {
    switch (unit) {
    case Unit::Seconds: return "s";
    case Unit::GiB: return "GiB";
    case Unit::TokensPerSecond: return "tokens/s";
    case Unit::Percent: return "%";
    case Unit::Text:
    case Unit::Count: return "";
    }
    return "";
}

LlmComparison::LlmComparison(std::vector<LlmComparedRun> runs) : runs_(std::move(runs)) {
    const auto text = [this](const char* key, const char* label, auto of) {
        Row r{key, label, Unit::Text, {}, {}, false};
        for (const LlmComparedRun& run : runs_) r.text.push_back(of(run.shown));
        rows_.push_back(std::move(r));
    };
    const auto number = [this](std::string key, std::string label, Unit unit, auto of) {
        Row r{std::move(key), std::move(label), unit, {}, {}, false};
        for (const LlmComparedRun& run : runs_) r.values.push_back(of(run.shown));
        rows_.push_back(std::move(r));
    };
    const auto section = [this](const char* key, const char* label) { rows_.push_back({key, label, Unit::Text, {}, {}, true}); };
    const auto count = [](std::int64_t v) { return static_cast<double>(v); };

    section("plan", "plan");
    text("model", "model", [](const LlmShown& s) { return s.settings.model.name; });
    text("profile", "GPU", [](const LlmShown& s) { return s.settings.profile.name; });
    number("gpus", "GPUs", Unit::Count, [&](const LlmShown& s) { return count(s.settings.plan.gpus()); });
    number("plan.tp", "tp", Unit::Count, [&](const LlmShown& s) { return count(s.settings.plan.tp); });
    number("plan.pp", "pp", Unit::Count, [&](const LlmShown& s) { return count(s.settings.plan.pp); });
    number("plan.dp", "dp", Unit::Count, [&](const LlmShown& s) { return count(s.settings.plan.dp); });
    number("plan.micro_batch", "micro-batch", Unit::Count, [&](const LlmShown& s) { return count(s.settings.plan.micro_batch); });
    number("micro_batches", "micro-batches", Unit::Count, [&](const LlmShown& s) { return count(s.eval.micro_batches); });
    text("plan.schedule", "schedule", [](const LlmShown& s) { return scheduleText(s.settings.plan); });
    text("plan.recompute", "recompute", [](const LlmShown& s) { return std::string(llm::recomputeName(s.settings.plan.recompute)); });
    text("plan.zero", "ZeRO", [](const LlmShown& s) { return zeroText(s.settings.plan); });
    text("plan.sp", "SP", [](const LlmShown& s) { return std::string(s.settings.plan.sequence_parallel ? "on" : "off"); });
    text("cost_model", "cost model", [](const LlmShown& s) { return std::string(llm::modelKindName(s.eval.model)); });

    section("time", "time per iteration");
    number("iteration", "iteration", Unit::Seconds, [](const LlmShown& s) { return s.eval.iteration_s; });
    for (const llm::NamedTerm& t : llm::namedTerms({})) {
        const std::string key = t.key;
        number("time." + key, t.label, Unit::Seconds, [&key](const LlmShown& s) {
            for (const llm::NamedTerm& u : llm::namedTerms(s.eval.time))
                if (key == u.key) return u.seconds;
            return 0.0;
        });
    }

    section("memory", "memory per GPU (peak stage)");
    for (const llm::NamedBytes& m : llm::namedMemory({})) {
        const std::string key = m.key;
        number("memory." + key, m.label, Unit::GiB, [&key](const LlmShown& s) {
            for (const llm::NamedBytes& u : llm::namedMemory(peakStage(s.eval)))
                if (key == u.key) return u.bytes / llm::kGiB;
            return 0.0;
        });
    }
    number("memory.peak", "peak", Unit::GiB, [](const LlmShown& s) { return s.eval.peak_bytes / llm::kGiB; });
    number("memory.hbm", "HBM", Unit::GiB, [](const LlmShown& s) { return s.eval.capacity_bytes / llm::kGiB; });
    number("peak_stage", "peak stage", Unit::Count, [&](const LlmShown& s) { return count(s.eval.peak_stage); });
    text("fits", "fits", [](const LlmShown& s) { return std::string(s.eval.fits ? "fits" : "OOM"); });

    section("throughput", "throughput");
    number("tokens_per_s", "tokens/s", Unit::TokensPerSecond, [](const LlmShown& s) { return s.eval.tokens_per_s; });
    number("mfu", "MFU", Unit::Percent, [](const LlmShown& s) { return s.eval.mfu; });
    number("hfu", "HFU", Unit::Percent, [](const LlmShown& s) { return s.eval.hfu; });
}

const LlmComparison::Row* LlmComparison::row(const std::string& key) const {
    for (const Row& r : rows_)
        if (r.key == key) return &r;
    return nullptr;
}

std::string LlmComparison::cell(const Row& row, std::size_t run) {
    if (row.section) return "";
    if (row.unit == Unit::Text) return run < row.text.size() ? row.text[run] : "";
    if (run >= row.values.size()) return "";
    const double v = row.values[run];
    switch (row.unit) {
    case Unit::Seconds: return seconds(v);
    case Unit::GiB: return fixed(v, 2) + " GiB";
    case Unit::TokensPerSecond: return withCommas(std::round(v));
    case Unit::Percent: return fixed(100 * v, 1) + " %";
    case Unit::Count:
    case Unit::Text: return withCommas(v);
    }
    return "";
}

std::string LlmComparison::delta(const Row& row, std::size_t run) {
    if (row.section || row.unit == Unit::Text || run == 0 || run >= row.values.size()) return "";
    const double d = row.values[run] - row.values[0];
    if (d == 0) return "=";
    const double a = std::fabs(d);
    switch (row.unit) {
    case Unit::Seconds: return signedText(d, seconds(a));
    case Unit::GiB: return signedText(d, fixed(a, 2) + " GiB");
    case Unit::TokensPerSecond: return signedText(d, withCommas(std::round(a)));
    case Unit::Percent: return signedText(d, fixed(100 * a, 1) + " pp");
    case Unit::Count:
    case Unit::Text: return signedText(d, withCommas(a));
    }
    return "";
}

std::string LlmComparison::ratio(const Row& row, std::size_t run) {
    if (row.section || row.unit == Unit::Text || run == 0 || run >= row.values.size() || row.values[0] == 0) return "";
    return "\u00d7" + fixed(row.values[run] / row.values[0], 3);
}

bool LlmComparison::allZero(const Row& row) {
    if (row.section || row.unit == Unit::Text) return false;
    for (double v : row.values)
        if (v != 0) return false;
    return true;
}

CsvTable LlmComparison::csv() const {
    CsvTable t;
    t.header = {"row", "label", "unit"};
    for (const LlmComparedRun& r : runs_) t.header.push_back("run_" + std::to_string(r.id));
    for (std::size_t i = 1; i < runs_.size(); ++i) {
        t.header.push_back("delta_" + std::to_string(runs_[i].id));
        t.header.push_back("ratio_" + std::to_string(runs_[i].id));
    }
    for (const Row& r : rows_) {
        if (r.section) continue;
        std::vector<std::string> line{r.key, r.label, r.unit == Unit::Percent ? "fraction" : llmCompareUnitName(r.unit)};
        for (std::size_t i = 0; i < runs_.size(); ++i)
            line.push_back(r.unit == Unit::Text ? r.text[i] : formatNumber(r.values[i]));
        for (std::size_t i = 1; i < runs_.size(); ++i) {
            const bool numeric = r.unit != Unit::Text;
            line.push_back(numeric ? formatNumber(r.values[i] - r.values[0]) : "");
            line.push_back(numeric && r.values[0] != 0 ? formatNumber(r.values[i] / r.values[0]) : "");
        }
        t.rows.push_back(std::move(line));
    }
    return t;
}

}  // namespace partita
