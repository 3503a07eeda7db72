// Kernel coupling measurement files (src/coupling/run_file.cpp, `augur couple`, `augur db add`): parse;
// a run that parses is written back (write_run) and must read back to the same text.
#include <stdexcept>
#include <string>

#include "augur/core/diagnostics.hpp"
#include "augur/coupling.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  coupling::Run run;
  try {
    run = coupling::read_run(fuzz::text_of(data, size), "input.jsonl");
  } catch (const core::InputError&) {
    return 0;
  }
  const std::string written = coupling::write_run(run);
  coupling::Run again;
  try {
    again = coupling::read_run(written, "written.jsonl");
  } catch (const core::InputError& error) {
    fuzz::fail("a written run does not parse", std::string(error.what()) + "\n--- written\n" + written);
  }
  fuzz::expect(coupling::write_run(again) == written, "a written run reads back differently", written);
  (void)run.complete_lengths();
  for (int kernel = 0; kernel < static_cast<int>(run.kernels.size()); ++kernel) {
    (void)run.invocations(kernel);
    try {
      (void)run.alone(kernel);
    } catch (const std::invalid_argument&) {  // documented: a kernel not measured alone
    }
  }
  return 0;
}
