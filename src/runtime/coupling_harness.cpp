// The kernel coupling harness (include/augur/coupling.h; seed 002; docs/coupling.md): times each
// kernel alone, each chain of adjacent kernels along the cyclic loop, and the whole loop, then writes
// the measurement file (augur::coupling::write_run). Nothing throws across the C ABI.
#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/process.hpp"
#include "augur/core/stats.hpp"
#include "augur/coupling.h"
#include "augur/coupling.hpp"
#include "coupling_machine.hpp"
#include "internal.hpp"
#include "options.hpp"

namespace {

using augur::runtime::describe_machine;
using augur::runtime::monotonic_seconds;
using augur::runtime::utc_now;
using augur::runtime::warn;

struct KernelEntry {
  std::string name;
  augur_kernel_fn function = nullptr;
  void* data = nullptr;
  int calls = 1;
};

using augur::runtime::coupling_option_set;

// Empty when `value` is valid for the option with API key `key`, else why not (the registry's check).
std::string check_option(const std::string& key, const std::string& value) {
  augur::runtime::OptionValues probe(coupling_option_set());
  return probe.set_value(key, value).value_or("");
}

}  // namespace

struct augur_coupling_app {
  // Every entry point but create and destroy holds it: an application used by several threads at once is
  // used by one at a time (recursive: a kernel may call the API on its own application).
  std::recursive_mutex mutex;
  std::string name;
  long iterations = 1;
  std::vector<KernelEntry> kernels;
  augur_kernel_fn setup = nullptr;
  augur_kernel_fn reset = nullptr;
  void* hook_data = nullptr;
  std::string dataset;
  double size = 0;
  double footprint = 0;
  std::map<std::string, std::string> options;
  int rank = 0;
  int ranks = 1;
  augur_barrier_fn barrier = nullptr;
  augur_max_fn maximum = nullptr;
  void* context = nullptr;

  void sync() const {
    if (barrier != nullptr) barrier(context);
  }
  double max_over_ranks(double value) const { return maximum != nullptr ? maximum(value, context) : value; }
  void reset_data() const {
    if (reset != nullptr) reset(hook_data);
  }
  void run_chain(const std::vector<int>& chain) const {
    for (const int index : chain) {
      const KernelEntry& kernel = kernels[static_cast<std::size_t>(index)];
      kernel.function(kernel.data);
    }
  }
  // The options in force, by the rule of every option set: default < environment (AUGUR_COUPLING_<KEY>) <
  // the program's (augur_coupling_set_option) < the tool channel (AUGUR_TOOL_OPTIONS, which `augur couple
  // measure` sets). Bad values are warned about (on rank 0) and ignored.
  augur::runtime::OptionValues effective_options() const {
    if (rank == 0) augur::runtime::check_environment_once();  // one rank speaks for all
    const std::vector<std::pair<std::string, std::string>> api(options.begin(), options.end());
    augur::runtime::OptionSources sources;
    sources.environment = [](const char* variable) -> const char* { return std::getenv(variable); };
    sources.api = api;
    sources.tool_channel = std::getenv(std::string(augur::runtime::tool_channel_variable).c_str());
    sources.api_name = "augur_coupling_set_option";
    std::vector<std::string> warnings;
    augur::runtime::OptionValues values = augur::runtime::resolve_options(coupling_option_set(), sources, warnings);
    if (rank == 0 && !options_warned) {
      for (const std::string& warning : warnings) warn(warning);
      options_warned = true;
    }
    return values;
  }
  mutable bool options_warned = false;  // the options' warnings are said once per application
};

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

