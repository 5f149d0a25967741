#pragma once
// Every run parameter, editable and validated as typed: batch, levels,
// topology, mode (cal/lit), output size, bytes per element, accelerator
// throughput, link bandwidth, fat-tree factor, the energy constants, the
// optional SRAM term and AccPar's own settings. An array of accelerator groups
// (AccPar) is edited in a groups table instead of the HyPar-only fields.
// Invalid text turns the field red with a message and keeps the last valid value.
#include <functional>

#include <QMap>
#include <QVariant>
#include <QStringList>
#include <QWidget>

#include "core/accpar/hierarchy.h"
#include "core/cost/evaluate.h"
#include "core/model/array.h"
#include "core/settings/field.h"

class QLabel;
class QLineEdit;
class QComboBox;
class QSpinBox;
class QCheckBox;
class QFormLayout;

namespace partita {

class GroupsEditor;

class ParamsEditor : public QWidget {
    Q_OBJECT
public:
    explicit ParamsEditor(QWidget* parent = nullptr);

    void setValues(const Array& array, const CostParams& params);  // no changed() signal
    Array array() const;        // the array with every edited field applied (groups: deriveFromGroups() too)
    CostParams params() const;
    void setAccParValues(const AccParParams& p);  // no changed() signal
    // batch = params().batch; ratio model, balanced baselines and bytes per element from
    // the fields; comm, objective and allowed as last given (AccParParams defaults until then).
    AccParParams accparParams() const;
    // Simulate/MCMC: the groups only the analytic models read (accelerator energies, AccPar) are hidden.
    void setSimulationMode(bool on);
    bool valid() const;         // every field parses and is in range
    QString problem() const;    // the first invalid field's message, empty when valid

    // Tests type into fields by key: "batch", "levels", "topology", "mode", "out_size",
    // "bytes_per_element", "throughput_ops", "link_bps", "level_bw_factor", "e_mult_pj",
    // "e_add_pj", "e_dram_pj", "e_sram_pj", "e_link_pj_per_bit", "sram_energy", "ratio_model",
    // "balanced_baselines", "accpar_bytes_per_element"; "groups" is the groups' QTableView
    // (see GroupsEditor), shown only for an array with groups.
    QWidget* field(const QString& key) const;

signals:
    void changed();  // a valid edit by the user

private:
    // One table field (core/settings) shown by the editor: where its value lives and how it is checked.
    struct Binding {
        QWidget* widget = nullptr;
        std::function<double()> get;             // from array_ / params_ / accpar_
        std::function<void(double)> set;
        std::function<QString(double)> problem;  // numbers: the field's range
        bool allow_zero = false;
        bool accpar = false;                     // set by setAccParValues, not setValues
    };
    void remember(const QString& key, QWidget* widget, const QString& label, const QString& tip);  // by key
    QLineEdit* addNumber(QFormLayout* form, const QString& key, const QString& label, const QString& tip);
    QComboBox* addCombo(QFormLayout* form, const QString& key, const QString& label, const QString& tip,
                        const QList<QPair<QString, QVariant>>& items);
    // A row for the field: a number, a combo of its choices or a check box; key and label default to the table's.
    template <class S>
    void addField(QFormLayout* form, const Field<S>& f, S* target, const QString& key = {}, const QString& label = {});
    template <class S>
    void bind(const QString& key, QWidget* widget, const Field<S>& f, S* target);
    void showChoice(const Binding& b);  // a combo's or check box's state from the value
    void numberEdited(const QString& key);
    void choiceChanged();               // combos, spin box and check boxes -> array_ / params_ / accpar_
    void groupsEdited();                // the groups table -> array_
    void setGroupsMode(bool on);        // HyPar-only fields off (with the reason) while groups define the array
    bool grouped() const { return !array_.groups.empty(); }
    void setError(const QString& key, const QString& message);  // empty message clears
    void showProblems();

    Array base_;                        // as given to setValues (its name may be regenerated)
    Array array_;                       // last valid values
    CostParams params_;
    AccParParams accpar_;
    QMap<QString, QWidget*> fields_;
    QMap<QString, QString> labels_;     // key -> label used in messages
    QMap<QString, QString> tips_;       // key -> the parameter's explanation
    QMap<QString, QString> errors_;     // key -> reason, invalid fields only
    QStringList numbers_;               // numeric keys in form order
    QMap<QString, Binding> bindings_;   // editor key -> table field
    QStringList hypar_only_;            // fields of an array of identical accelerators (off with groups)
    QLabel* problem_ = nullptr;
    QLabel* accelerators_ = nullptr;    // "= 16 accelerators" next to the levels
    GroupsEditor* groups_ = nullptr;
    QList<QWidget*> analytic_only_;     // hidden in simulation mode
    bool loading_ = false;              // setValues in progress: no changed()
};

}  // namespace partita
