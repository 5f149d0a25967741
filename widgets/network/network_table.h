#pragma once
// The network as a table: every operator with its inputs and output shape, and for the weighted
// layers the partitioner sees their weights, MACs and tensor dimensions (D_i, D_o).
#include <QTableWidget>

#include "core/io/csv.h"
#include "core/run/run.h"

namespace partita {

class NetworkTable : public QTableWidget {
    Q_OBJECT
public:
    explicit NetworkTable(QWidget* parent = nullptr);
    void setInputs(const InputsPtr& inputs);  // one row per operator, in network order
    // The weighted layers (units in the header): the table's CSV export.
    CsvTable csv() const;

private:
    InputsPtr inputs_;
};

}  // namespace partita
