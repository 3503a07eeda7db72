#include "gen_tasks_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "augur/core/expression.hpp"
#include "command.hpp"
#include "core/files.hpp"
#include "flags.hpp"

namespace augur::cli {

namespace {

double digits(double value) {
  return value < 10.0 ? 1.0 : std::floor(std::log10(value)) + 1.0;
}

// The characters of the names p1 .. pN ("r", "t" and the number), together.
double names_length(double count) {
  double total = 0.0;
  for (double power = 1.0; power <= count; power *= 10.0) total += count - power + 1.0;  // the numbers' digits
  return count + total;
}

// The size of what write_generated_task_system writes for `options`, estimated from the options alone
// (docs/tspp.md#augur-gen-tasks): the resource lines; per task its line with K·P + (1 - P)^K demands on
// average (at least one), each ` rK: D;` with D at most its integer digits and three decimals; the
// structure's leaves about min(depth, log3 N) + 1 deep (groups split in 3 parts on average) and its groups
// (at most 4^(level-1) at a level, about one per two tasks) on two lines each.
double estimated_output_bytes(const tspp::GeneratorOptions& options) {
  const double tasks = options.tasks;
  const double resources = options.resources;
  const double depth = std::min<double>(options.depth, std::log(tasks) / std::log(3.0));
  const double use = options.use_probability;
  const double demands = resources * use + std::pow(1.0 - use, resources);
  const double demand_length = digits(options.demand_max) + 4.0;
  const double resource_name = names_length(resources) / resources;
  double groups = 0.0;
  for (double level = 1.0, width = 1.0; level <= depth + 1.0 && groups < tasks; ++level, width *= 4.0) groups += width;
  groups = std::min(groups, std::max(1.0, tasks / 2.0));
  const double header = 9.0 + 5.0 + 10.0;  // "resource\n", "task\n", "structure\n"
  const double resource_lines = resources * (2.0 + 13.0) + names_length(resources);
  const double task_lines =
      tasks * (2.0 + 5.0 + 3.0 + demands * (4.0 + resource_name + demand_length)) + names_length(tasks);
  const double leaves = tasks * (2.0 * (depth + 1.0) + 2.0) + names_length(tasks);
  return header + resource_lines + task_lines + leaves + groups * 2.0 * (2.0 * depth + 2.0);
}

std::string format_bytes(double bytes) {
  char text[32];
  if (bytes >= 1e9) {
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  } else if (bytes >= 1e6) {
    std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  }
  return text;
}

// Refuses, before anything is written, a system whose text would be larger than --max-size.
void check_output_size(const GenTasksOptions& options) {
  const tspp::GeneratorOptions& generator = options.generator;
  const double bytes = estimated_output_bytes(generator);
  if (bytes <= static_cast<double>(options.max_size)) return;
  throw std::invalid_argument(
      "--tasks " + std::to_string(generator.tasks) + " --resources " + std::to_string(generator.resources) + " --use " +
      core::format_shortest(generator.use_probability) + " would write about " + format_bytes(bytes) +
      ", more than --max-size (" + format_bytes(static_cast<double>(options.max_size)) +
      "); give a larger --max-size to write it");
}

}  // namespace

void add_gen_tasks_options(CLI::App* command, GenTasksOptions& options) {
  auto& generator = options.generator;
  command->add_option("--tasks", generator.tasks, "Number of tasks")->default_val(10)->check(CLI::Range(1, 1000000));
  command
      ->add_option("--resources", generator.resources,
                   "Number of resources (single-server queuing centres r1, r2, ...)")
      ->default_val(3)
      ->check(CLI::Range(1, 10000));
  command->add_option("--depth", generator.depth, "Groups nested at most this deep; serial and parallel alternate")
      ->default_val(3)
      ->check(CLI::Range(1, 1000));
  command->add_option("--demand-min", generator.demand_min, "Smallest demand")
      ->default_val(0.1)
      ->check(finite_number())
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--demand-max", generator.demand_max,
                   "Largest demand (at most 1e15, the largest the input language reads)")
      ->default_val(1.0)
      ->check(finite_number())
      ->check(CLI::PositiveNumber)
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            const double value = std::strtod(text.c_str(), nullptr);
            if (value <= tspp::max_demand) return {};
            return "Value " + text + " is above 1e15, the largest demand the TSPP language reads";
          },
          "at most 1e15"));
  command->add_option("--use", generator.use_probability, "Probability that a task uses each resource")
      ->default_val(0.7)
      ->check(finite_number())
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--seed", generator.seed, "Seed")->default_val(1);
  command->add_option("-o,--output", options.output, "Write to this file (whole or not at all) instead of stdout");
  command
      ->add_option("--max-size", options.max_size,
                   "Refuse a system whose text would be larger (an estimate from the options; 4G = 4e9 bytes)")
      ->transform(CLI::AsSizeValue(true))
      ->default_str("4G");
  command->footer("Example:\n  augur gen-tasks --tasks 40 --resources 4 --depth 4 --seed 7 | augur tspp");
}

int run_gen_tasks_command(const GenTasksOptions& options) {
  try {
    check_output_size(options);
    // Standard output gets the text as it is drawn; a file too, through a temporary file that replaces
    // it whole at the end (memory independent of the size of the system).
    if (options.output.empty()) {
      bool failed = false;
      tspp::write_generated_task_system(options.generator, [&failed](std::string_view piece) {
        failed = failed || std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size();
      });
      if (failed || std::fflush(stdout) != 0) throw std::runtime_error("cannot write to standard output");
      return 0;
    }
    core::OutputFile output(options.output);
    tspp::write_generated_task_system(options.generator, [&output](std::string_view piece) { output.write(piece); });
    output.commit();
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur gen-tasks: %s\n", error.what());
    return 1;
  }
}

Runner declare_gen_tasks_command(CLI::App& command) {
  auto options = std::make_shared<GenTasksOptions>();
  add_gen_tasks_options(&command, *options);
  return [options] { return run_gen_tasks_command(*options); };
}

}  // namespace augur::cli
