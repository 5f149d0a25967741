#pragma once
// File ▸ Generate topology…: the generators of `partita-cli topology generate` (core/topology/generate.h)
// with the CLI's defaults and limits, checked as typed, and a live summary of the result.
#include <QDialog>
#include <optional>

#include "core/topology/topology.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace partita::gui {

class TopologyGenerateDialog : public QDialog {
    Q_OBJECT
public:
    explicit TopologyGenerateDialog(QWidget* parent = nullptr);
    // The topology the fields describe, generated now if the summary left it for OK (very large
    // graphs); nullopt with problem() set when a field is invalid or core refuses.
    std::optional<sim::Topology> topology();
    QString problem() const { return problem_; }
    QString summary() const;
    bool saveTo(const QString& path, QString* error = nullptr);  // partita-topology/1

private:
    void refresh();  // rows of the shape, field checks, summary, OK
    void save();
    void setError(QLineEdit* edit, const QString& message);
    std::optional<sim::Topology> build(QString* problem) const;
    double estimatedLinks() const;

    QFormLayout* form_ = nullptr;
    QComboBox *shape_ = nullptr, *device_ = nullptr, *intra_ = nullptr, *array_shape_ = nullptr;
    // Alike accelerators (levels and shape), or a partita-array/1 file: AccPar's heterogeneous groups.
    QComboBox* array_file_ = nullptr;
    QLineEdit *devices_ = nullptr, *dims_ = nullptr, *bandwidth_ = nullptr, *latency_ = nullptr, *nodes_ = nullptr,
              *gpus_ = nullptr, *network_bw_ = nullptr, *network_latency_ = nullptr, *levels_ = nullptr, *name_ = nullptr;
    QLabel *summary_ = nullptr, *problem_label_ = nullptr;
    QPushButton *ok_ = nullptr, *save_ = nullptr;
    std::optional<sim::Topology> topology_;  // generated for the summary when cheap
    QString problem_;
};

}  // namespace partita::gui
