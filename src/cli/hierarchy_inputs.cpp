// What the subcommands of augur hierarchy share: the machine (a file or the sweep flags) and the program
// model (a preset or a file) (hierarchy_command.hpp).
#include "augur/core/diagnostics.hpp"
#include "command.hpp"
#include "core/files.hpp"
#include "hierarchy_command.hpp"

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

}  // namespace augur::cli
