// bench_outer_region: the placement of the team on both sides of each round (docs/self-analysis.md, "The
// team's placement"): the one-run analysis's own count (the report's placement.one_cpu_fraction) and the
// polls of the run alone on two threads (placement_probe.hpp). A side is "packed" when its team was on one
// core at half its steps (polls) or more, "spread" otherwise; the goal's comparison is repeated over the
// rounds whose two sides got the same placement.
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "outer_region_report.hpp"
#include "placement_probe.hpp"

namespace augur::bench {

class PlacementRounds {
public:
  // One round: the augur run's report, the share of polls alone on two threads with both threads on one core
  // (negative: unknown), and the times alone on one and on two threads.
  void add(const RunReport& report, double alone_one_core, double one, double two) {
    Round round;
    round.tool = report.one_core.value_or(-1.0);
    round.alone = alone_one_core;
    round.one_run = report.one_run;
    round.traditional = two > 0.0 ? one / two : -1.0;
    rounds_.push_back(round);
  }

  [[nodiscard]] std::string last_text() const {
    if (rounds_.empty()) return "";
    const Round& round = rounds_.back();
    char text[240];
    std::snprintf(text, sizeof text, "      placement: team on one core in %s of the augur run's steps, %s of the polls alone on 2 threads (%s)\n",
                  percent(round.tool).c_str(), percent(round.alone).c_str(),
                  !round.known() ? "unknown" : (round.same() ? "same placement" : "different placements"));
    return text;
  }

  [[nodiscard]] std::string summary_text() const {
    std::vector<double> one_runs;
    std::vector<double> traditionals;
    int known = 0;
    int packed_tool = 0;
    int packed_alone = 0;
    for (const Round& round : rounds_) {
      if (!round.known()) continue;
      ++known;
      packed_tool += round.tool >= 0.5 ? 1 : 0;
      packed_alone += round.alone >= 0.5 ? 1 : 0;
      if (!round.same() || !round.one_run || round.traditional <= 0.0) continue;
      one_runs.push_back(*round.one_run);
      traditionals.push_back(round.traditional);
    }
    char text[400];
    if (known == 0) return "    placement: unknown on at least one side in every round\n";
    if (one_runs.empty()) {
      std::snprintf(text, sizeof text, "    placement: packed (one core at half the steps or more) in %d of %d augur runs, %d of %d runs alone; no round with the same placement on both sides\n",
                    packed_tool, known, packed_alone, known);
      return text;
    }
    const double one_run = median(one_runs);
    const double traditional = median(traditionals);
    std::snprintf(text, sizeof text,
                  "    placement: packed (one core at half the steps or more) in %d of %d augur runs, %d of %d runs alone; "
                  "in the %zu rounds with the same placement on both sides, median one-run S(2) %.3f against median T(1)/T(2) %.3f: %+.1f%%\n",
                  packed_tool, known, packed_alone, known, one_runs.size(), one_run, traditional, 100.0 * (one_run / traditional - 1.0));
    return text;
  }

private:
  struct Round {
    double tool = -1.0;
    double alone = -1.0;
    std::optional<double> one_run;
    double traditional = -1.0;
    [[nodiscard]] bool known() const { return tool >= 0.0 && alone >= 0.0; }
    [[nodiscard]] bool same() const { return (tool >= 0.5) == (alone >= 0.5); }
  };

  static std::string percent(double fraction) {
    if (fraction < 0.0) return "unknown";
    char text[16];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * fraction);
    return text;
  }

  static double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
  }

  std::vector<Round> rounds_;
};

}  // namespace augur::bench
