// File ▸ Generate topology… as a user drives it: the dialog's ring equals core's generator for the
// same parameters and becomes Simulate's topology; a value out of the CLI's range disables Use and
// says why; Save writes a partita-topology/1 file that reads back as the same graph.
#include <set>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/options.h"
#include "app/gui/topology_generate_dialog.h"
#include "core/io/array_io.h"
#include "core/topology/generate.h"
#include "tests/qt_test_util.h"
#include "widgets/settings/sim_params_editor.h"

using namespace partita;
using namespace partita::gui;

namespace {

QPushButton* useButton(TopologyGenerateDialog& d) {
    return d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

QString problemText(TopologyGenerateDialog& d) { return d.findChild<QLabel*>("gen-problem")->text(); }

}  // namespace

class TopologyGenerateTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
    }

    void ringOfEightFromTheMenu() {
        Options o;
        o.network = QString(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json";
        o.db = dir_.filePath("gen.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        bool driven = false;
        QString summary;
        // The dialog is modal: it is driven from inside its own event loop.
        QTimer::singleShot(0, this, [&] {
            auto* d = qobject_cast<TopologyGenerateDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            d->findChild<QComboBox*>("gen-shape")->setCurrentIndex(0);  // Ring
            type(d->findChild<QLineEdit*>("gen-devices"), "8");
            type(d->findChild<QLineEdit*>("gen-bandwidth"), "50");
            type(d->findChild<QLineEdit*>("gen-latency"), "200");
            summary = d->findChild<QLabel*>("gen-summary")->text();
            driven = useButton(*d)->isEnabled();
            shoot(*d, "topology-generate-ring.png");  // kept in $PARTITA_SHOTS when set
            QTest::mouseClick(useButton(*d), Qt::LeftButton);
        });
        w.findChild<QAction*>("generate-topology")->trigger();
        QVERIFY(driven);
        QCOMPARE(summary, QString("ring 8: 8 devices, 0 switches, 16 links (one per direction), bisection 100 GB/s"));
        sim::LinkSpec link;
        link.bandwidth_Bps = 50e9;
        link.latency_s = 200e-9;
        const sim::Topology expected =
            sim::regularTopology(sim::Dimension::Shape::Ring, {8}, link, sim::namedDevice("npu"), "ring 8");
        const auto chosen = w.simulation().chosenTopology();
        QVERIFY(chosen);
        QVERIFY(*chosen == expected);
        QCOMPARE(chosen->deviceCount(), 8);
        QCOMPARE(chosen->links.size(), size_t{16});
        QCOMPARE(w.views().get<SimParamsEditor>()->topology(), QString("generated:ring 8"));
        QVERIFY(w.views().get<SimParamsEditor>()->topologyIsFile());  // simulated as a loaded file is
    }

    void outOfRangeDisablesUse() {
        TopologyGenerateDialog d;
        d.show();
        auto* devices = d.findChild<QLineEdit*>("gen-devices");
        type(devices, "5000");
        QVERIFY(!useButton(d)->isEnabled());
        QVERIFY(devices->property("invalid").toBool());
        QCOMPARE(problemText(d), QString("Devices: must be from 1 to 4096"));
        QVERIFY(!d.topology());
        type(devices, "4096");
        QVERIFY(useButton(d)->isEnabled());
        QCOMPARE(problemText(d), QString());
        // A torus takes two or three sizes; a cluster at most 4096 GPUs in all (core's refusal).
        d.findChild<QComboBox*>("gen-shape")->setCurrentIndex(3);
        type(d.findChild<QLineEdit*>("gen-dims"), "4x4x4x4");
        QCOMPARE(problemText(d), QString("Sizes: a torus or mesh has 2 or 3 dimensions"));
        QVERIFY(!useButton(d)->isEnabled());
        d.findChild<QComboBox*>("gen-shape")->setCurrentIndex(5);
        type(d.findChild<QLineEdit*>("gen-nodes"), "1000");
        type(d.findChild<QLineEdit*>("gen-gpus"), "8");
        QCOMPARE(problemText(d), QString("a cluster needs 1..4096 GPUs in all"));
        shoot(d, "topology-generate-cluster.png");
        QVERIFY(!useButton(d)->isEnabled());
    }

    // A heterogeneous mix, as AccPar's arrays: the array file's groups, graph equal to core's for it.
    void aMixedArrayFromItsFile() {
        TopologyGenerateDialog d;
        d.findChild<QComboBox*>("gen-shape")->setCurrentIndex(6);  // HyPar/AccPar array
        auto* file = d.findChild<QComboBox*>("gen-array-file");
        const int mixed = file->findText("tpu-mixed-128.json");
        QVERIFY(mixed > 0);
        file->setCurrentIndex(mixed);
        QVERIFY(d.findChild<QLineEdit*>("gen-levels")->isHidden());
        const auto t = d.topology();
        QVERIFY(t);
        const Array array = loadArray(std::string(PARTITA_EXAMPLES_DIR) + "/arrays/tpu-mixed-128.json");
        QVERIFY(*t == sim::fromArray(array));
        QCOMPARE(t->deviceCount(), 128);
        std::set<std::string> kinds;
        for (const sim::ComputeDevice& device : t->devices) kinds.insert(device.kind);
        QCOMPARE(kinds.size(), size_t{2});
        QVERIFY(d.summary().startsWith(QString::fromStdString(t->name) + ": 128 devices"));
    }

    // Choosing an A100 makes DGX nodes, as `topology generate cluster --device a100` does.
    void dgxNodesFromTheDeviceChoice() {
        TopologyGenerateDialog d;
        d.show();
        d.findChild<QComboBox*>("gen-shape")->setCurrentIndex(5);  // cluster
        auto* device = d.findChild<QComboBox*>("gen-device");
        device->setCurrentText("a100");
        emit device->activated(device->currentIndex());
        QCOMPARE(d.findChild<QComboBox*>("gen-intra")->currentIndex(), 2);  // NVSwitch, a NIC per GPU
        QCOMPARE(d.findChild<QLineEdit*>("gen-gpus")->text(), QString("8"));
        type(d.findChild<QLineEdit*>("gen-nodes"), "2");
        QCOMPARE(d.findChild<QLineEdit*>("gen-network-bandwidth")->placeholderText(), QString("200"));
        const auto t = d.topology();
        QVERIFY(t);
        sim::ClusterSpec spec = sim::dgxClusterSpec("a100");
        spec.nodes = 2;
        spec.name = "A100 cluster (2 nodes x 8 GPUs)";
        QVERIFY(*t == sim::clusterTopology(spec));
        // The summary wraps to two lines: the dialog grows so that nothing is clipped.
        QVERIFY(d.height() >= d.layout()->totalHeightForWidth(d.width()));
        shoot(d, "topology-generate-dgx.png");
        // NVSwitch nodes of P100s do not exist: the problem says so and Use is off.
        device->setCurrentText("p100");
        d.findChild<QComboBox*>("gen-intra")->setCurrentIndex(2);
        QVERIFY(problemText(d).contains("NVSwitch nodes are a100 or h100"));
        QVERIFY(!useButton(d)->isEnabled());
    }

    void saveWritesTheSameGraph() {
        TopologyGenerateDialog d;
        d.findChild<QComboBox*>("gen-shape")->setCurrentIndex(3);  // 2-D torus 4x4 by default
        const QString path = dir_.filePath("torus.json");
        QString error;
        QVERIFY2(d.saveTo(path, &error), qPrintable(error));
        const auto made = d.topology();
        QVERIFY(made);
        QCOMPARE(made->deviceCount(), 16);
        QVERIFY(sim::loadTopology(path.toStdString()) == *made);
    }
};

QTEST_MAIN(TopologyGenerateTest)
#include "topology_generate_test.moc"
