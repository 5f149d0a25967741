#include "widgets/topology_editor/topology_editor_view.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include "core/io/json_fields.h"
#include "core/topology/import.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"
#include "widgets/topology_editor/topology_command.h"

namespace partita {

namespace {

QTableView* makeTable(const QString& name, TopologyTableModel* model, QWidget* parent) {
    auto* t = new QTableView(parent);
    t->setObjectName(name);
    auto* sorted = new ResultSortModel(t);  // by the exact values
    model->setParent(t);
    sorted->setSourceModel(model);
    t->setModel(sorted);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Edited in place (double-click, F2) or in the properties beside it.
    t->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    t->verticalHeader()->setVisible(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setStretchLastSection(false);
    t->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // document order until a column is clicked
    t->setSortingEnabled(true);
    t->setWordWrap(false);
    return t;
}

}  // namespace

QPushButton* TopologyEditorView::makeButton(const QString& name, const QString& text, const QString& tip) {
    auto* b = new QPushButton(text, this);
    b->setObjectName(name);
    b->setToolTip(tip);
    buttons_.push_back(b);
    return b;
}

QPushButton* TopologyEditorView::button(const QString& name) const {
    for (QPushButton* b : buttons_)
        if (b->objectName() == name) return b;
    return nullptr;
}

TopologyEditorView::TopologyEditorView(QWidget* parent) : QWidget(parent) {
    auto* root = new QVBoxLayout(this);
    // File row: the document's name, its files, undo, and handing it to the simulator.
    auto* files = new QHBoxLayout;
    files->addWidget(new QLabel(tr("Topology"), this));
    name_ = new QLineEdit(this);
    name_->setObjectName("topology-name");
    name_->setPlaceholderText(tr("name"));
    name_->setToolTip(tr("The topology's name, as runs and views show it"));
    files->addWidget(name_, 1);
    QPushButton* fresh = makeButton("new", tr("New"), tr("Start from an empty topology"));
    QPushButton* open_b = makeButton("open", tr("Open…"), tr("Open a topology file (partita-topology/1, ASTRA-sim, Calculon)"));
    QPushButton* save = makeButton("save", tr("Save as…"), tr("Save as partita-topology/1 (refused while there are problems)"));
    QPushButton* undo = makeButton("undo", tr("Undo"), tr("Undo the last edit (Edit ▸ Undo, Ctrl+Z, while this tab is shown)"));
    QPushButton* redo = makeButton("redo", tr("Redo"), tr("Redo the edit undone last (Ctrl+Shift+Z)"));
    QPushButton* use = makeButton("use", tr("Use: Simulate"),
                                  tr("Simulate and MCMC run on this topology (it must have no problems)"));
    QPushButton* use_array = makeButton("use-array", tr("Use: HyPar/AccPar"),
                                        tr("HyPar and AccPar plan for these devices (2^H alike ones), with each "
                                           "level's bandwidth found by recursive bisection of this graph"));
    for (QPushButton* b : {fresh, open_b, save, undo, redo, use, use_array}) files->addWidget(b);
    root->addLayout(files);

    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(split);
    auto* column = new QVBoxLayout(left);
    column->setContentsMargins(0, 0, 0, 0);
    const TopologyTableModel::Edit apply = [this](const QString& text, const std::function<void(sim::Topology&)>& change) {
        if (!filling_) edit(text, change);
    };
    devices_model_ = new TopologyDevicesModel(doc_, apply);
    links_model_ = new TopologyLinksModel(doc_, rows_, apply);
    devices_ = makeTable("devices", devices_model_, left);
    links_ = makeTable("links", links_model_, left);
    for (TopologyTableModel* m : {devices_model_, links_model_})
        connect(m, &TopologyTableModel::refused, this, &TopologyEditorView::message);
    auto* device_buttons = new QHBoxLayout;
    device_buttons->addWidget(new QLabel(tr("<b>Devices and switches</b>"), left), 1);
    for (QPushButton* b :
         {makeButton("add-device", tr("Add device"), tr("A device like the selected one (or a 100 TFLOP/s NPU)")),
          makeButton("add-switch", tr("Add switch"), tr("A switch: a vertex that routes but does not compute")),
          makeButton("remove-devices", tr("Remove"), tr("Remove the selected devices and switches and their links"))})
        device_buttons->addWidget(b);
    auto* link_buttons = new QHBoxLayout;
    link_buttons->addWidget(new QLabel(tr("<b>Links</b>"), left), 1);
    for (QPushButton* b :
         {makeButton("add-link", tr("Add link"), tr("A duplex link between the first two selected devices or switches")),
          makeButton("remove-links", tr("Remove"), tr("Remove the selected links (both directions of a duplex one)"))})
        link_buttons->addWidget(b);
    column->addLayout(device_buttons);
    column->addWidget(devices_, 3);
    column->addLayout(link_buttons);
    column->addWidget(links_, 2);

    auto* right = new QWidget(split);
    auto* side = new QVBoxLayout(right);
    side->setContentsMargins(0, 0, 0, 0);
    selection_ = new QLabel(right);
    selection_->setWordWrap(true);
    side->addWidget(selection_);
    pages_ = new QStackedWidget(right);
    pages_->addWidget(new QWidget(pages_));  // nothing selected
    auto* device_page = new QWidget(pages_);
    auto* link_page = new QWidget(pages_);
    pages_->addWidget(device_page);
    pages_->addWidget(link_page);
    buildFields(device_page, link_page);
    pages_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    side->addWidget(pages_);
    problems_title_ = new QLabel(right);
    side->addWidget(problems_title_);
    problems_list_ = new QListWidget(right);
    problems_list_->setObjectName("problems");
    problems_list_->setWordWrap(true);
    problems_list_->setIconSize(QSize(16, 16));
    problems_list_->setToolTip(tr("Click a problem to select its device or link"));
    side->addWidget(problems_list_, 1);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    root->addWidget(split, 1);

    connect(name_, &QLineEdit::textEdited, this, [this](const QString& text) {
        edit(tr("Rename the topology"), [text](sim::Topology& t) { t.name = text.toStdString(); }, -1);
    });
    connect(name_, &QLineEdit::editingFinished, this, [this] { ++merge_serial_; });
    connect(fresh, &QPushButton::clicked, this, [this] {
        if (maybeSave()) newTopology();
    });
    connect(open_b, &QPushButton::clicked, this, [this] {
        if (!maybeSave()) return;
        const QString p = QFileDialog::getOpenFileName(this, tr("Open topology"), QFileInfo(path_).path(),
                                                       tr("Topologies (*.json *.yaml *.yml);;All files (*)"));
        QString error;
        if (!p.isEmpty() && !open(p, &error)) QMessageBox::warning(this, tr("Open topology"), error);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Save topology"), saveSuggestion(), tr("partita-topology/1 (*.json)"));
        QString error;
        if (!p.isEmpty() && !saveAs(p, &error)) QMessageBox::warning(this, tr("Save topology"), error);
    });
    connect(undo, &QPushButton::clicked, &stack_, &QUndoStack::undo);
    connect(redo, &QPushButton::clicked, &stack_, &QUndoStack::redo);
    connect(&stack_, &QUndoStack::canUndoChanged, undo, &QWidget::setEnabled);
    connect(&stack_, &QUndoStack::canRedoChanged, redo, &QWidget::setEnabled);
    connect(use, &QPushButton::clicked, this, &TopologyEditorView::useTopology);
    connect(use_array, &QPushButton::clicked, this, &TopologyEditorView::useAsArray);
    connect(button("add-device"), &QPushButton::clicked, this, [this] { addDevices(1); });
    connect(button("add-switch"), &QPushButton::clicked, this, &TopologyEditorView::addSwitch);
    connect(button("add-link"), &QPushButton::clicked, this, &TopologyEditorView::addLink);
    connect(button("remove-devices"), &QPushButton::clicked, this, &TopologyEditorView::removeSelectedVertices);
    connect(button("remove-links"), &QPushButton::clicked, this, &TopologyEditorView::removeSelectedLinks);
    connect(devices_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] { selectionChanged(false); });
    connect(links_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] { selectionChanged(true); });
    connect(problems_list_, &QListWidget::currentRowChanged, this, &TopologyEditorView::problemClicked);
    connect(problems_list_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { problemClicked(problems_list_->row(item)); });
    undo->setEnabled(false);
    redo->setEnabled(false);
    refresh();
}

