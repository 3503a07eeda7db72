// The actor program, machine and mapping parsers (src/sim/actors/): the input is read as each of the three.
// A program that parses has its jumps and behaviours inside its code; a machine that parses routes every
// site to every other in at most `sites` hops along its channels; a mapping names a site of the machine for
// every player.
#include "fuzz_common.hpp"
#include "sim/actors/simulate.hpp"

namespace {

const char* const fixed_program = "type A { on go { compute 1 } }\nplayer a : A\ngroup g[3] : A\nstart go to a\n";

void check_program(const augur::sim::actors::Program& program, const std::string& text) {
  const auto size = static_cast<int>(program.code.size());
  for (const auto& instruction : program.code)
    augur::fuzz::expect(instruction.jump >= -1 && instruction.jump <= size, "a jump outside the code", text);
  for (const auto& type : program.types)
    for (const auto& [kind, start] : type.behaviours)
      augur::fuzz::expect(kind >= 0 && kind < static_cast<int>(program.kinds.size()) && start >= 0 && start < size, "a behaviour outside the code", text);
  augur::fuzz::expect(!program.start.empty(), "a program without a start message", text);
}

void check_machine(const augur::sim::actors::Machine& machine, const std::string& text) {
  const int sites = machine.sites;
  for (int from = 0; from < sites && from < 64; ++from) {
    for (int to = 0; to < sites && to < 64; ++to) {
      int at = from;
      int hops = 0;
      while (at != to && hops <= sites) {
        const int channel = machine.next_channel(at, to);
        augur::fuzz::expect(channel >= 0 && channel < static_cast<int>(machine.channels.size()) &&
                                machine.channels[static_cast<std::size_t>(channel)].from == at,
                            "a route through a channel that does not leave the site", text);
        at = machine.channels[static_cast<std::size_t>(channel)].to;
        ++hops;
      }
      augur::fuzz::expect(at == to, "a route that does not arrive", text);
    }
  }
  augur::fuzz::expect(machine.cut_through == (machine.switching == "cut-through") && machine.wormhole == (machine.switching == "wormhole") &&
                          (machine.switching == "cut-through" || machine.switching == "store-and-forward" || machine.switching == "wormhole"),
                      "a switching that is none of the three", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur::sim::actors;
  if (size > augur::fuzz::max_input) return 0;
  const std::string text = augur::fuzz::text_of(data, size);
  try {
    check_program(parse_program(text, "input.actors"), text);
  } catch (const augur::core::InputError&) {
  }
  try {
    check_machine(parse_machine(text, "input.machine"), text);
  } catch (const augur::core::InputError&) {
  }
  static const Program program = parse_program(fixed_program, "fixed.actors");
  static const Machine machine = parse_machine("topology ring 4\n", "fixed.machine");
  try {
    const MappingFile mapping = read_mapping(text, "input.map", program, machine);
    for (const int site : mapping.mapping.sites) augur::fuzz::expect(site >= 0 && site < machine.sites, "a mapping to no site", text);
  } catch (const augur::core::InputError&) {
  }
  return 0;
}
