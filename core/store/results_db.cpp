#include "core/store/results_db.h"

#include <algorithm>
#include <cmath>

#include <openssl/evp.h>
#include <sqlite3.h>

#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "core/io/params_json.h"
#include "core/run/method_registry.h"
#include "core/store/identical.h"
#include "core/store/merge.h"
#include "core/store/method_rows.h"
#include "core/store/run_codec.h"
#include "core/store/schema.h"
#include "core/store/run_rows.h"
#include "core/store/sim_rows.h"
#include "core/store/sqlite_util.h"
#include "core/util/format.h"

namespace partita {

using store::Statement;

std::string contentHash(const std::string& text) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr) != 1)
        throw Error("SHA-256 failed in OpenSSL");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 0xf];
    }
    return hex;
}

ResultsDb::ResultsDb(const std::string& path, bool read_only)
    : path_(path), read_only_(read_only), db_(store::openResultsDb(path, read_only_)) {}

ResultsDb::~ResultsDb() { sqlite3_close_v2(db_); }

namespace {

std::string noRun(const std::string& path, std::int64_t id) {
    return path + ": there is no run with id " + std::to_string(id);
}

std::vector<std::string> strings(sqlite3* db, const std::string& path, const char* sql) {
    Statement s(db, path, sql);
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.text(0));
    return out;
}

}  // namespace

void ResultsDb::requireWritable() const {
    if (read_only_) throw StoreError(path_ + ": the results database is open read-only; runs are not being stored");
}

std::optional<std::int64_t> ResultsDb::findIdentical(const Run& run) const {
    if (!run.inputs) return std::nullopt;
    return findIdentical(run, store::runRows(run));
}

std::optional<std::int64_t> ResultsDb::findIdentical(const Run& run, const store::RunRows& rows) const {
    if (!run.inputs) return std::nullopt;
    store::StatementCache sql(db_, path_);
    return store::findIdenticalRows(sql, rows, &run);
}

std::int64_t ResultsDb::store(const Run& run) {
    requireWritable();
    if (!run.inputs) throw StoreError(path_ + ": cannot store a run without inputs");
    return store(run, store::runRows(run));
}

std::int64_t ResultsDb::store(const Run& run, const store::RunRows& rows) {
    requireWritable();
    if (!run.inputs) throw StoreError(path_ + ": cannot store a run without inputs");
    store::Transaction t(db_, path_);
    store::StatementCache sql(db_, path_);
    const std::int64_t id = store::insertRunRows(sql, rows);
    if (const auto& x = run.exploration) {
        if (x->time_step_s.size() != x->total_elements.size())
            throw StoreError(path_ + ": the exploration's columns differ in length");
        // The run's grid is a point of the space, so the base is that grid with the base code applied.
        const Grid base = x->grid(run.grid, x->base_code);
        Statement(db_, path_, R"sql(
INSERT INTO explorations (run_id, request_json, total_elements, time_step_s, time_step_dp_s, base_code,
                          best_comm_code, best_time_code)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8))sql")
            .bind(1, id).bind(2, store::exploreRequestToJson(*x, base).dump())
            .bindDoubles(3, x->total_elements).bindDoubles(4, x->time_step_s).bind(5, x->time_step_dp_s)
            .bind(6, static_cast<std::int64_t>(x->base_code)).bind(7, static_cast<std::int64_t>(x->best_comm_code))
            .bind(8, static_cast<std::int64_t>(x->best_time_code)).run();
    }
    t.commit();
    return id;
}

std::int64_t ResultsDb::storeSweepPoint(store::SweepPointRow row, const Run* run) {
    return storeSweepPoints({{std::move(row), run}}).front();
}

