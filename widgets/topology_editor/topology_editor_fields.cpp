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
#include <QTableWidget>

#include "widgets/common/qt_text.h"
#include "widgets/topology_editor/topology_editor_view.h"

namespace partita {

namespace {

std::set<int> selectedRows(const QTableWidget* t) {
    std::set<int> rows;
    for (const QModelIndex& i : t->selectionModel()->selectedRows()) rows.insert(i.row());
    return rows;
}

void selectRows(QTableWidget* t, const std::set<int>& rows) {
    QItemSelection s;
    for (int r : rows)
        if (r >= 0 && r < t->rowCount()) s.select(t->model()->index(r, 0), t->model()->index(r, t->columnCount() - 1));
    t->selectionModel()->select(s, QItemSelectionModel::ClearAndSelect);
    if (!rows.empty()) t->scrollToItem(t->item(*rows.begin(), 0));
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

std::vector<int> TopologyEditorView::selectedLinks() const {
    std::vector<int> ids;
    for (int r : selectedLinkRows()) {
        ids.push_back(rows_[static_cast<size_t>(r)].forward);
        if (rows_[static_cast<size_t>(r)].duplex()) ids.push_back(rows_[static_cast<size_t>(r)].reverse);
    }
    return ids;
}

QLineEdit* TopologyEditorView::field(const QString& key) const {
    if (key == "name") return device_name_;
    if (key == "kind") return device_kind_;
    if (key == "link-kind") return link_kind_;
    for (const NumberField& f : numbers_)
        if (f.key == key) return f.edit;
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
    using CD = sim::ComputeDevice;
    const std::vector<std::tuple<QString, QString, double, Rule, double CD::*, double sim::Link::*, QString>> specs{
        {"peak", tr("Peak TFLOP/s"), 1e12, Rule::Positive, &CD::peak_flops, nullptr, tr("Peak throughput, > 0")},
        {"membw", tr("Memory GB/s"), 1e9, Rule::Positive, &CD::mem_bandwidth_Bps, nullptr, tr("Memory bandwidth, > 0")},
        {"memcap", tr("Memory GB"), 1e9, Rule::NonNegative, &CD::mem_capacity_B, nullptr, tr("Memory capacity, ≥ 0")},
        {"efficiency", tr("Efficiency"), 1, Rule::Fraction, &CD::efficiency, nullptr,
         tr("Fraction of peak a kernel reaches, in (0, 1]")},
        {"overhead", tr("Overhead µs"), 1e-6, Rule::NonNegative, &CD::task_overhead_s, nullptr,
         tr("Time added to every compute task (kernel launch), ≥ 0")},
        {"node", tr("Node"), 1, Rule::Count, nullptr, nullptr, tr("The machine the device sits in, an integer ≥ 0")},
        {"bandwidth", tr("Bandwidth GB/s"), 1e9, Rule::Positive, nullptr, &sim::Link::bandwidth_Bps,
         tr("Per direction, > 0")},
        {"latency", tr("Latency µs"), 1e-6, Rule::NonNegative, nullptr, &sim::Link::latency_s, tr("Per transfer, ≥ 0")}};
    numbers_.reserve(specs.size());
    for (const auto& [key, label, scale, rule, dm, lm, tip] : specs) {
        const bool is_link = lm != nullptr;
        QLineEdit* e = line(is_link ? link_page : device_page, key, tip);
        numbers_.push_back({key, scale, rule, dm, lm, e});
        (is_link ? links : devices)->addRow(label, e);
    }
    for (const NumberField& f : numbers_)
        connect(f.edit, &QLineEdit::textEdited, this, [this, key = f.key](const QString& text) {
            for (const NumberField& g : numbers_)
                if (g.key == key) numberEdited(g, text);
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
        if (f.link) {
            for (int l : links) values.push_back(QString::number(doc_.links[static_cast<size_t>(l)].*f.link / f.scale, 'g', 12));
        } else {
            for (int d : devices) {
                const sim::ComputeDevice& c = doc_.devices[static_cast<size_t>(d)];
                values.push_back(f.device ? QString::number(c.*f.device / f.scale, 'g', 12) : QString::number(c.node));
            }
        }
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
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    QString why;
    if (!ok || !std::isfinite(v)) why = tr("Not a number");
    else if (f.rule == Rule::Positive && !(v > 0)) why = tr("Must be positive");
    else if (f.rule == Rule::NonNegative && v < 0) why = tr("Must not be negative");
    else if (f.rule == Rule::Fraction && !(v > 0 && v <= 1)) why = tr("Must be above 0 and at most 1");
    else if (f.rule == Rule::Count && (v < 0 || v != std::floor(v) || v > 1e9)) why = tr("Must be a whole number ≥ 0");
    markInvalid(f.edit, why);
    if (!why.isEmpty()) return;
    const double value = v * f.scale;
    const int merge = static_cast<int>(&f - numbers_.data()) + 1;
    const Typing typing(typing_, f.edit);
    if (f.link) {
        const std::vector<int> ids = selectedLinks();
        edit(tr("Set link %1").arg(f.key), [&](sim::Topology& t) {
            for (int l : ids) t.links[static_cast<size_t>(l)].*f.link = value;
        }, merge);
        return;
    }
    const std::set<int> vertices = selectedVertices();
    edit(tr("Set device %1").arg(f.key), [&](sim::Topology& t) {
        for (int d : vertices) {
            if (d >= t.deviceCount()) continue;  // switches have no such figures
            sim::ComputeDevice& c = t.devices[static_cast<size_t>(d)];
            if (f.device) c.*f.device = value;
            else c.node = static_cast<int>(value);
        }
    }, merge);
}

void TopologyEditorView::textEdited(const QString& key, const QString& text) {
    if (filling_) return;
    const std::string s = text.trimmed().toStdString();
    QLineEdit* e = field(key);
    QString why;
    if (s.empty()) why = tr("Must not be empty");
    else if (text.contains('{') || text.contains('}')) why = tr("'{' and '}' are reserved for file templates");
    const std::set<int> vertices = selectedVertices();
    if (why.isEmpty() && key == "name" && vertices.size() == 1 && doc_.findVertex(s) >= 0 &&
        doc_.findVertex(s) != *vertices.begin())
        why = tr("Another device or switch is named %1").arg(text.trimmed());
    markInvalid(e, why);
    if (!why.isEmpty()) return;
    const Typing typing(typing_, e);
    if (key == "name") {
        if (vertices.size() == 1) edit(tr("Rename a device"), [&](sim::Topology& t) { sim::renameVertex(t, *vertices.begin(), s); }, 20);
    } else if (key == "kind") {
        edit(tr("Set device kind"), [&](sim::Topology& t) {
            for (int d : vertices)
                if (d < t.deviceCount()) t.devices[static_cast<size_t>(d)].kind = s;
        }, 21);
    } else {
        const std::vector<int> ids = selectedLinks();
        edit(tr("Set link kind"), [&](sim::Topology& t) {
            const sim::Topology before = t;
            for (int l : ids) t.links[static_cast<size_t>(l)].kind = s;
            sim::refreshLinkNames(before, t);
        }, 22);
    }
}

void TopologyEditorView::endpointChosen(bool from, int vertex) {
    if (filling_ || vertex < 0) return;
    const std::set<int> rows = selectedLinkRows();
    edit(from ? tr("Set link source") : tr("Set link destination"), [&](sim::Topology& t) {
        const sim::Topology before = t;
        for (int r : rows) {
            const sim::LinkRow& row = rows_[static_cast<size_t>(r)];
            (from ? t.links[static_cast<size_t>(row.forward)].from : t.links[static_cast<size_t>(row.forward)].to) = vertex;
            if (row.duplex())
                (from ? t.links[static_cast<size_t>(row.reverse)].to : t.links[static_cast<size_t>(row.reverse)].from) = vertex;
        }
        sim::refreshLinkNames(before, t);
    });
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
