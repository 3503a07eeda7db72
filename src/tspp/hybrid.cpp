#include "hybrid.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <stdexcept>
#include <vector>

#include "decomposition.hpp"
#include "deterministic.hpp"
#include "exact.hpp"
#include "interpolation.hpp"
#include "pruned.hpp"
#include "transient.hpp"

namespace augur::tspp {
namespace {

// Whether to try the exact chain (its builder refuses past the budget itself, after building up to it).
// Under processor sharing the count of states from the structure (V x resources used x S phases per task,
// as the decomposition's) is the chain's size: tried when it fits. Under FCFS the chain is often far smaller
// than that count (a waiting task stays in its first phase, and tasks started together queue in one order:
// of the benchmark's systems that fit in 10^6 states, counts up to 8.7 million times that, at V = 2), so
// the chain is tried up to hybrid_fcfs_count_factor times the budget: past that, a system (1000 tasks) is
// not tried. A try that fails costs the budget's build (1 to 2 s of CPU at 10^6 states).
bool exact_may_fit(const TaskSystem& system, const PredictorOptions& options, std::size_t budget) {
  std::vector<int> phases;
  const int per_resource = std::max(options.visits, 1) * std::max(options.stages, 1);
  for (const Task& task : system.tasks) {
    int used = 0;
    for (double demand : task.demands) used += demand > 0.0 ? 1 : 0;
    phases.push_back(used * per_resource);
  }
  const double factor = options.discipline == Discipline::FirstComeFirstServed ? hybrid_fcfs_count_factor : 1.0;
  return chain_states(system.structure, phases) + 1.0 <= factor * static_cast<double>(budget);
}

// The chain keeps every state's words (a status per task, under FCFS a place too: 2 bytes each), so its
// budget of states is cut to keep them within hybrid_chain_words: 10^6 states of up to 125 tasks under FCFS,
// 1250 states at 10^5 tasks (a pipeline of 10^5 tasks would otherwise fill the memory before the budget).
// The decomposition's states have a word per task: its budget is cut likewise (a pipeline of 10^5 tasks).
std::size_t chain_budget(const TaskSystem& system, const PredictorOptions& options, std::size_t budget, bool places = true) {
  const bool fcfs = places && options.discipline == Discipline::FirstComeFirstServed;
  const std::size_t width = std::max<std::size_t>(1, system.tasks.size() * (fcfs ? 2 : 1));
  return std::max<std::size_t>(1, std::min(budget, hybrid_chain_words / width));
}

Prediction answered(Prediction prediction, const char* part) {
  prediction.part = part;
  return prediction;
}

// Many visits of exponential service past the exact chain: the interpolation in 1 / sqrt(V) between the sharing
// limit and the exact chains at 1 to 3 visits; where not even one visit's chain fits, between the limit and the
// decomposition with one visit (its phases capped as with one visit below).
std::optional<Prediction> interpolated(const TaskSystem& system, const PredictorOptions& options, const PredictorOptions& within) {
  if (options.visits < hybrid_interpolation_visits || options.stages != 1) return std::nullopt;
  const auto exact_at = [&system, &within](int visits) -> std::optional<Prediction> {
    PredictorOptions fewer = within;
    fewer.visits = visits;
    if (!exact_may_fit(system, fewer, within.max_states)) return std::nullopt;
    try {
      return predict_exact(system, fewer);
    } catch (const std::invalid_argument&) {
      return std::nullopt;  // past the budget of states
    }
  };
  if (std::optional<Prediction> prediction = predict_interpolated(system, options, exact_at)) return answered(std::move(*prediction), "interpolation");
  return std::nullopt;
}

// The interpolation as above with the decomposition with one visit for C(1), where not even one visit's chain fits.
std::optional<Prediction> interpolated_from_decomposition(const TaskSystem& system, const PredictorOptions& options,
                                                          const PredictorOptions& within, std::size_t decomposition_budget) {
  if (options.visits < hybrid_interpolation_visits || options.stages != 1) return std::nullopt;
  const auto decomposition_at_one = [&system, &within, decomposition_budget](int visits) -> std::optional<Prediction> {
    PredictorOptions one = within;
    one.visits = 1;
    one.max_states = decomposition_budget;
    if (visits != 1 || decomposition_phase_cap(system, one, decomposition_budget) <= 0) return std::nullopt;
    return predict_decomposition(system, one);
  };
  if (std::optional<Prediction> prediction = predict_interpolated(system, options, decomposition_at_one)) {
    return answered(std::move(*prediction), "interpolation (decomposition)");
  }
  return std::nullopt;
}

// The pruned pass of the chain, its beam from its cost: the levels (the phases of all the tasks, V x resources
// used x S each) times the tasks (a level's state has about that many successors to build, each of a word
// per task) times the beam within hybrid_pruned_work, and the beam within the chain's budget of states; none
// below hybrid_pruned_min_beam (1000 tasks; a --max-states below it).
std::optional<Prediction> pruned_pass(const TaskSystem& system, const PredictorOptions& options, std::size_t budget) {
  double levels = 0.0;
  const double per_resource = static_cast<double>(std::max(options.visits, 1)) * std::max(options.stages, 1);
  for (const Task& task : system.tasks) {
    for (double demand : task.demands) levels += demand > 0.0 ? per_resource : 0.0;
  }
  const double work = std::max(1.0, levels * static_cast<double>(system.tasks.size()));
  const double beam = std::min({static_cast<double>(default_pruned_beam), static_cast<double>(budget), hybrid_pruned_work / work});
  if (beam < static_cast<double>(hybrid_pruned_min_beam)) return std::nullopt;
  PredictorOptions pruned = options;
  pruned.method = Method::Pruned;
  pruned.beam = static_cast<std::size_t>(beam);
  return answered(predict_pruned(system, pruned), "pruned");
}

}  // namespace

Prediction predict_hybrid(const TaskSystem& system, const PredictorOptions& options) {
  // The budgets of states: the exact chain's, the decomposition's (the same when --max-states is given).
  const std::size_t budget = chain_budget(system, options, options.max_states > 0 ? options.max_states : max_hybrid_states);
  const std::size_t decomposition_budget =
      chain_budget(system, options, options.max_states > 0 ? options.max_states : max_hybrid_decomposition_states, false);
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
  // The pruned pass before the interpolation from exact chains (2026-11-27: with ten visits, on the benchmark's
  // systems the interpolation answered, unbiased where the interpolation is +1.4 to +1.6%, with half its maximum).
  if (std::optional<Prediction> prediction = pruned_pass(system, options, budget)) return std::move(*prediction);
  if (std::optional<Prediction> prediction = interpolated(system, options, within)) return std::move(*prediction);
  if (std::optional<Prediction> prediction = interpolated_from_decomposition(system, options, within, decomposition_budget)) {
    return std::move(*prediction);
  }
  // Capped phases are taken with one exponential stage per visit and one visit (each task wants at most its
  // resources' count of phases), not with more: there the cap leaves the durations far too variable.
  const bool one_phase_per_visit = std::max(options.visits, 1) * std::max(options.stages, 1) == 1;
  if (one_phase_per_visit ? decomposition_phase_cap(system, options, decomposition_budget) > 0
                          : decomposition_fits_uncapped(system, options, decomposition_budget)) {
    within.max_states = decomposition_budget;
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
