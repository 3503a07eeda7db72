// The self-analysis report that libaugur writes and the commands read back (src/selfanalysis/report.cpp,
// `augur speedup`, `augur run`): parse, then look the regions up as the commands do.
#include <string>

#include "augur/core/diagnostics.hpp"
#include "augur/selfanalysis_report.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  selfanalysis::Report report;
  try {
    report = selfanalysis::parse_report(fuzz::text_of(data, size), "input.json");
  } catch (const core::InputError&) {
    return 0;
  }
  const selfanalysis::ReportRegion* main = report.main_region();
  fuzz::expect((main == nullptr) == report.regions.empty(), "a report with regions and no main region");
  for (const selfanalysis::ReportRegion& region : report.regions) {
    fuzz::expect(report.region(region.id) != nullptr, "a region that cannot be found by its id");
    for (const selfanalysis::ReportPoint& point : region.points)
      fuzz::expect(region.point(point.processors) != nullptr, "a point that cannot be found by its processors");
  }
  return 0;
}
