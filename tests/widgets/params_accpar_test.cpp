// ParamsEditor's AccPar settings and accelerator groups table, on the TPU presets.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest>

#include "core/io/array_io.h"
#include "tests/qt_test_util.h"
#include "widgets/common/result_table_model.h"
#include "widgets/settings/groups_editor.h"
#include "widgets/settings/params_editor.h"

using namespace partita;

namespace {

Array mixed() { return loadArray(std::string(PARTITA_EXAMPLES_DIR) + "/arrays/tpu-mixed-128.json"); }

QTableView* groupsTable(const ParamsEditor& editor) {
    return qobject_cast<QTableView*>(editor.field("groups"));
}

QString cellText(QTableView* table, int row, int col) { return table->model()->index(row, col).data().toString(); }

// Types into a cell the way a user does: open its editor, replace the text, press Return.
void typeIntoCell(QTableView* table, int row, int col, const QString& text) {
    table->setCurrentIndex(table->model()->index(row, col));
    table->edit(table->model()->index(row, col));
    QLineEdit* edit = nullptr;  // closed editors linger, hidden, until deleted later
    for (auto* child : table->viewport()->findChildren<QLineEdit*>())
        if (child->isVisible()) edit = child;
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QPointer<QLineEdit> open = edit;
    QTest::keyClick(edit, Qt::Key_Return);
    QTRY_VERIFY(!open || !open->isVisible());  // the delegate closes its editor through a queued call
}

QString cellProblem(QTableView* table, int row, int col) {
    return table->model()->index(row, col).data(GroupsEditor::kProblemRole).toString();
}

}  // namespace

