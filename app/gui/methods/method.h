#pragma once
// A method as the window offers it: its name in the toolbar's selector, the
// properties it reads, what choosing it and pressing Run start, and the views it
// adds. The RunController holds a list of these (registry.cpp) and looks the chosen
// one up by key; it has no per-method branches. Methods reach the window only
// through the controller and its WindowServices.
#include <memory>
#include <vector>

#include <QString>

class QMenu;

#include "core/run/run.h"

namespace partita {
struct MethodRun;
}

namespace partita::gui {

class RunController;
struct Options;

class GuiMethod {
public:
    // Which editors of the properties dock the method reads.
    enum class Settings {
        Cost,        // the array and cost parameters (HyPar's and AccPar's models)
        Simulation,  // those, plus the topology and the strategy to simulate
        Mcmc,        // those, plus the search budget
        OwnTab,      // none: the settings are in the method's own tab (the dock steps aside)
    };

    virtual ~GuiMethod() = default;
    virtual QString key() const = 0;  // the core method's key (core/run/method_registry.h), e.g. "hypar"
    // The selector's text and what the method does in one line: the core method's label and tool tip.
    QString label() const;
    QString toolTip() const;
    virtual Settings settings() const { return Settings::Cost; }
    // store = false: the method was chosen or its inputs changed (a preview, nothing stored);
    // store = true: Run (the answer is stored when it arrives).
    virtual void start(RunController& runs, bool store) const = 0;
    // Adds the method's own tabs, views and export targets; called once while the window is built.
    virtual void buildViews(RunController&) {}
    // The view `--view main` shows with this method chosen; empty: the shown run's.
    virtual QString mainView() const { return {}; }
    // A run from the job runner that this method's own view shows (it claims it: true), e.g. MPT's.
    virtual bool takeRun(RunController&, quint64 /*generation*/, const RunPtr&) { return false; }
    // A stored record of this method (MethodRun) re-opened: shown again from its settings.
    virtual void openStored(RunController&, const MethodRun&) {}
    // 2-4 stored records of this method side by side (LLM: its Compare page); false: the method has no
    // comparison of its own (MPT and L2S give their baselines in their tabs).
    virtual bool compareStored(RunController&, const std::vector<MethodRun>&) { return false; }
    // Entries the method adds to the Run menu (LLM: Search), once the menus exist.
    virtual void addRunActions(RunController&, QMenu* /*run*/) {}
    // The command line's inputs for this method (--llm-model, ...), applied once the views are built.
    virtual void applyOptions(RunController&, const Options&) {}
};

using MethodList = std::vector<std::unique_ptr<GuiMethod>>;
MethodList makeMethods();  // every method, in the selector's order (registry.cpp)

}  // namespace partita::gui
