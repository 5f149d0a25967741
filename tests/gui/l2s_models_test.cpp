// The Learn-to-Scale tab's model options (docs/methods/l2s.md#model-options) and its "Paper vs engine"
// table: every change of compute model, NoC, rate or hop keep shows exactly what
// core computes for those settings; the table's engine column is core's
// l2s::paperGaps; a run stored before the options existed re-opens showing the
// old models (channel-only, ideal, 1,0,0).
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "core/run/l2s_outcome.h"
#include "tests/qt_test_util.h"
#include "widgets/common/paper_table.h"
#include "widgets/l2s/l2s_models.h"
#include "widgets/l2s/l2s_view.h"

using namespace partita;
using namespace partita::gui;

class L2sModelsTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options(const char* db) const {
        Options o;
        o.db = dir_.filePath(db);
        o.method = "l2s";
        return o;
    }
    // The settings a user gets for `preset` with these models, read by core alone.
    static L2sSettings settings(const char* preset, l2s::ComputeModel compute, l2s::CommModel comm, double rate,
                                std::vector<double> hop_keep = {}) {
        L2sSettings s;
        s.preset = preset;
        s.compute = compute;
        s.comm = comm;
        s.burst_rate = rate;
        s.hop_keep = std::move(hop_keep);
        return withL2sNetwork(s, PARTITA_EXAMPLES_DIR);
    }
    // The shown speedup and totals are core's for `expected`.
    static void showsCore(const L2sView& v, const L2sSettings& expected) {
        const L2sResult r = evaluateL2s(expected);
        QCOMPARE(v.evaluation().total_cycles, r.eval.total_cycles);
        QCOMPARE(v.baseline().total_cycles, r.baseline.total_cycles);
        const double speedup = l2s::versus(r.baseline, r.eval).speedup;
        QCOMPARE(l2s::versus(v.baseline(), v.evaluation()).speedup, speedup);
        QVERIFY2(v.summaryText().contains(QString::number(speedup, 'f', 2) + "×"), qPrintable(v.summaryText()));
    }
    static void execRaw(const QString& path, const char* sql) {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void eachModelChangeShowsWhatCoreComputes() {
        MainWindow w(options("models.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        L2sView* v = w.views().get<L2sView>();
        L2sModelControls* m = v->modelControls();
        using l2s::CommModel;
        using l2s::ComputeModel;
        QCOMPARE(v->presetKey(), QString("convnet"));
        // The defaults, the preset's hop keep in the boxes.
        QCOMPARE(m->compute(), ComputeModel::LaneFilling);
        QCOMPARE(m->comm(), CommModel::Burst);
        QCOMPARE(m->rate(), 0.4);
        QCOMPARE(m->hopKeep(), (std::vector<double>{1, 0.53, 0}));
        showsCore(*v, settings("convnet", ComputeModel::LaneFilling, CommModel::Burst, 0.4));

        m->computeBox()->setCurrentIndex(m->computeBox()->findText("channel-only"));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->settings().compute, ComputeModel::ChannelOnly);
        showsCore(*v, settings("convnet", ComputeModel::ChannelOnly, CommModel::Burst, 0.4));

        m->commBox()->setCurrentIndex(m->commBox()->findText("ideal"));
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(!m->rateBox()->isEnabled());  // ideal has no rate
        showsCore(*v, settings("convnet", ComputeModel::ChannelOnly, CommModel::Ideal, 0.4));

        m->commBox()->setCurrentIndex(m->commBox()->findText("burst"));
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(m->rateBox()->isEnabled());
        m->rateBox()->setValue(0.25);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->settings().burst_rate, 0.25);
        showsCore(*v, settings("convnet", ComputeModel::ChannelOnly, CommModel::Burst, 0.25));
        m->rateBox()->setValue(9);  // the box's range: 2 at most
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->settings().burst_rate, L2sModelControls::kMaxRate);

        m->keepBox(2)->setValue(0.25);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->settings().hop_keep, (std::vector<double>{1, 0.25, 0}));
        showsCore(*v, settings("convnet", ComputeModel::ChannelOnly, CommModel::Burst, 2, {1, 0.25, 0}));

        // Defaults: the default models and the preset's keep again.
        QTest::mouseClick(m->defaultsButton(), Qt::LeftButton);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(m->compute(), ComputeModel::LaneFilling);
        QCOMPARE(m->rate(), 0.4);
        QCOMPARE(m->hopKeep(), (std::vector<double>{1, 0.53, 0}));
        showsCore(*v, settings("convnet", ComputeModel::LaneFilling, CommModel::Burst, 0.4));

        // Another network brings its own keep, whatever the boxes said.
        m->keepBox(1)->setValue(0.5);
        QVERIFY(w.jobs().waitForIdle());
        auto* presets = v->findChild<QComboBox*>("l2s-preset");
        presets->setCurrentIndex(presets->findData(QString("mlp")));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(m->hopKeep(), (std::vector<double>{0.55, 0, 0}));
        showsCore(*v, settings("mlp", ComputeModel::LaneFilling, CommModel::Burst, 0.4));
    }

    void paperTableIsCoresForLeNet() {
        MainWindow w(options("paper.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        L2sView* v = w.views().get<L2sView>();
        v->requestPreset("lenet");
        QVERIFY(w.jobs().waitForIdle());
        const L2sSettings lenet = settings("lenet", l2s::ComputeModel::LaneFilling, l2s::CommModel::Burst, 0.4);
        const L2sResult r = evaluateL2s(lenet);  // SS_Mask, the tab's default scenario
        const std::vector<l2s::PaperGap> gaps = l2s::paperGaps("LeNet", 16, r.baseline, r.eval, true);
        QCOMPARE(gaps.size(), size_t{3});
        const PaperTable& t = *v->paperTable();
        QCOMPARE(t.rowCount(), 3);
        const QString expected[3][2] = {{"SS_Mask speedup", "1.51×"},
                                        {"SS_Mask traffic", "23.0 %"},
                                        {"baseline communication share (paper: implied)", "43.9 %"}};
        for (int row = 0; row < 3; ++row) {
            const l2s::PaperGap& g = gaps[static_cast<size_t>(row)];
            QCOMPARE(v->outcome()->paper[static_cast<size_t>(row)].engine, g.engine);
            QCOMPARE(v->outcome()->paper[static_cast<size_t>(row)].ratio, g.ratio);
            QCOMPARE(t.cell(row, PaperTable::Quantity), expected[row][0]);
            QCOMPARE(t.cell(row, PaperTable::Paper), expected[row][1]);
            const QString engine = g.percent ? QString::number(g.engine * 100, 'f', 1) + " %"
                                             : QString::number(g.engine, 'f', 2) + "×";
            QCOMPARE(t.cell(row, PaperTable::Engine), engine);
            QCOMPARE(t.cell(row, PaperTable::Ratio), QString::number(g.ratio, 'f', 2));
            QCOMPARE(t.cell(row, PaperTable::Reason), QString::fromStdString(g.reason));
            QVERIFY(!g.reason.empty());
        }
        QCOMPARE(t.cell(0, PaperTable::Engine), QString("1.41×"));  // docs/methods/l2s.md#the-paper-against-the-engine
        QVERIFY(!t.note().contains("Not the default"));
        // On a small screen the panel is shown whole: names and reasons wrap, nothing is cut.
        w.resize(1024, 700);
        w.showView("l2s");
        for (QWidget* p = v->paperTable()->parentWidget(); p; p = p->parentWidget())
            if (auto* tabs = qobject_cast<QTabWidget*>(p)) {
                tabs->setCurrentWidget(v->paperTable());
                break;
            }
        QApplication::processEvents();
        QVERIFY(v->paperTable()->widget()->width() <= v->paperTable()->viewport()->width());
        shoot(w, "l2s-paper-1024.png");
        // Exported: the figure, and the same rows as exact numbers.
        const QTemporaryDir out;
        QCOMPARE(w.exports().write("l2s-paper", out.filePath("paper.png")), QString());
        QVERIFY(!QImage(out.filePath("paper.png")).isNull());
        const CsvTable csv = v->paperCsv();
        QCOMPARE(csv.rows.size(), gaps.size());
        QCOMPARE(csv.rows[0][0], gaps[0].quantity);
        QCOMPARE(std::stod(csv.rows[0][3]), gaps[0].engine);
        QCOMPARE(csv.rows[1][1], std::string("fraction"));
        QCOMPARE(csv.rows[2][7], gaps[2].reason);
        QCOMPARE(w.exports().write("l2s-paper", out.filePath("paper.csv")), QString());
        QVERIFY(QFile(out.filePath("paper.csv")).size() > 0);

        // On 8 cores the table still compares Table IV's 16 cores, with the same models.
        QVERIFY(v->requestCores(8));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->outcome()->paper[0].engine, gaps[0].engine);
        QCOMPARE(v->outcome()->paper[2].engine, gaps[2].engine);
        QVERIFY(t.note().contains("8 cores"));

        // Other models: compared all the same, said so, and no reasons (they were measured on the defaults).
        v->modelControls()->computeBox()->setCurrentIndex(1);  // channel-only
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY2(t.note().contains("non-default settings"), qPrintable(t.note()));
        QCOMPARE(t.cell(0, PaperTable::Reason), QString());
        const L2sResult old = evaluateL2s(settings("lenet", l2s::ComputeModel::ChannelOnly, l2s::CommModel::Burst, 0.4));
        QCOMPARE(v->outcome()->paper[0].engine, l2s::versus(old.baseline, old.eval).speedup);

        // A file has no paper figures.
        v->requestPreset(QString(PARTITA_EXAMPLES_DIR) + "/networks/vgg-a.json");
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(t.rowCount(), 0);
        QVERIFY(t.note().contains("Table IV has figures for"));
    }

    void runStoredBeforeTheModelsReopensWithTheOldOnes() {
        const QString db = dir_.filePath("old.sqlite");
        std::int64_t id = 0;
        double cycles = 0;
        {
            // The old models chosen in the tab, stored, then the row taken back to the old form.
            MainWindow w(options("old.sqlite"));
            w.show();
            QVERIFY(w.jobs().waitForIdle());
            L2sModelControls* m = w.views().get<L2sView>()->modelControls();
            m->computeBox()->setCurrentIndex(m->computeBox()->findText("channel-only"));
            m->commBox()->setCurrentIndex(m->commBox()->findText("ideal"));
            m->keepBox(2)->setValue(0);
            m->keepBox(1)->setValue(1);
            QVERIFY(w.jobs().waitForIdle());
            QCOMPARE(w.views().get<L2sView>()->settings().hop_keep, (std::vector<double>{1, 0, 0}));
            w.runs().runSelected();
            QVERIFY(w.jobs().waitForIdle());
            id = w.runStore().db()->list({"", "", "l2s"}).at(0).id;
            cycles = w.views().get<L2sView>()->evaluation().total_cycles;
        }
        execRaw(db, "UPDATE method_runs SET settings_json = json_remove(settings_json, '$.compute', '$.comm', "
                    "'$.burst_rate', '$.hop_keep')");
        MainWindow w(options("old.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        L2sModelControls* m = w.views().get<L2sView>()->modelControls();
        QCOMPARE(m->compute(), l2s::ComputeModel::LaneFilling);  // the new session starts on the defaults
        QVERIFY(w.runs().openStoredRun(id));
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QCOMPARE(m->computeBox()->currentText(), QString("channel-only"));
        QCOMPARE(m->commBox()->currentText(), QString("ideal"));
        QVERIFY(!m->rateBox()->isEnabled());
        QCOMPARE(m->hopKeep(), (std::vector<double>{1, 0, 0}));
        QCOMPARE(w.views().get<L2sView>()->evaluation().total_cycles, cycles);
        QVERIFY(w.views().get<L2sView>()->paperTable()->note().contains("non-default settings"));
        showsCore(*w.views().get<L2sView>(), settings("convnet", l2s::ComputeModel::ChannelOnly, l2s::CommModel::Ideal, 0.4,
                                         {1, 0, 0}));
    }
};

QTEST_MAIN(L2sModelsTest)
#include "l2s_models_test.moc"
