#include "gen_tasks_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "command.hpp"
#include "core/files.hpp"
#include "flags.hpp"

namespace augur::cli {

void add_gen_tasks_options(CLI::App* command, GenTasksOptions& options) {
  auto& generator = options.generator;
  command->add_option("--tasks", generator.tasks, "Number of tasks")->default_val(10)->check(CLI::Range(1, 1000000));
  command->add_option("--resources", generator.resources, "Number of resources (single-server queuing centres r1, r2, ...)")
      ->default_val(3)
      ->check(CLI::Range(1, 10000));
  command->add_option("--depth", generator.depth, "Groups nested at most this deep; serial and parallel alternate")
      ->default_val(3)
      ->check(CLI::Range(1, 1000));
  command->add_option("--demand-min", generator.demand_min, "Smallest demand")->default_val(0.1)->check(finite_number())->check(CLI::PositiveNumber);
  command->add_option("--demand-max", generator.demand_max, "Largest demand (at most 1e15, the largest the input language reads)")
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
  command->footer("Example:\n  augur gen-tasks --tasks 40 --resources 4 --depth 4 --seed 7 | augur tspp");
}

int run_gen_tasks_command(const GenTasksOptions& options) {
  try {
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
