#include "augur/selfanalysis.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace augur::selfanalysis {

Analyzer::Analyzer(Config config, Clock& clock, ThreadControl& threads, int max_processors)
    : config_(std::move(config)), clock_(clock), threads_(threads), max_processors_(std::max(max_processors, 1)) {
  config_.warmup_iterations = std::max(config_.warmup_iterations, 0);
  config_.baseline_iterations = std::max(config_.baseline_iterations, 1);
  config_.measure_iterations = std::max(config_.measure_iterations, 1);
  config_.sweep_every = std::max(config_.sweep_every, 2);
  config_.history_weight = std::clamp(config_.history_weight, 0.0, 1.0);
  config_.baseline_every = std::max(config_.baseline_every, 0);
}

void Analyzer::set_listener(SpeedupListener listener, void* user_data) {
  listener_ = listener;
  listener_data_ = user_data;
}

const Region* Analyzer::current() const {
  return current_ < 0 ? nullptr : &regions_[static_cast<std::size_t>(current_)];
}

ProcessorStats& Analyzer::stats_for(Region& region, int processors) {
  if (processors >= static_cast<int>(region.by_processors.size())) {
    // Only when the allocation grows beyond every count seen so far: not on the steady path.
    const auto old_size = region.by_processors.size();
    region.by_processors.resize(static_cast<std::size_t>(processors) + 1);
    for (auto p = old_size; p < region.by_processors.size(); ++p) region.by_processors[p].processors = static_cast<int>(p);
    max_processors_ = std::max(max_processors_, processors);
  }
  return region.by_processors[static_cast<std::size_t>(processors)];
}

void Analyzer::count_closed(Region& region, bool discarded) {
  ++region.iterations_closed;
  ++region.entry_iterations_closed;
  if (discarded) ++region.iterations_discarded;
}

Misuse Analyzer::init_parallel_region(std::uint64_t ipr, int length, long iterations) {
  auto found = std::find_if(regions_.begin(), regions_.end(),
                            [&](const Region& r) { return r.ipr == ipr && r.length == length; });
  const int index = static_cast<int>(found - regions_.begin());
  // The region already running: nothing to start again.
  if (index == current_ && regions_[static_cast<std::size_t>(index)].open) return Misuse::None;
  const double now = clock_.wall_seconds();
  if (iteration_open_) {
    // A new region starts inside an iteration of another: that iteration cannot be measured.
    count_closed(regions_[static_cast<std::size_t>(current_)], true);
    iteration_open_ = false;
    par_open_ = false;
  }
  // A CPU-clock sample never spans two regions.
  sample_open_ = false;
  if (found == regions_.end()) {
    Region region;
    region.ipr = ipr;
    region.length = length;
    region.by_processors.resize(static_cast<std::size_t>(max_processors_) + 1);
    for (std::size_t p = 0; p < region.by_processors.size(); ++p) region.by_processors[p].processors = static_cast<int>(p);
    // The windows of the baseline and of the allocation are kept from here on: reserve them now, not
    // in a probe (another count, in a sweep, reserves at its first window).
    region.baseline_windows.reserve();
    stats_for(region, std::max(threads_.allocated_processors(), 1)).windows_log.reserve();
    regions_.push_back(std::move(region));
  }
  if (current_ >= 0 && current_ != index) {
    Region& previous = regions_[static_cast<std::size_t>(current_)];
    if (previous.open) {
      previous.last_entry_elapsed = now - previous.opened_at;
      previous.elapsed += previous.last_entry_elapsed;
      previous.open = false;
    }
  }
  Region& region = regions_[static_cast<std::size_t>(index)];
  region.expected_iterations = iterations;
  region.entry_iterations_closed = 0;
  region.opened_at = now;
  region.open = true;
  current_ = index;
  if (active_threads_ == 0) {
    // Before the first region the program ran on its allocation.
    active_threads_ = threads_.allocated_processors();
    last_processors_ = active_threads_;
  }
  // The first iterations of a region are a warm-up (cold caches, threads starting, the effects of
  // the code before the region): they run on the allocation and are not measured. Only once: a
  // region entered many times (nested in another loop) keeps its measurements between entries.
  if (region.entries == 0) region.warmup_remaining = config_.warmup_iterations;
  ++region.entries;
  return Misuse::None;
}

