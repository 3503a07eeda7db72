#include "network_limit.hpp"

#include <algorithm>
#include <limits>

#include "decomposition.hpp"
#include "deterministic.hpp"
#include "structure_walk.hpp"

namespace augur::tspp {
namespace {

class Fluid {
public:
  explicit Fluid(const TaskSystem& system)
      : system_(system), walk_(system), tasks_(system.tasks.size()), resources_(system.resources.size()), progress_(tasks_, 0.0),
        start_(tasks_, 0.0), end_(tasks_, 0.0), ended_(tasks_, false), time_at_(tasks_ * resources_, 0.0),
        found_(tasks_ * resources_, 0.0) {}

  void run() {
    std::vector<int> started;
    walk_.start(StructureWalk::root, started);
    begin(started);
    std::vector<double> residence;
    while (!active_.empty()) {
      closed_network(system_, active_, residence);
      std::vector<double> total(active_.size(), 0.0);
      double step = std::numeric_limits<double>::infinity();
      for (std::size_t a = 0; a < active_.size(); ++a) {
        for (std::size_t k = 0; k < resources_; ++k) total[a] += residence[a * resources_ + k];
        step = std::min(step, (1.0 - progress_[static_cast<std::size_t>(active_[a])]) * total[a]);
      }
      advance(residence, total, step);
    }
  }

  [[nodiscard]] Prediction prediction() const;

private:
  // Every active task does step / R_i(A) of its work, step R_ik(A) / R_i(A) of it at k; those done end.
  void advance(const std::vector<double>& residence, const std::vector<double>& total, double step) {
    now_ += step;
    std::vector<int> done;
    for (std::size_t a = 0; a < active_.size(); ++a) {
      const auto i = static_cast<std::size_t>(active_[a]);
      const double fraction = step / total[a];
      progress_[i] += fraction;
      for (std::size_t k = 0; k < resources_; ++k) {
        const double demand = system_.tasks[i].demands[k];
        time_at_[i * resources_ + k] += fraction * residence[a * resources_ + k];
        if (demand > 0.0) found_[i * resources_ + k] += fraction * (residence[a * resources_ + k] / demand - 1.0);
      }
      if (progress_[i] >= 1.0 - 1e-12) done.push_back(active_[a]);
    }
    std::erase_if(active_, [this](int task) { return progress_[static_cast<std::size_t>(task)] >= 1.0 - 1e-12; });
    for (int task : done) finish(task);
  }

  // Tasks start: those without demand end at once (and may start others).
  void begin(std::vector<int>& started) {
    while (!started.empty()) {
      const int task = started.front();
      started.erase(started.begin());
      start_[static_cast<std::size_t>(task)] = now_;
      double demand = 0.0;
      for (double value : system_.tasks[static_cast<std::size_t>(task)].demands) demand += value;
      if (demand > 0.0) {
        active_.push_back(task);
      } else {
        finish(task, &started);
      }
    }
  }

  void finish(int task, std::vector<int>* pending = nullptr) {
    ended_[static_cast<std::size_t>(task)] = true;
    end_[static_cast<std::size_t>(task)] = now_;
    std::vector<int> started;
    walk_.after_end(task, [this](int other) { return static_cast<bool>(ended_[static_cast<std::size_t>(other)]); }, started);
    if (pending != nullptr) {
      pending->insert(pending->end(), started.begin(), started.end());
    } else {
      begin(started);
    }
  }

  const TaskSystem& system_;
  StructureWalk walk_;
  std::size_t tasks_, resources_;
  std::vector<double> progress_, start_, end_;
  std::vector<bool> ended_;
  std::vector<double> time_at_, found_;
  std::vector<int> active_;
  double now_ = 0.0;
};

Prediction Fluid::prediction() const { return trajectory_prediction(system_, {start_, end_, time_at_, found_, now_}); }

}  // namespace

Prediction network_limit(const TaskSystem& system) {
  Fluid fluid(system);
  fluid.run();
  return fluid.prediction();
}

}  // namespace augur::tspp
