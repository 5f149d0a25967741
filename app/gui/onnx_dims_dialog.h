#pragma once
// Asks, once per ONNX file, for the sizes of its graph inputs' dynamic and symbolic
// dimensions: one row per input with its declared dims and a field prefilled with the
// importer's suggestion (or what the user chose last time for this file, kept in QSettings).
#include <QDialog>
#include <QString>

#include "core/onnx/import.h"

class QLineEdit;
class QLabel;

namespace partita::gui {

class OnnxDimsDialog : public QDialog {
    Q_OBJECT
public:
    // Throws InputError for a file whose inputs cannot be read.
    OnnxDimsDialog(const QString& path, QWidget* parent = nullptr);
    // The fields' values; false (and `problem`) when one is not a list of positive integers.
    bool dims(onnx::InputDims* out, QString* problem) const;

    // What this file used last time, else the importer's suggestion; the choice is remembered.
    static onnx::InputDims remembered(const QString& path);
    static onnx::InputDims remembered(const QString& path, const std::vector<onnx::GraphInput>& inputs);
    static void remember(const QString& path, const onnx::InputDims& dims);

private:
    QString path_;
    std::vector<onnx::GraphInput> inputs_;
    std::vector<QLineEdit*> fields_;
    QLabel* problem_ = nullptr;
};

}  // namespace partita::gui