TopologyEditorView::~TopologyEditorView() {
    // The tables' models read doc_ and rows_, and their selection signals reach this view: both go
    // before those members do (QWidget would delete the tables after them). An open cell editor may
    // commit as it closes; filling_ keeps that from becoming an edit.
    filling_ = true;
    for (QTableView* t : {devices_, links_}) {
        t->selectionModel()->disconnect(this);
        delete t;
    }
}

void TopologyEditorView::setDocument(sim::Topology doc, const QString& path) {
    stack_.clear();
    import_notes_.clear();
    imported_ = false;
    doc_ = std::move(doc);
    path_ = path;
    ++merge_serial_;
    refresh();
    stack_.setClean();
    emit documentChanged();
}

bool TopologyEditorView::open(const QString& path, QString* error) {
    try {
        const std::string p = path.toStdString();
        const std::string text = readTextFile(p);  // a FIFO or device is refused by name, never read
        // partita-topology/1 is read as written, so a file with problems opens to be fixed.
        const bool native = text.find("\"partita-topology/") != std::string::npos;
        std::vector<std::string> notes;
        setDocument(native ? sim::readTopologyJsonUnchecked(text, p, nullptr) : sim::readAnyTopology(text, p, &notes),
                    QFileInfo(path).absoluteFilePath());
        imported_ = !native;
        for (const auto& n : notes) import_notes_ << q(n);
        fillProblems();
        QString said = problems_.empty() ? tr("Opened %1").arg(path)
                                         : tr("Opened %1: %2 to fix").arg(path, counted(static_cast<int>(problems_.size()), tr("problem"), tr("problems")));
        if (!import_notes_.empty())
            said += tr("; the import approximated or ignored %1 (listed under Problems)")
                        .arg(counted(import_notes_.size(), tr("thing"), tr("things")));
        emit message(said);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        emit message(q(e.what()));
        return false;
    }
}

