// augur run's words for one outer parallel region (run_outer_print.hpp). Guide: docs/run.md.
#include "run_outer_print.hpp"

#include <algorithm>
#include <cstdio>

#include "run_print.hpp"

namespace augur::cli {

std::string construct_list(const nlohmann::json& found, std::size_t shown) {
  const nlohmann::json& all = found.at("constructs");
  const std::string region_file = found.contains("region") ? source_file(found.at("region")) : "";
  const auto name = [&all, &region_file](std::size_t index) {
    return loop_name(all[index], region_file) + " " + all[index].value("kind", std::string("?"));
  };
  std::string constructs;
  std::size_t listed = 0;
  for (std::size_t groups = 0; listed < all.size() && groups < shown; ++groups) {
    const std::string first = name(listed);
    std::size_t run = 1;
    while (listed + run < all.size() && name(listed + run) == first) ++run;
    constructs += (constructs.empty() ? "" : ", ") + first + (run > 1 ? " x " + std::to_string(run) : "");
    listed += run;
  }
  const int length = found.value("length", 0);
  const std::size_t period = std::max(all.size(), static_cast<std::size_t>(std::max(length, 0)));
  if (period > listed) constructs += ", ... (" + std::to_string(period - listed) + " more)";
  return constructs;
}

void print_outer_estimates(const selfanalysis::ReportRegion& outer) {
  const auto error = [&](double estimate) { return outer.elapsed > 0.0 ? (estimate - outer.elapsed) / outer.elapsed * 100.0 : 0.0; };
  std::printf("  execution time of the region on P=%d: estimated %s at iteration %ld (%.1f%% of the run, %+.1f%%)", outer.team,
              format_seconds(outer.estimated_time).c_str(), outer.estimated_at_iteration, 100.0 * outer.estimated_at_fraction,
              error(outer.estimated_time));
  if (outer.latest_estimated_time >= 0.0) {
    std::printf("; latest %s at iteration %ld (%.1f%%, %+.1f%%)", format_seconds(outer.latest_estimated_time).c_str(),
                outer.latest_estimated_at_iteration, 100.0 * outer.latest_estimated_at_fraction, error(outer.latest_estimated_time));
  }
  std::printf("; actual %s\n", format_seconds(outer.elapsed).c_str());
}

void print_placement(const selfanalysis::ReportRegion& outer) {
  if (outer.team < 2 || outer.placement_steps <= 0) return;  // one thread is on one core; no count: an older report
  const double share = static_cast<double>(outer.placement_one_cpu) / static_cast<double>(outer.placement_steps);
  std::printf("  placement: the team on one core in %ld of %ld measured steps (%.0f%%): ", outer.placement_one_cpu, outer.placement_steps,
              100.0 * share);
  if (share >= 0.9) {
    std::printf("packed: S(%d) is one core's speedup (the threads took turns), not %d cores'; OMP_PROC_BIND=true "
                "OMP_PLACES=cores spreads them\n",
                outer.team, outer.team);
  } else if (share <= 0.1) {
    std::printf("spread: S(%d) is the speedup on %d cores\n", outer.team, outer.team);
  } else {
    std::printf("mixed: S(%d) mixes one core's speedup and %d cores'\n", outer.team, outer.team);
  }
}

}  // namespace augur::cli
