#pragma once
// The Topology tab: the view under a one-line bar that chooses what colours it (device and link
// kind, or after a simulated run its utilisation or bytes moved; the C key cycles the same).
#include <QWidget>

class QComboBox;
class QLabel;

namespace partita {

class TopologyView;

class TopologyPanel : public QWidget {
    Q_OBJECT
public:
    explicit TopologyPanel(QWidget* parent = nullptr);
    TopologyView* view() const { return view_; }
    QComboBox* colouringBox() const { return colouring_; }

private:
    void sync();  // the box follows what the view shows; load choices need a run

    TopologyView* view_;
    QComboBox* colouring_;
    QLabel* hint_;
};

}  // namespace partita