std::vector<std::int64_t> ResultsDb::storeSweepPoints(const std::vector<SweepPoint>& points) {
    std::vector<std::optional<store::RunRows>> rows;
    for (const auto& [row, run] : points) {
        if (run && !run->inputs) throw StoreError(path_ + ": cannot store a run without inputs");
        rows.push_back(run ? std::optional(store::runRows(*run)) : std::nullopt);
    }
    std::vector<SweepRows> given;
    for (size_t i = 0; i < points.size(); ++i) given.emplace_back(points[i].first, rows[i] ? &*rows[i] : nullptr);
    return storeSweepRows(given);
}

std::vector<std::int64_t> ResultsDb::storeSweepRows(const std::vector<SweepRows>& points,
                                                    std::vector<std::string>* refused) {
    requireWritable();
    store::Transaction t(db_, path_);
    store::StatementCache sql(db_, path_);  // the batch's statements are prepared once
    std::vector<std::int64_t> ids;
    if (refused) refused->assign(points.size(), {});
    for (size_t i = 0; i < points.size(); ++i) {
        const auto& [given, rows] = points[i];
        store::SweepPointRow row = given;
        row.run_id = 0;
        if (rows) {
            // A run the database refuses (a constraint, a value that is not finite) fails its point
            // alone; the rest of the batch is stored.
            store::exec(db_, path_, "SAVEPOINT point");
            try {
                const auto same = store::findIdenticalRows(sql, *rows);
                row.run_id = same ? *same : store::insertRunRows(sql, *rows);
                store::exec(db_, path_, "RELEASE point");
            } catch (const store::RowError& e) {
                store::exec(db_, path_, "ROLLBACK TO point");
                store::exec(db_, path_, "RELEASE point");
                row.run_id = 0;
                row.error = std::string("its run cannot be stored: ") + e.what();
                if (refused) (*refused)[i] = row.error;
            }
        }
        store::putSweepPoint(sql, row);
        ids.push_back(row.run_id);
    }
    t.commit();
    return ids;
}

std::unordered_map<std::string, std::string> ResultsDb::sweepPointStates() const {
    return store::sweepPointStates(db_, path_);
}

std::vector<store::SweepPointListing> ResultsDb::sweepPoints(const std::string& sweep) const {
    return store::sweepPointListing(db_, path_, sweep);
}

void ResultsDb::checkMergeInput(const std::string& in_path, const std::string& out_path) {
    store::checkMergeInput(in_path, out_path);
}

ResultsDb::MergeCount ResultsDb::merge(const std::string& in_path) {
    requireWritable();
    return store::mergeDatabase(db_, path_, in_path);
}

std::vector<RunSummary> ResultsDb::list(const RunFilter& filter) const {
    Statement s(db_, path_, R"sql(
SELECT r.id, r.name, r.kind, r.method, n.name, r.network_hash, a.name, r.array_hash, a.accelerators, r.batch,
       r.total_elements, r.time_step_s, r.perf_vs_dp, r.created_utc, r.app_version, t.name, t.devices,
       r.energy_j
FROM runs r JOIN networks n ON n.hash = r.network_hash JOIN arrays a ON a.hash = r.array_hash
     LEFT JOIN simulations m ON m.run_id = r.id LEFT JOIN topologies t ON t.hash = m.topology_hash
WHERE (?1 = '' OR n.name = ?1) AND (?2 = '' OR a.name = ?2) AND (?3 = '' OR r.method = ?3)
ORDER BY r.id DESC)sql");
    s.bind(1, filter.network_name).bind(2, filter.array_name).bind(3, filter.method);
    std::vector<RunSummary> runs;
    while (s.step()) {
        RunSummary r;
        r.id = s.integer(0);
        r.name = s.text(1);
        try {
            r.kind = parseRunKind(s.text(2));
        } catch (const std::invalid_argument& e) {
            throw StoreError(path_ + ": run " + std::to_string(r.id) + ": " + e.what());
        }
        r.method = s.text(3);
        r.network_name = s.text(4);
        r.network_hash = s.text(5);
        r.array_name = s.text(6);
        r.array_hash = s.text(7);
        r.accelerators = static_cast<int>(s.integer(8));
        r.batch = s.real(9);
        r.total_elements = s.real(10);
        r.time_step_s = s.real(11);
        r.perf_vs_dp = s.real(12);
        r.created_utc = s.text(13);
        r.app_version = s.text(14);
        r.topology_name = s.text(15);
        r.devices = static_cast<int>(s.integer(16));
        r.energy_j = s.real(17);
        runs.push_back(std::move(r));
    }
    return runs;
}

