#include "speedup_command.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "core/files.hpp"
#include "core/process.hpp"
#include "core/table.hpp"
#include "selfanalysis/speedup_experiment.hpp"
#include "runtime/options.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;
using selfanalysis::ExperimentRun;

int machine_processors() {
  const unsigned count = std::thread::hardware_concurrency();
  return count == 0 ? 1 : static_cast<int>(count);
}

struct RunPlan {
  const char* kind;  // "time", "analyze", "sweep"
  int processors;
  int repetition;
};

std::string last_lines(const std::string& text, int count) {
  std::size_t position = text.size();
  while (count-- > 0 && position > 0) {
    const auto newline = text.rfind('\n', position - 1);
    if (newline == std::string::npos) return text;
    position = newline;
    if (position + 1 == text.size()) ++count;
  }
  return text.substr(position == 0 ? 0 : position + 1);
}

class Experiment {
public:
  Experiment(const SpeedupOptions& options, int max_threads) : options_(options), max_threads_(max_threads) {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    wait_policy_ = policy != nullptr && *policy != '\0' ? policy : "passive";
  }

  ExperimentRun run(const RunPlan& plan, int repetition, int number, int total) {
    const fs::path report = scratch_.path() / ("run-" + std::to_string(number) + ".json");
    core::ProcessOptions process;
    process.discard_output = true;
    process.environment = {
        {"OMP_NUM_THREADS", std::to_string(plan.processors)},
        {"OMP_WAIT_POLICY", wait_policy_},
        {"AUGUR_MODE", std::string(plan.kind) == "time" ? "time" : "analyze"},
        {"AUGUR_REPORT", report.string()},
        {"AUGUR_SUMMARY", "0"},
        {"AUGUR_BASELINE", options_.baseline},
        {"AUGUR_SWEEP", std::string(plan.kind) == "sweep" ? sweep_list() : ""},
        {"AUGUR_SWEEP_EVERY", std::to_string(options_.sweep_every)},
    };
    if (!options_.quiet) {
      std::fprintf(stderr, "augur speedup: run %d/%d: %s on %d thread%s ...", number, total, plan.kind, plan.processors,
                   plan.processors == 1 ? "" : "s");
      std::fflush(stderr);
    }
    const core::ProcessResult result = core::run_process(options_.command, process);
    if (!options_.quiet) std::fprintf(stderr, " %.3f s\n", result.wall_seconds);
    if (const int signal_number = core::interrupted()) {
      throw std::runtime_error(std::string("interrupted by signal ") + std::to_string(signal_number) + " (" +
                               strsignal(signal_number) + "); no result");
    }
    if (!result.succeeded()) {
      throw std::runtime_error("'" + options_.command.front() + "' " + result.describe_status() + " (" + plan.kind + " run on " +
                               std::to_string(plan.processors) + (plan.processors == 1 ? " thread" : " threads") +
                               "); the end of its stderr:\n" +
                               (result.standard_error.empty() ? std::string("(empty)") : last_lines(result.standard_error, 10)));
    }
    if (!fs::exists(report)) {
      throw std::runtime_error("'" + options_.command.front() +
                               "' wrote no augur report: is it linked with libaugur and its loop marked with "
                               "augur_init_parallel_region (docs/self-analysis.md)?");
    }
    ExperimentRun run;
    run.processors = plan.processors;
    run.repetition = repetition;
    run.wall_seconds = result.wall_seconds;
    run.report = selfanalysis::parse_report(core::read_file(report.string()), report.string());
    return run;
  }

  [[nodiscard]] std::string sweep_list() const {
    std::string list;
    for (int p = 1; p <= max_threads_; ++p) list += (p > 1 ? "," : "") + std::to_string(p);
    return list;
  }
  [[nodiscard]] const std::string& wait_policy() const { return wait_policy_; }

private:
  const SpeedupOptions& options_;
  int max_threads_;
  core::TemporaryFolder scratch_{"augur-speedup"};  // the runs' reports
  std::string wait_policy_;
};

