#pragma once
// What the LLM views draw: the settings a plan was evaluated from and its evaluation, as one value
// (the views keep a copy; an evaluation is small).
#include "core/run/llm_settings.h"

namespace partita {

struct LlmShown {
    LlmSettings settings;
    llm::Evaluation eval;
};

}  // namespace partita
