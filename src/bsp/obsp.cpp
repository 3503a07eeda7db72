// The OBSP* and BSP cost models over a parsed superstep trace, and g and L from an h-relation fit.
// Pure: no I/O; the trace and the parameters come in, the times go out.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "bsp/bsp.hpp"
#include "model/model.hpp"

namespace augur::bsp {
namespace {

// The global rank → pid map of a machine (−1 for a rank that is not a member).
std::vector<int> pids_by_rank(const Machine& machine, int ranks) {
  std::vector<int> pids(static_cast<std::size_t>(ranks), -1);
  for (std::size_t pid = 0; pid < machine.ranks.size(); ++pid)
    pids[static_cast<std::size_t>(machine.ranks[pid])] = static_cast<int>(pid);
  return pids;
}

class ObspEvaluator {
 public:
  ObspEvaluator(const Trace& trace, const CostParameters& parameters) : trace_(trace), parameters_(parameters) {
    prediction_.machines.resize(trace.machines.size());
    evaluated_.assign(trace.machines.size(), false);
  }

  ObspPrediction run() {
    const Machine& top = trace_.machines.front();
    evaluate(0, std::vector<double>(top.ranks.size(), 0.0));  // every process joins "/" at time 0
    prediction_.rank_finish.assign(static_cast<std::size_t>(trace_.ranks), 0.0);
    const std::vector<double>& last = prediction_.machines.front().finish.back();
    for (std::size_t pid = 0; pid < top.ranks.size(); ++pid) {
      prediction_.rank_finish[static_cast<std::size_t>(top.ranks[pid])] = last[pid];
    }
    prediction_.program = *std::max_element(prediction_.rank_finish.begin(), prediction_.rank_finish.end());
    return std::move(prediction_);
  }

 private:
  // F_{s,i}(T, X, x) of machine `index` for all its supersteps, its processes joining at `start` (x_j).
  void evaluate(std::size_t index, std::vector<double> start) {
    const Machine& machine = trace_.machines[index];
    evaluated_[index] = true;
    const std::size_t size = machine.ranks.size();
    const std::vector<int> pid_of_rank = pids_by_rank(machine, trace_.ranks);
    std::vector<double> previous = start;  // F_{s−1,j}; F_{0,j} = x_j
    prediction_.machines[index].start = std::move(start);
    for (const std::vector<Superstep>& superstep : machine.supersteps) {
      // ready_{s,j}: when process j has done its computation of superstep s, a child's task included.
      std::vector<double> ready(size);
      for (std::size_t pid = 0; pid < size; ++pid) {
        const Superstep& step = superstep[pid];
        if (!step.child) {
          ready[pid] = previous[pid] + step.work;  // F_{s−1,j} + W_{s,j}, seed eq. 2
          continue;
        }
        const std::size_t child_index = *step.child;
        const Machine& child = trace_.machines[child_index];
        if (!evaluated_[child_index]) {
          // The child's task T_i on S_i starts at x'_j = F_{s−1,j} + w*_{s,j} for each member j (seed eq. 6).
          std::vector<double> child_start(child.ranks.size());
          for (std::size_t child_pid = 0; child_pid < child.ranks.size(); ++child_pid) {
            const auto parent_pid =
                static_cast<std::size_t>(pid_of_rank[static_cast<std::size_t>(child.ranks[child_pid])]);
            child_start[child_pid] = previous[parent_pid] + superstep[parent_pid].before_child;
          }
          evaluate(child_index, std::move(child_start));
        }
        // C_j = F_{R_i,j}(T_i, S_i, x'): the child's finish for this process, then the rest of W_{s,j}.
        const double child_finish =
            prediction_.machines[child_index].finish.back()[static_cast<std::size_t>(child.pid_of(step.rank))];
        ready[pid] = child_finish + (step.work - step.before_child);
      }
      std::vector<double> finish(size);
      std::vector<double> h(size, 0.0);
      for (std::size_t pid = 0; pid < size; ++pid) {
        const Superstep& step = superstep[pid];
        if (step.synchronization == Synchronization::None) {
          finish[pid] = ready[pid];
          continue;
        }
        // W_{s,i}: the incoming partners and i itself (seed eq. 1), or the whole machine for a barrier.
        std::vector<std::size_t> partners;
        if (step.synchronization == Synchronization::Barrier) {
          for (std::size_t j = 0; j < size; ++j) partners.push_back(j);
        } else {
          partners.push_back(pid);
          for (const int partner : step.partners) partners.push_back(static_cast<std::size_t>(partner));
        }
        double latest = 0.0;
        double bytes = 0.0;
        for (const std::size_t j : partners) {
          latest = std::max(latest, ready[j]);
          // h_{s,i} = max{ in_{s,j} @ out_{s,j} : j ∈ W_{s,i} }, seed eq. 4
          bytes = std::max(
              bytes, combine_bytes(superstep[j].incoming_bytes, superstep[j].outgoing_bytes, parameters_.combine));
        }
        h[pid] = bytes;
        // F_{s,i} = max{ F_{s−1,j} + W_{s,j} : j ∈ W_{s,i} } + (g·h_{s,i} + L), seed eq. 2
        finish[pid] = latest + parameters_.g * bytes + parameters_.L;
      }
      prediction_.machines[index].finish.push_back(finish);
      prediction_.machines[index].h.push_back(std::move(h));
      previous = std::move(finish);
    }
  }

