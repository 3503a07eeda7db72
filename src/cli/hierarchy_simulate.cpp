// augur hierarchy simulate (--machine M | --levels L --fanout F --processors P) (--model UU20|FILE | --program FILE)
// [--seed S] [--replications R] [--threads T] [--json] [-q] (docs/hierarchy.md): reads the inputs, runs the
// replications (a model's program drawn anew in each, from the stream (seed, replication)) over threads and,
// under mpirun, over the ranks (sim/parallel), and rank 0 prints.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "hierarchy_command.hpp"
#include "hierarchy_print.hpp"
#include "sim/parallel/ranks.hpp"
#include "flags.hpp"
#include "progress.hpp"

namespace augur::cli {

namespace hierarchy = sim::hierarchy;

std::shared_ptr<HierarchyOptions> add_hierarchy_simulate(CLI::App& command) {
  auto options = std::make_shared<HierarchyOptions>();
  auto* machine = command.add_option("--machine", options->machine, "The machine file (docs/formats.md, \"Hierarchical machines\")")->type_name("FILE");
  command.add_option("--levels", options->levels, "Levels of control subsystems (without --machine)")->default_val(2)->check(CLI::Range(1, 8))->excludes(machine);
  command.add_option("--fanout", options->fanout, "Children of every CS above the lowest level (without --machine)")->default_val(4)->check(CLI::Range(1, 65536))->excludes(machine);
  command.add_option("--processors", options->processors, "Processors under each lowest CS (without --machine)")->default_val(4)->check(CLI::Range(1, 1 << 20))->excludes(machine);
  auto* model = command.add_option("--model", options->model, "A program behaviour model: UU20, XU11, XP11, XU20 or a model file (docs/formats.md, \"Program behaviour models\")")->type_name("MODEL");
  auto* program = command.add_option("--program", options->program, "A program file (augur hierarchy generate; docs/formats.md, \"Hierarchical programs\")")->type_name("FILE");
  model->excludes(program);
  command.add_option("--seed", options->seed, "Seed of the programs drawn from the model (replication r uses the stream (seed, r))")->default_val(1);
  command.add_option("--replications", options->replications, "Replications: programs drawn from the model, each simulated and executed ideally")->default_val(10)->check(CLI::Range(1, 1000000));
  add_threads_option(command, options->threads, "Threads for the replications (0: the hardware's); the numbers do not depend on it", 0)->default_val(0);
  command.add_option("--trace", options->trace, "Write replication 0's timeline to FILE (Perfetto JSON: CSs and processors as rows, packets grasped and migrated as flows)")->type_name("FILE");
  add_json_flag(command, options->json, "JSON instead of the tables");
  add_progress_flags(command, options->progress, options->quiet);
  command.footer("Under mpirun the replications are shared among the ranks and rank 0 prints (docs/hierarchy.md, \"Replications over MPI ranks\").\n"
                 "Guide: docs/hierarchy.md");
  return options;
}

namespace {

int simulate_on_ranks(const HierarchyOptions& cli, const sim::parallel::Ranks& ranks) {
  if (cli.model.empty() && cli.program.empty()) throw core::InputError({"--model", 0, 0}, "give a program model (--model UU20|FILE) or a program (--program FILE)");
  if (!cli.trace.empty()) {
    std::vector<std::string> inputs;  // the files read (a preset model is not one)
    for (const std::string& input : {cli.machine, cli.program, hierarchy::preset_model_text(cli.model).empty() ? cli.model : std::string()})
      if (!input.empty()) inputs.push_back(input);
    core::refuse_output_over_inputs(cli.trace, inputs);
  }
  const hierarchy::Machine machine = load_machine(cli);
  hierarchy::SimulationOptions options;
  options.seed = cli.seed;
  options.replications = cli.program.empty() ? cli.replications : 1;  // a program file is one program: one run
  options.threads = cli.threads;
  options.source = cli.program.empty() ? cli.model : cli.program;
  std::function<hierarchy::Program(int)> program_of;
  if (!cli.program.empty()) {
    auto program = std::make_shared<hierarchy::Program>(hierarchy::parse_program(core::read_file(cli.program), cli.program));
    hierarchy::check_program_fits(*program, machine, cli.program);
    program_of = [program](int) { return *program; };
  } else {
    auto model = std::make_shared<hierarchy::ProgramModel>(load_model(cli.model, machine.levels, "--model"));
    program_of = [model, seed = cli.seed, name = cli.model](int replication) {
      sim::RandomStream random(seed, static_cast<std::uint64_t>(replication));
      return hierarchy::generate_program(*model, random, name);
    };
  }
  options.runner = [&ranks](int count, int threads, const std::function<hierarchy::Execution(int)>& replicate,
                            const std::function<void(int, hierarchy::Execution&&)>& combine) {
    sim::parallel::run_replications_over_ranks(
        ranks, count, threads, replicate, [](const hierarchy::Execution& run) { return sim::parallel::encode_doubles(hierarchy::execution_values(run)); },
        [](const std::string& bytes) { return hierarchy::execution_from_values(sim::parallel::decode_doubles(bytes)); }, combine);
  };
  catch_interruptions();  // Ctrl-C: the threads stop before their next replication; no output, the trace's temporary removed
  options.interruption = check_interrupted;
  const bool shown = options.replications > 1 && ranks.root();
  Progress bar("augur hierarchy simulate", options.replications, "replications", shown ? Progress::mode_for(cli.quiet, cli.progress) : Progress::Mode::off);
  options.progress = [&bar](int done) { bar.update(done); };
  // Replication 0 runs on rank 0 (the first block): rank 0 alone opens the timeline.
  const std::unique_ptr<core::OutputFile> trace = sim::parallel::open_output_on_root(ranks, cli.trace);
  std::unique_ptr<sim::TimelineWriter> timeline;
  if (trace) timeline = std::make_unique<sim::TimelineWriter>([&trace](std::string_view text) { trace->write(text); });
  options.timeline = timeline.get();
  const hierarchy::Summary summary = hierarchy::simulate(program_of, machine, options);
  if (!ranks.root()) return 0;
  if (timeline) {
    timeline->finish();
    trace->commit();
  }
  bar.clear();
  const std::string output = cli.json ? hierarchy_json(cli, machine, summary) : hierarchy_table(cli, machine, summary);
  std::fputs(output.c_str(), stdout);
  return 0;
}

}  // namespace

int run_hierarchy_simulate(const HierarchyOptions& cli) {
  return run_hierarchy_on_ranks("simulate", [&](const sim::parallel::Ranks& ranks) { return simulate_on_ranks(cli, ranks); });
}

}  // namespace augur::cli