int measure(augur_coupling_app& app) {
  if (app.kernels.empty()) {
    warn("augur_coupling_measure(): '" + app.name + "' has no kernels; nothing measured");
    return AUGUR_ERROR;
  }
  const augur::runtime::OptionValues values = app.effective_options();  // every value checked
  std::map<std::string, std::string> options;
  for (const auto& [key, value] : values.entries()) options[key] = value;
  // With ranks, every rank must run the same collective calls: the counts are the largest any rank has.
  const double min_time = app.max_over_ranks(values.real("min_time"));
  const auto agreed = [&](const char* key) {
    return static_cast<int>(app.max_over_ranks(static_cast<double>(values.integer(key))));
  };
  const int samples = agreed("samples");
  const int warmup = agreed("warmup");
  const int loop_samples = agreed("application_samples");
  const bool progress = values.boolean("progress") && app.rank == 0;
  const bool announce = values.boolean("announce");
  const std::string progress_file = app.rank == 0 ? values.text("progress_file") : std::string();
  const int n = static_cast<int>(app.kernels.size());
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
  run.options = options;
  for (const KernelEntry& kernel : app.kernels) run.kernels.push_back({kernel.name, kernel.calls});

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
  if (app.setup != nullptr) app.setup(app.hook_data);
  // Calibrate every chain, then take the samples in rounds (one sample of every chain per round), so
  // that a burst of other work on the machine falls on one sample of many chains, which their medians
  // discard, rather than on every sample of one chain.
  std::vector<std::int64_t> repetitions;
  for (const auto& chain : chains) repetitions.push_back(calibrate(app, chain, min_time));
  // The whole loop's samples are spread over the rounds too: the time every error is measured against.
  std::vector<std::vector<double>> times(chains.size());
  std::vector<double> loop_times;
  report_round(progress_file, 0, samples);
  for (int sample = 0; sample < samples; ++sample) {
    for (std::size_t index = 0; index < chains.size(); ++index) {
      times[index].push_back(sample_chain(app, chains[index], repetitions[index], warmup));
    }
    const auto due = static_cast<std::size_t>((static_cast<long>(sample) + 1) * loop_samples / samples);
    while (loop_times.size() < due) loop_times.push_back(time_loop(app));
    if (progress) {
      std::fprintf(stderr, "augur: coupling: round %d of %d done (%zu kernels and chains)\n", sample + 1, samples,
                   chains.size());
    }
    report_round(progress_file, sample + 1, samples);
  }
  while (loop_times.size() < static_cast<std::size_t>(loop_samples)) loop_times.push_back(time_loop(app));
  for (std::size_t index = 0; index < chains.size(); ++index) {
    run.chains.emplace_back(chains[index], summarize(std::move(times[index]), repetitions[index]));
  }
  run.loop = summarize(std::move(loop_times), 1);
  if (progress) {
    std::fprintf(stderr, "augur: coupling: whole loop (%ld iterations): %.6g s\n", app.iterations, run.loop->seconds);
  }
  // Rank 0 writes; every rank returns its verdict.
  int failed = 0;
  if (app.rank == 0) {
    const std::string text = augur::coupling::write_run(run);
    const std::string path = expand_output(options.at("output"), app.name);
    try {
      augur::core::write_file_atomically(path, text);
      if (progress && announce) std::fprintf(stderr, "augur: coupling measurements written to %s\n", path.c_str());
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
  failed = static_cast<int>(app.max_over_ranks(failed));
  return failed != 0 ? AUGUR_ERROR : AUGUR_OK;
}

bool valid_name(const char* name) { return name != nullptr && name[0] != '\0' && std::strchr(name, '\n') == nullptr; }

// The application's lock; not held (with a message) in the unlikely case the system refuses it.
std::unique_lock<std::recursive_mutex> lock_application(augur_coupling_app& app) noexcept {
  try {
    return std::unique_lock(app.mutex);
  } catch (...) {
    std::fputs("augur: coupling: cannot lock the application; call ignored\n", stderr);
    return {};
  }
}

}  // namespace

extern "C" {

augur_coupling_app* augur_coupling_create(const char* name, long iterations) {
  if (!valid_name(name) || iterations < 1) {
    warn(std::string("augur_coupling_create(): ") + (!valid_name(name) ? "the name must be a non-empty line" :
                                                                         "iterations must be at least 1 (got " + std::to_string(iterations) + ")"));
    return nullptr;
  }
  try {
    auto* app = new augur_coupling_app;
    app->name = name;
    app->iterations = iterations;
    return app;
  } catch (const std::exception& error) {
    warn(std::string("augur_coupling_create(): ") + error.what());
    return nullptr;
  }
}

int augur_coupling_add_kernel(augur_coupling_app* app, const char* name, augur_kernel_fn kernel, void* data,
                              int calls) {
  if (app == nullptr) {
    warn("augur_coupling_add_kernel(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  if (!valid_name(name) || kernel == nullptr || calls < 1) {
    warn(std::string("augur_coupling_add_kernel(): ") +
         (!valid_name(name) ? "the name must be a non-empty line"
                            : kernel == nullptr ? "kernel '" + std::string(name) + "' has no function"
                                                : "kernel '" + std::string(name) + "': calls must be at least 1"));
    return AUGUR_ERROR;
  }
  for (const KernelEntry& other : app->kernels) {
    if (other.name == name) {
      warn("augur_coupling_add_kernel(): kernel '" + std::string(name) + "' is already declared");
      return AUGUR_ERROR;
    }
  }
  try {
    app->kernels.push_back({name, kernel, data, calls});
  } catch (const std::exception& error) {
    warn(std::string("augur_coupling_add_kernel(): ") + error.what());
    return AUGUR_ERROR;
  }
  return static_cast<int>(app->kernels.size()) - 1;
}

int augur_coupling_set_hooks(augur_coupling_app* app, augur_kernel_fn setup, augur_kernel_fn reset, void* data) {
  if (app == nullptr) {
    warn("augur_coupling_set_hooks(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  app->setup = setup;
  app->reset = reset;
  app->hook_data = data;
  return AUGUR_OK;
}

int augur_coupling_set_problem(augur_coupling_app* app, const char* dataset, double size, double footprint_bytes) {
  if (app == nullptr) {
    warn("augur_coupling_set_problem(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  if (!(size > 0) || !std::isfinite(size) || !(footprint_bytes >= 0) || !std::isfinite(footprint_bytes) ||
      (dataset != nullptr && std::strchr(dataset, '\n') != nullptr)) {
    warn("augur_coupling_set_problem(): the size must be positive and finite, the footprint non-negative, the "
         "label one line");
    return AUGUR_ERROR;
  }
  try {
    app->dataset = dataset == nullptr ? "" : dataset;
  } catch (const std::exception&) {
    return AUGUR_ERROR;
  }
  app->size = size;
  app->footprint = footprint_bytes;
  return AUGUR_OK;
}

int augur_coupling_set_option(augur_coupling_app* app, const char* key, const char* value) {
  if (app == nullptr || key == nullptr || value == nullptr) {
    warn(app == nullptr ? "augur_coupling_set_option(): no application (augur_coupling_create failed?)"
                        : "augur_coupling_set_option(): the key and the value must not be NULL");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  try {
    const std::string why = check_option(key, value);
    if (!why.empty()) {
      warn(std::string("augur_coupling_set_option(\"") + key + "\"): " + why);
      return AUGUR_ERROR;
    }
    app->options[key] = value;
  } catch (const std::exception& error) {
    warn(std::string("augur_coupling_set_option(): ") + error.what());
    return AUGUR_ERROR;
  }
  return AUGUR_OK;
}

int augur_coupling_set_communicator(augur_coupling_app* app, int rank, int ranks, augur_barrier_fn barrier,
                                    augur_max_fn maximum, void* context) {
  if (app == nullptr) {
    warn("augur_coupling_set_communicator(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  if (ranks < 1 || rank < 0 || rank >= ranks || barrier == nullptr || maximum == nullptr) {
    warn("augur_coupling_set_communicator(): need 0 <= rank < ranks, a barrier and a maximum");
    return AUGUR_ERROR;
  }
  app->rank = rank;
  app->ranks = ranks;
  app->barrier = barrier;
  app->maximum = maximum;
  app->context = context;
  return AUGUR_OK;
}

int augur_coupling_measure(augur_coupling_app* app) {
  if (app == nullptr) {
    warn("augur_coupling_measure(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  try {
    return measure(*app);
  } catch (const std::exception& error) {
    warn("augur_coupling_measure(): " + augur::core::describe_error(error));
  } catch (...) {
    warn("augur_coupling_measure(): a kernel or hook threw an exception; nothing written");
  }
  return AUGUR_ERROR;
}

void augur_coupling_destroy(augur_coupling_app* app) { delete app; }

}  // extern "C"
