#include "app/gui/topology_generate_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <cmath>

#include "app/gui/input_files.h"
#include "core/io/array_io.h"
#include "core/model/array.h"
#include "core/topology/generate.h"
#include "core/topology/levels.h"

namespace partita::gui {

namespace {

enum Shape { Ring, Switch, FullyConnected, Torus, Mesh, Cluster, ArrayShape };

// The CLI's limit on every size (and on the devices in all, which core checks).
constexpr std::int64_t kMaxSize = sim::kImportDevices;

// An integer in lo..hi, or the reason it is not.
QString integerIn(const QString& text, std::int64_t lo, std::int64_t hi, std::int64_t* out) {
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    if (!ok) return QObject::tr("'%1' is not a whole number").arg(text.trimmed());
    if (v < lo || v > hi) return QObject::tr("must be from %1 to %2").arg(lo).arg(hi);
    *out = v;
    return {};
}

// A number in [lo, hi] (lo excluded when `positive`), or the reason it is not.
QString numberIn(const QString& text, double lo, double hi, bool positive, double* out) {
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) return QObject::tr("'%1' is not a number").arg(text.trimmed());
    if (positive ? !(v > lo) : v < lo) return positive ? QObject::tr("must be positive") : QObject::tr("must not be negative");
    if (v > hi) return QObject::tr("must be at most %1").arg(hi);
    *out = v;
    return {};
}

// "4x4" or "4x4x2": two or three sizes, as --dims.
QString parseDims(const QString& text, std::vector<std::int64_t>* dims) {
    dims->clear();
    for (const QString& part : text.trimmed().split('x')) {
        std::int64_t v = 0;
        if (!integerIn(part, 1, kMaxSize, &v).isEmpty())
            return QObject::tr("expected sizes such as 4x4 or 4x4x2 (each 1..%1)").arg(kMaxSize);
        dims->push_back(v);
    }
    if (dims->size() < 2 || dims->size() > 3) return QObject::tr("a torus or mesh has 2 or 3 dimensions");
    return {};
}

}  // namespace

