// The transient predictor's model and its class, private to augur_tspp (transient.cpp: the iteration and
// the outputs; transient_march.cpp: step 2; transient_field.cpp: step 1). Notation as in the seed's
// method: tasks i, j; resources k with c_k servers; D_ik demands; the time axis cut into bins of width dt.
// Equations and the reasons for each choice: docs/tspp.md, "The transient method".
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "augur/tspp_predictor.hpp"
#include "quadrature.hpp"

namespace augur::tspp::transient_model {

// Above this many servers the multi-server rate uses the mean number of others (no distribution).
constexpr int max_tracked_servers = 64;
// Mass below this is taken as none.
constexpr double negligible = 1e-13;
// A task at a resource with a smaller probability than this is not counted in the others' queues.
constexpr double present_threshold = 1e-9;

// One exponential stage of a task's work: at the resource of slot `slot`, mean demand 1 / rate.
struct Phase {
  int slot = 0;
  double rate = 0.0;
};

struct TaskModel {
  std::vector<int> resources;  // slot -> resource: the resources the task uses, in declaration order
  std::vector<Phase> phases;   // V cycles over the slots, each visit in S stages
  // Step 2's record: the probability of being at each slot's resource, per bin of [occ_lo, occ_hi].
  int occ_lo = 0;
  int occ_hi = -1;
  std::vector<std::vector<double>> occupancy;
  std::vector<double> time_at;  // per slot: the occupancy summed over every bin, the window's or not
  double mass = 0.0;  // probability that the task starts within the horizon
  Moments start, end;
  // Step 1's result over [fac_lo, fac_hi] (the nearest edge outside; nothing yet: 1): the service
  // rate factor per slot (the share of a server the task gets) and the mean number of others there.
  int fac_lo = 0;
  int fac_hi = -1;
  std::vector<std::vector<double>> factor;
  std::vector<std::vector<double>> others;
};

struct FlatNode {
  Node::Kind kind = Node::Kind::Task;
  int task = -1;
  std::vector<int> children;
  int occ_lo = 0, occ_hi = -1, fac_lo = 0, fac_hi = -1;
  std::vector<char> uses;  // per resource: a task of the subtree has a demand there
  std::size_t scratch = 0;  // offset of the node's working space in Transient::scratch_
  bool active = false;      // step 1: the subtree has someone at the resource at the current bin
};

// The mean and variance of a distribution given as mass per bin of width `step`, each bin's mass at its
// middle, less `offset`.
Moments moments_of(const std::vector<double>& mass, double step, double offset);

class Transient {
public:
  Transient(const TaskSystem& system, const PredictorOptions& options);
  Prediction run();

private:
  int flatten(const Node& node);
  double initial_horizon() const;
  double critical_path(int v) const;
  Prediction zero_prediction() const;
  double solve(double horizon, int bins, double tolerance, Prediction& prediction);
  [[nodiscard]] double factor_at(const TaskModel& task, int slot, int bin) const {
    if (task.fac_hi < task.fac_lo) return 1.0;
    const int at = std::clamp(bin, task.fac_lo, task.fac_hi) - task.fac_lo;
    return task.factor[static_cast<std::size_t>(slot)][static_cast<std::size_t>(at)];
  }

  // ---- Step 2 ------------------------------------------------------------------------------
  std::vector<double> march(int v, const std::vector<double>& in, bool record);
  std::vector<double> march_task(int index, const std::vector<double>& in, bool record);
  std::vector<double> march_parallel(const FlatNode& node, const std::vector<double>& in, bool record);

  // ---- Step 1 ------------------------------------------------------------------------------
  void update_field();
  void windows(int v);
  // A channel: the generating function at the quadrature nodes, the mean, the low coefficients.
  [[nodiscard]] std::size_t nodes_count() const { return quadrature_.nodes.size(); }
  void set_identity(double* channel) const;
  void multiply(double* a, const double* b) const;
  void add_exclusive(double* a, const double* b) const;
  double* channel_of(const FlatNode& node) { return scratch_.data() + node.scratch; }
  bool up(int v);
  [[nodiscard]] std::size_t slot_of(const TaskModel& task) const;
  void down(int v, const double* outside);
  [[nodiscard]] double service_share(const double* others) const;
  [[nodiscard]] double residence_variance(std::size_t index);

  // ---- Outputs -----------------------------------------------------------------------------
  void fill_outputs(Prediction& prediction);

  const TaskSystem& system_;
  PredictorOptions options_;
  Quadrature quadrature_;
  std::size_t resources_;
  std::vector<TaskModel> tasks_;
  std::vector<FlatNode> nodes_;
  int root_ = 0;
  std::vector<int> servers_;
  std::size_t width_ = 0;
  std::vector<double> scratch_;
  int bins_ = 0;
  double step_ = 0.0;
  // Step 1's current bin, resource and number of tracked low coefficients.
  int bin_ = 0;
  std::size_t resource_ = 0;
  std::size_t coefficients_ = 0;
  std::size_t used_ = 0;  // the channel's width for the current resource
};

}  // namespace augur::tspp::transient_model
