#pragma once
// The plan view's words: the node size, the legend of which tier each dimension's collectives use,
// each stage's layers (plan_view_text.cpp, with the tool tips and the CSV).
#include <cstdint>

#include <QString>

#include "widgets/llm/llm_shown.h"

namespace partita {

std::int64_t planNodeSize(const llm::Profile& profile);  // GPUs of the fast tier (a node)
QString planLegend(const LlmShown& s);
// "layers 0–11" (interleaved: "12 chunks: 0–1, 8–9, …") for stages [first, last].
QString stageLayerText(const LlmShown& s, std::int64_t first, std::int64_t last);
QString stageExtras(const LlmShown& s, std::int64_t first, std::int64_t last);  // " + embedding", " + head"

}  // namespace partita
