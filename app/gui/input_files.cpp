#include "app/gui/input_files.h"
#include "core/io/network_io.h"
#include "core/topology/import.h"
#include "core/util/data_dir.h"
#include "core/util/input_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace partita::gui {

FileKind fileKindOf(const QString& path) {
    if (!notARegularFile(path.toStdString()).empty()) return FileKind::Unknown;  // opening a FIFO would block
    if (QFileInfo(path).suffix().compare("txt", Qt::CaseInsensitive) == 0) return FileKind::Network;
    if (detectNetworkFormat(path.toStdString()) == NetworkFormat::Onnx) return FileKind::Network;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return FileKind::Unknown;
    const QByteArray text = file.readAll();
    if (sim::isImportedTopology(text.toStdString(), path.toStdString())) return FileKind::Topology;  // ASTRA-sim, Calculon
    const QString format = QJsonDocument::fromJson(text).object().value("format").toString();
    if (format.startsWith("partita-network/")) return FileKind::Network;
    if (format.startsWith("partita-array/")) return FileKind::Array;
    if (format.startsWith("partita-strategy/")) return FileKind::Strategy;
    if (format.startsWith("partita-topology/")) return FileKind::Topology;
    if (format.startsWith("partita-soap/")) return FileKind::SoapStrategy;
    return FileKind::Unknown;
}

QString examplesDir() {
    return QString::fromStdString(partita::examplesDir());
}

namespace {
QStringList jsonFilesIn(const QString& folder) {
    QStringList out;
    const QDir dir(examplesDir() + "/" + folder);
    for (const QString& name : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        out << QFileInfo(dir.filePath(name)).absoluteFilePath();
    return out;
}
}  // namespace

QStringList builtInNetworks() { return jsonFilesIn("networks"); }
QStringList builtInArrays() { return jsonFilesIn("arrays"); }

}  // namespace partita::gui
