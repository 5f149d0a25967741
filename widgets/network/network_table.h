#pragma once
// The network as a table: every operator with its inputs and output shape, and for the weighted
// layers the partitioner sees their weights, MACs and tensor dimensions (D_i, D_o). A view over a
// ResultTableModel, sorted through its ResultSortModel; rows are named by operator index, whatever
// the sort. Its CSV is per weighted layer (documented columns), from a second model.
#include <QTableView>

#include "core/io/csv.h"
#include "core/run/run.h"

namespace partita {

class ResultTableModel;

class NetworkTable : public QTableView {
    Q_OBJECT
public:
    explicit NetworkTable(QWidget* parent = nullptr);
    void setInputs(const InputsPtr& inputs);  // one row per operator, in network order
    // The weighted layers (units in the header): the table's CSV export, csvFromModel(*layerModel()).
    CsvTable csv() const;

    int rowCount() const;                    // operators shown
    int currentOperator() const;             // -1: none
    void setCurrentOperator(int op);         // selects its row; emits operatorChosen
    ResultTableModel* operatorModel() const { return operators_; }
    ResultTableModel* layerModel() const { return layers_; }

signals:
    void operatorChosen(int op);  // the current row changed to operator `op`

private:
    ResultTableModel* operators_;
    ResultTableModel* layers_;
};

}  // namespace partita