nlohmann::ordered_json number(double value) {
  return std::isnan(value) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(value);
}

void print_json(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result, int max_threads,
                const std::string& wait_policy) {
  nlohmann::ordered_json json;
  json["command"] = options.command;
  json["region"] = {{"id", result.region_id}, {"length", result.region_length}};
  json["baseline"] = result.baseline;
  json["max_threads"] = max_threads;
  json["repeat"] = options.repeat;
  json["wait_policy"] = wait_policy;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& point : result.points) {
    nlohmann::ordered_json item;
    item["p"] = point.processors;
    item["time_s"] = number(point.time);
    item["region_time_s"] = number(point.region_time);
    item["time_sa_s"] = number(point.analyzed_time);
    item["ts"] = number(point.traditional);
    item["ts_min"] = number(point.traditional_min);
    item["ts_max"] = number(point.traditional_max);
    item["sa_n"] = number(point.self_analyzer);
    item["sa_n_min"] = number(point.self_analyzer_min);
    item["sa_n_max"] = number(point.self_analyzer_max);
    item["sa_n_mean"] = number(point.self_analyzer_mean);
    item["sa_1"] = number(point.self_analyzer_one);
    item["st"] = number(point.self_tuning);
    item["estimated_time_s"] = number(point.estimated_time);
    item["region_time_sa_s"] = number(point.analyzed_region_time);
    item["overhead"] = number(point.overhead);
    points.push_back(std::move(item));
  }
  json["points"] = std::move(points);
  json["overhead"] = number(result.overhead);
  json["notes"] = result.notes;
  std::printf("%s\n", json.dump(2).c_str());
}

void print_table(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result, const std::string& wait_policy) {
  std::string command;
  for (const auto& word : options.command) command += (command.empty() ? "" : " ") + word;
  std::printf("augur speedup: %s\n", command.c_str());
  std::printf("region %llu (%d parallel loops), baseline %d, median of %d run%s per point, OMP_WAIT_POLICY=%s\n\n",
              static_cast<unsigned long long>(result.region_id), result.region_length, result.baseline, options.repeat,
              options.repeat == 1 ? "" : "s", wait_policy.c_str());
  using core::format_number;
  core::TextTable table(
      {"p", "time_s", "region_s", "TS", "SA(N)", "SA(N)run", "SA(1)", "ST'", "est_s", "sa_region_s", "overhead"});
  for (const auto& point : result.points) {
    table.add_row({std::to_string(point.processors), format_number(point.time, 3), format_number(point.region_time, 3),
                   format_number(point.traditional, 2), format_number(point.self_analyzer, 2),
                   format_number(point.self_analyzer_mean, 2),
                   format_number(point.self_analyzer_one, 2), format_number(point.self_tuning, 2),
                   format_number(point.estimated_time, 3), format_number(point.analyzed_region_time, 3),
                   format_number(point.overhead, 3)});
  }
  std::printf("%s\n", table.render().c_str());
  if (options.repeat > 1) {
    std::printf("spread over the %d repetitions (min..max):\n", options.repeat);
    for (const auto& point : result.points) {
      if (point.processors == 1) continue;
      std::printf("  p=%d  TS %s..%s  SA(N) %s..%s\n", point.processors, format_number(point.traditional_min, 2).c_str(),
                  format_number(point.traditional_max, 2).c_str(), format_number(point.self_analyzer_min, 2).c_str(),
                  format_number(point.self_analyzer_max, 2).c_str());
    }
    std::printf("\n");
  }
  std::printf("overhead of the self-analyzer (time with / time without, all points): %s\n",
              format_number(result.overhead, 3).c_str());
  std::printf("time_s, region_s: program and region without the self-analyzer; TS = region_s(1) / region_s(p);\n"
              "SA(N): self-analyzer, one run per p (its last value); SA(N)run: the same runs' T(B) / mean T(p) over\n"
              "the whole run; SA(1): one run sweeping p; ST': self-tuning' (busy CPU / wall);\n"
              "est_s: the self-analyzer's first estimate of the region time; sa_region_s: that region's actual time.\n");
  for (const auto& note : result.notes) std::printf("note: %s\n", note.c_str());
}

}  // namespace

