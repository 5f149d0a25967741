#pragma once
// File ▸ New network: the name and the input shape (C×H×W per sample) of an empty graph.
#include <QDialog>

#include "core/model/network.h"

class QLineEdit;
class QSpinBox;

namespace partita::gui {

class NewNetworkDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewNetworkDialog(QWidget* parent = nullptr);
    QString name() const;
    Shape input() const;

private:
    QLineEdit* name_ = nullptr;
    QSpinBox *c_ = nullptr, *h_ = nullptr, *w_ = nullptr;
};

}  // namespace partita::gui