QString TopologyEditorView::saveSuggestion() const {
    // An imported file (ASTRA-sim, Calculon) is not offered to be written over: a new name beside it.
    const QFileInfo file(path_);
    return !imported_ || path_.isEmpty() ? path_ : file.dir().filePath(file.completeBaseName() + ".partita.json");
}

bool TopologyEditorView::maybeSave() {
    if (stack_.isClean()) return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved topology"),
        tr("The topology %1 in the topology editor has unsaved changes. Save them?").arg(q(doc_.name)),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Discard) return true;
    if (answer != QMessageBox::Save) return false;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save topology"), saveSuggestion(), tr("partita-topology/1 (*.json)"));
    if (path.isEmpty()) return false;
    QString error;
    if (saveAs(path, &error)) return true;
    QMessageBox::warning(this, tr("Topology not saved"), error);
    return false;
}

bool TopologyEditorView::saveAs(const QString& path, QString* error) {
    const auto fail = [&](const QString& why) {
        if (error) *error = why;
        emit message(why);
        return false;
    };
    if (!problems_.empty())
        return fail(tr("%1: not saved: the topology has %2; the Problems list names them")
                        .arg(path, counted(static_cast<int>(problems_.size()), tr("problem"), tr("problems"))));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return fail(tr("%1: cannot write the file").arg(path));
    file.write(QByteArray::fromStdString(sim::writeTopologyJson(doc_)));
    if (!file.flush()) return fail(tr("%1: cannot write the file").arg(path));
    path_ = QFileInfo(path).absoluteFilePath();
    imported_ = false;
    stack_.setClean();
    emit message(tr("Saved %1").arg(path));
    return true;
}

void TopologyEditorView::edit(const QString& text, const std::function<void(sim::Topology&)>& change, int merge) {
    sim::Topology after = doc_;
    change(after);
    if (after == doc_) return;
    const int key = merge == 0 ? 0 : merge_serial_ * 64 + (merge < 0 ? 63 : merge);
    stack_.push(new TopologyCommand(doc_, std::move(after), [this](const sim::Topology& t) { show(t); }, text, key));
}

void TopologyEditorView::show(const sim::Topology& doc) {
    doc_ = doc;
    refresh();
    emit documentChanged();
}