Misuse Analyzer::end_parallel_region() {
  if (current_ < 0) return Misuse::NoRegion;
  Region& region = regions_[static_cast<std::size_t>(current_)];
  if (!region.open) return Misuse::NoRegion;
  const double now = clock_.wall_seconds();
  if (iteration_open_) {
    count_closed(region, true);
    iteration_open_ = false;
    par_open_ = false;
  }
  sample_open_ = false;
  region.last_entry_elapsed = now - region.opened_at;
  region.elapsed += region.last_entry_elapsed;
  region.open = false;
  // Give the program back all its processors.
  const int allocated = threads_.allocated_processors();
  if (active_threads_ != allocated) {
    threads_.set_active_threads(allocated);
    active_threads_ = allocated;
  }
  return Misuse::None;
}

int Analyzer::choose_processors(Region& region, int allocated) {
  if (!region.baseline_done) {
    const int baseline = config_.baseline.resolve(allocated);
    if (baseline != region.baseline_processors) {
      // First baseline iteration, or the allocation changed B: (re)start the reference.
      region.baseline_processors = baseline;
      region.baseline_sum = 0.0;
      region.baseline_count = 0;
    }
    return baseline;
  }
  auto& sweep = config_.sweep;
  while (region.sweep_index < sweep.size()) {
    if (region.sweep_done_in_block < config_.sweep_every) {
      ++region.sweep_done_in_block;
      region.swept = true;
      return std::clamp(sweep[region.sweep_index], 1, std::max(allocated, 1));
    }
    ++region.sweep_index;
    region.sweep_done_in_block = 0;
  }
  // Re-measure T(B) every baseline_every iterations, when the region has room left for a window
  // (the iteration that changes the processors is discarded, then baseline_iterations on B).
  if (config_.baseline_every > 0 && region.baseline_processors != allocated) {
    if (region.remeasuring) return region.baseline_processors;
    const long remaining = region.expected_iterations < 0 ? config_.baseline_iterations + 2
                                                          : region.expected_iterations - region.entry_iterations_closed;
    if (region.since_baseline >= config_.baseline_every && remaining > config_.baseline_iterations + 1) {
      region.remeasuring = true;
      region.baseline_sum = 0.0;
      region.baseline_count = 0;
      return region.baseline_processors;
    }
  }
  return allocated;
}

void Analyzer::start_self_tuning_sample(double now) {
  sample_open_ = true;
  sample_wall_ = now;
  sample_cpu_ = clock_.process_cpu_seconds();
  sample_processors_ = iteration_processors_;
}

void Analyzer::close_self_tuning_sample(Region& region, double now) {
  const double cpu = clock_.process_cpu_seconds();
  ProcessorStats& stats = stats_for(region, sample_processors_);
  stats.self_tuning_cpu += cpu - sample_cpu_;
  stats.self_tuning_wall += now - sample_wall_;
  sample_open_ = false;
}

Misuse Analyzer::open_iteration() {
  if (current_ < 0 || !regions_[static_cast<std::size_t>(current_)].open) return Misuse::NoRegion;
  Region& region = regions_[static_cast<std::size_t>(current_)];
  Misuse misuse = Misuse::None;
  if (iteration_open_) {
    count_closed(region, true);
    misuse = Misuse::IterationAlreadyOpen;
  }
  if (!config_.analyze) {
    iteration_open_ = true;
    ++region.iterations_opened;
    return misuse;
  }
  const double now = clock_.wall_seconds();
  const int allocated = threads_.allocated_processors();
  bool discarded = threads_.stopped_since_last_call();
  const bool warming_up = region.warmup_remaining > 0;
  if (warming_up) --region.warmup_remaining;
  const int processors = warming_up ? allocated : choose_processors(region, allocated);
  discarded = discarded || warming_up;
  if (processors != last_processors_) {
    // Thesis 4.3.1: a change in the number of processors discards the measurements in progress
    // and the current iteration, whose time includes the data movements the change causes.
    discarded = true;
    if (last_processors_ > 0) {
      ProcessorStats& previous = stats_for(region, last_processors_);
      previous.window_sum = 0.0;
      previous.window_count = 0;
    }
    ProcessorStats& next = stats_for(region, processors);
    next.window_sum = 0.0;
    next.window_count = 0;
    last_processors_ = processors;
  }
  if (processors != active_threads_) {
    threads_.set_active_threads(processors);
    active_threads_ = processors;
  }
  if (!discarded) {
    // The first iteration of a window marks the involuntary switches the window is counted from.
    const bool baseline_window = (!region.baseline_done || region.remeasuring) && processors == region.baseline_processors;
    const int in_window = baseline_window ? region.baseline_count : stats_for(region, processors).window_count;
    if (in_window == 0) window_switch_mark_ = clock_.involuntary_switches();
  }
  iteration_open_ = true;
  iteration_discarded_ = discarded;
  iteration_start_ = now;
  iteration_parallel_ = 0.0;
  iteration_processors_ = processors;
  iteration_allocated_ = allocated;
  par_open_ = false;
  ++region.iterations_opened;
  if (config_.self_tuning) {
    if (discarded) {
      sample_open_ = false;
    } else if (!sample_open_) {
      start_self_tuning_sample(now);
    }
  }
  return misuse;
}

