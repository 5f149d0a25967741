#include "core/store/identical.h"

#include "core/store/run_codec.h"
#include "core/store/sqlite_util.h"

namespace partita::store {

bool sameExploration(sqlite3* db, const std::string& path, std::int64_t id, const Run* run) {
    Statement s(db, path, "SELECT request_json FROM explorations WHERE run_id = ?1");
    s.bind(1, id);
    const bool stored = s.step();
    const ExploreResult* x = run ? run->exploration.get() : nullptr;
    if (!x || !stored) return !x && !stored;
    return s.text(0) == exploreRequestToJson(*x, x->grid(run->grid, x->base_code)).dump();
}

}  // namespace partita::store
