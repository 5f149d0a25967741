#include "app/gui/editor_recovery.h"

#include <QSaveFile>

#include "core/io/network_io.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::gui {

namespace {
constexpr const char* kFormat = "partita-editor-recovery/1";
constexpr std::int64_t kMaxId = std::int64_t{1} << 53;
}  // namespace

QString writeRecoveryFile(const QString& file, const edit::Document& doc, const QString& saved_to) {
    Json j;
    j["format"] = kFormat;
    j["name"] = doc.header().name;
    j["description"] = doc.header().description;
    const Shape& in = doc.header().input;
    j["input"] = {{"channels", in.c}, {"height", in.h}, {"width", in.w}};
    j["saved_to"] = saved_to.toStdString();
    Json nodes = Json::array();
    for (edit::NodeId id : doc.ids()) {
        const edit::Node& n = *doc.node(id);
        Json node;
        node["id"] = id;
        node["inputs"] = n.inputs;
        if (n.position) node["position"] = {n.position->x, n.position->y};
        node["operator"] = operatorToJson(n.op);
        nodes.push_back(node);
    }
    j["nodes"] = nodes;
    // Written whole or not at all: a crash while writing keeps the previous recovery file.
    QSaveFile out(file);
    const QByteArray text = QByteArray::fromStdString(j.dump(1) + "\n");
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size() || !out.commit())
        return QObject::tr("%1: %2").arg(file, out.errorString());
    return {};
}

Recovered readRecoveryFile(const QString& file) {
    const std::string source = file.toStdString();
    const Json root = parseJsonText(readTextFile(source), source);
    Fields f(root, "", source);
    checkFormat(f, kFormat);
    edit::Header header;
    header.name = f.string("name");
    header.description = f.string("description", "");
    {
        Fields in(f.raw("input"), f.pointer("input"), source);
        header.input = {in.integerIn("channels", 1, limits::kDimension), in.integerIn("height", 1, limits::kDimension, 1),
                        in.integerIn("width", 1, limits::kDimension, 1)};
        in.finish();
    }
    Recovered out;
    out.path = QString::fromStdString(f.string("saved_to", ""));
    edit::Patch patch;
    patch.header = header;
    const Json& nodes = f.raw("nodes");
    if (!nodes.is_array()) f.fail("nodes", "expected a list of nodes");
    if (nodes.size() > static_cast<size_t>(limits::kOperators))
        f.fail("nodes", std::to_string(nodes.size()) + " nodes exceed the limit of " + std::to_string(limits::kOperators));
    for (size_t i = 0; i < nodes.size(); ++i) {
        const std::string at = "/nodes/" + std::to_string(i);
        Fields n(nodes[i], at, source);
        edit::Node node;
        node.id = n.integerIn("id", 1, kMaxId - 1);
        const Json& inputs = n.raw("inputs");
        if (!inputs.is_array() || inputs.size() > static_cast<size_t>(limits::kOperatorInputs))
            n.fail("inputs", "expected a list of at most " + std::to_string(limits::kOperatorInputs) + " node ids");
        for (const Json& x : inputs) {
            if (!x.is_number_integer() || x.get<std::int64_t>() < 0 || x.get<std::int64_t>() >= kMaxId)
                n.fail("inputs", "expected node ids, found " + excerpt(x));
            node.inputs.push_back(x.get<std::int64_t>());
        }
        if (n.has("position")) {
            const Json& p = n.raw("position");
            if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
                n.fail("position", "expected [x, y], found " + excerpt(p));
            node.position = edit::Point{p[0].get<double>(), p[1].get<double>()};
        }
        node.op = readOperatorJson(n.raw("operator"), n.pointer("operator"), source);
        n.finish();
        if (patch.nodes.count(node.id)) throw InputError(source, at + "/id", "node id " + std::to_string(node.id) + " twice");
        patch.nodes[node.id] = node;
    }
    f.finish();
    try {
        out.document.apply(patch);
    } catch (const std::invalid_argument& e) {
        throw InputError(source, "/nodes", e.what());
    }
    return out;
}

}  // namespace partita::gui
