#pragma once
// Asks, once per ONNX file, for the sizes the model leaves open: one row per graph input with a
// dynamic or symbolic dimension (or no declared shape), showing its declared dims, with a field
// prefilled with the importer's suggestion (or what the user chose last time for this file, kept in
// QSettings). Inputs the model fixes, scalars included, have nothing to ask and are only listed.
// The window shows it after the model is parsed and its operators checked, and only when asks().
#include <vector>

#include <QDialog>
#include <QString>

#include "core/onnx/import.h"

class QLineEdit;
class QLabel;

namespace partita::gui {

class OnnxDimsDialog : public QDialog {
    Q_OBJECT
public:
    OnnxDimsDialog(const QString& path, std::vector<onnx::GraphInput> inputs, QWidget* parent = nullptr);
    // The fields' values; false (and `problem`) when one is not a list of positive integers of the input's rank.
    bool dims(onnx::InputDims* out, QString* problem) const;

    // Whether a model with these inputs leaves any size open.
    static bool asks(const std::vector<onnx::GraphInput>& inputs);
    // The inputs with open sizes: what this file used last time, else the importer's suggestion.
    static onnx::InputDims remembered(const QString& path, const std::vector<onnx::GraphInput>& inputs);
    static bool isRemembered(const QString& path);
    static void remember(const QString& path, const onnx::InputDims& dims);

private:
    QString path_;
    std::vector<onnx::GraphInput> open_;  // the inputs asked for, one field each
    std::vector<QLineEdit*> fields_;
    QLabel* problem_ = nullptr;
};

}  // namespace partita::gui