  const Trace& trace_;
  CostParameters parameters_;
  ObspPrediction prediction_;
  std::vector<bool> evaluated_;
};

// One superstep of a rank's flattened program.
struct FlatStep {
  double work = 0.0;
  double h = 0.0;
  bool closed = false;  // ended by a synchronisation (else: the trailing work)
};

class Flattener {
 public:
  Flattener(const Trace& trace, Combine combine) : trace_(trace), combine_(combine) {}

  std::vector<FlatStep> flatten(int rank) {
    steps_.clear();
    pending_ = 0.0;
    open_ = false;
    walk(0, rank);
    if (open_) steps_.push_back({pending_, 0.0, false});
    return steps_;
  }

 private:
  // Rank's supersteps of machine `index` in execution order, its children's inside.
  void walk(std::size_t index, int rank) {
    const Machine& machine = trace_.machines[index];
    const auto pid = static_cast<std::size_t>(machine.pid_of(rank));
    for (const std::vector<Superstep>& superstep : machine.supersteps) {
      const Superstep& step = superstep[pid];
      open_ = true;
      if (step.child) {
        pending_ += step.before_child;
        walk(*step.child, rank);
        pending_ += step.work - step.before_child;
      } else {
        pending_ += step.work;
      }
      if (step.synchronization == Synchronization::None) continue;
      steps_.push_back({pending_, combine_bytes(step.incoming_bytes, step.outgoing_bytes, combine_), true});
      pending_ = 0.0;
      open_ = false;
    }
  }

