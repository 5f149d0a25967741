#pragma once
// What the user has selected, shared by the views (as KCachegrind's views share theirs): the grid's
// current cell (level, layer), an operator, a device or a link of the topology. A view sets it when
// the user picks something and follows its signals; views are never wired to each other in pairs.
// Every set is announced, even of the value already held: a view that moved on by itself (a new run
// resets the grid's cell) follows the next choice again. The `source` is the view that chose, so it
// is not told back what it already shows; loops end because views do not re-announce what they are told.
#include <QObject>

namespace partita {

class Selection : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    int level() const { return level_; }
    int layer() const { return layer_; }
    int op() const { return op_; }          // an operator id of the network, -1: none
    int device() const { return device_; }  // a device of the topology, -1: none
    int link() const { return link_; }      // a link of the topology, -1: none

    void setCell(int level, int layer, QObject* source = nullptr);
    void setOperator(int op, QObject* source = nullptr);
    // A device and a link exclude each other: choosing one clears the other.
    void setDevice(int device, QObject* source = nullptr);
    void setLink(int link, QObject* source = nullptr);

signals:
    void cellChanged(int level, int layer, QObject* source);
    void operatorChanged(int op, QObject* source);
    void deviceChanged(int device, QObject* source);
    void linkChanged(int link, QObject* source);

private:
    int level_ = -1, layer_ = -1, op_ = -1, device_ = -1, link_ = -1;
};

}  // namespace partita
