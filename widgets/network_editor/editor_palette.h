#pragma once
// The network editor's palette: every native operator kind and the templates, each with what it is
// in its tooltip. Double-click one to add it, or drag it onto the canvas (EditorCanvas::kMime carries
// its key: an op kind's file name, "conv", or "template:<name>").
#include <vector>

#include <QTreeWidget>

namespace partita {

struct PaletteEntry {
    QString key, label, tip;
};

class EditorPalette : public QTreeWidget {
    Q_OBJECT
public:
    explicit EditorPalette(QWidget* parent = nullptr);
    void setTemplates(const std::vector<PaletteEntry>& templates);
    QTreeWidgetItem* itemOf(const QString& key) const;  // tests double-click it
    QSize sizeHint() const override { return {175, 300}; }

signals:
    void chosen(const QString& key);  // double-clicked
    void picked(const QString& key);  // clicked or made current

protected:
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;

private:
    QTreeWidgetItem* ops_ = nullptr;
    QTreeWidgetItem* templates_ = nullptr;
};

}  // namespace partita
