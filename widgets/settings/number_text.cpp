#include "widgets/settings/number_text.h"

#include <cmath>

#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>
#include <QObject>

#include "core/util/format.h"

namespace partita {

QString numberText(double value) {
    QString text = QString::fromStdString(compactNumber(value));  // a field: 3.2e9, not 3200000000
    text.replace("e+0", "e").replace("e+", "e").replace("e-0", "e-");
    return text;
}

QString parseNumber(const QString& text, bool allow_zero, double* value) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return QObject::tr("enter a number");
    bool ok = false;
    const double v = QLocale::c().toDouble(t, &ok);
    if (!ok) return QObject::tr("'%1' is not a number").arg(t);
    if (!std::isfinite(v)) return QObject::tr("must be a finite number");
    if (allow_zero && v < 0) return QObject::tr("must not be negative, got %1").arg(t);
    if (!allow_zero && !(v > 0)) return QObject::tr("must be greater than 0, got %1").arg(t);
    *value = v;
    return {};
}

QLineEdit* addNumberRow(QWidget* owner, QFormLayout* form, const QString& key, const QString& label, const QString& tip) {
    auto* edit = new QLineEdit(owner);
    edit->setObjectName(key);
    edit->setToolTip(tip);
    edit->setMinimumWidth(60);
    form->addRow(label, edit);
    return edit;
}

}  // namespace partita
