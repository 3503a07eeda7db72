// The TSPP language (src/tspp/parser.cpp): parse; a task system that parses is written back
// (write_task_system) and must read back to the same text.
#include "augur/tspp.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  tspp::TaskSystem system;
  try {
    system = tspp::parse_task_system(fuzz::text_of(data, size), "input.tspp");
  } catch (const core::InputError&) {
    return 0;
  }
  const std::string written = tspp::write_task_system(system);
  tspp::TaskSystem again;
  try {
    again = tspp::parse_task_system(written, "written.tspp");
  } catch (const core::InputError& error) {
    fuzz::fail("a written task system does not parse", std::string(error.what()) + "\n--- written\n" + written);
  }
  fuzz::expect(tspp::write_task_system(again) == written, "a written task system reads back differently", written);
  fuzz::expect(tspp::describe_structure(again) == tspp::describe_structure(system),
               "the structure changed on the way back", written);
  return 0;
}
