// The precision of the one-run S(P) (team.hpp, SpeedupPrecision; docs/self-analysis.md, "The precision of the
// speedup"): the spread of the baseline windows' T(1) and of the blocks of team steps' T(P), each reduced to
// the standard error of its mean.
#include "selfanalysis/team_precision.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "augur/core/stats.hpp"
#include "core/table.hpp"
#include "selfanalysis/team.hpp"

namespace augur::selfanalysis {
namespace {

constexpr int min_units = 3;  // fewer windows or blocks: the precision is unknown
constexpr std::size_t min_block_steps = 5;  // a block of fewer steps says too little of the run (as min_steps' default)

// The standard error of the mean of `values` over that mean (sample standard deviation, n - 1); negative for
// fewer than min_units values or a mean that is not positive.
double relative_standard_error(const std::vector<double>& values) {
  if (static_cast<int>(values.size()) < min_units) return -1.0;
  const double count = static_cast<double>(values.size());
  const double mean = core::mean(values);
  if (!(mean > 0.0)) return -1.0;
  double squares = 0.0;
  for (const double value : values) squares += (value - mean) * (value - mean);
  return std::sqrt(squares / (count - 1.0)) / std::sqrt(count) / mean;
}

// `indices` (increasing) in runs: a new run starts where a step between two of them is a baseline step
// (`cut_at_baseline`: team steps into their stretches) or a team step (not: baseline steps into their windows).
std::vector<std::vector<long>> runs(const TeamAnalysis& analysis, const std::vector<long>& indices, bool cut_at_baseline) {
  std::vector<std::vector<long>> groups;
  long previous = -1;
  for (const long index : indices) {
    bool cut = groups.empty();
    for (long between = previous + 1; !cut && between < index; ++between) cut = analysis.step(between).baseline == cut_at_baseline;
    if (cut) groups.emplace_back();
    groups.back().push_back(index);
    previous = index;
  }
  return groups;
}

// The team steps in stretches between baseline windows, a stretch of fewer than half `block_steps` used steps
// (the last one, one thinned by outliers) joined to the block before it (to the next when first), so that every
// block weighs about alike; or, with fewer than min_units blocks so, in blocks of `block_steps` consecutive used
// steps (the last block takes the remainder), or of used / min_units steps when the used steps do not make
// min_units blocks of `block_steps` (a short run: cg_steps' 35 used steps, 3 blocks of 11), but of no fewer than
// min_block_steps.
std::vector<std::vector<long>> team_blocks(const TeamAnalysis& analysis, const std::vector<long>& used, int block_steps) {
  std::vector<std::vector<long>> blocks;
  const std::size_t least = static_cast<std::size_t>(std::max(block_steps, 1) + 1) / 2;
  bool short_last = false;  // the last block is a short stretch still waiting for the next
  for (std::vector<long>& stretch : runs(analysis, used, true)) {
    if (!blocks.empty() && (stretch.size() < least || short_last)) {
      blocks.back().insert(blocks.back().end(), stretch.begin(), stretch.end());
    } else {
      blocks.push_back(std::move(stretch));
    }
    short_last = blocks.back().size() < least;
  }
  if (static_cast<int>(blocks.size()) >= min_units || block_steps < 1) return blocks;
  blocks.clear();
  std::size_t size = std::min(static_cast<std::size_t>(block_steps), used.size() / static_cast<std::size_t>(min_units));
  if (size < min_block_steps) size = static_cast<std::size_t>(block_steps);
  for (std::size_t at = 0; at + size <= used.size(); at += size)
    blocks.emplace_back(used.begin() + static_cast<long>(at), used.begin() + static_cast<long>(at + size));
  if (!blocks.empty()) blocks.back().insert(blocks.back().end(), used.begin() + static_cast<long>(blocks.size() * size), used.end());
  return blocks;
}

}  // namespace

// Why the run did not fix S(P): its ± and the evidence behind it (TeamPolicy::imprecise_limit).
std::string imprecise_reason(const TeamSummary& summary, double limit) {
  const SpeedupPrecision& precision = summary.precision;
  const std::string speedup = "S(" + std::to_string(summary.team) + ")";
  std::string text = "the run does not fix " + speedup + " within " + core::format_value("%.0f", limit * 100.0) + "%: " +
                     core::format_value("%.3g", summary.speedup) + " ± " + core::format_value("%.2g", summary.speedup_error()) + " at two standard errors (";
  if (precision.windows > 0) {
    text += "its " + std::to_string(precision.windows) + " baseline windows' T(1) " + core::format_value("%#.3g", precision.window_low * 1e3) +
            " to " + core::format_value("%#.3g", precision.window_high * 1e3) + " ms a step, ±" + core::format_value("%.0f", 200.0 * precision.one_thread_error) +
            "%; its " + std::to_string(precision.blocks) + " blocks of team steps' T(" + std::to_string(summary.team) + "), ±" +
            core::format_value("%.0f", 200.0 * precision.step_time_error) + "%";
  } else {
    text += "its " + std::to_string(precision.blocks) + " blocks of team steps' own T(1)/T(" + std::to_string(summary.team) + ")";
  }
  return text + "): more iterations give more windows and blocks";
}

SpeedupPrecision speedup_precision(const TeamAnalysis& analysis, const std::vector<long>& used, const std::vector<long>& baseline,
                                   int block_steps) {
  SpeedupPrecision precision;
  const std::vector<std::vector<long>> blocks = team_blocks(analysis, used, block_steps);
  precision.blocks = static_cast<int>(blocks.size());
  std::vector<double> block_times;
  std::vector<double> block_ratios;  // T(1)/T(P) of the block, T(1) the work added up
  for (const std::vector<long>& block : blocks) {
    double time = 0.0;
    double work = 0.0;
    for (const long index : block) {
      time += analysis.step(index).program_time();
      work += analysis.step(index).one_thread();
    }
    block_times.push_back(time / static_cast<double>(block.size()));
    if (time > 0.0) block_ratios.push_back(work / time);
  }
  if (baseline.empty()) {
    precision.relative_error = relative_standard_error(block_ratios);
    return precision;
  }
  std::vector<double> window_times;
  for (const std::vector<long>& window : runs(analysis, baseline, false)) {
    std::vector<double> times;
    for (const long index : window) times.push_back(analysis.step(index).one_thread());
    window_times.push_back(core::median(std::move(times)));
  }
  if (!window_times.empty()) {
    const auto [low, high] = std::minmax_element(window_times.begin(), window_times.end());
    precision.window_low = *low;
    precision.window_high = *high;
  }
  precision.windows = static_cast<int>(window_times.size());
  precision.one_thread_error = relative_standard_error(window_times);
  precision.step_time_error = relative_standard_error(block_times);
  if (precision.one_thread_error >= 0.0 && precision.step_time_error >= 0.0)
    precision.relative_error = std::hypot(precision.one_thread_error, precision.step_time_error);
  return precision;
}

}  // namespace augur::selfanalysis
