// BSP and OBSP* cost models over superstep traces (seed 001, González et al., section 2).
//
// A superstep trace (docs/formats.md, "BSP superstep traces") records, for every rank, every machine
// it belongs to and every superstep of that machine, the computing time W_{s,j}, the bytes received
// and sent (in_{s,j}, out_{s,j}), the incoming partners, the kind of synchronisation and the measured
// end time. Machines form a hierarchy: the top machine "/" holds every rank; a process that calls
// bsp_partition in superstep s of machine M joins the sub-machine M + "s:g/" (seed eq. 5), whose whole
// task counts as computation of superstep s for M (seed eq. 6).
//
// The reader (parse_trace, read_trace) checks everything and throws core::InputError at the file,
// line and column at fault. The models (predict_obsp, predict_bsp, fit_hrelation) are pure: they take
// a parsed trace and the machine parameters g, L and the @ operation, and compute.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "model/dataset.hpp"

namespace augur::bsp {

// How a superstep ends.
enum class Synchronization {
  None,       // no synchronisation and no communication: F_{s,i} = ready_{s,i}
  Oblivious,  // waits for the incoming partners only: W_{s,i} = partners ∪ {i} (seed eq. 1)
  Barrier,    // a barrier of the whole machine: W_{s,i} = every process of the machine
};

// "none", "oblivious", "barrier".
[[nodiscard]] const char* synchronization_name(Synchronization synchronization);

// One record of the trace: what the process `pid` of a machine did in one superstep.
struct Superstep {
  int rank = 0;                 // global rank, 0 .. ranks − 1
  double work = 0.0;            // W_{s,j}, seconds of computation (including before_child, excluding the child's task)
  double incoming_bytes = 0.0;  // in_{s,j}, a whole number ≥ 0
  double outgoing_bytes = 0.0;  // out_{s,j}, a whole number ≥ 0
  std::vector<int> partners;    // pids that send to this process in this superstep (distinct, maybe itself)
  Synchronization synchronization = Synchronization::Oblivious;
  double end = 0.0;                  // measured seconds since the trace start when the superstep ended
  std::optional<std::size_t> child;  // the sub-machine (index in Trace::machines) run in this superstep
  double before_child = 0.0;         // w*_{s,j} (seed eq. 6): the part of `work` done before entering the child
  core::SourceLocation location;     // the record's line (column 1)
};

// One machine instance (a BSP object): the top machine "/" or a sub-machine made by a partition.
struct Machine {
  std::string id;                     // "/", "/1:0/", "/1:0/2:1/", ...
  std::optional<std::size_t> parent;  // index in Trace::machines; none for "/"
  int parent_superstep = 0;           // s of the id's last "s:g/" (0 for "/")
  int group = 0;                      // g of the id's last "s:g/" (0 for "/")
  std::vector<int> ranks;             // ranks[pid]: the global rank of each process, size = nprocs
  // supersteps[s − 1][pid]: superstep s (1-based) of process pid; every process has the same R supersteps.
  std::vector<std::vector<Superstep>> supersteps;
  core::SourceLocation location;  // the machine's first record in the file

