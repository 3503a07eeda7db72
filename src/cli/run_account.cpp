// augur run's account of where a region's time went (run_account.hpp). Guide: docs/run.md.
#include "run_account.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/table.hpp"
#include "run_print.hpp"

namespace augur::cli {
namespace {

// "+1.234 ms"; below half a microsecond "+0.000 ms" (never "-0.000").
std::string milliseconds(double seconds) { return core::format_value("%+.3f", std::fabs(seconds) < 5e-7 ? 0.0 : seconds * 1e3) + " ms"; }

// Iterations of one kind: their count, their time, what they are.
struct Kind {
  long iterations = 0;
  double seconds = 0.0;
  std::string what;
  std::string why;
};

// "where the region's E went: N iterations x T(P) t = N t, and each kind beyond its count x T(P):", then a table, one
// row a kind: its count n (of `unit`), what it is, its seconds less n x T(P) (a total over the kind, not per
// iteration), why. Every kind has its row (a fixed shape), zero or not; the rows and N x T(P) add up to E.
void print_account(double elapsed, long iterations, int processors, double iteration_time, const std::vector<Kind>& kinds,
                   const char* unit) {
  const std::string tp = "T(" + std::to_string(processors) + ")";
  std::printf("  where the region's %s went: %ld iterations x %s %s = %s, and each kind beyond its count x %s:\n",
              format_seconds(elapsed).c_str(), iterations, tp.c_str(), format_seconds(iteration_time).c_str(),
              format_seconds(static_cast<double>(iterations) * iteration_time).c_str(), tp.c_str());
  std::size_t width = 4;
  for (const Kind& kind : kinds) width = std::max(width, kind.what.size());
  std::printf("    %10s  %-*s  %12s\n", unit, static_cast<int>(width), "kind", "beyond");
  for (const Kind& kind : kinds) {
    const double beyond = kind.seconds - static_cast<double>(kind.iterations) * iteration_time;
    std::printf("    %10ld  %-*s  %12s%s\n", kind.iterations, static_cast<int>(width), kind.what.c_str(), milliseconds(beyond).c_str(),
                kind.why.empty() ? "" : ("  " + kind.why).c_str());
  }
}

}  // namespace

void print_outer_account(const selfanalysis::ReportRegion& outer) {
  const selfanalysis::ReportTimeAccount& account = outer.time_account;
  if (!account.known || account.iteration_time <= 0.0) return;
  const auto kind = [](const selfanalysis::ReportSteps& steps, const char* what, const char* why) {
    return Kind{steps.steps, steps.seconds, what, why};
  };
  print_account(account.elapsed, account.iterations, outer.team, account.iteration_time,
                {kind(account.team, "team", "(the tool's delay in them)"),
                 kind(account.baseline, "baseline", "(the threads one after the other)"),
                 kind(account.preempted, "preempted", "(left out: another process)"),
                 kind(account.left_out, "slow", "(left out: beyond the outlier limit, or the team's own switches)"),
                 kind(account.not_measured, "not measured", "(before the period was found, dropped at the windows' edges or incomplete, after the last)")},
                "steps");
}

void print_loops_account(const selfanalysis::ReportRegion& region, int processors) {
  const selfanalysis::ReportPoint* on = region.point(processors);
  if (on == nullptr || !on->calculated || on->speedup <= 0.0 || region.baseline <= 0 || processors == region.baseline) return;
  const double iteration_time = table_iteration_time(region, *on);
  std::vector<Kind> kinds;
  long measured = 0;
  double seconds = 0.0;
  for (const selfanalysis::ReportPoint& point : region.points) {
    if (point.measured_time < 0.0) return;  // a report written before the measured times
    if (point.measured_iterations <= 0) continue;
    const std::string count = std::to_string(point.processors) + (point.processors == 1 ? " processor" : " processors");
    kinds.push_back(Kind{point.measured_iterations, point.measured_time, "on " + count,
                         point.processors == region.baseline ? "(the baseline)" : ""});
    measured += point.measured_iterations;
    seconds += point.measured_time;
  }
  if (measured > region.iterations) return;  // not one run's count: nothing to account for
  kinds.push_back(Kind{region.iterations - measured, region.elapsed - seconds, "not measured",
                       "(warm-up, after a change of processors; and the time between iterations)"});
  print_account(region.elapsed, region.iterations, processors, iteration_time, kinds, "iterations");
}

}  // namespace augur::cli