void TopologyEditorView::refresh() {
    const auto vertices = selectedVertices();
    const auto rows = selectedLinkRows();
    problems_ = sim::checkTopology(doc_);
    warnings_ = sim::topologyWarnings(doc_);
    rows_ = sim::linkRows(doc_);
    filling_ = true;
    if (name_->text() != q(doc_.name)) name_->setText(q(doc_.name));
    fillTables();
    fillProblems();
    filling_ = false;
    // The selection survives an edit where its rows still exist.
    std::set<int> v, r;
    for (int x : vertices)
        if (x < doc_.vertexCount()) v.insert(x);
    for (int x : rows)
        if (x < static_cast<int>(rows_.size())) r.insert(x);
    filling_ = true;
    if (!v.empty()) selectVertices(v);
    else if (!r.empty()) selectLinkRows(r);
    filling_ = false;
    fillFields();
    button("use")->setEnabled(problems_.empty());
    button("use-array")->setEnabled(problems_.empty());
    button("save")->setEnabled(problems_.empty());
}

void TopologyEditorView::fillTables() {
    devices_model_->refresh();
    links_model_->refresh();
    // Columns as wide as their text: no room kept for a sort arrow, so a 1024 px window shows every column.
    for (QTableView* t : {devices_, links_}) {
        t->horizontalHeader()->setSortIndicatorShown(false);
        t->resizeColumnsToContents();
        t->horizontalHeader()->setSortIndicatorShown(true);
    }
}

void TopologyEditorView::fillProblems() {
    problems_list_->clear();
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QIcon note = style()->standardIcon(QStyle::SP_MessageBoxInformation);
    for (const auto& p : problems_) problems_list_->addItem(new QListWidgetItem(warning, q(p.message)));
    for (const auto& w : warnings_) problems_list_->addItem(new QListWidgetItem(note, tr("warning: %1").arg(q(w.message))));
    const QIcon imported = style()->standardIcon(QStyle::SP_FileDialogInfoView);
    for (const QString& n : import_notes_) {
        auto* item = new QListWidgetItem(imported, tr("import: %1").arg(n));
        item->setToolTip(tr("What the importer approximated or ignored (docs/formats/topology-imports.md)"));
        problems_list_->addItem(item);
    }
    QString title = problems_.empty() ? tr("<b>Problems</b>: none, the simulator can use this topology")
                                      : tr("<b>Problems</b>: %1").arg(problems_.size());
    if (!warnings_.empty()) title += tr("; %1").arg(counted(static_cast<qsizetype>(warnings_.size()), tr("warning"), tr("warnings")));
    if (!import_notes_.empty()) title += tr("; %1 from the import").arg(counted(import_notes_.size(), tr("note"), tr("notes")));
    problems_title_->setText(title);
}

void TopologyEditorView::problemClicked(int row) {
    const int errors = static_cast<int>(problems_.size());
    if (filling_ || row < 0 || row >= errors + static_cast<int>(warnings_.size())) return;
    const sim::TopologyProblem& p = row < errors ? problems_[static_cast<size_t>(row)] : warnings_[static_cast<size_t>(row - errors)];
    using E = sim::TopologyError::Element;
    if (p.element == E::Device) selectVertices({p.index});
    if (p.element == E::Switch) selectVertices({doc_.deviceCount() + p.index});
    if (p.element == E::Link)
        for (int r = 0; r < static_cast<int>(rows_.size()); ++r)
            if (rows_[static_cast<size_t>(r)].forward == p.index || rows_[static_cast<size_t>(r)].reverse == p.index)
                selectLinkRows({r});
}

void TopologyEditorView::useTopology() {
    if (!problems_.empty() || doc_.devices.empty()) {
        emit message(tr("The topology has problems: fix them first (see Problems)"));
        return;
    }
    emit topologyChosen(doc_, path_.isEmpty() || !stack_.isClean() ? "editor:" + q(doc_.name) : path_);
}

void TopologyEditorView::useAsArray() {
    if (!problems_.empty() || doc_.devices.empty()) {
        emit message(tr("The topology has problems: fix them first (see Problems)"));
        return;
    }
    emit arrayChosen(doc_);
}

}  // namespace partita
