// What the subcommands of augur hierarchy share: the machine (a file or the sweep flags) and the program
// model (a preset or a file), and how they run over MPI ranks (hierarchy_command.hpp).
#include <exception>
#include <memory>

#include "augur/core/diagnostics.hpp"
#include "command.hpp"
#include "core/files.hpp"
#include "hierarchy_command.hpp"
#include "sim/parallel/ranks.hpp"

namespace augur::cli {

namespace hierarchy = sim::hierarchy;

hierarchy::ProgramModel load_model(const std::string& name, int levels, const std::string& option) {
  const std::string preset = hierarchy::preset_model_text(name);
  hierarchy::ProgramModel model = preset.empty() ? hierarchy::parse_model(core::read_file(name), name) : hierarchy::parse_model(preset, name);
  model.name = name;
  if (levels <= 0) levels = model.levels != 0 ? model.levels : 2;
  if (model.levels != 0 && model.levels != levels)
    throw core::InputError({option, 0, 0}, "the model " + name + " has " + std::to_string(model.levels) + " levels, the machine " + std::to_string(levels));
  return model.for_levels(levels);
}

hierarchy::Machine load_machine(const HierarchyOptions& options) {
  if (!options.machine.empty()) return hierarchy::parse_machine(core::read_file(options.machine), options.machine);
  return hierarchy::uniform_machine(options.levels, options.fanout, options.processors);
}

int run_hierarchy_reporting_errors(const char* subcommand, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::exception& error) {
    return report_error(std::string("hierarchy ") + subcommand, error);
  }
}

// Under mpirun every rank reads the inputs and runs its share; rank 0 alone reports errors and prints.
int run_hierarchy_on_ranks(const char* subcommand, const std::function<int(const sim::parallel::Ranks&)>& body) {
  std::unique_ptr<sim::parallel::Ranks> ranks;
  const int status = run_hierarchy_reporting_errors(subcommand, [&] {
    ranks = std::make_unique<sim::parallel::Ranks>();
    return 0;
  });
  if (status != 0) return status;
  if (ranks->root()) return run_hierarchy_reporting_errors(subcommand, [&] { return body(*ranks); });
  try {
    return body(*ranks);  // errors: rank 0 reports them
  } catch (const std::exception&) {
    return 1;
  }
}

}  // namespace augur::cli