TopologyGenerateDialog::TopologyGenerateDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Generate topology"));
    setMinimumWidth(460);
    form_ = new QFormLayout(this);
    shape_ = new QComboBox(this);
    shape_->setObjectName("gen-shape");
    shape_->addItems({tr("Ring"), tr("Switch"), tr("Fully connected"), tr("Torus (2-D or 3-D)"), tr("Mesh (2-D or 3-D)"),
                      tr("Cluster (N nodes × M GPUs)"), tr("HyPar/AccPar array")});
    form_->addRow(tr("Shape"), shape_);
    const auto line = [this](const QString& key, const QString& label, const QString& value, const QString& tip) {
        auto* edit = new QLineEdit(value, this);
        edit->setObjectName(key);
        edit->setToolTip(tip);
        form_->addRow(label, edit);
        connect(edit, &QLineEdit::textChanged, this, &TopologyGenerateDialog::refresh);
        return edit;
    };
    const auto combo = [this](const QString& key, const QString& label, const QStringList& items) {
        auto* box = new QComboBox(this);
        box->setObjectName(key);
        box->addItems(items);
        form_->addRow(label, box);
        connect(box, &QComboBox::currentIndexChanged, this, &TopologyGenerateDialog::refresh);
        return box;
    };
    // Defaults as partita-cli topology generate's.
    devices_ = line("gen-devices", tr("Devices"), "8", tr("Devices in the ring, switch or full mesh (1..%1)").arg(kMaxSize));
    dims_ = line("gen-dims", tr("Sizes"), "4x4", tr("Devices per dimension, innermost first: 4x4 or 4x4x2"));
    bandwidth_ = line("gen-bandwidth", tr("Link bandwidth (GB/s)"), "100", tr("Per link and direction"));
    latency_ = line("gen-latency", tr("Link latency (ns)"), "0", tr("Per transfer, 0..1e9 ns"));
    device_ = combo("gen-device", tr("Device"), {"npu", "p100", "k80", "a100", "h100"});
    nodes_ = line("gen-nodes", tr("Nodes"), "4", tr("Machines joined by one network switch"));
    gpus_ = line("gen-gpus", tr("GPUs per node"), "4", tr("GPUs in each machine"));
    // In ClusterSpec::Intra's order.
    intra_ = combo("gen-intra", tr("Inside a node"),
                   {tr("NVLink between every pair"), tr("PCIe switches per GPU pair"), tr("NVSwitch, a NIC per GPU")});
    network_bw_ = line("gen-network-bandwidth", tr("Network (GB/s)"), "", tr("Per host link and direction; empty: the preset's"));
    network_latency_ = line("gen-network-latency", tr("Network latency (ns)"), "", tr("Empty: the preset's (500 ns)"));
    array_file_ = combo("gen-array-file", tr("Accelerators"), {tr("2^levels alike (HMC)")});
    array_file_->setToolTip(tr("Alike accelerators, or an array file's: its levels, shape and accelerator groups "
                               "(heterogeneous mixes such as 64 TPU-v3 + 64 TPU-v2)"));
    for (const QFileInfo& f : QDir(examplesDir() + "/arrays").entryInfoList({"*.json"}, QDir::Files, QDir::Name))
        array_file_->addItem(f.fileName(), f.absoluteFilePath());
    array_file_->addItem(tr("Other file…"));
    connect(array_file_, &QComboBox::activated, this, [this](int index) {
        if (index != array_file_->count() - 1) return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Array file"), examplesDir() + "/arrays",
                                                          tr("Partita arrays (*.json)"));
        if (path.isEmpty()) return array_file_->setCurrentIndex(0);
        array_file_->insertItem(index, QFileInfo(path).fileName(), path);
        array_file_->setCurrentIndex(index);
    });
    levels_ = line("gen-levels", tr("Levels"), "4", tr("Array levels: 2^levels accelerators (1..%1)").arg(Array::kMaxLevels));
    array_shape_ = combo("gen-array-shape", tr("Array shape"), {tr("H-tree"), tr("Torus")});
    name_ = line("gen-name", tr("Name"), "", tr("Empty: a name from the shape and sizes, as the CLI gives"));
    name_->setPlaceholderText(tr("from the shape and sizes"));
    summary_ = new QLabel(this);
    summary_->setObjectName("gen-summary");
    summary_->setWordWrap(true);  // a cluster's name is long: the dialog keeps its width
    form_->addRow(summary_);
    problem_label_ = new QLabel(this);
    problem_label_->setObjectName("gen-problem");
    problem_label_->setStyleSheet("color: #b00020;");
    problem_label_->setWordWrap(true);
    form_->addRow(problem_label_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setText(tr("Use"));
    ok_->setToolTip(tr("Generate and choose it for Simulate and MCMC"));
    save_ = buttons->addButton(tr("Save…"), QDialogButtonBox::ActionRole);
    save_->setObjectName("gen-save");
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (topology()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save_, &QPushButton::clicked, this, &TopologyGenerateDialog::save);
    form_->addRow(buttons);
    connect(shape_, &QComboBox::currentIndexChanged, this, [this](int shape) {
        if (shape == Cluster && device_->currentText() == "npu") device_->setCurrentText("p100");  // the CLI's default
        refresh();
    });
    // As the CLI: each device's nodes (K80 paired PCIe switches, P100 NVLink, A100 and H100 DGX-style).
    connect(device_, &QComboBox::activated, this, [this] {
        const sim::ClusterSpec s = sim::clusterSpecFor(device_->currentText().toStdString());
        intra_->setCurrentIndex(static_cast<int>(s.intra));
        gpus_->setText(QString::number(s.gpus));
    });
    device_->setToolTip(tr("npu: ASTRA-sim's default device; p100, k80: the cluster presets' GPUs; a100, h100: DGX nodes"));
    refresh();
}

void TopologyGenerateDialog::setError(QLineEdit* edit, const QString& message) {
    edit->setStyleSheet(message.isEmpty() ? QString() : QStringLiteral("QLineEdit { background-color: #ffd6d6; }"));
    edit->setProperty("invalid", !message.isEmpty());
    edit->setProperty("reason", message);
}

