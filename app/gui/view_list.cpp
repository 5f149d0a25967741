#include "app/gui/view_list.h"

#include <QCoreApplication>

namespace partita::gui {

QString taskName(ViewTask task) {
    const auto tr = [](const char* text) { return QCoreApplication::translate("partita::gui::ViewList", text); };
    switch (task) {
    case ViewTask::Model: return tr("Model");
    case ViewTask::Machine: return tr("Machine");
    case ViewTask::Plan: return tr("Plan");
    case ViewTask::Simulate: return tr("Simulate");
    case ViewTask::Sweeps: return tr("Sweeps");
    case ViewTask::Methods: return tr("MPT · L2S · LLM");
    }
    return {};
}

const std::vector<ViewKind>& viewList() {
    using T = ViewTask;
    static const std::vector<ViewKind> list{
        {"main", nullptr, T::Plan},
        {"grid", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Grid"), T::Plan},
        {"metrics", nullptr, T::Plan},  // the lower half of the Grid tab
        {"simulation", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Simulation"), T::Simulate},
        {"timeline", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Timeline"), T::Simulate},
        {"heatmap", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Heatmap"), T::Plan},
        {"topology", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Topology"), T::Machine},
        {"teaching", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Teaching"), T::Plan},
        {"studies", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Studies"), T::Plan},
        {"compare", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Compare"), T::Plan},
        {"explore", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Explore"), T::Plan},
        {"network", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Network"), T::Model},
        {"editor", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Editor"), T::Model},
        {"mpt", nullptr, T::Methods},
        {"l2s", nullptr, T::Methods},
        {"llm-plan", nullptr, T::Methods},  // pages of the LLM tab
        {"llm-memory", nullptr, T::Methods},
        {"llm-timeline", nullptr, T::Methods},
        {"llm-simulation", nullptr, T::Methods},
        {"llm-tradeoff", nullptr, T::Methods},
        {"llm-measured", nullptr, T::Methods},
        {"llm-compare", nullptr, T::Methods},
        {"runs", nullptr, T::Plan},
        {"params", nullptr, T::Plan},
        {"library", nullptr, T::Plan},
        {"topology-editor", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Topology editor"), T::Machine},
        {"sweep", QT_TRANSLATE_NOOP("partita::gui::ViewList", "Sweep"), T::Sweeps},
    };
    return list;
}

const ViewKind* viewKind(const QString& name) {
    for (const ViewKind& k : viewList())
        if (name == QLatin1String(k.name)) return &k;
    return nullptr;
}

QStringList viewNames() {
    QStringList out;
    for (const ViewKind& k : viewList()) out << k.name;
    return out;
}

}  // namespace partita::gui
