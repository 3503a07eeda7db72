// The hierarchical simulator's parsers (src/sim/hierarchy/): the input is read as a machine, a program
// behaviour model and a program. A machine that parses has consistent per-level lists; a model's draws are
// never below its minimum; a program that parses writes back to a text that parses to the same text, and
// (when small) runs to its end on a two-processor machine of its levels, executing every elementary function.
#include "augur/core/diagnostics.hpp"
#include "fuzz_common.hpp"
#include "sim/hierarchy/simulate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace hierarchy = augur::sim::hierarchy;
  if (size > augur::fuzz::max_input) return 0;
  const std::string text = augur::fuzz::text_of(data, size);
  try {
    const hierarchy::Machine machine = hierarchy::parse_machine(text, "input.machine");
    augur::fuzz::expect(machine.level.size() == static_cast<std::size_t>(machine.levels) && machine.fanout.size() == static_cast<std::size_t>(machine.levels - 1),
                        "per-level settings that do not match the levels", text);
    augur::fuzz::expect(machine.total_processors() >= 1 && machine.total_processors() <= hierarchy::maximum_processors, "a machine out of bounds", text);
  } catch (const augur::core::InputError&) {
  }
  try {
    const hierarchy::ProgramModel model = hierarchy::parse_model(text, "input.model").for_levels(3);
    augur::sim::RandomStream random(1, 0);
    for (int draw = 0; draw < 16; ++draw) {
      for (const auto& distribution : model.size) augur::fuzz::expect(distribution.draw(random, true) >= distribution.minimum(), "a count below its minimum", text);
      for (const auto& distribution : model.firing) augur::fuzz::expect(distribution.draw(random, true) >= 1, "a firing of no task", text);
      augur::fuzz::expect(model.execution_time.draw(random, false) >= 0, "a negative execution time", text);
    }
  } catch (const augur::core::InputError&) {
  }
  try {
    const hierarchy::Program program = hierarchy::parse_program(text, "input.hprog");
    const std::string written = hierarchy::write_program(program);
    augur::fuzz::expect(hierarchy::write_program(hierarchy::parse_program(written, "written.hprog")) == written, "a program that does not read back", text);
    if (program.elementary_executions() <= 2000) {
      hierarchy::Machine machine = hierarchy::uniform_machine(program.levels, 2, 2);
      for (auto& level : machine.level) level.capacity = 1e6;
      const hierarchy::Execution run = hierarchy::simulate_hierarchy(program, machine);
      augur::fuzz::expect(static_cast<double>(run.elementary) == program.elementary_executions(), "elementary functions lost", text);
      augur::fuzz::expect(run.time >= 0 && hierarchy::ideal_time(program, 4) >= 0, "a run that did not end", text);
    }
  } catch (const augur::core::InputError&) {
  }
  return 0;
}
