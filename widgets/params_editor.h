#pragma once
// Every run parameter, editable and validated as typed: batch, levels,
// topology, mode (cal/lit), output size, bytes per element, accelerator
// throughput, link bandwidth, fat-tree factor, the energy constants and the
// optional SRAM term. Invalid text turns the field red with a message and
// keeps the last valid value.
#include <QMap>
#include <QStringList>
#include <QWidget>

#include "core/cost/evaluate.h"
#include "core/model/array.h"

class QLabel;
class QLineEdit;
class QComboBox;
class QSpinBox;
class QCheckBox;
class QFormLayout;

namespace partita {

class ParamsEditor : public QWidget {
    Q_OBJECT
public:
    explicit ParamsEditor(QWidget* parent = nullptr);

    void setValues(const Array& array, const CostParams& params);  // no changed() signal
    Array array() const;        // the array with every edited field applied
    CostParams params() const;
    bool valid() const;         // every field parses and is in range
    QString problem() const;    // the first invalid field's message, empty when valid

    // Tests type into fields by key: "batch", "levels", "topology", "mode", "out_size",
    // "bytes_per_element", "throughput_ops", "link_bps", "level_bw_factor", "e_mult_pj",
    // "e_add_pj", "e_dram_pj", "e_sram_pj", "e_link_pj_per_bit", "sram_energy".
    QWidget* field(const QString& key) const;

signals:
    void changed();  // a valid edit by the user

private:
    QLineEdit* addNumber(QFormLayout* form, const QString& key, const QString& label, const QString& tip);
    double* slot(const QString& key);   // where a numeric field's value lives in array_ / params_
    void numberEdited(const QString& key);
    void choiceChanged();               // combos, spin box and check box -> array_ / params_
    void setError(const QString& key, const QString& message);  // empty message clears
    void showProblems();

    Array base_;                        // as given to setValues (its name may be regenerated)
    Array array_;                       // last valid values
    CostParams params_;
    QMap<QString, QWidget*> fields_;
    QMap<QString, QString> labels_;     // key -> label used in messages
    QMap<QString, QString> tips_;       // key -> the parameter's explanation
    QMap<QString, QString> errors_;     // key -> reason, invalid fields only
    QStringList numbers_;               // numeric keys in form order
    QLabel* problem_ = nullptr;
    QLabel* accelerators_ = nullptr;    // "= 16 accelerators" next to the levels
    bool loading_ = false;              // setValues in progress: no changed()
};

}  // namespace partita
