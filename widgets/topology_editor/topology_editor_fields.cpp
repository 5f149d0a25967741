// The topology editor's selection, its property fields (checked as typed: a field turns red with the
// reason and is not applied until it holds a valid value) and the add and remove edits.
#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "widgets/common/qt_text.h"
#include "widgets/topology_editor/topology_editor_view.h"

namespace partita {

namespace {

// Rows of the document (source model rows), whatever the sort.
std::set<int> selectedRows(const QTableView* t) {
    const auto* sorted = qobject_cast<const QSortFilterProxyModel*>(t->model());
    std::set<int> rows;
    for (const QModelIndex& i : t->selectionModel()->selectedRows()) rows.insert(sorted->mapToSource(i).row());
    return rows;
}

void selectRows(QTableView* t, const std::set<int>& rows) {
    const auto* sorted = qobject_cast<const QSortFilterProxyModel*>(t->model());
    const QAbstractItemModel* source = sorted->sourceModel();
    QItemSelection s;
    for (int r : rows)
        if (r >= 0 && r < source->rowCount())
            s.select(sorted->mapFromSource(source->index(r, 0)), sorted->mapFromSource(source->index(r, source->columnCount() - 1)));
    t->selectionModel()->select(s, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!rows.empty() && *rows.begin() < source->rowCount()) t->scrollTo(sorted->mapFromSource(source->index(*rows.begin(), 0)));
}

void markInvalid(QLineEdit* e, const QString& why) {
    e->setStyleSheet(why.isEmpty() ? QString() : "QLineEdit { background: #fbe3e3; }");
    e->setToolTip(why.isEmpty() ? e->property("tip").toString() : why);
}

}  // namespace

std::set<int> TopologyEditorView::selectedVertices() const { return selectedRows(devices_); }
std::set<int> TopologyEditorView::selectedLinkRows() const { return selectedRows(links_); }
void TopologyEditorView::selectVertices(const std::set<int>& v) { selectRows(devices_, v); }
void TopologyEditorView::selectLinkRows(const std::set<int>& r) { selectRows(links_, r); }

std::vector<int> TopologyEditorView::selectedLinks() const { return linkIds(rows_, selectedLinkRows()); }

QLineEdit* TopologyEditorView::field(const QString& key) const {
    if (key == "name") return device_name_;
    if (key == "kind") return device_kind_;
    if (key == "link-kind") return link_kind_;
    for (const NumberField& f : numbers_)
        if (f.number->key == key) return f.edit;
    return nullptr;
}

void TopologyEditorView::buildFields(QWidget* device_page, QWidget* link_page) {
    auto* devices = new QFormLayout(device_page);
    auto* links = new QFormLayout(link_page);
    for (QFormLayout* f : {devices, links}) f->setContentsMargins(0, 0, 0, 0);
    const auto line = [this](QWidget* parent, const QString& key, const QString& tip) {
        auto* e = new QLineEdit(parent);
        e->setObjectName(key);
        e->setToolTip(tip);
        e->setProperty("tip", tip);
        connect(e, &QLineEdit::editingFinished, this, [this] { ++merge_serial_; });
        return e;
    };
    device_name_ = line(device_page, "name", tr("A unique name (one device selected)"));
    device_kind_ = line(device_page, "kind", tr("What the views colour devices by: p100, k80, npu, …"));
    link_kind_ = line(link_page, "link-kind", tr("nvlink, pcie, infiniband, …"));
    devices->addRow(tr("Name"), device_name_);
    devices->addRow(tr("Kind"), device_kind_);
    numbers_.reserve(topologyNumbers().size());
    for (const TopologyNumber& n : topologyNumbers()) {
        const bool is_link = n.link != nullptr;
        QLineEdit* e = line(is_link ? link_page : device_page, n.key, n.tip);
        numbers_.push_back({&n, e});
        (is_link ? links : devices)->addRow(n.label, e);
    }
    for (const NumberField& f : numbers_)
        connect(f.edit, &QLineEdit::textEdited, this, [this, n = f.number](const QString& text) {
            for (const NumberField& g : numbers_)
                if (g.number == n) numberEdited(g, text);
        });
    from_ = new QComboBox(link_page);
    from_->setObjectName("from");
    to_ = new QComboBox(link_page);
    to_->setObjectName("to");
    duplex_ = new QCheckBox(tr("both directions (duplex)"), link_page);
    duplex_->setObjectName("duplex");
    links->insertRow(0, tr("From"), from_);
    links->insertRow(1, tr("To"), to_);
    links->insertRow(2, tr("Duplex"), duplex_);
    links->addRow(tr("Kind"), link_kind_);
    connect(from_, &QComboBox::activated, this, [this](int v) { endpointChosen(true, v); });
    connect(to_, &QComboBox::activated, this, [this](int v) { endpointChosen(false, v); });
    connect(duplex_, &QCheckBox::clicked, this, &TopologyEditorView::duplexToggled);
    for (QLineEdit* e : {device_name_, device_kind_, link_kind_})
        connect(e, &QLineEdit::textEdited, this, [this, e](const QString& text) { textEdited(e->objectName(), text); });
}

void TopologyEditorView::selectionChanged(bool links) {
    if (filling_) return;
    ++merge_serial_;
    filling_ = true;  // one table's selection at a time: the fields edit either devices or links
    if (links && !selectedLinkRows().empty()) devices_->clearSelection();
    if (!links && !selectedVertices().empty()) links_->clearSelection();
    filling_ = false;
    fillFields();
}

void TopologyEditorView::fillFields() {
    filling_ = true;
    std::vector<int> devices;
    int switches = 0;
    for (int v : selectedVertices()) {
        if (v < doc_.deviceCount()) devices.push_back(v);
        else ++switches;
    }
    const std::vector<int> links = selectedLinks();
    const int rows = static_cast<int>(selectedLinkRows().size());
    pages_->setCurrentIndex(!devices.empty() ? 1 : rows ? 2 : 0);
    selection_->setText(!devices.empty() || switches
                            ? "<b>" + counted(static_cast<int>(devices.size()), tr("device"), tr("devices")) +
                                  (switches ? ", " + counted(switches, tr("switch"), tr("switches")) : QString()) +
                                  tr(" selected</b>") +
                                  tr(": a field set here is set on all of them")
                        : rows ? "<b>" + counted(rows, tr("link"), tr("links")) +
                                     tr(" selected</b>: a field set here is set on all of them")
                        : doc_.vertexCount() == 0
                            ? tr("<b>An empty topology.</b> Add devices, select two and Add link to join them; or Open "
                                 "a file.")
                            : tr("<b>Select</b> devices or links to edit them; Ctrl- or Shift-click selects several."));
    // A field shows the common value, or nothing when the selection differs ("mixed").
    const auto common = [this](const std::vector<QString>& values, QLineEdit* e) {
        if (e == typing_) return;  // the field being typed in keeps its text ("12." stays, not "12")
        const bool same = !values.empty() && std::all_of(values.begin(), values.end(), [&](const QString& v) { return v == values[0]; });
        e->setText(same ? values[0] : QString());
        e->setPlaceholderText(values.size() > 1 && !same ? tr("(mixed)") : QString());
        markInvalid(e, {});
    };
    std::vector<QString> names, kinds, link_kinds;
    for (int d : devices) {
        names.push_back(q(doc_.devices[static_cast<size_t>(d)].name));
        kinds.push_back(q(doc_.devices[static_cast<size_t>(d)].kind));
    }
    for (int l : links) link_kinds.push_back(q(doc_.links[static_cast<size_t>(l)].kind));
    common(names, device_name_);
    device_name_->setEnabled(devices.size() == 1);
    common(kinds, device_kind_);
    common(link_kinds, link_kind_);
    for (const NumberField& f : numbers_) {
        std::vector<QString> values;
        for (int id : f.number->link ? links : devices) values.push_back(QString::number(f.number->get(doc_, id) / f.number->scale, 'g', 12));
        common(values, f.edit);
    }
    // Endpoints: the vertex names; several rows with different ends show none chosen.
    for (QComboBox* box : {from_, to_}) {
        box->clear();
        for (int v = 0; v < doc_.vertexCount(); ++v) box->addItem(q(doc_.vertexName(v)));
    }
    std::set<int> froms, tos, duplex;
    for (int r : selectedLinkRows()) {
        const sim::Link& l = doc_.links[static_cast<size_t>(rows_[static_cast<size_t>(r)].forward)];
        froms.insert(l.from);
        tos.insert(l.to);
        duplex.insert(rows_[static_cast<size_t>(r)].duplex());
    }
    from_->setCurrentIndex(froms.size() == 1 ? *froms.begin() : -1);
    to_->setCurrentIndex(tos.size() == 1 ? *tos.begin() : -1);
    duplex_->setTristate(duplex.size() > 1);
    duplex_->setCheckState(duplex.size() > 1 ? Qt::PartiallyChecked : duplex.count(1) ? Qt::Checked : Qt::Unchecked);
    filling_ = false;
}

void TopologyEditorView::numberEdited(const NumberField& f, const QString& text) {
    if (filling_) return;
    double v = 0;
    const QString why = numberProblem(f.number->rule, text, &v);
    markInvalid(f.edit, why);
    if (!why.isEmpty()) return;
    const TopologyNumber& n = *f.number;
    const int merge = static_cast<int>(&f - numbers_.data()) + 1;
    const Typing typing(typing_, f.edit);
    const std::set<int> vertices = selectedVertices();
    const std::vector<int> ids = n.link ? selectedLinks() : std::vector<int>(vertices.begin(), vertices.end());
    edit((n.link ? tr("Set link %1") : tr("Set device %1")).arg(n.key), [&](sim::Topology& t) { setNumber(t, n, ids, v * n.scale); },
         merge);
}

void TopologyEditorView::textEdited(const QString& key, const QString& text) {
    if (filling_) return;
    const std::string s = text.trimmed().toStdString();
    QLineEdit* e = field(key);
    const std::set<int> vertices = selectedVertices();
    const QString why = textProblem(doc_, text, key == "name" && vertices.size() == 1 ? *vertices.begin() : -1);
    markInvalid(e, why);
    if (!why.isEmpty()) return;
    const Typing typing(typing_, e);
    if (key == "name") {
        if (vertices.size() == 1) edit(tr("Rename a device"), [&](sim::Topology& t) { sim::renameVertex(t, *vertices.begin(), s); }, 20);
    } else if (key == "kind") {
        edit(tr("Set device kind"), [&](sim::Topology& t) { setDeviceKind(t, vertices, s); }, 21);
    } else {
        const std::vector<int> ids = selectedLinks();
        edit(tr("Set link kind"), [&](sim::Topology& t) { setLinkKind(t, ids, s); }, 22);
    }
}

void TopologyEditorView::endpointChosen(bool from, int vertex) {
    if (filling_ || vertex < 0) return;
    const std::set<int> rows = selectedLinkRows();
    edit(from ? tr("Set link source") : tr("Set link destination"),
         [&](sim::Topology& t) { setEndpoint(t, rows_, rows, from, vertex); });
}

void TopologyEditorView::duplexToggled(bool on) {
    if (filling_) return;
    const std::set<int> rows = selectedLinkRows();
    edit(on ? tr("Make links duplex") : tr("Make links one way"), [&](sim::Topology& t) {
        std::set<int> drop;
        for (int r : rows) {
            const sim::LinkRow& row = rows_[static_cast<size_t>(r)];
            if (!on && row.duplex()) drop.insert(row.reverse);
            if (on && !row.duplex()) {
                const sim::Link l = t.links[static_cast<size_t>(row.forward)];
                sim::addLink(t, l.to, l.from, false, l);
            }
        }
        sim::removeLinks(t, drop);
    });
}

void TopologyEditorView::addDevices(int count) {
    const std::set<int> selected = selectedVertices();
    sim::ComputeDevice model = sim::defaultEditorDevice();
    for (int v : selected)
        if (v < doc_.deviceCount()) model = doc_.devices[static_cast<size_t>(v)];
    int last = -1;
    edit(count == 1 ? tr("Add a device") : tr("Add %1 devices").arg(count), [&](sim::Topology& t) {
        for (int k = 0; k < count; ++k) last = sim::addDevice(t, model);
    });
    if (last >= 0) selectVertices({last});
}

void TopologyEditorView::addSwitch() {
    int id = -1;
    edit(tr("Add a switch"), [&](sim::Topology& t) { id = sim::addSwitch(t); });
    if (id >= 0) selectVertices({id});
}

void TopologyEditorView::addLink() {
    const std::set<int> selected = selectedVertices();
    if (doc_.vertexCount() < 2) {
        emit message(tr("A link needs two devices or switches: add them first"));
        return;
    }
    const int a = selected.size() >= 2 ? *selected.begin() : 0;
    const int z = selected.size() >= 2 ? *std::next(selected.begin()) : 1;
    edit(tr("Add a link"), [&](sim::Topology& t) { sim::addLink(t, a, z, true, sim::defaultEditorLink()); });
    selectLinkRows({static_cast<int>(rows_.size()) - 1});
}

void TopologyEditorView::removeSelectedVertices() {
    const std::set<int> vertices = selectedVertices();
    if (vertices.empty()) return;
    devices_->clearSelection();
    edit(tr("Remove %1").arg(counted(static_cast<int>(vertices.size()), tr("vertex"), tr("vertices"))),
         [&](sim::Topology& t) { sim::removeVertices(t, vertices); });
}

void TopologyEditorView::removeSelectedLinks() {
    const std::vector<int> ids = selectedLinks();
    if (ids.empty()) return;
    const int rows = static_cast<int>(selectedLinkRows().size());
    links_->clearSelection();
    edit(tr("Remove %1").arg(counted(rows, tr("link"), tr("links"))),
         [&](sim::Topology& t) { sim::removeLinks(t, {ids.begin(), ids.end()}); });
}

}  // namespace partita