Misuse Analyzer::close_iteration() {
  if (current_ < 0 || !regions_[static_cast<std::size_t>(current_)].open) return Misuse::NoRegion;
  if (!iteration_open_) return Misuse::IterationNotOpen;
  Region& region = regions_[static_cast<std::size_t>(current_)];
  if (!config_.analyze) {
    iteration_open_ = false;
    count_closed(region, false);
    return Misuse::None;
  }
  const double now = clock_.wall_seconds();
  Misuse misuse = Misuse::None;
  if (par_open_) {
    iteration_parallel_ += now - par_start_;
    par_open_ = false;
    misuse = Misuse::ParAlreadyOpen;
  }
  const int allocated = threads_.allocated_processors();
  const bool stopped = threads_.stopped_since_last_call();
  iteration_open_ = false;
  const bool reallocated = allocated != iteration_allocated_;
  if (iteration_discarded_ || stopped || reallocated) {
    // Thesis 4.4.1: processors changed (or the program was stopped) during the iteration.
    count_closed(region, true);
    sample_open_ = false;
    if (reallocated) {
      // The measurements in progress on the old allocation are discarded with it.
      ProcessorStats& stats = stats_for(region, iteration_processors_);
      stats.window_sum = 0.0;
      stats.window_count = 0;
    }
    return misuse;
  }
  count_closed(region, false);
  const double duration = now - iteration_start_;
  const double parallel = std::min(iteration_parallel_, duration);
  region.sequential_time += duration - parallel;
  region.parallel_time += parallel;
  region.parallel_cpu_time += parallel * iteration_processors_;
  if (sample_open_ && now - sample_wall_ >= config_.self_tuning_interval) close_self_tuning_sample(region, now);
  record_iteration(region, iteration_processors_, duration);
  return misuse;
}

void Analyzer::record_iteration(Region& region, int processors, double duration) {
  ProcessorStats& stats = stats_for(region, processors);
  ++stats.iterations;
  stats.measured_time += duration;
  if (!region.baseline_done || (region.remeasuring && processors == region.baseline_processors)) {
    region.baseline_sum += duration;
    ++region.baseline_count;
    if (region.baseline_count < config_.baseline_iterations) return;
    // A baseline window: the mean time of its iterations. T(B) is the median of the windows.
    region.baseline_windows.add(region.baseline_sum / region.baseline_count, switches_since_mark());
    region.baseline_time = median_window(region.baseline_windows);
    region.baseline_sum = 0.0;
    region.baseline_count = 0;
    region.remeasuring = false;
    region.since_baseline = 0;
    stats.iteration_time = region.baseline_time;
    if (region.baseline_done) return;  // a re-measurement: S(B) stays AF(B)
    region.baseline_done = true;
    // S(B) = T(B) / T(B) x AF(B) = AF(B).
    record_speedup(region, stats, region.amdahl_factor(), iteration_start_ + duration);
    return;
  }
  if (processors != region.baseline_processors) ++region.since_baseline;
  const bool in_sweep = region.sweep_index < config_.sweep.size();
  const int window = in_sweep ? std::min(config_.measure_iterations, config_.sweep_every - 1) : config_.measure_iterations;
  stats.window_sum += duration;
  ++stats.window_count;
  if (stats.window_count < window) return;
  stats.iteration_time = stats.window_sum / stats.window_count;
  stats.windows_log.add(stats.iteration_time, switches_since_mark());
  stats.window_sum = 0.0;
  stats.window_count = 0;
  // On B processors the speedup is AF(B) by definition (Region::speedup): the baseline is the
  // reference the other counts are measured against, so re-measuring it does not move S(B).
  if (processors == region.baseline_processors) return;
  // S(p) = T(B) / T(p) x AF(B)  (thesis Figure 4.5 (1))
  const double speedup = region.baseline_time / stats.iteration_time * region.amdahl_factor();
  record_speedup(region, stats, speedup, iteration_start_ + duration);
}