  const Trace& trace_;
  Combine combine_;
  std::vector<FlatStep> steps_;
  double pending_ = 0.0;
  bool open_ = false;
};

bool is_name(const std::string& text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

const char* combine_name(Combine combine) {
  switch (combine) {
    case Combine::Sum:
      return "sum";
    case Combine::Max:
      return "max";
  }
  return "?";
}

double combine_bytes(double incoming, double outgoing, Combine combine) {
  switch (combine) {
    case Combine::Sum:
      return incoming + outgoing;
    case Combine::Max:
      return std::max(incoming, outgoing);
  }
  return incoming + outgoing;
}

ObspPrediction predict_obsp(const Trace& trace, const CostParameters& parameters) {
  if (trace.machines.empty()) throw std::invalid_argument("the trace has no machine");
  return ObspEvaluator(trace, parameters).run();
}

BspPrediction predict_bsp(const Trace& trace, const CostParameters& parameters) {
  if (trace.machines.empty()) throw std::invalid_argument("the trace has no machine");
  BspPrediction prediction;
  Flattener flattener(trace, parameters.combine);
  std::vector<std::vector<FlatStep>> ranks;
  for (int rank = 0; rank < trace.ranks; ++rank) {
    ranks.push_back(flattener.flatten(rank));
    prediction.flattened_supersteps.push_back(static_cast<int>(ranks.back().size()));
  }
  const auto [fewest, most] =
      std::minmax_element(prediction.flattened_supersteps.begin(), prediction.flattened_supersteps.end());
  if (*fewest != *most) {
    prediction.reason = "the ranks have different numbers of supersteps once the partitions are flattened (rank " +
                        std::to_string(fewest - prediction.flattened_supersteps.begin()) + ": " +
                        std::to_string(*fewest) + ", rank " +
                        std::to_string(most - prediction.flattened_supersteps.begin()) + ": " + std::to_string(*most) +
                        "): no global barrier can separate them";
    return prediction;
  }
  prediction.applicable = true;
  const auto count = static_cast<std::size_t>(*most);
  prediction.rank_finish.assign(ranks.size(), 0.0);
  double elapsed = 0.0;  // the end of superstep k − 1 under global barriers
  for (std::size_t k = 0; k < count; ++k) {
    FlatSuperstep superstep;
    for (const std::vector<FlatStep>& steps : ranks) {
      superstep.max_work = std::max(superstep.max_work, steps[k].work);
      if (!steps[k].closed) continue;
      superstep.communicates = true;
      superstep.max_h = std::max(superstep.max_h, steps[k].h);
    }
    // max_i W_{k,i} + g·max_i h_{k,i} + L
    superstep.cost =
        superstep.max_work + (superstep.communicates ? parameters.g * superstep.max_h + parameters.L : 0.0);
    for (std::size_t rank = 0; rank < ranks.size(); ++rank) {
      const FlatStep& step = ranks[rank][k];
      prediction.rank_finish[rank] = step.closed ? elapsed + superstep.cost : elapsed + step.work;
    }
    elapsed += superstep.cost;
    prediction.supersteps.push_back(superstep);
  }
  prediction.program = elapsed;
  return prediction;
}

std::vector<double> measured_rank_times(const Trace& trace) {
  if (trace.machines.empty()) throw std::invalid_argument("the trace has no machine");
  const Machine& top = trace.machines.front();
  std::vector<double> times(static_cast<std::size_t>(trace.ranks), 0.0);
  for (std::size_t pid = 0; pid < top.ranks.size(); ++pid)
    times[static_cast<std::size_t>(top.ranks[pid])] = top.supersteps.back()[pid].end;
  return times;
}

HRelationFit fit_hrelation(const model::Series& series, Combine combine) {
  if (std::find(series.parameters.begin(), series.parameters.end(), "h") == series.parameters.end()) {
    std::string names;
    for (const std::string& name : series.parameters) names += (names.empty() ? "" : ", ") + name;
    throw core::InputError(series.origin, "experiment '" + series.region + "' has no variable 'h' (its variables: " +
                                              (names.empty() ? "none" : names) + ")");
  }
  HRelationFit result;
  result.constant_name = is_name(series.region) && series.region != "h" ? series.region : "hrelation";
  model::ModelOptions options;
  options.formula = result.constant_name + "[0] + " + result.constant_name + "[1]*h";
  options.formula_origin = "the h-relation formula";
  options.segments = 1;
  // A symmetric exchange of b bytes: h = in + out = 2b with @ = sum, h = b with @ = max.
  const double per_h = combine == Combine::Sum ? 0.5 : 1.0;
  const auto constants = [](const model::SeriesModel& fitted) {
    const model::LinearFit& fit = fitted.segmentation.segments.front().fit;
    return std::pair{fit.constants(0), fit.constants(1)};
  };
  model::SeriesModel fitted = model::build_model(series, options);
  const auto [latency, slope] = constants(fitted);
  result.unconstrained_L = latency;
  result.unconstrained_g = slope * per_h;
  if (latency < 0 || slope < 0) {
    options.fit.nonnegative = true;
    fitted = model::build_model(series, options);
    result.constrained = true;
  }
  const model::LinearFit& fit = fitted.segmentation.segments.front().fit;
  result.formula = fitted.formula.text();
  result.parameters.combine = combine;
  result.parameters.L = std::max(0.0, fit.constants(0));
  result.parameters.g = std::max(0.0, fit.constants(1) * per_h);
  result.L_standard_error = fit.standard_errors(0);
  result.g_standard_error = fit.standard_errors(1) * per_h;
  result.points = static_cast<int>(fitted.points.size());
  result.r2 = fitted.r2;
  result.smape = fitted.smape;
  return result;
}

}  // namespace augur::bsp
