#include "widgets/topology_editor/topology_command.h"

namespace partita {

TopologyCommand::TopologyCommand(sim::Topology before, sim::Topology after, Apply apply, const QString& text, int merge)
    : QUndoCommand(text), before_(std::move(before)), after_(std::move(after)), apply_(std::move(apply)), merge_(merge) {}

bool TopologyCommand::mergeWith(const QUndoCommand* other) {
    const auto* o = static_cast<const TopologyCommand*>(other);
    if (o->merge_ != merge_) return false;
    after_ = o->after_;
    return true;
}

}  // namespace partita