class ParamsAccParTest : public QObject {
    Q_OBJECT
private slots:
    // The groups table is a model (issue 27 item 5): Qt's tester passes through fill, edit, add and
    // remove; a cell that reads keeps its exact number in RawValueRole; a typed edit is validated.
    void groupsModelPassesTheTester() {
        GroupsEditor editor;
        QAbstractItemModelTester tester(editor.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        editor.setGroups(mixed().groups);
        GroupsModel& m = *editor.model();
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.index(0, GroupsEditor::Throughput).data().toString(), QString("1.23e14"));
        QCOMPARE(m.index(0, GroupsEditor::Throughput).data(RawValueRole).toDouble(), 1.23e14);
        QCOMPARE(m.index(1, GroupsEditor::Count).data(RawValueRole).toLongLong(), qint64(64));
        QSignalSpy edited(&editor, &GroupsEditor::edited);
        QVERIFY(m.setData(m.index(1, GroupsEditor::Count), "x"));
        QCOMPARE(edited.count(), 1);
        QVERIFY(!editor.valid());
        QCOMPARE(m.index(1, GroupsEditor::Count).data(GroupsEditor::kProblemRole).toString(), QString("'x' is not a whole number"));
        QVERIFY(!m.index(1, GroupsEditor::Count).data(RawValueRole).isValid());
        QCOMPARE(editor.groups()[1].count, 64);  // the last valid groups are kept
        QVERIFY(m.setData(m.index(1, GroupsEditor::Count), "32"));
        QVERIFY(editor.valid());
        QCOMPARE(editor.groups()[1].count, 32);
        QCOMPARE(m.index(1, GroupsEditor::Count).data(RawValueRole).toLongLong(), qint64(32));
        editor.addButton()->click();
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.index(2, GroupsEditor::Kind).data().toString(), QString("kind-3"));
        editor.removeButton()->click();
        QCOMPARE(m.rowCount(), 2);
    }

    void mixedPresetShowsGroups() {
        ParamsEditor editor;
        editor.show();
        QSignalSpy changed(&editor, &ParamsEditor::changed);
        editor.setValues(mixed(), CostParams{});
        QCOMPARE(changed.count(), 0);
        QTableView* table = groupsTable(editor);
        QVERIFY(table);
        QVERIFY(table->isVisible());
        QCOMPARE(table->model()->rowCount(), 2);
        QCOMPARE(cellText(table, 0, GroupsEditor::Kind), QString("tpu-v3"));
        QCOMPARE(cellText(table, 1, GroupsEditor::Count), QString("64"));
        QCOMPARE(cellText(table, 0, GroupsEditor::Throughput), QString("1.23e14"));
        auto* levels = qobject_cast<QSpinBox*>(editor.field("levels"));
        QVERIFY(!levels->isEnabled());
        QCOMPARE(levels->value(), treeHeight(mixed().groups));
        for (const char* key : {"topology", "link_bps", "level_bw_factor", "throughput_ops", "e_dram_pj"}) {
            QVERIFY2(!editor.field(key)->isEnabled(), key);
            QVERIFY(editor.field(key)->toolTip().contains("accelerator groups"));
        }
        QVERIFY(editor.field("batch")->isEnabled());
        QCOMPARE(editor.findChild<QLabel*>("accelerators")->text(), QString("= 128 accelerators"));
        QVERIFY(editor.valid());
        QCOMPARE(editor.array().groups, mixed().groups);

        // A HyPar array hides the table and gives the fields back.
        editor.setValues(defaultArray(4), CostParams{});
        QVERIFY(!table->isVisible());
        QVERIFY(levels->isEnabled());
        QVERIFY(editor.field("e_dram_pj")->isEnabled());
        QVERIFY(editor.array().groups.empty());
        levels->setValue(5);
        QCOMPARE(editor.array().levels, 5);
        QCOMPARE(changed.count(), 1);
    }

    void editCountEmitsChanged() {
        ParamsEditor editor;
        editor.show();
        editor.setValues(mixed(), CostParams{});
        QSignalSpy changed(&editor, &ParamsEditor::changed);
        QTableView* table = groupsTable(editor);
        typeIntoCell(table, 0, GroupsEditor::Count, "32");
        QVERIFY(changed.count() >= 1);
        QVERIFY(editor.valid());
        Array a = editor.array();
        QCOMPARE(a.groups[0].count, 32);
        QCOMPARE(a.groups[1].count, 64);
        QCOMPARE(a.levels, treeHeight(a.groups));
        QCOMPARE(a.name, mixed().name);
        validate(a);

        // 100 tpu-v2 need a deeper tree (1 + 7 levels): the levels follow.
        typeIntoCell(table, 1, GroupsEditor::Count, "100");
        a = editor.array();
        QCOMPARE(a.levels, treeHeight(a.groups));
        QCOMPARE(a.levels, 8);
        QCOMPARE(qobject_cast<QSpinBox*>(editor.field("levels"))->value(), 8);
        QCOMPARE(editor.findChild<QLabel*>("accelerators")->text(), QString("= 132 accelerators"));
        validate(a);
    }

    void zeroBandwidthIsInvalid() {
        ParamsEditor editor;
        editor.show();
        editor.setValues(mixed(), CostParams{});
        QSignalSpy changed(&editor, &ParamsEditor::changed);
        QTableView* table = groupsTable(editor);
        typeIntoCell(table, 1, GroupsEditor::Bandwidth, "0");
        QVERIFY(!editor.valid());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(editor.array().groups, mixed().groups);  // the last valid groups
        QVERIFY2(editor.problem().contains("bandwidth"), qPrintable(editor.problem()));
        QVERIFY(editor.problem().contains("Group 2"));
        QVERIFY(!cellProblem(table, 1, GroupsEditor::Bandwidth).isEmpty());
        QVERIFY(cellProblem(table, 1, GroupsEditor::Count).isEmpty());
        auto* problem = editor.findChild<QLabel*>("problem");
        QVERIFY(problem->isVisible());
        QVERIFY(problem->text().contains("bandwidth (B/s)"));

        typeIntoCell(table, 1, GroupsEditor::Bandwidth, "2.5E11");
        QVERIFY(editor.valid());
        QVERIFY(changed.count() >= 1);
        QCOMPARE(editor.array().groups[1].bandwidth_Bps, 2.5e11);
        QVERIFY(cellProblem(table, 1, GroupsEditor::Bandwidth).isEmpty());
        QVERIFY(!problem->isVisible());

        // Validated as typed: the open editor turns red before Return.
        table->setCurrentIndex(table->model()->index(0, GroupsEditor::Throughput));
        table->edit(table->model()->index(0, GroupsEditor::Throughput));
        QLineEdit* live = nullptr;
        for (auto* child : table->viewport()->findChildren<QLineEdit*>())
            if (child->isVisible()) live = child;
        QVERIFY(live);
        live->selectAll();
        QTest::keyClicks(live, "x");
        QVERIFY(!editor.valid());
        QVERIFY(editor.problem().contains("Group 1 throughput (FLOP/s)"));
        QVERIFY(live->styleSheet().contains("background"));
        live->selectAll();
        QTest::keyClicks(live, "1.5e14");
        QVERIFY(editor.valid());
        QVERIFY(live->styleSheet().isEmpty());
        QCOMPARE(editor.array().groups[0].throughput_flops, 1.5e14);
        QTest::keyClick(live, Qt::Key_Escape);
        QTRY_VERIFY(!live->isVisible());

        typeIntoCell(table, 0, GroupsEditor::Count, "2.5");
        QVERIFY(editor.problem().contains("whole number"));
        typeIntoCell(table, 0, GroupsEditor::Count, "64");
        typeIntoCell(table, 1, GroupsEditor::Kind, "tpu-v3");
        QVERIFY(editor.problem().contains("listed twice"));
        typeIntoCell(table, 1, GroupsEditor::Kind, " ");
        QVERIFY(editor.problem().contains("kind: must not be empty"));
    }

    void tooFewAccelerators() {
        ParamsEditor editor;
        editor.show();
        editor.setValues(loadArray(std::string(PARTITA_EXAMPLES_DIR) + "/arrays/tpu-v3-128.json"), CostParams{});
        QTableView* table = groupsTable(editor);
        QCOMPARE(table->model()->rowCount(), 1);
        QVERIFY(!editor.findChild<QPushButton*>("remove_group")->isEnabled());
        typeIntoCell(table, 0, GroupsEditor::Count, "1");
        QVERIFY(!editor.valid());
        QVERIFY2(editor.problem().contains("at least 2"), qPrintable(editor.problem()));
        QCOMPARE(editor.array().groups[0].count, 128);

        QSignalSpy changed(&editor, &ParamsEditor::changed);
        typeIntoCell(table, 0, GroupsEditor::Count, "16");
        QCOMPARE(editor.array().levels, 4);
        QCOMPARE(editor.array().accelerator.throughput_ops, 1.23e14);  // one kind: HyPar fields derived
        QTest::mouseClick(editor.findChild<QPushButton*>("add_group"), Qt::LeftButton);
        QCOMPARE(table->model()->rowCount(), 2);
        QVERIFY(editor.valid());
        QCOMPARE(editor.array().groups.size(), size_t(2));
        QCOMPARE(editor.array().count(), 17);
        table->setCurrentIndex(table->model()->index(1, 0));
        QTest::mouseClick(editor.findChild<QPushButton*>("remove_group"), Qt::LeftButton);
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(editor.array().count(), 16);
        QVERIFY(changed.count() >= 3);
    }

    void accparRoundTrip() {
        ParamsEditor editor;
        editor.show();
        QCOMPARE(editor.accparParams().ratio_model, RatioModel::E);
        QCOMPARE(editor.accparParams().bytes_per_element, 2.0);
        QVERIFY(!editor.accparParams().balanced_baselines);
        QCOMPARE(editor.accparParams().batch, editor.params().batch);

        QSignalSpy changed(&editor, &ParamsEditor::changed);
        AccParParams p;
        p.ratio_model = RatioModel::P;
        p.balanced_baselines = true;
        p.bytes_per_element = 4;
        p.objective = Objective::Elements;
        editor.setAccParValues(p);
        QCOMPARE(changed.count(), 0);
        AccParParams r = editor.accparParams();
        QCOMPARE(r.ratio_model, RatioModel::P);
        QVERIFY(r.balanced_baselines);
        QCOMPARE(r.bytes_per_element, 4.0);
        QCOMPARE(r.objective, Objective::Elements);
        QCOMPARE(r.allowed, AccParParams{}.allowed);
        QCOMPARE(r.batch, 256.0);  // the run's batch, not AccParParams' 512
        auto* ratio = qobject_cast<QComboBox*>(editor.field("ratio_model"));
        QCOMPARE(ratio->currentData().toInt(), int(RatioModel::P));

        ratio->setCurrentIndex(ratio->findData(int(RatioModel::E)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(editor.accparParams().ratio_model, RatioModel::E);
        qobject_cast<QCheckBox*>(editor.field("balanced_baselines"))->setChecked(false);
        QVERIFY(!editor.accparParams().balanced_baselines);
        typeInto(editor.field("accpar_bytes_per_element"), "0");
        QVERIFY(!editor.valid());
        QVERIFY2(editor.problem().startsWith("Bytes / element (AccPar)"), qPrintable(editor.problem()));
        QCOMPARE(editor.accparParams().bytes_per_element, 4.0);
        typeInto(editor.field("accpar_bytes_per_element"), "1");
        QCOMPARE(editor.accparParams().bytes_per_element, 1.0);
        QCOMPARE(editor.params().bytes_per_element, 4.0);  // HyPar's own field is separate
        typeInto(editor.field("batch"), "64");
        QCOMPARE(editor.accparParams().batch, 64.0);
    }

    void screenshot() {
        QScrollArea dock;  // as in the Properties dock: ~290 px wide, scrolls vertically
        auto* editor = new ParamsEditor;
        editor->setValues(mixed(), CostParams{});
        dock.setWidget(editor);
        dock.setWidgetResizable(true);
        dock.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        dock.resize(300, editor->sizeHint().height() + 4);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        typeIntoCell(groupsTable(*editor), 1, GroupsEditor::Bandwidth, "0");
        QVERIFY(editor->grab().save(shotDir() + "/params-accpar.png"));
    }
};

QTEST_MAIN(ParamsAccParTest)
#include "params_accpar_test.moc"
