#include "hybrid.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "decomposition.hpp"
#include "deterministic.hpp"
#include "exact.hpp"
#include "transient.hpp"

namespace augur::tspp {
namespace {

// Whether the exact chain may fit: its processor-sharing count of states (V x resources used x S phases
// per task) within four times the budget (under FCFS waiting tasks stay in their first phase, and the
// chain is often smaller); the chain's builder then refuses past the budget itself.
bool exact_may_fit(const TaskSystem& system, const PredictorOptions& options, std::size_t budget) {
  std::vector<int> phases;
  const int per_resource = std::max(options.visits, 1) * std::max(options.stages, 1);
  for (const Task& task : system.tasks) {
    int used = 0;
    for (double demand : task.demands) used += demand > 0.0 ? 1 : 0;
    phases.push_back(used * per_resource);
  }
  return chain_states(system.structure, phases) + 1.0 <= 4.0 * static_cast<double>(budget);
}

Prediction answered(Prediction prediction, const char* part) {
  prediction.part = part;
  return prediction;
}

}  // namespace

Prediction predict_hybrid(const TaskSystem& system, const PredictorOptions& options) {
  const std::size_t budget = options.max_states > 0 ? options.max_states : max_hybrid_states;
  PredictorOptions within = options;
  within.max_states = budget;
  if (options.stages >= hybrid_deterministic_stages) {
    try {
      return answered(predict_deterministic(system, options), "deterministic limit");
    } catch (const std::invalid_argument&) {
      // too long a trajectory: the methods below
    }
  }
  if (exact_may_fit(system, options, budget)) {
    try {
      return answered(predict_exact(system, within), "exact");
    } catch (const std::invalid_argument&) {
      // past the budget of states
    }
  }
  // Capped phases are taken with one exponential stage per visit and one visit (each task wants at most its
  // resources' count of phases), not with more: there the cap leaves the durations far too variable.
  const bool one_phase_per_visit = std::max(options.visits, 1) * std::max(options.stages, 1) == 1;
  if (one_phase_per_visit ? decomposition_phase_cap(system, options, budget) > 0 : decomposition_fits_uncapped(system, options, budget)) {
    return answered(predict_decomposition(system, within), "decomposition");
  }
  if (system.tasks.size() <= hybrid_transient_tasks && transient_phase_bins(system, options) <= max_transient_phase_bins) return answered(predict_transient(system, options), "transient");
  PredictorOptions seed = options;
  seed.method = Method::MakLundstrom;
  seed.residence = ResidenceDistribution::Phases;
  Prediction prediction = predict(system, seed);
  return answered(std::move(prediction), "mak-lundstrom");
}

}  // namespace augur::tspp