CLI::App* add_speedup_command(CLI::App& app, SpeedupOptions& options) {
  CLI::App* command = app.add_subcommand(
      "speedup",
      "Run an instrumented program on 1..N threads and compare its traditional speedup (TS) with the speedup the "
      "self-analyzer computes while it runs (SA(N exec), SA(1 exec)) and the self-tuning' estimate (ST').");

  command->add_option("--max-threads", options.max_threads, "Largest thread count P (default: the machine's processors)")
      ->check(CLI::Range(1, 4096));
  command->add_option("--baseline", options.baseline, "Baseline processors B of the self-analyzer: a count or 'half'")
      ->default_val("1")
      ->check([](const std::string& value) -> std::string {
        // The library's own rule for AUGUR_BASELINE.
        runtime::Settings settings;
        return runtime::apply_option(settings, "baseline", value).value_or("");
      });
  command->add_option("--repeat", options.repeat, "Runs per configuration; the table shows medians")
      ->default_val(5)
      ->check(CLI::Range(1, 1000));
  command->add_option("--sweep-every", options.sweep_every, "Iterations per thread count in the SA(1 exec) run")
      ->default_val(10)
      ->check(CLI::Range(2, 1000000));
  command->add_flag("--no-sweep", options.no_sweep, "Skip the SA(1 exec) run");
  command->add_option("--region", options.region, "Region id to report (default: the longest-running)")
      ->check([](const std::string& value) -> std::string {
        const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
        return digits ? "" : "'" + value + "' is not a region id (a non-negative integer)";
      });
  command->add_flag("--json", options.json, "Print JSON instead of the table");
  command->add_flag("-q,--quiet", options.quiet, "No progress lines on stderr");
  command->add_option("program", options.command, "The instrumented program and its arguments, after --")->required();
  command->footer(
      "In each repetition, every p runs the program with OMP_NUM_THREADS=p twice: with AUGUR_MODE=time (the region\n"
      "timed, nothing else) and with AUGUR_MODE=analyze; then one run on N threads sweeps p = 1..N (AUGUR_SWEEP).\n"
      "OMP_WAIT_POLICY is set to passive unless already set. Guide: docs/speedup.md. Example:\n"
      "  augur speedup --max-threads 2 -- build/bin/swim 512 400");
  return command;
}

int run_speedup_command(const SpeedupOptions& options) {
  try {
    core::forward_interruptions();
    const int max_threads = options.max_threads > 0 ? options.max_threads : machine_processors();
    Experiment experiment(options, max_threads);
    std::vector<RunPlan> plans;
    for (int repetition = 0; repetition < options.repeat; ++repetition) {
      for (int p = 1; p <= max_threads; ++p) {
        plans.push_back({"time", p, repetition});
        plans.push_back({"analyze", p, repetition});
      }
      if (!options.no_sweep) plans.push_back({"sweep", max_threads, repetition});
    }
    selfanalysis::ExperimentInput input;
    input.choose_region = options.region.has_value();
    input.region_id = options.region.value_or(0);
    int number = 0;
    for (const RunPlan& plan : plans) {
      ExperimentRun run = experiment.run(plan, plan.repetition, ++number, static_cast<int>(plans.size()));
      const std::string kind = plan.kind;
      (kind == "time" ? input.timed : kind == "analyze" ? input.analyzed : input.swept).push_back(std::move(run));
    }
    selfanalysis::ExperimentResult result = selfanalysis::summarize_experiment(input);
    if (options.json) {
      print_json(options, result, max_threads, experiment.wait_policy());
    } else {
      print_table(options, result, experiment.wait_policy());
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur speedup: %s\n", error.what());
    return 1;
  }
}

}  // namespace augur::cli
