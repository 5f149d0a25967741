#include "app/gui/options.h"

#include <utility>

#include <QCommandLineParser>
#include <QRegularExpression>

#include "app/gui/view_list.h"
#include "app/gui/methods/registry.h"

namespace partita::gui {

QStringList screenshotViews() { return viewNames(); }

bool parseOptions(const QStringList& args, Options* options, QString* error) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Partita: design-space explorer for parallel DNN training");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("files", "Networks, arrays or strategies to open.", "[FILES...]");
    const QCommandLineOption network("network", "Network file to load (default: built-in VGG-A).", "FILE");
    const QCommandLineOption array("array", "Array file to load (default: 16 HMC accelerators, H-tree).", "FILE");
    // The selector's methods (methods/registry.cpp), a plug-in's grid-plan method included.
    QStringList keys;
    for (const auto& m : makeMethods()) keys << m->key();
    const QCommandLineOption method("method",
                                    "Method chosen at start: " + keys.join(", ") +
                                        " (the analytic ones are previewed at once).",
                                    "NAME", "hypar");
    const QCommandLineOption run("run", "Press Run once the inputs are loaded: the method runs and its run is stored.");
    const QCommandLineOption topology("topology",
                                      "Simulate/MCMC topology: a preset (p100-16, k80-64, hmc-htree-16, hmc-torus-16) "
                                      "or a partita-topology/1 file.",
                                      "NAME|FILE");
    const QCommandLineOption iterations("iterations", "MCMC: an iteration budget and no time budget (reproducible).",
                                        "N");
    const QCommandLineOption seed("seed", "MCMC: the random seed.", "N");
    const QCommandLineOption db("db", "Results database file.", "PATH");
    const QCommandLineOption db_read_only("db-read-only", "Open the results database read-only: runs are listed and "
                                                          "re-opened but not stored.");
    const QCommandLineOption collapse("collapse-repeats", "Network graph: draw each run of repeated blocks (a "
                                                          "ResNet stage's residual blocks) as one node.");
    const QCommandLineOption shot("screenshot", "Render the window (or --view) to a PNG and exit.", "FILE");
    const QCommandLineOption view("view", "View for --screenshot: " + screenshotViews().join(", ") + ".", "NAME",
                                  "main");
    const QCommandLineOption size("size", "Window size for --screenshot, WxH.", "WxH", "1280x800");
    const QCommandLineOption cell("cell", "The grid's current cell for --screenshot, a level and a weighted layer's "
                                          "name (H4,conv5_2): the network graph and the teaching view show it.",
                                  "H,LAYER");
    const QCommandLineOption llm_model("llm-model", "LLM: the model, a preset (partita-cli llm models) or an ONNX/JSON file.",
                                       "PRESET|FILE");
    const QCommandLineOption llm_profile("llm-profile", "LLM: the hardware profile, a preset (a100-sxm4-80gb, ...) or a file.",
                                         "P|FILE");
    const QCommandLineOption llm_gpus("llm-gpus", "LLM: the GPU count; with any --llm-* option the best plan is searched.", "N");
    const QCommandLineOption llm_batch("llm-global-batch", "LLM: the global batch in sequences.", "B");
    const QCommandLineOption llm_runs("llm-runs", "LLM: a partita-llm-runs/1 file, each run predicted beside its "
                                                  "measured time (the llm-measured view).", "F");
    parser.addOptions({network, array, method, run, topology, iterations, seed, db, db_read_only, collapse, shot, view, size, cell,
                       llm_model, llm_profile, llm_gpus, llm_batch, llm_runs});
    if (!parser.parse(args)) {
        *error = parser.errorText();
        return false;
    }
    if (parser.isSet("help")) {
        *error = parser.helpText();
        return false;
    }
    options->files = parser.positionalArguments();
    options->db_read_only = parser.isSet(db_read_only);
    options->collapse_repeats = parser.isSet(collapse);
    options->network = parser.value(network);
    options->array = parser.value(array);
    options->method = parser.value(method);
    options->run = parser.isSet(run);
    options->topology = parser.value(topology);
    options->llm_model = parser.value(llm_model);
    options->llm_profile = parser.value(llm_profile);
    options->llm_runs = parser.value(llm_runs);
    for (auto [option, target] : {std::pair{&iterations, &options->iterations}, std::pair{&seed, &options->seed},
                                  std::pair{&llm_gpus, &options->llm_gpus}, std::pair{&llm_batch, &options->llm_global_batch}}) {
        if (!parser.isSet(*option)) continue;
        bool ok = false;
        *target = parser.value(*option).toLongLong(&ok);
        const bool positive = option != &seed;
        if (!ok || *target < 0 || (positive && *target == 0)) {
            *error = "--" + option->names().front() + " must be a " + (positive ? "positive" : "non-negative") +
                     " integer, got '" + parser.value(*option) + "'";
            return false;
        }
    }
    options->db = parser.value(db);
    options->screenshot = parser.value(shot);
    options->view = parser.value(view);
    if (!keys.contains(options->method)) {
        *error = "--method must be one of " + keys.join(", ") + ", got '" + options->method + "'";
        return false;
    }
    if (!screenshotViews().contains(options->view)) {
        *error = "--view must be one of " + screenshotViews().join(", ") + ", got '" + options->view + "'";
        return false;
    }
    if (parser.isSet(view) && options->screenshot.isEmpty()) {
        *error = "--view needs --screenshot FILE";
        return false;
    }
    if (parser.isSet(cell)) {
        const QRegularExpressionMatch m = QRegularExpression("^H([1-9][0-9]?),(.+)$").match(parser.value(cell));
        if (!m.hasMatch() || options->screenshot.isEmpty()) {
            *error = m.hasMatch() ? QString("--cell needs --screenshot FILE")
                                  : "--cell must be H<level>,<layer name> (H4,conv5_2), got '" + parser.value(cell) + "'";
            return false;
        }
        options->cell_level = m.captured(1).toInt() - 1;
        options->cell_layer = m.captured(2);
    }
    const QStringList wh = parser.value(size).split('x');
    bool ok_w = false, ok_h = false;
    if (wh.size() == 2) options->size = QSize(wh[0].toInt(&ok_w), wh[1].toInt(&ok_h));
    if (!ok_w || !ok_h || options->size.width() < 320 || options->size.height() < 240) {
        *error = "--size must be WxH with W >= 320 and H >= 240, got '" + parser.value(size) + "'";
        return false;
    }
    return true;
}

}  // namespace partita::gui
