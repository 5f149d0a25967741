#pragma once
// The network editor's properties: the selected operator's name and parameters (op_fields), or,
// with nothing selected, the network's name, description and input shape. Checked as typed like the
// other editors (widgets/settings): invalid text turns the field red with the reason in its tooltip
// and below the form, and the last valid value stays in force; a valid edit is signalled at once.
// A template chosen in the palette shows its parameters here, for the next insertion.
#include <functional>
#include <vector>

#include <QMap>
#include <QWidget>

#include "core/edit/document.h"
#include "widgets/network_editor/op_fields.h"
#include "widgets/network_editor/template_fields.h"

class QFormLayout;
class QLabel;

namespace partita {

class PropertiesPanel : public QWidget {
    Q_OBJECT
public:
    explicit PropertiesPanel(QWidget* parent = nullptr);

    // `taken` says whether another node already has a name. Showing the node already shown keeps
    // the form (and the field being typed in); its other fields follow the operator.
    void showNode(edit::NodeId id, const Operator& op, std::function<bool(const std::string&)> taken);
    void showHeader(const edit::Header& header);
    void showNote(const QString& text);  // several nodes selected
    // A template's parameters (`label` its palette name); Reset returns them to `defaults`.
    void showTemplate(const QString& key, const QString& label, const edit::TemplateParams& params,
                      const edit::TemplateParams& defaults);
    QString shownTemplate() const { return mode_ == Mode::Template ? template_key_ : QString(); }

    QWidget* field(const QString& key) const { return fields_.value(key); }  // tests type into these
    QString problem() const;  // the first invalid field's reason, "" when all are valid
    void editName();          // focus the name field, its text selected (F2)

signals:
    void operatorEdited(edit::NodeId id, const Operator& op, const QString& key);
    void headerEdited(const edit::Header& header, const QString& key);
    void templateEdited(const QString& key, const edit::TemplateParams& params);

private:
    enum class Mode { None, Node, Header, Note, Template };
    void clearForm();
    QWidget* addField(const QString& key, const QString& label, const QString& tip, const QStringList& choices);
    void edited(const QString& key, const QString& text);
    void setError(const QString& key, const QString& reason);
    void refresh();  // every field without focus or error shows the current value

    Mode mode_ = Mode::None;
    edit::NodeId id_ = 0;
    Operator op_;           // last valid
    edit::Header header_;   // last valid
    std::function<bool(const std::string&)> taken_;
    std::vector<OpField> specs_;
    QString template_key_;
    edit::TemplateParams template_, template_defaults_;  // last valid, and what Reset restores
    std::vector<TemplateField> template_specs_;
    QMap<QString, QWidget*> fields_;
    QMap<QString, QString> tips_, labels_, errors_;
    QLabel* title_ = nullptr;
    QFormLayout* form_ = nullptr;
    QLabel* problem_ = nullptr;
    bool loading_ = false;
};

}  // namespace partita
