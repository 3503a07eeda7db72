// The measurement of the kernel coupling harness (include/augur/coupling.h; seed 002; docs/coupling.md):
// times each kernel alone, each chain of adjacent kernels along the cyclic loop, and the whole loop, then
// writes the measurement file (augur::coupling::write_run). With ranks, every rank makes the same collective
// calls (the counts are the largest any rank has) and rank 0 writes.
#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "augur/core/stats.hpp"
#include "augur/coupling.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/process.hpp"
#include "coupling_app.hpp"
#include "coupling_machine.hpp"

augur::runtime::OptionValues augur_coupling_app::effective_options() const {
  if (rank == 0) augur::runtime::check_environment_once();  // one rank speaks for all
  const std::vector<std::pair<std::string, std::string>> api(options.begin(), options.end());
  augur::runtime::OptionSources sources;
  sources.environment = [](const char* variable) -> const char* { return std::getenv(variable); };
  sources.api = api;
  sources.tool_channel = std::getenv(std::string(augur::runtime::tool_channel_variable).c_str());
  sources.api_name = "augur_coupling_set_option";
  std::vector<std::string> warnings;
  augur::runtime::OptionValues values =
      augur::runtime::resolve_options(augur::runtime::coupling_option_set(), sources, warnings);
  if (rank == 0 && !options_warned) {
    for (const std::string& warning : warnings) augur::runtime::warn(warning);
    options_warned = true;
  }
  return values;
}

namespace augur::runtime {
namespace {

std::string expand_output(const std::string& pattern, const std::string& application) {
  std::string expanded;
  for (std::size_t index = 0; index < pattern.size(); ++index) {
    if (pattern[index] == '%' && index + 1 < pattern.size() && pattern[index + 1] == 'a') {
      expanded += application;
      ++index;
    } else {
      expanded += pattern[index];
    }
  }
  return augur::runtime::expand_path(expanded);
}

augur::coupling::Timing summarize(std::vector<double> samples, std::int64_t repetitions) {
  augur::coupling::Timing timing;
  timing.seconds = augur::core::median(samples);
  const auto interval = augur::core::median_interval(samples);
  timing.ci_low = interval.low;
  timing.ci_high = interval.high;
  timing.samples = std::move(samples);
  timing.repetitions = repetitions;
  return timing;
}

// The repetitions of a chain for a sample of at least min_time (the same count on every rank).
// Calibration, twice (the first pass may include one-time costs such as a connection's set-up): double
// the repetitions until a timing lasts a tenth of min_time; the faster pass sets the count.
std::int64_t calibrate(const augur_coupling_app& app, const std::vector<int>& chain, double min_time) {
  app.reset_data();
  app.run_chain(chain);  // first touch
  double per_execution = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::int64_t count = 1;; count *= 2) {
      app.sync();
      const double start = monotonic_seconds();
      for (std::int64_t r = 0; r < count; ++r) app.run_chain(chain);
      const double elapsed = app.max_over_ranks(monotonic_seconds() - start);
      if (elapsed >= min_time / 10 || count >= (std::int64_t{1} << 40)) {
        const double measured = elapsed / static_cast<double>(count);
        per_execution = pass == 0 ? measured : std::min(per_execution, measured);
        break;
      }
    }
  }
  const auto repetitions =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(min_time / std::max(per_execution, 1e-12))));
  return static_cast<std::int64_t>(app.max_over_ranks(static_cast<double>(repetitions)));
}

// One sample of a chain: reset, `warmup` untimed executions, then the timed repetitions; seconds per
// execution.
double sample_chain(const augur_coupling_app& app, const std::vector<int>& chain, std::int64_t repetitions,
                    int warmup) {
  app.reset_data();
  for (int w = 0; w < warmup; ++w) app.run_chain(chain);
  app.sync();
  const double start = monotonic_seconds();
  for (std::int64_t r = 0; r < repetitions; ++r) app.run_chain(chain);
  const double elapsed = app.max_over_ranks(monotonic_seconds() - start);
  return elapsed / static_cast<double>(repetitions);
}

