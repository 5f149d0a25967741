#include "core/store/sim_codec.h"

#include <limits>

#include "core/llm/profile.h"
#include "core/sim/compute_cost.h"

namespace partita::store {

namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();


std::vector<std::string> stringList(Fields& f, const std::string& key) {
    const Json& list = f.raw(key);
    if (!list.is_array()) f.fail(key, "expected a list of strings");
    std::vector<std::string> out;
    for (const Json& item : list) {
        if (!item.is_string()) f.fail(key, "expected a list of strings, found " + excerpt(item));
        out.push_back(item.get<std::string>());
    }
    return out;
}

McmcSettings readSettings(const Json& json, const std::string& source, const std::string& pointer) {
    Fields f(json, pointer, source);
    McmcSettings m;
    m.budget_s = f.nonNegative("budget_s", 0);
    m.iterations = f.integerIn("iterations", 0, kMaxInt);
    m.seed = static_cast<std::uint64_t>(f.integerIn("seed", 0, kMaxInt));
    m.beta = f.nonNegative("beta", 1.0);
    m.starts = stringList(f, "starts");
    // Runs stored before the setting existed were made with the stall rule ending chains.
    m.stop_on_stall = f.boolean("stop_on_stall", true);
    f.finish();
    return m;
}

}  // namespace

Json simOptionsToJson(const sim::SimOptions& o, const McmcSettings* mcmc) {
    Json j{{"training", o.training},
           {"sync", sim::syncModeName(o.sync)},
           {"collectives", sim::collectiveModelName(o.collectives)},
           {"element_bytes", o.element_bytes},
           {"allow_shared_devices", o.allow_shared_devices}};
    if (o.optimizer_states != 1) j["optimizer_states"] = o.optimizer_states;  // absent: the default, as before
    if (o.collective_algorithm) j["collective_algorithm"] = sim::collectiveAlgorithmName(*o.collective_algorithm);
    // The curves are reloaded by name (docs/formats/results-database.md): element and gradient sizes follow.
    if (o.kernels) j["kernels"] = {{"profile", o.kernels->profile}, {"precision", llm::dtypeName(o.kernels->dtype)}};
    if (mcmc)
        j["mcmc"] = {{"budget_s", mcmc->budget_s},
                     {"iterations", mcmc->iterations},
                     {"seed", static_cast<std::int64_t>(mcmc->seed)},
                     {"beta", mcmc->beta},
                     {"starts", mcmc->starts},
                     {"stop_on_stall", mcmc->stop_on_stall}};
    return j;
}

sim::SimOptions readSimOptionsJson(const Json& json, const std::string& source, McmcSettings* mcmc) {
    Fields f(json, "", source);
    sim::SimOptions o;
    o.training = f.boolean("training", true);
    o.sync = f.parsed("sync", "ring", sim::parseSyncMode);
    // Runs stored before the setting existed simulated every ring sync per hop.
    o.collectives = f.parsed("collectives", "per-hop", sim::parseCollectiveModel);
    if (f.has("collective_algorithm"))  // absent: the fastest per group and size
        o.collective_algorithm = f.parsed("collective_algorithm", "ring", sim::parseCollectiveAlgorithm);
    o.element_bytes = f.positive("element_bytes", 4);
    o.allow_shared_devices = f.boolean("allow_shared_devices", false);
    o.optimizer_states = static_cast<int>(f.integerIn("optimizer_states", 0, 2, 1));
    if (f.has("kernels")) {
        Fields k(f.raw("kernels"), f.pointer("kernels"), source);
        const std::string profile = k.string("profile");
        const llm::Dtype dtype = k.parsed("precision", "fp32", llm::parseDtype);
        k.finish();
        try {
            sim::useKernelCurves(o, llm::loadProfile(profile), dtype, profile);
        } catch (const std::exception& e) {
            f.fail("kernels", e.what());
        }
    }
    if (f.has("mcmc")) {
        const McmcSettings m = readSettings(f.raw("mcmc"), source, f.pointer("mcmc"));
        if (mcmc) *mcmc = m;
    }
    f.finish();
    return o;
}

Json mcmcSummaryToJson(const McmcSummary& s) {
    Json starts = Json::array();
    for (const auto& c : s.starts)
        starts.push_back({{"name", c.name},
                          {"initial_s", c.initial_s},
                          {"best_s", c.best_s},
                          {"iterations", c.iterations},
                          {"accepted", c.accepted},
                          {"elapsed_s", c.elapsed_s},
                          {"stop", c.stop},
                          {"restarts", c.restarts}});
    return {{"iterations", s.iterations},
            {"acceptance_rate", s.acceptance_rate},
            {"cancelled", s.cancelled},
            {"restarts", s.restarts},
            {"starts", std::move(starts)}};
}

McmcSummary readMcmcSummaryJson(const Json& json, const std::string& source) {
    Fields f(json, "", source);
    McmcSummary s;
    s.iterations = f.integerIn("iterations", 0, kMaxInt);
    s.acceptance_rate = f.nonNegative("acceptance_rate", 0);
    s.cancelled = f.boolean("cancelled", false);
    s.restarts = f.integerIn("restarts", 0, kMaxInt, 0);  // absent in runs stored before restarts
    const Json& starts = f.raw("starts");
    if (!starts.is_array()) f.fail("starts", "expected a list of per-start summaries");
    for (size_t k = 0; k < starts.size(); ++k) {
        Fields c(starts[k], f.pointer("starts") + "/" + std::to_string(k), source);
        sim::McmcStartSummary one;
        one.name = c.string("name");
        one.initial_s = c.nonNegative("initial_s", 0);
        one.best_s = c.nonNegative("best_s", 0);
        one.iterations = c.integerIn("iterations", 0, kMaxInt);
        one.accepted = c.integerIn("accepted", 0, kMaxInt);
        one.elapsed_s = c.nonNegative("elapsed_s", 0);
        one.stop = c.string("stop", "");
        one.restarts = c.integerIn("restarts", 0, kMaxInt, 0);
        c.finish();
        s.starts.push_back(std::move(one));
    }
    f.finish();
    return s;
}

}  // namespace partita::store
