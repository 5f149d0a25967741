#include "widgets/topology_editor/topology_table_model.h"

#include <cmath>

#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"

namespace partita {

namespace {

QString shown(double v) { return QString::number(v, 'g', 6); }      // the tables: six digits
QString editable(double v) { return QString::number(v, 'g', 12); }  // what an editor starts from: every digit

// The device numbers (then the link numbers) in topologyNumbers() order.
std::vector<const TopologyNumber*> numbersOf(bool links) {
    std::vector<const TopologyNumber*> out;
    for (const TopologyNumber& n : topologyNumbers())
        if ((n.link != nullptr) == links) out.push_back(&n);
    return out;
}

}  // namespace

QString numberProblem(NumberRule rule, const QString& text, double* value) {
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) return QObject::tr("Not a number");
    if (rule == NumberRule::Positive && !(v > 0)) return QObject::tr("Must be positive");
    if (rule == NumberRule::NonNegative && v < 0) return QObject::tr("Must not be negative");
    if (rule == NumberRule::Fraction && !(v > 0 && v <= 1)) return QObject::tr("Must be above 0 and at most 1");
    if (rule == NumberRule::Count && (v < 0 || v != std::floor(v) || v > 1e9)) return QObject::tr("Must be a whole number ≥ 0");
    *value = v;
    return {};
}

QString textProblem(const sim::Topology& doc, const QString& text, int vertex) {
    const std::string s = text.trimmed().toStdString();
    if (s.empty()) return QObject::tr("Must not be empty");
    if (text.contains('{') || text.contains('}')) return QObject::tr("'{' and '}' are reserved for file templates");
    if (vertex >= 0 && doc.findVertex(s) >= 0 && doc.findVertex(s) != vertex)
        return QObject::tr("Another device or switch is named %1").arg(text.trimmed());
    return {};
}

double TopologyNumber::get(const sim::Topology& t, int id) const {
    if (link) return t.links[static_cast<size_t>(id)].*link;
    const sim::ComputeDevice& d = t.devices[static_cast<size_t>(id)];
    return device ? d.*device : d.node;
}

const std::vector<TopologyNumber>& topologyNumbers() {
    using CD = sim::ComputeDevice;
    using R = NumberRule;
    static const std::vector<TopologyNumber> numbers{
        {"peak", QObject::tr("Peak TFLOP/s"), "peak_flops", 1e12, R::Positive, &CD::peak_flops, nullptr, QObject::tr("Peak throughput, > 0")},
        {"membw", QObject::tr("Memory GB/s"), "mem_bandwidth_Bps", 1e9, R::Positive, &CD::mem_bandwidth_Bps, nullptr,
         QObject::tr("Memory bandwidth, > 0")},
        {"memcap", QObject::tr("Memory GB"), "mem_capacity_B", 1e9, R::NonNegative, &CD::mem_capacity_B, nullptr,
         QObject::tr("Memory capacity, ≥ 0")},
        {"efficiency", QObject::tr("Efficiency"), "efficiency", 1, R::Fraction, &CD::efficiency, nullptr,
         QObject::tr("Fraction of peak a kernel reaches, in (0, 1]")},
        {"overhead", QObject::tr("Overhead µs"), "task_overhead_s", 1e-6, R::NonNegative, &CD::task_overhead_s, nullptr,
         QObject::tr("Time added to every compute task (kernel launch), ≥ 0")},
        {"node", QObject::tr("Node"), "node", 1, R::Count, nullptr, nullptr, QObject::tr("The machine the device sits in, an integer ≥ 0")},
        {"bandwidth", QObject::tr("Bandwidth GB/s"), "bandwidth_Bps", 1e9, R::Positive, nullptr, &sim::Link::bandwidth_Bps,
         QObject::tr("Per direction, > 0")},
        {"latency", QObject::tr("Latency µs"), "latency_s", 1e-6, R::NonNegative, nullptr, &sim::Link::latency_s,
         QObject::tr("Per transfer, ≥ 0")}};
    return numbers;
}

void setNumber(sim::Topology& t, const TopologyNumber& n, const std::vector<int>& ids, double si) {
    for (int id : ids) {
        if (n.link) {
            t.links[static_cast<size_t>(id)].*n.link = si;
            continue;
        }
        if (id >= t.deviceCount()) continue;  // switches have no such figures
        sim::ComputeDevice& d = t.devices[static_cast<size_t>(id)];
        if (n.device) d.*n.device = si;
        else d.node = static_cast<int>(si);
    }
}

void setDeviceKind(sim::Topology& t, const std::set<int>& vertices, const std::string& kind) {
    for (int d : vertices)
        if (d < t.deviceCount()) t.devices[static_cast<size_t>(d)].kind = kind;
}

