// BSP superstep traces (src/bsp/trace.cpp, `augur bsp`): parse; a trace that parses is evaluated by both
// models (OBSP* and BSP, both ways of combining bytes), as augur bsp does, and their times must not be NaN.
#include <cmath>
#include <string>

#include "bsp/bsp.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  const std::string text = fuzz::text_of(data, size);
  bsp::Trace trace;
  try {
    trace = bsp::parse_trace("input.jsonl", text);
  } catch (const core::InputError&) {
    return 0;
  }
  for (const bsp::Combine combine : {bsp::Combine::Sum, bsp::Combine::Max}) {
    const bsp::Comparison comparison = bsp::compare(trace, {1e-9, 1e-5, combine});
    fuzz::expect(!std::isnan(comparison.obsp.program), "OBSP* predicts NaN", text);
    fuzz::expect(!std::isnan(comparison.measured_program), "the measured time is NaN", text);
    if (comparison.bsp.applicable) fuzz::expect(!std::isnan(comparison.bsp.program), "BSP predicts NaN", text);
    fuzz::expect(comparison.obsp.rank_finish.size() == static_cast<std::size_t>(trace.ranks),
                 "OBSP* has not one finish time per rank", text);
  }
  return 0;
}
