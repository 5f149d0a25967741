#pragma once
// The topology editor (issue 17): a devices table (devices, then switches) and a links table (a duplex
// cable is one row, its two directed links edited and removed together), item models over the document
// (topology_table_model.h: cells editable in place, sorted through a proxy by their exact values), the selection's properties
// checked as typed (a multi-selection sets a field on every selected row), a Problems list from
// checkTopology (click one to select its row; then its warnings and what an importer approximated),
// and New, Open (both ask before dropping unsaved edits), Save as partita-topology/1. Every edit
// is one TopologyCommand on the view's undo stack (keystrokes in one field merge). "Use: Simulate"
// hands a topology without problems to whoever listens (the window's Simulate and MCMC).
#include <functional>
#include <set>
#include <vector>

#include <QString>
#include <QStringList>
#include <QUndoStack>
#include <QWidget>

#include "core/io/csv.h"
#include "core/topology/topology.h"
#include "core/topology/check.h"
#include "core/topology/edit.h"
#include "widgets/topology_editor/topology_table_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace partita {

class TopologyEditorView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyEditorView(QWidget* parent = nullptr);
    ~TopologyEditorView() override;

    const sim::Topology& document() const { return doc_; }
    const std::vector<sim::TopologyProblem>& problems() const { return problems_; }
    // Listed after the problems, with an information icon; they do not stop Save or Use.
    const std::vector<sim::TopologyProblem>& warnings() const { return warnings_; }
    QUndoStack& undoStack() { return stack_; }
    QString path() const { return path_; }  // the file last opened or saved ("" for a new one)

    // A new document (New, Open): the undo history starts over, clean.
    void setDocument(sim::Topology doc, const QString& path = {});
    void newTopology() { setDocument({}); }
    // partita-topology/1 (read as written, problems listed) or an imported format, whose importer's
    // approximations are listed under Problems until the next document. False: `error` says why.
    bool open(const QString& path, QString* error = nullptr);
    // Unsaved edits about to be replaced (New, Open, the window closing): Save (a file dialog), Discard
    // or Cancel. True to go on; with no unsaved edits, true without asking.
    bool maybeSave();
    // What the importer of the open file approximated or ignored ("" lines none).
    const QStringList& importNotes() const { return import_notes_; }
    // partita-topology/1; refused while there are problems. False: `error` says why.
    bool saveAs(const QString& path, QString* error = nullptr);

    // One undoable edit of the document (what the buttons and fields call); `merge` != 0 merges
    // with the previous edit of the same key (keystrokes in one field).
    void edit(const QString& text, const std::function<void(sim::Topology&)>& change, int merge = 0);
    void addDevices(int count = 1);
    void addSwitch();
    void addLink();  // between the first two selected vertices (else vertices 0 and 1), duplex
    void removeSelectedVertices();
    void removeSelectedLinks();
    void useTopology();  // emits topologyChosen when there are no problems
    void useAsArray();   // emits arrayChosen when there are no problems

    // Selection by vertex ids and link-table rows (tests, the Problems list).
    std::set<int> selectedVertices() const;
    std::set<int> selectedLinkRows() const;
    void selectVertices(const std::set<int>& vertices);
    void selectLinkRows(const std::set<int>& rows);

    QTableView* devicesTable() const { return devices_; }
    QTableView* linksTable() const { return links_; }
    TopologyTableModel* devicesModel() const { return devices_model_; }
    TopologyTableModel* linksModel() const { return links_model_; }
    QListWidget* problemsList() const { return problems_list_; }
    QLineEdit* nameField() const { return name_; }
    // A property field by key: device "name", "kind", "peak", "membw", "memcap", "efficiency",
    // "overhead", "node"; link "link-kind", "bandwidth", "latency"; null for others.
    QLineEdit* field(const QString& key) const;
    QComboBox* endpoint(bool from) const { return from ? from_ : to_; }
    QCheckBox* duplexBox() const { return duplex_; }
    QPushButton* button(const QString& name) const;  // "add-device", "add-link", "save", "use", ...
    // The tables as CSV from their models (csvFromModel), SI units, every digit, in document order.
    CsvTable devicesCsv() const;
    CsvTable linksCsv() const;

signals:
    void documentChanged();
    void topologyChosen(const partita::sim::Topology& topology, const QString& origin);
    void arrayChosen(const partita::sim::Topology& topology);  // for HyPar/AccPar's levels
    void message(const QString& text);

private:
    // A number field (topologyNumbers()), applied when it passes its rule.
    struct NumberField {
        const TopologyNumber* number = nullptr;
        QLineEdit* edit = nullptr;
    };
    void show(const sim::Topology& doc);  // what commands call
    void refresh();                       // tables, fields and problems from doc_
    void fillTables();
    void fillProblems();
    void selectionChanged(bool links);
    void buildFields(QWidget* devices_page, QWidget* links_page);
    void fillFields();
    void numberEdited(const NumberField& f, const QString& text);
    void textEdited(const QString& key, const QString& text);
    void endpointChosen(bool from, int vertex);
    void duplexToggled(bool on);
    void problemClicked(int row);
    QPushButton* makeButton(const QString& name, const QString& text, const QString& tip);
    std::vector<int> selectedLinks() const;  // directed link ids of the selected rows
    QString saveSuggestion() const;          // the file Save offers first

    sim::Topology doc_;
    std::vector<sim::TopologyProblem> problems_, warnings_;
    QStringList import_notes_;
    bool imported_ = false;  // path_ is an imported format (not partita-topology/1)
    std::vector<sim::LinkRow> rows_;
    QUndoStack stack_;
    QString path_;
    int merge_serial_ = 1;  // a new value when the selection or the focused field changes
    bool filling_ = false;  // refreshing widgets: their signals are not edits
    QLineEdit* typing_ = nullptr;  // the field whose keystroke is being applied
    struct Typing {  // sets typing_ for one edit
        Typing(QLineEdit*& slot, QLineEdit* e) : slot_(slot) { slot_ = e; }
        ~Typing() { slot_ = nullptr; }
        QLineEdit*& slot_;
    };
    std::vector<NumberField> numbers_;

    QLineEdit* name_ = nullptr;
    QTableView* devices_ = nullptr;
    QTableView* links_ = nullptr;
    TopologyTableModel* devices_model_ = nullptr;
    TopologyTableModel* links_model_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLineEdit* device_name_ = nullptr;
    QLineEdit* device_kind_ = nullptr;
    QLineEdit* link_kind_ = nullptr;
    QComboBox* from_ = nullptr;
    QComboBox* to_ = nullptr;
    QCheckBox* duplex_ = nullptr;
    QLabel* selection_ = nullptr;
    QLabel* problems_title_ = nullptr;
    QListWidget* problems_list_ = nullptr;
    std::vector<QPushButton*> buttons_;
};

}  // namespace partita