std::optional<sim::Topology> TopologyGenerateDialog::build(QString* problem) const {
    const int shape = shape_->currentIndex();
    const std::string name = name_->text().trimmed().toStdString();
    try {
        if (shape == Cluster) {
            sim::ClusterSpec s = sim::clusterSpecFor(device_->currentText().toStdString());
            std::int64_t v = 0;
            integerIn(nodes_->text(), 1, kMaxSize, &v);
            s.nodes = static_cast<int>(v);
            integerIn(gpus_->text(), 1, kMaxSize, &v);
            s.gpus = static_cast<int>(v);
            s.intra = static_cast<sim::ClusterSpec::Intra>(intra_->currentIndex());
            double x = 0;  // empty fields keep the preset's figures bit for bit, as the CLI
            if (!network_bw_->text().trimmed().isEmpty() && numberIn(network_bw_->text(), 0, 1e12, true, &x).isEmpty())
                s.network_Bps = x * 1e9;
            if (!network_latency_->text().trimmed().isEmpty() && numberIn(network_latency_->text(), 0, 1e9, false, &x).isEmpty())
                s.network_latency_s = x / 1e9;
            const std::string upper = device_->currentText().toUpper().toStdString();
            s.name = !name.empty() ? name : upper + " cluster (" + std::to_string(s.nodes) + " nodes x " +
                                                std::to_string(s.gpus) + " GPUs)";
            return sim::clusterTopology(s);
        }
        if (shape == ArrayShape && !array_file_->currentData().toString().isEmpty()) {
            Array array = loadArray(array_file_->currentData().toString().toStdString());
            if (!name.empty()) array.name = name;
            return sim::fromArray(array);
        }
        if (shape == ArrayShape) {
            std::int64_t levels = 4;
            integerIn(levels_->text(), 1, Array::kMaxLevels, &levels);
            Array array = defaultArray(static_cast<int>(levels),
                                       array_shape_->currentIndex() == 1 ? partita::Topology::Torus : partita::Topology::HTree);
            if (!name.empty()) array.name = name;
            return sim::fromArray(array);
        }
        sim::LinkSpec link;
        double x = 0;
        numberIn(bandwidth_->text(), 0, 1e12, true, &x);
        link.bandwidth_Bps = x * 1e9;
        numberIn(latency_->text(), 0, 1e9, false, &x);
        link.latency_s = x / 1e9;
        const sim::ComputeDevice device = sim::namedDevice(device_->currentText().toStdString());
        std::vector<std::int64_t> dims;
        if (shape == Torus || shape == Mesh) {
            parseDims(dims_->text(), &dims);
        } else {
            std::int64_t n = 0;
            integerIn(devices_->text(), 1, kMaxSize, &n);
            dims = {n};
        }
        std::string size;
        for (const auto d : dims) size += (size.empty() ? "" : "x") + std::to_string(d);
        static const char* kinds[] = {"ring", "switch", "fully-connected", "torus", "mesh"};
        const std::string full = !name.empty() ? name : std::string(kinds[shape]) + " " + size;
        if (shape == Mesh) return sim::meshTopology(dims, link, device, full);
        const auto kind = shape == Switch           ? sim::Dimension::Shape::Switch
                          : shape == FullyConnected ? sim::Dimension::Shape::FullyConnected
                                                    : sim::Dimension::Shape::Ring;
        return sim::regularTopology(kind, dims, link, device, full);
    } catch (const std::exception& e) {
        *problem = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

// Links the graph would have, roughly: above a million the summary waits for OK.
double TopologyGenerateDialog::estimatedLinks() const {
    const int shape = shape_->currentIndex();
    if (shape == Cluster) {
        const double gpus = gpus_->text().toDouble();
        return nodes_->text().toDouble() * gpus * (intra_->currentIndex() == 0 ? gpus : 4);
    }
    if (shape != FullyConnected) return 0;
    const double n = devices_->text().toDouble();
    return n * n;
}

void TopologyGenerateDialog::refresh() {
    const int shape = shape_->currentIndex();
    const bool regular = shape <= Mesh;
    form_->setRowVisible(devices_, shape == Ring || shape == Switch || shape == FullyConnected);
    form_->setRowVisible(dims_, shape == Torus || shape == Mesh);
    for (QWidget* w : std::initializer_list<QWidget*>{bandwidth_, latency_}) form_->setRowVisible(w, regular);
    form_->setRowVisible(device_, shape != ArrayShape);
    for (QWidget* w : std::initializer_list<QWidget*>{nodes_, gpus_, intra_, network_bw_, network_latency_})
        form_->setRowVisible(w, shape == Cluster);
    const bool alike = array_file_->currentData().toString().isEmpty();  // no array file
    form_->setRowVisible(array_file_, shape == ArrayShape);
    form_->setRowVisible(levels_, shape == ArrayShape && alike);
    form_->setRowVisible(array_shape_, shape == ArrayShape && alike);

    // Field checks: the first reason of a shown field is the dialog's problem.
    problem_.clear();
    const auto check = [this](QLineEdit* edit, bool shown, const QString& label, const QString& reason) {
        setError(edit, shown ? reason : QString());
        if (shown && !reason.isEmpty() && problem_.isEmpty()) problem_ = label + ": " + reason;
    };
    std::int64_t i = 0;
    double x = 0;
    std::vector<std::int64_t> dims;
    check(devices_, shape == Ring || shape == Switch || shape == FullyConnected, tr("Devices"), integerIn(devices_->text(), 1, kMaxSize, &i));
    check(dims_, shape == Torus || shape == Mesh, tr("Sizes"), parseDims(dims_->text(), &dims));
    check(bandwidth_, regular, tr("Link bandwidth"), numberIn(bandwidth_->text(), 0, 1e12, true, &x));
    check(latency_, regular, tr("Link latency"), numberIn(latency_->text(), 0, 1e9, false, &x));
    check(nodes_, shape == Cluster, tr("Nodes"), integerIn(nodes_->text(), 1, kMaxSize, &i));
    check(gpus_, shape == Cluster, tr("GPUs per node"), integerIn(gpus_->text(), 1, kMaxSize, &i));
    const auto optional = [](const QString& text, double lo, double hi, bool positive) {
        double v = 0;
        return text.trimmed().isEmpty() ? QString() : numberIn(text, lo, hi, positive, &v);
    };
    check(network_bw_, shape == Cluster, tr("Network"), optional(network_bw_->text(), 0, 1e12, true));
    check(network_latency_, shape == Cluster, tr("Network latency"), optional(network_latency_->text(), 0, 1e9, false));
    check(levels_, shape == ArrayShape && alike, tr("Levels"), integerIn(levels_->text(), 1, Array::kMaxLevels, &i));
    network_bw_->setPlaceholderText(
        QString::number(sim::clusterSpecFor(device_->currentText().toStdString()).network_Bps / 1e9));

    topology_.reset();
    summary_->clear();
    if (problem_.isEmpty()) {
        if (estimatedLinks() > 1e6) {
            summary_->setText(tr("A large graph: it is generated on Use or Save."));
        } else {
            topology_ = build(&problem_);
            if (topology_) summary_->setText(summary());
        }
    }
    problem_label_->setText(problem_);
    ok_->setEnabled(problem_.isEmpty());
    save_->setEnabled(problem_.isEmpty());
    // A summary or problem that wraps to more lines needs more height than the dialog had: grow, never shrink.
    if (form_->hasHeightForWidth()) {
        const int need = form_->totalHeightForWidth(width());
        if (need > height()) resize(width(), need);
    }
}

QString TopologyGenerateDialog::summary() const {
    if (!topology_) return {};
    QString text = tr("%1: %2 devices, %3 switches, %4 links (one per direction)")
                       .arg(QString::fromStdString(topology_->name))
                       .arg(topology_->deviceCount())
                       .arg(topology_->switches.size())
                       .arg(topology_->links.size());
    // The bisection (core's first level figure) costs a max flow per group of every level: only for
    // the small power-of-two machines a plan by HyPar/AccPar would use anyway.
    const int d = topology_->deviceCount();
    if (d >= 2 && d <= 256 && (d & (d - 1)) == 0) {
        try {
            const double bw = sim::bisectionLevelBandwidths(*topology_).front();
            text += tr(", bisection %1 GB/s").arg(bw / 1e9, 0, 'g', 4);
        } catch (const std::exception&) {
            // No figure rather than no summary.
        }
    }
    return text;
}

std::optional<sim::Topology> TopologyGenerateDialog::topology() {
    if (!problem_.isEmpty()) return std::nullopt;
    if (!topology_) topology_ = build(&problem_);
    problem_label_->setText(problem_);
    return topology_;
}

bool TopologyGenerateDialog::saveTo(const QString& path, QString* error) {
    const auto t = topology();
    QFile file(path);
    if (!t || !file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(QByteArray::fromStdString(sim::writeTopologyJson(*t))) < 0) {
        if (error) *error = t ? tr("%1: cannot write the file").arg(path) : problem_;
        return false;
    }
    return true;
}

void TopologyGenerateDialog::save() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save topology"), QString(),
                                                      tr("partita-topology/1 (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!saveTo(path, &error)) QMessageBox::warning(this, tr("Save topology"), error);
}

}  // namespace partita::gui
