#pragma once
// The axes a sweep may vary (docs/formats/sweep.md#axes), in the order they nest (the first varies
// slowest). The settings of the cost model, the array and AccPar that are axes are the field-table rows
// (core/settings/) with readers: their values, checks, member and readers come from there; the sweep's
// own axes (mode, MCMC's iterations, seed and beta) are declared here.
#include <functional>
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/run/method_registry.h"

namespace partita::sweep {

struct Prepared;  // core/sweep/point_run.h

// When a point applies an axis: to its array (validated whole afterwards), its cost and AccPar
// parameters, or (simulated methods) its MCMC settings.
enum class AxisStage { Array, Params, Mcmc };

struct AxisDef {
    std::string name;
    // "" when `v` is one of the axis' values, else what it takes ("takes integers from 1 to 12").
    std::function<std::string(const Json& v)> problem;
    // Sets the value on a point being prepared. Array axes set the array only (the array is validated
    // as a whole afterwards: its fields bound each other); `levels` is applied by the point itself.
    std::function<void(Prepared&, const Json& v)> apply;
    AxisStage stage = AxisStage::Params;
    unsigned readers = 0;  // axis_readers (core/settings/field.h): the methods whose answers it changes
};

const std::vector<AxisDef>& axisDefs();
const AxisDef* findAxis(const std::string& name);  // nullptr for an unknown name
// An axis of a registered settings method (MethodInfo::settingsSweep: llm's tp, pp, ...), or nullptr.
const SettingsAxis* findSettingsAxis(const std::string& name);
// "" when `v` is a value of axis `name` (either kind), else what the axis takes; "unknown" for no axis.
std::string axisProblem(const std::string& name, const Json& v);
bool knownAxis(const std::string& name);
// The axis' place in the nesting order: axisDefs() first, then the settings methods' axes in the order
// the methods are registered; -1 for an unknown name.
int axisRank(const std::string& name);
std::string axisNames();
// Whether `method` reads axis `name`: an axis of axisDefs() its SweepTraits::axis_reader is among the
// readers of, "topology" for a simulated method, or an axis of its own settings sweep.
bool readsAxis(const MethodInfo& method, const std::string& name);
// The axes `method` reads, "topology" first when it reads it, then in nesting order.
std::vector<std::string> axesRead(const MethodInfo& method);                          // "batch, levels, …, tp, pp, …" for messages

}  // namespace partita::sweep
