// Strategy JSON "partita-soap/1": read strictly (unknown keys, missing or
// repeated operators are errors naming the JSON pointer), written compactly
// (degrees of 1 are omitted).
#include <map>
#include <string_view>
#include <unordered_map>

#include "core/sim/soap.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {
constexpr const char* kFormat = "partita-soap/1";
}

Json soapToJson(const SoapStrategy& strategy, const Network& net) {
    if (strategy.ops.size() != net.ops.size())
        throw Error("the strategy configures " + std::to_string(strategy.ops.size()) + " operators but network '" +
                    net.name + "' has " + std::to_string(net.ops.size()));
    Json ops = Json::array();
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const OpConfig& c = strategy.ops[i];
        Json degrees = Json::object();
        for (int d = 0; d < kDims; ++d)
            if (c.degree[static_cast<size_t>(d)] != 1)
                degrees[dimName(static_cast<Dim>(d))] = c.degree[static_cast<size_t>(d)];
        if (c.reduce != 1) degrees["reduce"] = c.reduce;
        Json op{{"name", net.ops[i].name}};
        if (!degrees.empty()) op["degrees"] = degrees;
        op["devices"] = c.devices;
        ops.push_back(op);
    }
    return Json{{"format", kFormat}, {"network", net.name}, {"operators", ops}};
}

std::string writeSoapJson(const SoapStrategy& strategy, const Network& net) {
    return soapToJson(strategy, net).dump(2) + "\n";
}

SoapStrategy readSoapJson(const std::string& text, const std::string& source, const Network& net) {
    const Json root = parseJsonText(text, source);
    Fields f(root, "", source);
    checkFormat(f, kFormat);
    SoapStrategy s;
    s.source = source;
    s.network = f.string("network", net.name);
    if (s.network != net.name)
        f.fail("network", "the strategy is for network '" + s.network + "', not '" + net.name + "'");
    const Json& ops = f.raw("operators");
    if (!ops.is_array()) f.fail("operators", "expected a list of operator configurations");
    std::vector<bool> seen(net.ops.size(), false);
    s.ops.resize(net.ops.size());
    std::unordered_map<std::string_view, int> id_of;  // Network::find per entry would be quadratic
    for (size_t i = 0; i < net.ops.size(); ++i) id_of.emplace(net.ops[i].name, static_cast<int>(i));
    for (size_t k = 0; k < ops.size(); ++k) {
        const std::string where = "/operators/" + std::to_string(k);
        Fields of(ops[k], where, source);
        const std::string name = of.string("name");
        const auto found = id_of.find(name);
        const int id = found == id_of.end() ? -1 : found->second;
        if (id < 0) of.fail("name", "network '" + net.name + "' has no operator '" + name + "'");
        if (seen[static_cast<size_t>(id)]) of.fail("name", "operator '" + name + "' is configured twice");
        seen[static_cast<size_t>(id)] = true;
        OpConfig& c = s.ops[static_cast<size_t>(id)];
        if (of.has("degrees")) {
            Fields df(of.raw("degrees"), where + "/degrees", source);
            for (int d = 0; d < kDims; ++d) {
                const char* key = dimName(static_cast<Dim>(d));
                if (df.has(key)) c.degree[static_cast<size_t>(d)] = static_cast<int>(df.integerIn(key, 1, 1 << 20));
            }
            if (df.has("reduce")) c.reduce = static_cast<int>(df.integerIn("reduce", 1, 1 << 20));
            df.finish();
            // Each degree fits an int, their product need not: checked before parts() multiplies them.
            constexpr std::int64_t kMaxTasks = std::int64_t{1} << 24;
            std::int64_t tasks = c.reduce;
            for (int d : c.degree) {
                tasks *= d;  // <= 2^24 * 2^20 before the check below
                if (tasks > kMaxTasks)
                    of.fail("degrees", "the degrees make more than " + std::to_string(kMaxTasks) + " tasks, the limit");
            }
        }
        const Json& devs = of.raw("devices");
        if (!devs.is_array()) of.fail("devices", "expected a list of device ids");
        for (const Json& d : devs) {
            if (!d.is_number_integer() || d.get<std::int64_t>() < 0 || d.get<std::int64_t>() > (1 << 24))
                of.fail("devices", "expected non-negative integer device ids, found " + excerpt(d));
            c.devices.push_back(static_cast<int>(d.get<std::int64_t>()));
        }
        if (static_cast<int>(c.devices.size()) != c.parts())
            of.fail("devices", "the degrees make " + std::to_string(c.parts()) + " tasks but " +
                                   std::to_string(c.devices.size()) + " devices are listed");
        of.finish();
    }
    for (size_t i = 0; i < net.ops.size(); ++i)
        if (!seen[i]) f.fail("operators", "operator '" + net.ops[i].name + "' has no configuration");
    f.finish();
    return s;
}

SoapStrategy loadSoap(const std::string& path, const Network& net) {
    return readSoapJson(readTextFile(path), path, net);
}

}  // namespace partita::sim
