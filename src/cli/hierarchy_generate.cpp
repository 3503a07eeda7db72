// augur hierarchy generate MODEL [--levels L] [--seed S] [-o PROGRAM] (docs/hierarchy.md): draws one
// synthetic program from a behaviour model (the stream of (seed, 0), the program replication 0 of
// `simulate --model MODEL --seed S` runs) and writes it whole, or to standard output.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "core/files.hpp"
#include "hierarchy_command.hpp"

namespace augur::cli {

std::shared_ptr<HierarchyOptions> add_hierarchy_generate(CLI::App& command) {
  auto options = std::make_shared<HierarchyOptions>();
  command.add_option("MODEL", options->model, "A preset (UU20, XU11, XP11, XU20) or a model file (docs/formats.md, \"Program behaviour models\")")->required();
  command.add_option("--levels", options->levels, "Program levels when the model leaves them open (default 2: those of the machine it will run on)")
      ->check(CLI::Range(1, 8))
      ->each([options](const std::string&) { options->levels_given = true; });
  command.add_option("--seed", options->seed, "Seed of the random stream")->default_val(1);
  command.add_option("-o,--output", options->output, "The program file to write (default: standard output)")->type_name("PROGRAM");
  return options;
}

int run_hierarchy_generate(const HierarchyOptions& options) {
  return run_hierarchy_reporting_errors("generate", [&] {
    if (!options.output.empty()) core::refuse_output_over_inputs(options.output, {options.model});
    const auto model = load_model(options.model, options.levels_given ? options.levels : 0, "--levels");
    sim::RandomStream random(options.seed, 0);
    const auto program = sim::hierarchy::generate_program(model, random, options.model);
    const std::string text = sim::hierarchy::write_program(program);
    if (options.output.empty()) {
      std::fputs(text.c_str(), stdout);
      return 0;
    }
    core::write_file_atomically(options.output, text);
    std::printf("%s: %zu functions, %zu tasks, %.0f elementary functions, %d levels (model %s, seed %llu)\n", options.output.c_str(),
                program.functions.size(), program.callee.size(), program.elementary_executions(), program.levels, options.model.c_str(),
                static_cast<unsigned long long>(options.seed));
    return 0;
  });
}

}  // namespace augur::cli
