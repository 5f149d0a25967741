#pragma once
// Communication-aware sparsification tools (docs/methods/l2s.md#communication-aware-sparsification, feature L8). The
// engine cannot train: it builds the distance mask a trainer needs, computes
// group-Lasso penalties for checking, turns trained weights into block masks by
// thresholding, imports masks, and generates seeded "what-if" masks.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/l2s/mesh.h"

namespace partita::l2s {

// NZ[i][j] = 1 iff block (producer core i -> consumer core j) keeps a non-zero weight.
using Mask = std::vector<std::vector<int>>;

Mask fullMask(int n);  // all ones: the traditional all-gather

// Group strengths M: SS gives 1 everywhere; SS_Mask gives D + eps (eps >= 0).
Matrix strengthMatrix(const Matrix& distance, bool distance_weighted, double eps = 0);

// sum_ij M[i][j] * norms[i][j] (the R_g of one layer). Throws on size mismatch.
double groupLassoPenalty(const Matrix& norms, const Matrix& strength);

// Block norms ||w^(i,j)||_2 of a weight tensor laid out [out][in][k] (k = kernel
// area, 1 for fc). `out_counts[j]` outputs belong to consumer core j and
// `in_counts[i]` inputs come from producer core i, both as contiguous blocks.
Matrix groupNorms(const std::vector<double>& weights, const std::vector<int>& out_counts,
                  const std::vector<int>& in_counts, int kernel_area);

// NZ = (norm >= tau): blocks below the threshold are pruned.
Mask thresholdMask(const Matrix& norms, double tau);

// Seeded what-if mask: block (i, j) is kept with probability keep[d(i,j)]; the
// last entry applies to every farther distance. Deterministic for a seed.
Mask whatIfMask(const Matrix& distance, const std::vector<double>& keep, std::uint64_t seed);
// Seeded what-if mask with exact counts (docs/methods/l2s.md#l3-keep-probabilities-per-hop): of the N_d blocks at distance d it
// keeps round(keep[d] x N_d), chosen by a seeded shuffle, so a probability is also the kept share
// of that class and the traffic rate does not scatter with the seed. Same keep convention as above.
Mask exactMask(const Matrix& distance, const std::vector<double>& keep, std::uint64_t seed);
// "d0=1,d1=0.5,d2=0" -> {1, 0.5, 0}; missing classes up to the largest one
// given are an error, values must lie in [0, 1].
std::vector<double> parseKeep(const std::string& text);
std::string keepText(const std::vector<double>& keep);

// Expected mean of a what-if mask: keep probability per block, for tests and reports.
Matrix keepMatrix(const Matrix& distance, const std::vector<double>& keep);

// "partita-l2s-masks/1": {"format", "cores", "layers": {"<layer>": [[0/1 ...] ...]}}.
// Errors name the source and the JSON pointer of the bad entry.
std::map<std::string, Mask> readMasksJson(const std::string& text, const std::string& source);
std::map<std::string, Mask> loadMasks(const std::string& path);
std::string writeMasksJson(const std::map<std::string, Mask>& masks);
// D and M for an external trainer (B5 a): {"format": "partita-l2s-strength/1", "distance", "ss", "ss_mask", "eps"}.
Json strengthJson(const Mesh& mesh, double eps);

}  // namespace partita::l2s
