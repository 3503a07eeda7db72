// The interposition file that libaugur_preload and libaugur_ompt write and `augur run` reads
// (src/interpose/run_result.cpp): parse, then decide on it as augur run does.
#include <string>

#include "augur/core/diagnostics.hpp"
#include "fuzz_common.hpp"
#include "interpose/run_result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  interpose::RunInfo info;
  try {
    info = interpose::parse_run_info(fuzz::text_of(data, size), "input.json");
  } catch (const core::InputError&) {
    return 0;
  }
  (void)interpose::run_problem(info);
  (void)interpose::nothing_measured_reason(info);
  if (interpose::outer_region_only(info) && info.worksharing) {
    const interpose::WorksharingPeriod& first = *info.worksharing;
    for (const int threads : {1, 2, first.team_size}) {
      (void)interpose::second_run_wanted(first, threads);
      interpose::SecondRunEnd second;
      second.info = info;
      (void)interpose::combine_runs(first, threads, second).note();
    }
  }
  return 0;
}