namespace {

// The exploration row of a run, or null; checks the blobs fit the request.
std::shared_ptr<const ExploreResult> loadExploration(sqlite3* db, const std::string& path, std::int64_t id) {
    Statement s(db, path, R"sql(
SELECT request_json, total_elements, time_step_s, time_step_dp_s, base_code, best_comm_code, best_time_code
FROM explorations WHERE run_id = ?1)sql");
    s.bind(1, id);
    if (!s.step()) return nullptr;
    const std::string source = "exploration request";
    store::StoredRequest request = store::readExploreRequestJson(parseJsonText(s.text(0), source), source);
    auto x = std::make_shared<ExploreResult>();
    x->cells = std::move(request.cells);
    x->radix = request.radix;
    x->total_elements = s.doubles(1);
    x->time_step_s = s.doubles(2);
    x->time_step_dp_s = s.real(3);
    x->base_code = static_cast<std::uint64_t>(s.integer(4));
    x->best_comm_code = static_cast<std::uint64_t>(s.integer(5));
    x->best_time_code = static_cast<std::uint64_t>(s.integer(6));
    std::uint64_t points = 1;
    for (size_t i = 0; i < x->cells.size() && points <= kMaxExplorePoints; ++i)
        points *= static_cast<std::uint64_t>(x->radix);
    if (x->total_elements.size() != points || x->time_step_s.size() != points || x->base_code >= points ||
        x->best_comm_code >= points || x->best_time_code >= points)
        throw StoreError(path + ": run " + std::to_string(id) + ": the stored exploration is damaged (" +
                         std::to_string(x->total_elements.size()) + " values for " + std::to_string(points) +
                         " points)");
    return x;
}

bool sameTime(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

}  // namespace

Run ResultsDb::load(std::int64_t id, const CancelFn& cancel) const {
    Statement s(db_, path_, R"sql(
SELECT r.name, r.kind, r.method, n.json, a.json, r.params_json, r.grid_json, r.reference_json, r.total_elements,
       r.time_step_s, r.created_utc, r.app_version, r.job_ms, r.network_origin, r.array_origin
FROM runs r JOIN networks n ON n.hash = r.network_hash JOIN arrays a ON a.hash = r.array_hash
WHERE r.id = ?1)sql");
    s.bind(1, id);
    if (!s.step()) throw StoreError(noRun(path_, id));
    const std::string where = path_ + ": run " + std::to_string(id);
    if (isMethodRun(id))
        throw StoreError(where + ": an " + s.text(2) + " evaluation, re-opened as settings (loadMethod), not a grid");
    Run run;
    try {
        Network network = readNetworkJson(s.text(3), "stored network");
        Array array = readArrayJson(s.text(4), "stored array");
        const std::string params_source = "stored parameters";
        Json params_json = parseJsonText(s.text(5), params_source);
        AccParParams accpar;
        if (params_json.is_object() && params_json.contains("accpar")) {
            accpar = readAccParParamsJson(params_json["accpar"], params_source, "/accpar");
            params_json.erase("accpar");
        }
        const CostParams params = readParamsJson(params_json, params_source, "");
        const InputsPtr inputs =
            makeInputs(std::move(network), std::move(array), params, s.text(13), s.text(14), accpar);
        auto gridAt = [&](int column, const std::string& source) {
            return store::readGridJson(parseJsonText(s.text(column), source), source, "");
        };
        const Grid grid = gridAt(6, "stored grid");
        const Grid reference = gridAt(7, "stored reference grid");
        const RunKind kind = parseRunKind(s.text(1));
        // An AccPar search is searched again: on unequal arrays its grid shows one node per level only.
        if (auto simulated = store::loadSimulatedRun(db_, path_, id, inputs, grid, cancel)) run = std::move(*simulated);
        else if (const MethodInfo* m = findMethod(s.text(2));
                 m && m->family() == MethodFamily::AccPar && kind == RunKind::Search)
            run = accparRun(inputs);
        else run = gridRun(inputs, grid, kind, s.text(2), &reference);
        run.exploration = loadExploration(db_, path_, id);
    } catch (const StoreError&) {
        throw;
    } catch (const std::exception& e) {
        throw StoreError(where + ": cannot rebuild the run: " + e.what());
    }
    const double elements = s.real(8), time = s.real(9);
    if (run.eval().total_elements != elements || !sameTime(run.stepTime(), time))
        throw StoreError(where + ": stored metrics do not match the engine's recomputation (total " +
                         formatNumber(elements) + " vs " + formatNumber(run.eval().total_elements) +
                         " elements, step " + formatNumber(time) + " vs " + formatNumber(run.stepTime()) +
                         " s)");
    run.id = id;
    run.name = s.text(0);
    run.created_utc = s.text(10);
    run.app_version = s.text(11);
    run.job_ms = s.real(12);
    return run;
}

bool ResultsDb::hasSimulation(std::int64_t id) const {
    Statement s(db_, path_, "SELECT 1 FROM simulations WHERE run_id = ?1");
    s.bind(1, id);
    return s.step();
}

std::int64_t ResultsDb::storeMethod(const MethodRun& run) {
    requireWritable();
    return store::storeMethodRun(db_, path_, run);
}
MethodRun ResultsDb::loadMethod(std::int64_t id) const { return store::loadMethodRun(db_, path_, id); }
bool ResultsDb::isMethodRun(std::int64_t id) const { return store::isMethodRun(db_, path_, id); }

void ResultsDb::rename(std::int64_t id, const std::string& name) {
    requireWritable();
    Statement(db_, path_, "UPDATE runs SET name = ?2 WHERE id = ?1").bind(1, id).bind(2, name).run();
    if (sqlite3_changes(db_) == 0) throw StoreError(noRun(path_, id));
}

void ResultsDb::remove(std::int64_t id) {
    requireWritable();
    store::Transaction t(db_, path_);
    Statement(db_, path_, "DELETE FROM runs WHERE id = ?1").bind(1, id).run();  // levels and exploration cascade
    if (sqlite3_changes(db_) == 0) throw StoreError(noRun(path_, id));
    // Inputs no run refers to any more would only clutter the filters.
    store::exec(db_, path_, "DELETE FROM networks WHERE hash NOT IN (SELECT network_hash FROM runs)");
    store::exec(db_, path_, "DELETE FROM arrays WHERE hash NOT IN (SELECT array_hash FROM runs)");
    store::exec(db_, path_, "DELETE FROM topologies WHERE hash NOT IN (SELECT topology_hash FROM simulations)");
    t.commit();
}

std::vector<std::string> ResultsDb::networkNames() const {
    return strings(db_, path_, "SELECT DISTINCT n.name FROM networks n JOIN runs r ON r.network_hash = n.hash "
                               "ORDER BY n.name");
}

std::vector<std::string> ResultsDb::arrayNames() const {
    return strings(db_, path_, "SELECT DISTINCT a.name FROM arrays a JOIN runs r ON r.array_hash = a.hash "
                               "ORDER BY a.name");
}

std::vector<std::string> ResultsDb::methods() const {
    return strings(db_, path_, "SELECT DISTINCT method FROM runs ORDER BY method");
}

}  // namespace partita