long Analyzer::switches_since_mark() {
  const long now = window_switch_mark_ < 0 ? -1 : clock_.involuntary_switches();
  return now < 0 ? -1 : std::max(0L, now - window_switch_mark_);
}

void Analyzer::record_speedup(Region& region, ProcessorStats& stats, double value, double now) {
  if (stats.windows == 0) {
    stats.speedup = value;
  } else {
    // Speedup(P) = SpeedupOld(p) x 0.6 + SpeedupNew(p) x 0.4  (thesis Figure 4.7)
    stats.speedup = config_.history_weight * stats.speedup + (1.0 - config_.history_weight) * value;
  }
  ++stats.windows;
  stats.state = SpeedupState::Calculated;
  const double estimate = estimated_time(region, stats.processors, now);
  if (region.first_estimate < 0.0 && estimate >= 0.0 && stats.processors == iteration_allocated_) {
    region.first_estimate = estimate;
    region.first_estimate_processors = stats.processors;
    region.first_estimate_iteration = region.iterations_closed;
  }
  if (listener_ != nullptr) {
    listener_(SpeedupEvent{&region, stats.processors, region.speedup(stats.processors), estimate}, listener_data_);
  }
}

double Analyzer::estimated_time(const Region& region, int processors, double now) const {
  const ProcessorStats* stats = region.stats(processors);
  if (stats == nullptr || stats->state != SpeedupState::Calculated || region.expected_iterations < 0 ||
      !region.baseline_done || region.speedup(processors) <= 0.0) {
    return -1.0;
  }
  // The iteration count is the one given when the region was last entered, so the estimate is for
  // that entry: the whole region when it is entered once.
  const double consumed = region.open ? now - region.opened_at : region.last_entry_elapsed;
  const long remaining = std::max(0L, region.expected_iterations - region.entry_iterations_closed);
  // ExTime(p) = ConsumedTime + AF(B) x T(B) / S(p) x ItersRemaining  (thesis Figure 4.8), with the baseline
  // re-measured every baseline_every iterations: a share b = baseline_iterations / (baseline_every +
  // baseline_iterations) of the remaining iterations runs on B, at T(B) each (docs/self-analysis.md).
  const double on_p = region.amdahl_factor() * region.baseline_time / region.speedup(processors);
  const bool remeasured = config_.baseline_every > 0 && region.baseline_processors != processors && config_.sweep.empty();
  const double share = remeasured ? static_cast<double>(config_.baseline_iterations) /
                                        static_cast<double>(config_.baseline_every + config_.baseline_iterations)
                                  : 0.0;
  return consumed + ((1.0 - share) * on_p + share * region.baseline_time) * static_cast<double>(remaining);
}

Misuse Analyzer::init_par() {
  if (current_ < 0 || !regions_[static_cast<std::size_t>(current_)].open) return Misuse::NoRegion;
  if (!iteration_open_) return Misuse::IterationNotOpen;
  if (par_open_) return Misuse::ParAlreadyOpen;
  if (!config_.analyze) return Misuse::None;
  par_start_ = clock_.wall_seconds();
  par_open_ = true;
  regions_[static_cast<std::size_t>(current_)].parallel_loops_seen = true;
  return Misuse::None;
}

Misuse Analyzer::end_par() {
  if (current_ < 0 || !regions_[static_cast<std::size_t>(current_)].open) return Misuse::NoRegion;
  if (!config_.analyze) return Misuse::None;
  if (!par_open_) return Misuse::ParNotOpen;
  iteration_parallel_ += clock_.wall_seconds() - par_start_;
  par_open_ = false;
  return Misuse::None;
}

void Analyzer::finish() {
  if (current_ >= 0 && regions_[static_cast<std::size_t>(current_)].open) end_parallel_region();
}

}  // namespace augur::selfanalysis
