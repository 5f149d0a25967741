#pragma once
// The desktop application's command line:
//   partita [FILES...] [--network F] [--array F] [--method hypar|dp|mp|owt|accpar|simulate|mcmc|mpt|l2s|llm] [--run]
//           [--topology NAME|FILE] [--iterations N] [--seed N] [--db PATH] [--collapse-repeats]
//           [--llm-model PRESET|FILE] [--llm-profile P|FILE] [--llm-gpus N] [--llm-global-batch B]
//           [--screenshot FILE [--view NAME] [--size WxH] [--cell H,LAYER]]
#include <QSize>
#include <QString>
#include <QStringList>

namespace partita::gui {

struct Options {
    QStringList files;       // networks, arrays or strategies, recognised by their "format"
    QString network;         // default: the built-in VGG-A
    QString array;           // default: the 16-accelerator H-tree
    QString method = "hypar";
    bool run = false;        // --run: press Run at start (the method runs and is stored)
    QString topology;        // Simulate/MCMC: a preset name (p100-16, ...) or a partita-topology/1 file
    qint64 iterations = -1;  // MCMC: an iteration budget instead of the time budget (reproducible); -1 = default
    qint64 seed = -1;        // MCMC: the seed; -1 = default
    QString db;              // default: the user's data directory
    bool db_read_only = false;  // list and re-open runs, never write (also when the file is not writable)
    bool collapse_repeats = false;  // the network graph starts with each run of repeated blocks as one node
    QString screenshot;      // render and exit
    QString view = "main";   // main, grid, metrics, simulation, compare, explore, network, editor, runs, params, library
    QSize size{1280, 800};
    int cell_level = -1;     // --cell H4,conv5_2: the grid's current cell in a screenshot (level from 0)
    QString cell_layer;      // a weighted layer's name
    // The LLM method's inputs (--llm-model PRESET|FILE, --llm-profile P|FILE, --llm-gpus N,
    // --llm-global-batch B); any of them given: the best plan is searched at start.
    QString llm_model, llm_profile;
    QString llm_runs;  // --llm-runs F: a partita-llm-runs/1 file shown in Predicted vs measured
    qint64 llm_gpus = -1, llm_global_batch = -1;
};

// The views --view accepts.
QStringList screenshotViews();

// Parses argv (argv[0] included). On a usage error returns false and sets `error`.
bool parseOptions(const QStringList& args, Options* options, QString* error);

}  // namespace partita::gui
