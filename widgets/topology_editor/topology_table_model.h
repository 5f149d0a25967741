#pragma once
// The topology editor's devices and links tables as item models over the view's document: each
// cell's formatted text (DisplayRole), its exact SI value (RawValueRole, result_table_model.h), the
// CSV names and texts csvFromModel writes, and editing through setData: a typed value is checked by
// the same rules as the property fields and applied as one undoable edit of the view, or refused
// with the reason (refused()). The models show the document the view holds; refresh() after it moved.
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "core/topology/edit.h"
#include "core/topology/topology.h"

namespace partita {

// How a number typed in a field or cell is checked.
enum class NumberRule { Positive, NonNegative, Fraction, Count };
// "" when `text` reads as a number that passes `rule` (then *value is set), else why not.
QString numberProblem(NumberRule rule, const QString& text, double* value);
// "" when `text` is a valid name or kind; for a name (`vertex` >= 0) also unique among the vertices.
QString textProblem(const sim::Topology& doc, const QString& text, int vertex = -1);

// A number of a device or a link, shown in `scale` units (TFLOP/s: 1e12), as a field and a column.
struct TopologyNumber {
    QString key;    // the property field's name: "peak", …, "node", "bandwidth", "latency"
    QString label;  // with its unit: "Peak TFLOP/s"
    std::string csv;  // the CSV column, SI units
    double scale = 1;
    NumberRule rule = NumberRule::Positive;
    double sim::ComputeDevice::*device = nullptr;  // a device's, or
    double sim::Link::*link = nullptr;             // a link's (neither: the device's node)
    QString tip;
    double get(const sim::Topology& t, int id) const;  // SI; id: device or link
};
const std::vector<TopologyNumber>& topologyNumbers();

// The edits the fields and the cells share.
void setNumber(sim::Topology& t, const TopologyNumber& n, const std::vector<int>& ids, double si);
void setDeviceKind(sim::Topology& t, const std::set<int>& vertices, const std::string& kind);
void setLinkKind(sim::Topology& t, const std::vector<int>& links, const std::string& kind);
// Moves one end of link-table rows `which` (both directions of a duplex row) to `vertex`.
void setEndpoint(sim::Topology& t, const std::vector<sim::LinkRow>& rows, const std::set<int>& which, bool from, int vertex);
std::vector<int> linkIds(const std::vector<sim::LinkRow>& rows, const std::set<int>& which);  // directed links

class TopologyTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // One undoable edit of the document (the view's edit()).
    using Edit = std::function<void(const QString& text, const std::function<void(sim::Topology&)>& change)>;
    struct Column {
        QString header;
        std::string csv;  // "": not exported
        bool number = false;
        QString tip;
    };

    void refresh();  // the document moved: its cells changed, or its rows were added or removed

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void refused(const QString& reason);  // a typed value that was not applied, and why

protected:
    struct Cell {
        QString text;      // shown
        QVariant raw;      // exact (SI) value; none: the text
        QVariant csv;      // CSV text when not the raw value
        QString edit;      // the text an editor starts from ("": not editable)
        bool centred = false;
    };
    TopologyTableModel(const sim::Topology& doc, std::vector<Column> columns, Edit edit, QObject* parent);
    virtual int rows() const = 0;
    virtual Cell cell(int row, int column) const = 0;
    // Applies `typed` to a cell through edit_: "" when applied (or unchanged), else why not.
    virtual QString apply(int row, int column, const QString& typed) = 0;
    const sim::Topology& doc_;
    Edit edit_;

private:
    std::vector<Column> columns_;
    int shown_ = 0;  // rows the views know of
};

// Devices, then switches (a row per vertex id): name, kind, the device numbers, node.
class TopologyDevicesModel : public TopologyTableModel {
    Q_OBJECT
public:
    TopologyDevicesModel(const sim::Topology& doc, Edit edit, QObject* parent = nullptr);

protected:
    int rows() const override;
    Cell cell(int row, int column) const override;
    QString apply(int row, int column, const QString& typed) override;
};

// A row per link-table row (a duplex cable is one): from, to, duplex, bandwidth, latency, kind.
class TopologyLinksModel : public TopologyTableModel {
    Q_OBJECT
public:
    TopologyLinksModel(const sim::Topology& doc, const std::vector<sim::LinkRow>& rows, Edit edit, QObject* parent = nullptr);

protected:
    int rows() const override;
    Cell cell(int row, int column) const override;
    QString apply(int row, int column, const QString& typed) override;

private:
    const std::vector<sim::LinkRow>& rows_;
};

}  // namespace partita
