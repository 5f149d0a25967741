#pragma once
// Boost.Graph for the operator, task and topology graphs (docs/contributing/architecture.md, "Graph
// algorithms"): one graph type, built from input lists, and the few algorithms the callers share.
#include <vector>

#include <boost/graph/adjacency_list.hpp>

namespace partita::graph {

// Vertices 0..n-1; each vertex's out- and in-edges keep insertion order (parallel edges stay); the
// edge list is a vector (edges are never removed), which saves an allocation per edge.
using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property,
                                      boost::no_property, boost::no_property, boost::vecS>;

// Producer -> consumer edges from each vertex's inputs, in input order; a negative input is outside the graph.
Digraph fromInputs(const std::vector<std::vector<int>>& inputs);

// Topological order taking the smallest ready vertex first (BGL's topological_sort orders ties by DFS
// finish time instead); shorter than the vertex count when a cycle blocks the rest.
std::vector<int> smallestFirstOrder(const Digraph& g);
// The same for fromInputs(inputs), without building the graph when every input precedes its consumer
// (the usual file): then 0..n-1 is the smallest topological order.
std::vector<int> smallestFirstOrder(const std::vector<std::vector<int>>& inputs);

// A cycle among the vertices `order` leaves out: BGL's depth-first search from the smallest of them
// against the edges (first in-edge first) ends at its first back edge. Returned producer -> consumer,
// the first vertex repeated at the end.
std::vector<int> cycleOutside(const Digraph& g, const std::vector<int>& order);

// Which vertices a depth-first search from `sources` reaches along the edges (forward) or against them.
std::vector<bool> reachable(const Digraph& g, const std::vector<int>& sources, bool forward);

// The components joined by edges in either direction, per vertex, numbered by their smallest vertex.
std::vector<int> weakComponents(const Digraph& g);

// The strongly connected components, per vertex (BGL's Tarjan), numbered by their smallest vertex.
std::vector<int> strongComponents(const Digraph& g);

}  // namespace partita::graph
