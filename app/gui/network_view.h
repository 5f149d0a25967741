#pragma once
// The network tab: every operator with its shapes, and the weighted layers the
// partitioner sees (tensor dimensions, weights, MACs).
#include <QWidget>

#include "core/io/csv.h"
#include "core/run/run.h"

class QLabel;
class QTableWidget;

namespace partita::gui {

class NetworkView : public QWidget {
    Q_OBJECT
public:
    explicit NetworkView(QWidget* parent = nullptr);
    void setInputs(const InputsPtr& inputs);
    QTableWidget* table() const { return table_; }
    CsvTable csv() const;

private:
    QLabel* title_ = nullptr;
    QTableWidget* table_ = nullptr;
    InputsPtr inputs_;
};

}  // namespace partita::gui