// One timing of the whole loop, after a reset: seconds for all its iterations.
double time_loop(const augur_coupling_app& app) {
  app.reset_data();
  app.sync();
  const double start = monotonic_seconds();
  for (long iteration = 0; iteration < app.iterations; ++iteration) {
    for (const KernelEntry& kernel : app.kernels) {
      for (int call = 0; call < kernel.calls; ++call) kernel.function(kernel.data);
    }
  }
  return app.max_over_ranks(monotonic_seconds() - start);
}

// One line, "round K of N", appended to augur couple measure's progress file (coupling.progress_file): only
// to a file that exists (the harness creates none), opened and closed at once; a failure is ignored (the bar
// is augur's, the measurement goes on).
void report_round(const std::string& path, int done, int total) {
  if (path.empty()) return;
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (descriptor < 0) return;
  char line[64];
  const int length = std::snprintf(line, sizeof line, "round %d of %d\n", done, total);
  if (length > 0 && ::write(descriptor, line, static_cast<std::size_t>(length)) < 0) {
    // nothing to do: the progress is lost, not the measurement
  }
  ::close(descriptor);
}

// What a measurement takes from the options, agreed between the ranks.
struct Plan {
  std::map<std::string, std::string> options;  // every option, checked (the run's record of them)
  double min_time = 0;
  int samples = 0;
  int warmup = 0;
  int loop_samples = 0;
  bool progress = false;
  bool announce = false;
  std::string progress_file;  // augur couple measure's progress file (coupling.progress_file), rank 0; empty: none
};

Plan plan_measurement(const augur_coupling_app& app) {
  Plan plan;
  const augur::runtime::OptionValues values = app.effective_options();  // every value checked
  for (const auto& [key, value] : values.entries()) plan.options[key] = value;
  // With ranks, every rank must run the same collective calls: the counts are the largest any rank has.
  plan.min_time = app.max_over_ranks(values.real("min_time"));
  const auto agreed = [&](const char* key) {
    return static_cast<int>(app.max_over_ranks(static_cast<double>(values.integer(key))));
  };
  plan.samples = agreed("samples");
  plan.warmup = agreed("warmup");
  plan.loop_samples = agreed("application_samples");
  plan.progress = values.boolean("progress") && app.rank == 0;
  plan.announce = values.boolean("announce");
  plan.progress_file = app.rank == 0 ? values.text("progress_file") : std::string();
  return plan;
}

// Every kernel alone, then the chains of each length asked for (option `chains`), from every kernel.
std::vector<std::vector<int>> chains_to_measure(const augur_coupling_app& app,
                                                const std::map<std::string, std::string>& options) {
  const int n = static_cast<int>(app.kernels.size());
  // Checked with the options (a value the registry takes and chain_lengths does not, such as "000003",
  // measures every length).
  std::vector<int> lengths = augur::coupling::chain_lengths(options.at("chains"), n)
                                 .value_or(augur::coupling::chain_lengths("all", n).value_or(std::vector<int>{}));
  const int first_length = static_cast<int>(app.max_over_ranks(lengths.empty() ? 0.0 : lengths.front()));
  const int last_length = static_cast<int>(app.max_over_ranks(lengths.empty() ? 0.0 : lengths.back()));
  lengths.clear();
  for (int length = first_length; length > 0 && length <= last_length; ++length) lengths.push_back(length);
  if (lengths.empty() && options.at("chains") != "none" && app.rank == 0) {
    warn("augur_coupling_measure(): chains '" + options.at("chains") + "': no chain length from 2 to " +
         std::to_string(n - 1) + " (" + std::to_string(n) + " kernels); only the kernels alone are measured");
  }
  std::vector<std::vector<int>> chains;
  for (int kernel = 0; kernel < n; ++kernel) chains.push_back({kernel});
  for (const int length : lengths) {
    for (int first = 0; first < n; ++first) chains.push_back(augur::coupling::cyclic_chain(first, length, n));
  }
  return chains;
}

