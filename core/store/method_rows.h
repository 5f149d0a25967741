#pragma once
// The results database's rows for MPT and Learn-to-Scale evaluations (schema 3).
// Each is a `runs` row (kind 'evaluate', method 'mpt' or 'l2s'; so the runs
// list, its filters, rename and delete treat it like any run) plus a
// `method_runs` row with the settings and the headline numbers. The network is
// kept by content hash in `networks`; the hardware (256 NDP workers, an n-core
// mesh) is a small descriptive row in `arrays`.
#include <cstdint>
#include <string>

#include "core/run/method_run.h"
#include "core/store/run_rows.h"

struct sqlite3;

namespace partita::store {

// What storing `run` writes (core/store/run_rows.h), with its settings in RunRows::settings_json;
// throws StoreError for a method without a settings codec.
RunRows methodRunRows(const MethodRun& run, const std::string& path = "");
// In one transaction; returns the run id.
std::int64_t storeMethodRun(sqlite3* db, const std::string& path, const MethodRun& run);
// The settings re-read and evaluated again; a mismatch with the stored numbers is a StoreError.
MethodRun loadMethodRun(sqlite3* db, const std::string& path, std::int64_t id);
bool isMethodRun(sqlite3* db, const std::string& path, std::int64_t id);

}  // namespace partita::store
