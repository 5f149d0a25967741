#pragma once
// Figure and table exports by target (each tab's, registered where it is built, e.g.
// plan_view_entries.cpp, and by the methods): to a .png/.svg/.pdf figure, a .csv table or a view's own format, with or without a dialog.
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>

class QWidget;

namespace partita::gui {

class ViewRegistry;
class WindowServices;

struct ExportChoice {
    QString target;  // ExportActions::write()'s name
    QString label;   // what the menu and the dialog say
};

class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(const ViewRegistry& views, WindowServices& services, QObject* parent = nullptr);
    QStringList targets() const;  // every target, in registration order
    std::vector<ExportChoice> of(const QWidget* tab) const;  // a tab's, its main figure first
    // Exports one target to `path` (its suffix says the format); an empty string or the problem.
    QString write(const QString& target, const QString& path) const;
    void withDialog(const ExportChoice& choice);  // asks where, appends the type's extension

private:
    const ViewRegistry& views_;
    WindowServices& services_;
};

}  // namespace partita::gui