// The timings of every chain and of the whole loop, into `run`.
void take_samples(const augur_coupling_app& app, const Plan& plan, const std::vector<std::vector<int>>& chains,
                  augur::coupling::Run& run) {
  // Calibrate every chain, then take the samples in rounds (one sample of every chain per round), so
  // that a burst of other work on the machine falls on one sample of many chains, which their medians
  // discard, rather than on every sample of one chain.
  std::vector<std::int64_t> repetitions;
  for (const auto& chain : chains) repetitions.push_back(calibrate(app, chain, plan.min_time));
  // The whole loop's samples are spread over the rounds too: the time every error is measured against.
  std::vector<std::vector<double>> times(chains.size());
  std::vector<double> loop_times;
  report_round(plan.progress_file, 0, plan.samples);
  for (int sample = 0; sample < plan.samples; ++sample) {
    for (std::size_t index = 0; index < chains.size(); ++index) {
      times[index].push_back(sample_chain(app, chains[index], repetitions[index], plan.warmup));
    }
    const auto due = static_cast<std::size_t>((static_cast<long>(sample) + 1) * plan.loop_samples / plan.samples);
    while (loop_times.size() < due) loop_times.push_back(time_loop(app));
    if (plan.progress) {
      std::fprintf(stderr, "augur: coupling: round %d of %d done (%zu kernels and chains)\n", sample + 1, plan.samples,
                   chains.size());
    }
    report_round(plan.progress_file, sample + 1, plan.samples);
  }
  while (loop_times.size() < static_cast<std::size_t>(plan.loop_samples)) loop_times.push_back(time_loop(app));
  for (std::size_t index = 0; index < chains.size(); ++index) {
    run.chains.emplace_back(chains[index], summarize(std::move(times[index]), repetitions[index]));
  }
  run.loop = summarize(std::move(loop_times), 1);
  if (plan.progress) {
    std::fprintf(stderr, "augur: coupling: whole loop (%ld iterations): %.6g s\n", app.iterations, run.loop->seconds);
  }
}

// Rank 0 writes the measurement file (or, when it cannot, a copy in the temporary folder); 1 when it failed.
int write_measurements(const augur_coupling_app& app, const augur::coupling::Run& run, const Plan& plan) {
  int failed = 0;
  if (app.rank == 0) {
    const std::string text = augur::coupling::write_run(run);
    const std::string path = expand_output(plan.options.at("output"), app.name);
    try {
      augur::core::write_file_atomically(path, text);
      if (plan.progress && plan.announce) std::fprintf(stderr, "augur: coupling measurements written to %s\n", path.c_str());
    } catch (const std::exception& error) {
      // A long measurement is not thrown away for a bad path: keep it in the temporary folder.
      const std::string kept = augur::core::temporary_directory() + "/" +
                               expand_output("%a-%p.coupling.jsonl", augur::core::file_name_part(app.name));
      try {
        augur::core::write_file_atomically(kept, text);
        warn("augur_coupling_measure(): " + augur::core::describe_error(error) + "; the measurements are in " + kept);
      } catch (const std::exception& second) {
        warn("augur_coupling_measure(): " + augur::core::describe_error(error) + "; and " + second.what() +
             "; no measurement file written");
      }
      failed = 1;
    }
  }
  return failed;
}

}  // namespace

int measure_coupling(augur_coupling_app& app) {
  if (app.kernels.empty()) {
    warn("augur_coupling_measure(): '" + app.name + "' has no kernels; nothing measured");
    return AUGUR_ERROR;
  }
  const Plan plan = plan_measurement(app);
  if (app.size <= 0 && app.rank == 0) {
    warn("augur_coupling_measure(): '" + app.name +
         "' has no problem size (augur_coupling_set_problem): its coupling values cannot be reused for other sizes");
  }

  augur::coupling::Run run;
  run.application = app.name;
  run.dataset = app.dataset;
  run.problem_size = app.size;
  run.footprint_bytes = app.footprint;
  run.iterations = app.iterations;
  run.threads = omp_get_max_threads();
  run.ranks = app.ranks;
  run.machine = describe_machine();
  run.started = utc_now();
  run.options = plan.options;
  for (const KernelEntry& kernel : app.kernels) run.kernels.push_back({kernel.name, kernel.calls});

  const std::vector<std::vector<int>> chains = chains_to_measure(app, plan.options);
  if (app.setup != nullptr) app.setup(app.hook_data);
  take_samples(app, plan, chains, run);
  int failed = write_measurements(app, run, plan);
  failed = static_cast<int>(app.max_over_ranks(failed));
  return failed != 0 ? AUGUR_ERROR : AUGUR_OK;
}

}  // namespace augur::runtime
