#pragma once
// The parameters of each editor template (core/edit/templates.h) as form fields, like op_fields for
// operators: a value as text or a yes/no choice, and parsing text back with the reason it is not
// valid. Checks here are the ones a value has on its own (sizes within limits::kDimension); what
// depends on the graph (heads dividing the input's channels) is core's to refuse at insertion.
#include <functional>
#include <vector>

#include <QString>
#include <QStringList>

#include "core/edit/templates.h"

namespace partita {

struct TemplateField {
    QString key, label, tip;
    QStringList choices;  // a choice among these (a combo box), else free text
    std::function<QString(const edit::TemplateParams&)> text;
    // Sets the value in `params`; returns "" or why the text is not valid (params then unchanged).
    std::function<QString(const QString&, edit::TemplateParams&)> parse;
};

std::vector<TemplateField> templateFields(const edit::TemplateParams& params);  // in form order

}  // namespace partita