void setLinkKind(sim::Topology& t, const std::vector<int>& links, const std::string& kind) {
    const sim::Topology before = t;
    for (int l : links) t.links[static_cast<size_t>(l)].kind = kind;
    sim::refreshLinkNames(before, t);
}

void setEndpoint(sim::Topology& t, const std::vector<sim::LinkRow>& rows, const std::set<int>& which, bool from, int vertex) {
    const sim::Topology before = t;
    for (int r : which) {
        const sim::LinkRow& row = rows[static_cast<size_t>(r)];
        (from ? t.links[static_cast<size_t>(row.forward)].from : t.links[static_cast<size_t>(row.forward)].to) = vertex;
        if (row.duplex()) (from ? t.links[static_cast<size_t>(row.reverse)].to : t.links[static_cast<size_t>(row.reverse)].from) = vertex;
    }
    sim::refreshLinkNames(before, t);
}

std::vector<int> linkIds(const std::vector<sim::LinkRow>& rows, const std::set<int>& which) {
    std::vector<int> ids;
    for (int r : which) {
        ids.push_back(rows[static_cast<size_t>(r)].forward);
        if (rows[static_cast<size_t>(r)].duplex()) ids.push_back(rows[static_cast<size_t>(r)].reverse);
    }
    return ids;
}

// The base: roles, flags and setData over the subclasses' cells.

TopologyTableModel::TopologyTableModel(const sim::Topology& doc, std::vector<Column> columns, Edit edit, QObject* parent)
    : QAbstractTableModel(parent), doc_(doc), edit_(std::move(edit)), columns_(std::move(columns)) {}

void TopologyTableModel::refresh() {
    if (rows() == shown_) {
        if (shown_ > 0) emit dataChanged(index(0, 0), index(shown_ - 1, columnCount() - 1));
        return;
    }
    beginResetModel();
    shown_ = rows();
    endResetModel();
}

int TopologyTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : shown_; }

int TopologyTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant TopologyTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::ParentIsInvalid) || index.row() >= rows()) return {};
    const Column& column = columns_[static_cast<size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole: return cell(index.row(), index.column()).text;
    case Qt::EditRole: return cell(index.row(), index.column()).edit;
    case RawValueRole: return cell(index.row(), index.column()).raw;
    case CsvTextRole: return cell(index.row(), index.column()).csv;
    case Qt::ToolTipRole: return column.tip.isEmpty() ? QVariant() : QVariant(column.tip);
    case Qt::TextAlignmentRole:
        if (cell(index.row(), index.column()).centred) return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
        return column.number ? QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    default: return {};
    }
}

QVariant TopologyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    const Column& column = columns_[static_cast<size_t>(section)];
    if (role == Qt::DisplayRole) return column.header;
    if (role == Qt::ToolTipRole && !column.tip.isEmpty()) return column.tip;
    if (role == CsvTextRole && !column.csv.empty()) return QString::fromStdString(column.csv);
    return {};
}

Qt::ItemFlags TopologyTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::ParentIsInvalid)) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.row() < rows() && !cell(index.row(), index.column()).edit.isEmpty()) f |= Qt::ItemIsEditable;
    return f;
}

bool TopologyTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable)) return false;
    const QString why = apply(index.row(), index.column(), value.toString());
    if (why.isEmpty()) return true;
    emit refused(tr("%1 of row %2: %3").arg(columns_[static_cast<size_t>(index.column())].header).arg(index.row() + 1).arg(why));
    return false;
}

// Devices.

namespace {
std::vector<TopologyTableModel::Column> deviceColumns() {
    std::vector<TopologyTableModel::Column> c{{QObject::tr("Name"), "name", false, QObject::tr("A unique name")},
                                              {QObject::tr("Kind"), "kind", false, QObject::tr("What the views colour devices by")}};
    for (const TopologyNumber* n : numbersOf(false)) c.push_back({n->label, n->csv, true, n->tip});
    return c;
}

std::vector<TopologyTableModel::Column> linkColumns() {
    std::vector<TopologyTableModel::Column> c{{QObject::tr("From"), "from", false, QObject::tr("A device or switch by name")},
                                              {QObject::tr("To"), "to", false, QObject::tr("A device or switch by name")},
                                              {QObject::tr("Duplex"), "duplex", false, QObject::tr("⇄ both directions, → one way")}};
    for (const TopologyNumber* n : numbersOf(true)) c.push_back({n->label, n->csv, true, n->tip});
    c.push_back({QObject::tr("Kind"), "kind", false, QObject::tr("nvlink, pcie, infiniband, …")});
    return c;
}
}  // namespace

TopologyDevicesModel::TopologyDevicesModel(const sim::Topology& doc, Edit edit, QObject* parent)
    : TopologyTableModel(doc, deviceColumns(), std::move(edit), parent) {
    refresh();
}

