#pragma once
// The settings of an accelerator array (partita-array/1, docs/formats/array.md) as field tables
// (core/settings/field.h): the HyPar fields of an array of identical accelerators, and one group of
// accelerators (AccPar's "accelerators" list).
#include "core/model/array.h"
#include "core/settings/field.h"

namespace partita {

// name, levels, topology, link_bps, level_bw_factor, then the "accelerator" object's kind,
// throughput_ops and energies, in file order.
const FieldTable<Array>& arrayFields();
// kind, count, throughput_flops, bandwidth_Bps of one entry of "accelerators".
const FieldTable<AcceleratorGroup>& acceleratorGroupFields();

}  // namespace partita
