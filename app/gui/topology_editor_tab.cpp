#include "app/gui/topology_editor_tab.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStatusBar>
#include "widgets/common/task_tabs.h"
#include <QTableView>
#include <QUndoStack>

#include "app/gui/export_entries.h"
#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "core/io/array_io.h"
#include "core/topology/levels.h"
#include "widgets/settings/sim_params_editor.h"
#include "widgets/topology_editor/topology_editor_view.h"

namespace partita::gui {

TopologyEditorTab::TopologyEditorTab(MainWindow& window) : QObject(&window), window_(window) {
    view_ = new TopologyEditorView(window.views().tabs());
    window.views().addTab("topology-editor", view_);
    connect(view_, &TopologyEditorView::message, this, [this](const QString& m) { window_.showStatus(m); });
    connect(view_, &TopologyEditorView::topologyChosen, this,
            [this](const sim::Topology& t, const QString& origin) {
                auto routed = std::make_shared<sim::Topology>(t);
                try {
                    routed->finalize();  // routes for the simulator (the check found no problem)
                } catch (const std::exception& e) {
                    window_.showStatus(QString::fromStdString(e.what()));
                    return;
                }
                window_.simulation().useTopology(std::move(routed), origin);
            });
    connect(view_, &TopologyEditorView::arrayChosen, this, &TopologyEditorTab::useAsArray);
    connect(view_, &TopologyEditorView::documentChanged, this, [this] { own_ = own_ || !following_; });
    connect(window.views().tabs(), &TaskTabs::currentChanged, this, &TopologyEditorTab::followIfShown);
    ViewEntry entry{"topology-editor", view_, [this] { return view_; },
                    [this] {
                        // The editor on the machine in use (the P100 cluster by default) with a device just
                        // added (so not yet linked: one problem) and node 0's four GPUs selected for a
                        // multi-row edit.
                        follow();
                        if (view_->document().devices.empty() || !view_->undoStack().isClean()) return;
                        view_->addDevices(1);
                        view_->selectVertices({0, 1, 2, 3});
                    },
                    {widgetTarget("topology-editor", tr("Topology editor (devices CSV)"), [this] { return view_; },
                                  [this] { return view_->devicesCsv(); }, [this] { return ready(); }),
                     widgetTarget("topology-links", tr("Topology links"), [this] { return view_->linksTable(); },
                                  [this] { return view_->linksCsv(); }, [this] { return ready(); })}};
    entry.undo = &view_->undoStack();
    entry.own_properties = true;  // its side panel edits the selection: the Properties dock steps aside
    window.views().add(std::move(entry));
}

void TopologyEditorTab::useAsArray(const sim::Topology& topology) {
    // The window's arrays are files (the library lists and reopens them): the derived array is
    // written to the user's data directory and loaded from there.
    Array array;
    try {
        array = sim::arrayFromTopology(topology);
    } catch (const std::exception& e) {
        window_.statusBar()->showMessage(tr("Not an array for HyPar/AccPar: %1").arg(QString::fromStdString(e.what())), 10000);
        return;
    }
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/arrays";
    QString stem = QString::fromStdString(topology.name).replace(QRegularExpression("[^A-Za-z0-9_.-]+"), "-");
    if (stem.isEmpty() || stem.startsWith('.')) stem = "topology" + stem;
    const QString path = dir + "/" + stem + ".json";
    QSaveFile file(path);
    if (!QDir().mkpath(dir) || !file.open(QIODevice::WriteOnly) ||
        file.write(QByteArray::fromStdString(writeArrayJson(array))) < 0 || !file.commit()) {
        window_.showStatus(tr("Could not write %1: %2").arg(path, file.errorString()));
        return;
    }
    if (window_.loader().loadArray(path))
        window_.statusBar()->showMessage(tr("HyPar and AccPar now plan for %1 (%2 levels; written to %3)")
                                             .arg(QString::fromStdString(array.name))
                                             .arg(array.levels)
                                             .arg(path),
                                         10000);
}

bool TopologyEditorTab::maybeSave() {
    if (!window_.dialogsAllowed() || !window_.isVisible()) return true;
    return view_->maybeSave();
}

void TopologyEditorTab::followIfShown() {
    if (window_.views().shown() == view_) follow();
}

void TopologyEditorTab::follow() {
    const SimParamsEditor* params = window_.views().get<SimParamsEditor>();
    if (own_ || !view_->undoStack().isClean() || !params) return;
    const auto machine = window_.simulation().chosenTopology();
    const QString key = params->topology();
    if (!machine || key == followed_) return;
    following_ = true;
    // A file is opened as such (its places, an import's approximations); presets and generated
    // machines are copied (without their routes: the editor's copy is edited).
    if (!(params->topologyIsFile() && QFileInfo(key).isFile() && view_->open(key))) {
        sim::Topology doc;
        doc.name = machine->name;
        doc.devices = machine->devices;
        doc.switches = machine->switches;
        doc.links = machine->links;
        view_->setDocument(std::move(doc));
    }
    following_ = false;
    followed_ = key;
}

QString TopologyEditorTab::ready() const {
    return view_->document().devices.empty() ? tr("Nothing to export: the topology editor is empty") : QString();
}

}  // namespace partita::gui
