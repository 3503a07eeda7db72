// The registries of the option sets and their lookups; options_values.cpp checks and reads values,
// options_channel.cpp the tool channel and the environment, options_settings.cpp libaugur's settings.
#include "options.hpp"

#include <array>
#include <cctype>

namespace augur::runtime {
namespace {

constexpr double max_processors = 4096;
constexpr double max_iterations = 1000000;

// libaugur (docs/self-analysis.md, "Options"; experiments.md for the last three).
constexpr OptionSpec runtime_options[] = {
    {.key = "mode", .type = OptionType::Choice, .default_value = "analyze", .words = "analyze|time|off",
     .help = "`analyze`: the self-analysis (baseline, then the allocated processors); `time`: only time the regions "
             "(no baseline, no thread changes; `augur speedup` uses it for the runs without the self-analyzer); `off`: do "
             "nothing"},
    {.key = "baseline", .type = OptionType::Integer, .default_value = "auto", .minimum = 1, .maximum = max_processors,
     .words = "auto|half",
     .help = "processors B of the baseline iterations: `auto`, half of the allocated ones but at most 4 (B = min(4, P/2), "
             "at least 1: a measured speedup from P = 2 on, the seeds' 4 from P = 8 on); `half` of the allocated ones; or a "
             "count (never above the allocated ones)"},
    {.key = "warmup_iterations", .type = OptionType::Integer, .default_value = "1", .minimum = 0, .maximum = max_iterations,
     .help = "iterations after the region starts that run on the allocated processors, unmeasured, before the baseline"},
    {.key = "baseline_iterations", .type = OptionType::Integer, .default_value = "3", .minimum = 1, .maximum = max_iterations,
     .help = "iterations averaged into the reference time T(B)"},
    {.key = "baseline_every", .type = OptionType::Integer, .default_value = "20", .minimum = 0, .maximum = max_iterations,
     .help = "re-measure T(B) (a window of `baseline_iterations` on B) after every this many measured iterations on the "
             "allocated processors; T(B) is the median of the windows; 0: measure it once"},
    {.key = "measure_iterations", .type = OptionType::Integer, .default_value = "3", .minimum = 1, .maximum = max_iterations,
     .help = "iterations averaged into each T(p) before a speedup is computed"},
    {.key = "history", .type = OptionType::Real, .default_value = "0.6", .minimum = 0, .maximum = 1, .maximum_excluded = true,
     .help = "weight of the previous speedup: S = history x S_old + (1 - history) x S_new"},
    {.key = "sweep", .type = OptionType::IntegerList, .default_value = "", .minimum = 1, .maximum = max_processors,
     .words = "off", .may_be_empty = true,
     .help = "SA(1 exec): the processor counts visited after the baseline, e.g. 1,2,4; empty or `off`: no sweep"},
    {.key = "sweep_every", .type = OptionType::Integer, .default_value = "10", .minimum = 2, .maximum = max_iterations,
     .help = "iterations spent on each processor count of the sweep"},
    {.key = "self_tuning", .type = OptionType::Boolean, .default_value = "1",
     .help = "measure the self-tuning' speedup ST' from the process CPU time"},
    {.key = "report", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "write the JSON report to this file at the end (`%p` becomes the process id), whole or not at all; "
             "empty: none"},
    {.key = "summary", .type = OptionType::Boolean, .default_value = "1", .help = "print a short summary on stderr at the end"},
    {.key = "watch_sigcont", .type = OptionType::Boolean, .default_value = "0",
     .help = "install a SIGCONT handler (when the program has none) to discard the iterations during which it was "
             "stopped; the program's blocking calls may then return early (EINTR) after a stop"},
    {.key = "manager", .type = OptionType::Text, .default_value = "default",
     .help = "the processor manager to report to and take the allocation from, when it runs (`augur manager start "
             "--name`, docs/manager.md); `off`: never connect"},
    {.key = "experiment_file", .type = OptionType::Text, .default_value = "%n.cll.jsonl",
     .help = "CALL experiments: the file the records are appended to (`%n` becomes the program's name, `%p` the "
             "process id)"},
    {.key = "counters", .type = OptionType::NameList, .default_value = "", .may_be_empty = true, .max_items = 8,
     .help = "CALL experiments: the PAPI events counted in each instance, e.g. PAPI_TOT_CYC,PAPI_L1_DCM; empty: none"},
    {.key = "bsp_trace", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "superstep trace: the file augur_bsp_write (and augur_mpi_bsp_report) writes; empty: none"},
    {.key = "trace", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "write a timeline of the run (Chrome trace JSON: open it in ui.perfetto.dev) to this file at the end "
             "(`%p` becomes the process id, `%n` the program's name), whole or not at all; empty: none"},
};

// The kernel coupling harness (include/augur/coupling.h, docs/couple.md).
constexpr OptionSpec coupling_options[] = {
    {.key = "coupling.output", .type = OptionType::Text, .default_value = "%a.coupling.jsonl",
     .help = "the measurement file (`%a` becomes the application's name, `%p` the process id)"},
    {.key = "coupling.min_time", .type = OptionType::Real, .default_value = "0.03", .minimum = 0, .maximum = 3600,
     .minimum_excluded = true,
     .help = "seconds per sample of a kernel or chain: the repetitions are calibrated to last this long"},
    {.key = "coupling.samples", .type = OptionType::Integer, .default_value = "9", .minimum = 1, .maximum = 10000,
     .help = "samples per kernel or chain (median and confidence interval)"},
    {.key = "coupling.warmup", .type = OptionType::Integer, .default_value = "1", .minimum = 0, .maximum = 10000,
     .help = "untimed executions before each sample"},
    {.key = "coupling.chains", .type = OptionType::LengthSpan, .default_value = "all", .minimum = 0, .maximum = 99999,
     .words = "all|none",
     .help = "chain lengths to measure: `all` (2 .. n - 1), `none` (the kernels alone and the loop), K or K1-K2"},
    {.key = "coupling.application_samples", .type = OptionType::Integer, .default_value = "3", .minimum = 1,
     .maximum = 10000, .help = "timed runs of the whole loop"},
    {.key = "coupling.progress", .type = OptionType::Boolean, .default_value = "0",
     .help = "one line on stderr per round of samples, and one for the loop"},
    {.key = "coupling.announce", .type = OptionType::Boolean, .default_value = "1",
     .help = "with `coupling.progress`, one line on stderr naming the measurement file once written (augur couple measure turns it off: the file is its own, read back and removed)"},
    {.key = "coupling.progress_file", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "a file to which the harness appends `round K of N` before the first round of samples and after each "
             "(augur couple measure makes one and draws its progress bar from it); only a file that exists is "
             "written, none is created; empty: none"},
};

// libaugur_preload and libaugur_ompt (docs/run.md), besides the runtime set. dpd.window's range is
// dpd::Detector's (checked in session.cpp).
constexpr OptionSpec run_options[] = {
    {.key = "dpd.window", .type = OptionType::Integer, .default_value = "128", .minimum = 4, .maximum = 1 << 20,
     .help = "samples in the periodicity detector's window"},
    {.key = "run.iterations", .type = OptionType::Integer, .default_value = "", .minimum = 1,
     .maximum = static_cast<double>(1L << 40), .may_be_empty = true,
     .help = "iterations of the program's main loop, when known: gives the estimate of the execution time; empty: unknown"},
    {.key = "run.info", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "the interposition file written at exit (`%p` becomes the process id); empty: none"},
};

constexpr OptionSet runtime_set{"runtime", "", "augur_set_option", runtime_options};
constexpr OptionSet coupling_set{"coupling", "coupling.", "augur_coupling_set_option", coupling_options};
constexpr OptionSet run_set{"run", "run.", "", run_options};
constexpr std::array<const OptionSet*, 3> all_sets = {&runtime_set, &coupling_set, &run_set};

constexpr OtherVariable others[] = {
    {"AUGUR_DB", "the augur command", "the performance database (docs/db.md); unset or empty: $XDG_DATA_HOME/augur/performance.db, else ~/.local/share/augur/performance.db"},
    {"AUGUR_CORE_BINDING", "libaugur_preload.so, libaugur_ompt.so",
     "the team during an outer region's baseline windows (docs/run.md): unset or `on`, bound to the master's core; "
     "`stay`, given its own masks back without being moved; `off`, not bound"},
    {"AUGUR_SPIN_SAMPLING", "libaugur_preload.so",
     "`0`: the program's spin loops are not sampled, their spins count as work (docs/run.md); unset or any other value: "
     "sampled when the program's code has a spin loop"},
    {"AUGUR_NPB_DIR", "bench_outer_region", "a folder of NPB-CPP programs built outside the repository (docs/benchmarks.md)"},
    {"AUGUR_BENCH_VERBOSE", "bench_model_accuracy", "set: the mispredicted cases printed"},
};
}  // namespace

const OptionSet& runtime_option_set() { return runtime_set; }
const OptionSet& coupling_option_set() { return coupling_set; }
const OptionSet& run_option_set() { return run_set; }
std::span<const OptionSet* const> option_sets() { return all_sets; }

const OptionSet* find_option_set(std::string_view name) {
  for (const OptionSet* set : all_sets) {
    if (set->name == name) return set;
  }
  return nullptr;
}

std::string environment_name(std::string_view key) {
  std::string name = "AUGUR_";
  for (const char c : key) name += c == '.' || c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string_view api_key(const OptionSet& set, const OptionSpec& option) {
  return option.key.starts_with(set.prefix) ? option.key.substr(set.prefix.size()) : option.key;
}

std::string flag_name(const OptionSet& set, const OptionSpec& option) {
  std::string flag = "--";
  for (const char c : api_key(set, option)) flag += c == '_' || c == '.' ? '-' : c;
  return flag;
}

const OptionSpec* find_option(const OptionSet& set, std::string_view key) {
  for (const OptionSpec& option : set.options) {
    if (api_key(set, option) == key) return &option;
  }
  return nullptr;
}

std::pair<const OptionSet*, const OptionSpec*> find_full_key(std::string_view key) {
  for (const OptionSet* set : all_sets) {
    for (const OptionSpec& option : set->options) {
      if (option.key == key) return {set, &option};
    }
  }
  return {nullptr, nullptr};
}

std::span<const OtherVariable> other_variables() { return others; }

namespace {
std::string markdown_cell(std::string_view text) {
  std::string cell;
  for (const char c : text) {
    if (c == '|') cell += '\\';
    cell += c;
  }
  return cell;
}
}  // namespace

std::string markdown_table(const OptionSet& set) {
  std::string table = "| key | variable | default | values | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const OptionSpec& option : set.options) {
    const std::string fallback = option.default_value.empty() ? "(empty)" : "`" + std::string(option.default_value) + "`";
    table += "| `" + std::string(option.key) + "` | `" + environment_name(option.key) + "` | " + fallback + " | " +
             markdown_cell(describe_values(option)) + " | " + markdown_cell(option.help) + " |\n";
  }
  return table;
}

}  // namespace augur::runtime
