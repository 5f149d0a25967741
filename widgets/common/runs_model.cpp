#include "widgets/common/runs_model.h"

#include <cmath>
#include <optional>
#include <stdexcept>

#include <QDateTime>

#include "core/run/method_registry.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {


QString methodText(const std::string& key) {
    const MethodInfo* m = findMethod(key);
    return q(m ? m->label() : key);  // "HyPar", "Simulate", ...; "user", "explore"
}

// Stored times are UTC; the list shows the user's local time to the minute.
QString createdText(const std::string& utc) {
    const QDateTime t = QDateTime::fromString(q(utc), Qt::ISODate);
    return t.isValid() ? t.toLocalTime().toString("yyyy-MM-dd HH:mm") : q(utc);
}

QString shortHash(const std::string& hash) { return q(hash.substr(0, 12)); }

// A simulated run ran on its topology, not on the array its inputs carry.
QString arrayText(const RunSummary& s) { return q(s.topology_name.empty() ? s.array_name : s.topology_name); }
int devicesOf(const RunSummary& s) { return s.topology_name.empty() ? s.accelerators : s.devices; }

// A settings method's summary labels (what its reused columns mean), or none.
std::optional<SummaryLabels> labelsOf(const RunSummary& s) {
    const MethodInfo* method = findMethod(s.method);
    if (!method || !method->settings()) return std::nullopt;
    return method->settings()->summaryLabels();
}

QString tooltip(const RunSummary& s) {
    if (const auto labels = labelsOf(s))  // stored as settings: the figures are its own
        return QObject::tr("%1 (id %2)\nNetwork: %3, sha256 %4\nOn %5\n%6\nCreated %7 UTC by Partita %8")
            .arg(q(s.name))
            .arg(s.id)
            .arg(q(s.network_name), shortHash(s.network_hash), q(s.array_name),
                 q(labels->text(s.time_step_s, s.perf_vs_dp, s.total_elements, s.energy_j)), q(s.created_utc),
                 q(s.app_version));
    if (!s.topology_name.empty())
        return QObject::tr("%1 (id %2)\nNetwork: %3, sha256 %4\nTopology: %5, %6 devices\nBatch %7, makespan %8\n"
                           "Created %9 UTC by Partita %10")
            .arg(q(s.name))
            .arg(s.id)
            .arg(q(s.network_name), shortHash(s.network_hash), q(s.topology_name))
            .arg(s.devices)
            .arg(q(formatNumber(s.batch)), q(seconds(s.time_step_s)), q(s.created_utc), q(s.app_version));
    return QObject::tr("%1 (id %2)\nNetwork: %3, sha256 %4\nArray: %5, sha256 %6\nBatch %7, step time %8\n"
                       "Created %9 UTC by Partita %10")
        .arg(q(s.name))
        .arg(s.id)
        .arg(q(s.network_name), shortHash(s.network_hash), q(s.array_name), shortHash(s.array_hash),
             q(formatNumber(s.batch)), q(seconds(s.time_step_s)), q(s.created_utc), q(s.app_version));
}

}  // namespace

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsModel::setRuns(std::vector<RunSummary> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

int RunsModel::rowOf(std::int64_t id) const {
    for (size_t i = 0; i < runs_.size(); ++i)
        if (runs_[i].id == id) return static_cast<int>(i);
    return -1;
}

int RunsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const RunSummary& s = runs_[static_cast<size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
        case IdRole: return QVariant::fromValue<qint64>(s.id);
        case Qt::ToolTipRole: return tooltip(s);
        case Qt::TextAlignmentRole: {
            const bool numeric = column == Accelerators || column == TotalElements || column == PerfVsDp;
            return QVariant::fromValue(Qt::Alignment(numeric ? Qt::AlignRight | Qt::AlignVCenter
                                                            : Qt::AlignLeft | Qt::AlignVCenter));
        }
        case Qt::UserRole:  // the sort key
            switch (column) {
                case Name: return q(s.name).toLower();
                case Method: return methodText(s.method).toLower();
                case Kind: return QString(runKindName(s.kind));
                case Network: return q(s.network_name).toLower();
                case Array: return arrayText(s).toLower();
                case Accelerators: return devicesOf(s);
                case TotalElements: return s.total_elements;
                case PerfVsDp: return s.perf_vs_dp;
                case Created: return QVariant::fromValue<qlonglong>(s.id);  // ids grow with creation time
                case ColumnCount: break;
            }
            return {};
        case Qt::DisplayRole:
        case Qt::EditRole:
            switch (column) {
                case Name: return q(s.name);
                case Method: return methodText(s.method);
                case Kind: return QString(runKindName(s.kind));
                case Network: return q(s.network_name);
                case Array: return arrayText(s);
                case Accelerators: return devicesOf(s);
                case TotalElements:  // a simulated strategy without a grid has no analytic total
                    if (const auto labels = labelsOf(s)) return q(labels->traffic.value(s.total_elements));
                    return !s.topology_name.empty() && s.total_elements == 0 ? QStringLiteral("—")
                                                                            : q(withCommas(s.total_elements));
                case PerfVsDp:
                    if (const auto labels = labelsOf(s); labels && !labels->speedup.used()) return QString();
                    return std::isfinite(s.perf_vs_dp) && s.perf_vs_dp > 0 ? q(fixed(s.perf_vs_dp, 2)) + QChar(0x00D7)
                                                                            : QString();
                case Created: return createdText(s.created_utc);
                case ColumnCount: break;
            }
            return {};
        default: return {};
    }
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const titles[ColumnCount] = {"Name", "Method", "Kind", "Network", "Array",
                                                    "Accelerators", "Total (elements)", "Perf vs DP", "Created"};
    static const char* const tips[ColumnCount] = {
        "The run's name (F2 or click a selected name to rename)",
        "The search method or baseline that produced the grid",
        "search, evaluate, edited or explore",
        "The network's name",
        "The accelerator array's name (a simulated run: its topology's)",
        "Number of accelerators (2^levels; a simulated run: the topology's devices)",
        "Total communication of one training step, in tensor elements",
        "Speed-up over data parallelism: T_DP / T_run",
        "When the run was made (local time)"};
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(titles[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

Qt::ItemFlags RunsModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Name) f |= Qt::ItemIsEditable;
    return f;
}

bool RunsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.column() != Name || role != Qt::EditRole) return false;
    const QString name = value.toString().trimmed();
    const RunSummary& s = runs_[static_cast<size_t>(index.row())];
    if (name.isEmpty() || name == q(s.name)) return false;
    // The database is the source of truth: the app renames there and lists the runs again.
    emit renameRequested(s.id, name);
    return true;
}

}  // namespace partita
