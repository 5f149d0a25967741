#pragma once
// JSON views of Learn-to-Scale results, shared by the CLI and exports: every
// quantity under a name that carries its unit (_B bytes, _J joules, _cycles).
#include "core/io/json_fields.h"
#include "core/l2s/evaluate.h"
#include "core/l2s/presets.h"

namespace partita::l2s {

Json rowJson(const BoundaryRow& row);     // metrics plus traffic_B and link_load_B matrices
Json totalsJson(const Evaluation& e);
Json versusJson(const Versus& v);         // infinite ratios become null
Json paperJson(const PaperRow* row);      // null without a row; labelled paper-reported

}  // namespace partita::l2s