  [[nodiscard]] int size() const { return static_cast<int>(ranks.size()); }
  [[nodiscard]] int superstep_count() const { return static_cast<int>(supersteps.size()); }
  // The pid of `rank` in this machine, or −1 when it is not a member.
  [[nodiscard]] int pid_of(int rank) const;
};

struct Trace {
  std::string file;
  std::string label;              // the header's optional "label"
  int ranks = 0;                  // P, from the header
  std::vector<Machine> machines;  // machines[0] is the top machine "/"; parents come before their children
};

// Parses the JSON Lines text of a trace (`file` names it in messages). Throws core::InputError at
// file:line:col (the column of the offending key's value where it can be located, else 1) for a
// missing or wrong header or version, invalid JSON, a missing, unknown or mistyped key, a negative
// number, an unknown sync, a rank beyond the header's, a pid collision, partners out of range or
// repeated, a duplicate record, a missing superstep, members of a machine that disagree on nprocs or on
// the number of supersteps, a malformed machine or child id, a child id that does not extend its
// parent, a missing child machine, and a sub-machine that its members do not enter.
[[nodiscard]] Trace parse_trace(const std::string& file, const std::string& text);

// Reads the file (std::runtime_error naming it when it cannot; "-" is standard input) and parses it.
[[nodiscard]] Trace read_trace(const std::string& path);

// ---- The models ------------------------------------------------------------------------------

// The @ operation of seed eq. 4: how in_{s,j} and out_{s,j} combine (per the network interface).
enum class Combine { Sum, Max };

// "sum", "max".
[[nodiscard]] const char* combine_name(Combine combine);

struct CostParameters {
  double g = 0.0;  // seconds per byte
  double L = 0.0;  // seconds per synchronisation
  Combine combine = Combine::Sum;
};

// in @ out.
[[nodiscard]] double combine_bytes(double incoming, double outgoing, Combine combine);

// The OBSP* times of one machine instance.
struct MachineTimes {
  std::vector<double> start;                // x_j, per pid: when each process joined the machine
  std::vector<std::vector<double>> finish;  // F_{s,j}: finish[s − 1][pid]
  std::vector<std::vector<double>> h;       // h_{s,j} (seed eq. 4), 0 for sync none: h[s − 1][pid]
};

struct ObspPrediction {
  std::vector<MachineTimes> machines;  // in the order of Trace::machines
  std::vector<double> rank_finish;     // F_{R,i} of the top machine, per rank
  double program = 0.0;                // max over ranks
};

// OBSP* (seed eqs. 2, 4, 6), every process joining the top machine at time 0:
//   ready_{s,j} = F_{s−1,j} + W_{s,j}  (F_{0,j} = x_j) without a child; with a child c, c's task runs from
//   x'_j = F_{s−1,j} + w*_{s,j} and ends at C_j = F_{R_c,j}(c), and ready_{s,j} = C_j + (W_{s,j} − w*_{s,j});
//   F_{s,i} = max{ ready_{s,j} : j ∈ W_{s,i} } + g·h_{s,i} + L,  h_{s,i} = max{ in_{s,j} @ out_{s,j} : j ∈ W_{s,i} }
//   for an oblivious or barrier superstep, F_{s,i} = ready_{s,i} for sync none.
[[nodiscard]] ObspPrediction predict_obsp(const Trace& trace, const CostParameters& parameters);

// One superstep of the flattened, globally synchronised program.
struct FlatSuperstep {
  double max_work = 0.0;      // max_i W_{k,i}
  double max_h = 0.0;         // max_i h_{k,i}, h_{k,i} = in @ out of the superstep that closed it
  bool communicates = false;  // some rank closed it with a synchronisation (else: trailing work only)
  double cost = 0.0;          // max_work + (communicates ? g·max_h + L : 0)
};

struct BspPrediction {
  bool applicable = false;
  std::string reason;                     // why not, when not applicable
  std::vector<int> flattened_supersteps;  // K_i per rank
  std::vector<FlatSuperstep> supersteps;  // k = 1 .. K, when applicable
  std::vector<double> rank_finish;        // per rank, when applicable
  double program = 0.0;                   // T_BSP, when applicable
};

// Classical BSP with a global barrier: each rank's supersteps are flattened across the hierarchy in
// execution order (the work before a child, the child's supersteps and the work after it flow into the
// same accumulation); every oblivious or barrier synchronisation closes one superstep k with its
// W_{k,i} and h_{k,i} = in @ out; the work after the last synchronisation forms a trailing superstep
// without communication. When every rank has the same K,
//   T_BSP = Σ_k (max_i W_{k,i} + g·max_i h_{k,i} + L)   (without g·h + L for a trailing superstep);
// rank i ends at T_BSP, or, when the last superstep is trailing, at the end of superstep K − 1 plus its
// own W_{K,i}. Otherwise the result is not applicable, with the reason.
[[nodiscard]] BspPrediction predict_bsp(const Trace& trace, const CostParameters& parameters);

// The measured time of each rank: the `end` of its last superstep of the top machine.
[[nodiscard]] std::vector<double> measured_rank_times(const Trace& trace);

// ---- g and L from an h-relation benchmark ------------------------------------------------------

// g and L fitted to an h-relation benchmark: the series' points have a parameter `h`, the bytes each
// process sent and received in a symmetric pairwise exchange, and the formula NAME[0] + NAME[1]·h is
// fitted by least squares (the modeling engine, one segment). Then L = NAME[0] and g = NAME[1] / 2 for
// Combine::Sum (a symmetric exchange of b bytes has h = in + out = 2b), NAME[1] for Combine::Max. When a
// constant comes out negative the fit is redone with both constants constrained to be ≥ 0.
struct HRelationFit {
  CostParameters parameters;
  double g_standard_error = 0.0;  // NaN when undefined (two points), 0 for a constant held at 0
  double L_standard_error = 0.0;
  std::string formula;           // "NAME[0] + NAME[1] * h"
  std::string constant_name;     // NAME: the series' region when it is a valid name, else "hrelation"
  double unconstrained_g = 0.0;  // g and L of the unconstrained fit (they differ when constrained)
  double unconstrained_L = 0.0;
  bool constrained = false;  // the constants were constrained to be ≥ 0
  int points = 0;            // distinct values of h (of the other parameters' combinations)
  double r2 = 0.0;
  double smape = 0.0;  // percent
};

// Throws core::InputError at the series' origin when it has no parameter `h`, and std::invalid_argument
// when the points cannot determine two constants.
[[nodiscard]] HRelationFit fit_hrelation(const model::Series& series, Combine combine);

// Fits g and L (fit_hrelation) to the "time" series of the experiment `experiment` of the records
// read from the file `records`. Throws core::InputError at `records` when it has no such experiment
// (naming those it has), std::runtime_error naming the experiment and file when the points cannot
// determine g and L, and fit_hrelation's core::InputError when the experiment has no variable h.
[[nodiscard]] HRelationFit fit_hrelation_records(const model::Dataset& dataset, const std::string& records,
                                                 const std::string& experiment, Combine combine);

// ---- Predictions against measurements ------------------------------------------------------------

// (measured − predicted) / measured in percent, the sign of the seed's Table 1 (and of augur predict);
// NaN when the prediction is not finite or nothing was measured.
[[nodiscard]] double error_percent(double predicted, double measured);

// Both models and the measured times of one trace, what `augur bsp` reports.
struct Comparison {
  ObspPrediction obsp;
  BspPrediction bsp;
  std::vector<double> measured;  // measured_rank_times
  double measured_program = 0.0;  // the largest over the ranks
};
[[nodiscard]] Comparison compare(const Trace& trace, const CostParameters& parameters);

}  // namespace augur::bsp