int TopologyDevicesModel::rows() const { return doc_.vertexCount(); }

TopologyTableModel::Cell TopologyDevicesModel::cell(int row, int column) const {
    const bool device = row < doc_.deviceCount();
    if (column == 0) {
        const QString name = q(doc_.vertexName(row));
        return {name, name, {}, name};
    }
    if (column == 1) {
        const QString kind = device ? q(doc_.devices[static_cast<size_t>(row)].kind) : tr("switch");
        return {kind, kind, {}, device ? kind : QString()};
    }
    if (!device) return {"—", {}, QString(), {}};  // a switch has no such figure
    const TopologyNumber& n = *numbersOf(false)[static_cast<size_t>(column - 2)];
    const double si = n.get(doc_, row);
    if (!n.device) return {QString::number(static_cast<qint64>(si)), qint64(si), {}, QString::number(static_cast<qint64>(si))};
    return {shown(si / n.scale), si, {}, editable(si / n.scale)};
}

QString TopologyDevicesModel::apply(int row, int column, const QString& typed) {
    if (column == 0) {
        if (QString why = textProblem(doc_, typed, row); !why.isEmpty()) return why;
        const std::string name = typed.trimmed().toStdString();
        edit_(tr("Rename a device"), [&](sim::Topology& t) { sim::renameVertex(t, row, name); });
        return {};
    }
    if (column == 1) {
        if (QString why = textProblem(doc_, typed); !why.isEmpty()) return why;
        const std::string kind = typed.trimmed().toStdString();
        edit_(tr("Set device kind"), [&](sim::Topology& t) { setDeviceKind(t, {row}, kind); });
        return {};
    }
    const TopologyNumber& n = *numbersOf(false)[static_cast<size_t>(column - 2)];
    double v = 0;
    if (QString why = numberProblem(n.rule, typed, &v); !why.isEmpty()) return why;
    edit_(tr("Set device %1").arg(n.key), [&](sim::Topology& t) { setNumber(t, n, {row}, v * n.scale); });
    return {};
}

// Links.

TopologyLinksModel::TopologyLinksModel(const sim::Topology& doc, const std::vector<sim::LinkRow>& rows, Edit edit, QObject* parent)
    : TopologyTableModel(doc, linkColumns(), std::move(edit), parent), rows_(rows) {
    refresh();
}

int TopologyLinksModel::rows() const { return static_cast<int>(rows_.size()); }

TopologyTableModel::Cell TopologyLinksModel::cell(int row, int column) const {
    const sim::LinkRow& r = rows_[static_cast<size_t>(row)];
    const sim::Link& l = doc_.links[static_cast<size_t>(r.forward)];
    const auto vertex = [this](int v) { return v >= 0 && v < doc_.vertexCount() ? q(doc_.vertexName(v)) : tr("(unknown %1)").arg(v); };
    switch (column) {
    case 0: return {vertex(l.from), vertex(l.from), {}, vertex(l.from)};
    case 1: return {vertex(l.to), vertex(l.to), {}, vertex(l.to)};
    case 2: return {r.duplex() ? "⇄" : "→", r.duplex() ? "duplex" : "one way", {}, {}, true};
    case 5: return {q(l.kind), q(l.kind), {}, q(l.kind)};
    default: {
        const TopologyNumber& n = *numbersOf(true)[static_cast<size_t>(column - 3)];
        const double si = n.get(doc_, r.forward);
        return {shown(si / n.scale), si, {}, editable(si / n.scale)};
    }
    }
}

QString TopologyLinksModel::apply(int row, int column, const QString& typed) {
    const std::vector<int> ids = linkIds(rows_, {row});
    if (column == 0 || column == 1) {
        const int v = doc_.findVertex(typed.trimmed().toStdString());
        if (v < 0) return tr("No device or switch is named %1").arg(typed.trimmed());
        edit_(column == 0 ? tr("Set link source") : tr("Set link destination"),
              [&](sim::Topology& t) { setEndpoint(t, rows_, {row}, column == 0, v); });
        return {};
    }
    if (column == 5) {
        if (QString why = textProblem(doc_, typed); !why.isEmpty()) return why;
        const std::string kind = typed.trimmed().toStdString();
        edit_(tr("Set link kind"), [&](sim::Topology& t) { setLinkKind(t, ids, kind); });
        return {};
    }
    const TopologyNumber& n = *numbersOf(true)[static_cast<size_t>(column - 3)];
    double v = 0;
    if (QString why = numberProblem(n.rule, typed, &v); !why.isEmpty()) return why;
    edit_(tr("Set link %1").arg(n.key), [&](sim::Topology& t) { setNumber(t, n, ids, v * n.scale); });
    return {};
}

}  // namespace partita
