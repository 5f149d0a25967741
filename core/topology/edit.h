#pragma once
// Edits of a Topology value for the topology editor (widgets/topology_editor): each takes the
// document and returns nothing but changes it, so the editor keeps one snapshot before and after
// per undo step. Vertex ids stay consistent (devices 0..D-1, then switches) and links keep their
// default names ("<kind> <from>-><to>") when endpoints, kinds or vertex names change.
#include <set>
#include <string>
#include <vector>

#include "core/topology/topology.h"

namespace partita::sim {

// One row of the editor's link table: a directed link, and its reverse when the two are one duplex
// cable (swapped ends, same kind, bandwidth and latency). Rows are in the order of their first link.
struct LinkRow {
    int forward = 0;
    int reverse = -1;  // -1: one way
    bool duplex() const { return reverse >= 0; }
    bool operator==(const LinkRow&) const = default;
};
std::vector<LinkRow> linkRows(const Topology& t);

// "<kind> <from>-><to>", the name files give a link without one ("" for an unknown vertex).
std::string defaultLinkName(const Topology& t, const Link& l);

// A fresh name "<stem><n>" no device or switch uses (n counting from 0).
std::string freshVertexName(const Topology& t, const std::string& stem);

// Appends `device` named "d<n>" (fresh) after the last device; switch ids shift up by one. Returns its id.
int addDevice(Topology& t, ComputeDevice device);
int addSwitch(Topology& t);  // "s<n>", after the last switch
// Removes vertices (device and switch ids) and every link that touches them; later ids shift down.
void removeVertices(Topology& t, const std::set<int>& vertices);
// Appends from->to (and to->from when duplex) with the default names; returns the first new id.
int addLink(Topology& t, int from, int to, bool duplex, const Link& props);
void removeLinks(Topology& t, const std::set<int>& links);
// Renames vertex `v`; the links named by default follow.
void renameVertex(Topology& t, int v, const std::string& name);
// After changing endpoints or kinds of `before`'s links into `t`: default-named links keep default names.
void refreshLinkNames(const Topology& before, Topology& t);

// The device every new editor device starts as: 100 TFLOP/s, 1,000 GB/s and 32 GB of memory.
ComputeDevice defaultEditorDevice();
Link defaultEditorLink();  // 100 GB/s, 1 us, kind "link"

}  // namespace partita::sim
