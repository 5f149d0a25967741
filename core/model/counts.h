#pragma once
// What `partita-cli inspect` reports for any network: each operator's weights
// (elements of its learned tensor; biases excluded) and multiply-accumulates per
// sample (Conv, ConvTranspose, fc, and matmuls of two activations; biases excluded).
#include "core/model/network.h"

namespace partita {

struct OperatorCount {
    double weights = 0;
    double macs_per_sample = 0;
};
OperatorCount countOperator(const Operator& op);

struct NetworkCounts {
    int operators = 0;        // excluding the views an import inserts (op "view")
    int weighted_layers = 0;  // operators with weights
    double weights = 0;
    double macs_per_sample = 0;
};
NetworkCounts countNetwork(const Network& net);
bool isImportView(const Operator& op);  // a layout an import added to reinterpret a tensor

}  // namespace partita
