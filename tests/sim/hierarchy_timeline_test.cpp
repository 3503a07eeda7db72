// The hierarchical simulator's timeline (simulate_hierarchy with a TimelineWriter; docs/hierarchy.md, "The
// timeline"): the JSON parsed back and compared with the times of tiny programs worked out by hand in the
// comments; and an execution carried as doubles (to cross MPI ranks) comes back bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/hierarchy/simulate.hpp"
#include "sim/hierarchy/sweep.hpp"
#include "support/trace_nesting.hpp"

namespace augur::sim::hierarchy {
namespace {

struct Traced {
  Execution run;
  nlohmann::json events;
};

Traced traced(const std::string& program, const std::string& machine) {
  std::string text;
  TimelineWriter timeline([&text](std::string_view piece) { text += piece; });
  Traced result{simulate_hierarchy(parse_program(program, "p"), parse_machine(machine, "m"), "p", &timeline), {}};
  timeline.finish();
  result.events = nlohmann::json::parse(text).at("traceEvents");
  EXPECT_EQ(augur::test::trace_nesting_problems(result.events), std::vector<std::string>{}) << "every row nests (Perfetto)";
  return result;
}

// A time of the file (microseconds; a model unit shown as a second) in thousandths of a model unit.
long long units(const nlohmann::json& microseconds) { return std::llround(microseconds.get<double>() * 1e-3); }

using Slice = std::tuple<int, std::string, long long, long long>;  // row, name, start, end (thousandths of a unit)
std::multiset<Slice> slices(const nlohmann::json& events, const std::string& category) {
  std::multiset<Slice> found;
  for (const auto& event : events)
    if (event.at("ph") == "X" && event.at("cat") == category)
      found.insert({event.at("tid").get<int>(), event.at("name").get<std::string>(), units(event.at("ts")),
                    units(event.at("ts")) + units(event.at("dur"))});
  return found;
}

using Flow = std::tuple<std::string, int, long long, int, long long>;  // name, from row, at, to row, at
std::multiset<Flow> flows(const nlohmann::json& events, const std::string& category) {
  std::map<std::uint64_t, Flow> by_id;
  for (const auto& event : events) {
    if (event.at("ph") != "s" && event.at("ph") != "f") continue;
    if (event.at("cat") != category) continue;
    Flow& flow = by_id[event.at("id").get<std::uint64_t>()];
    std::get<0>(flow) = event.at("name").get<std::string>();
    if (event.at("ph") == "s") std::tie(std::get<1>(flow), std::get<2>(flow)) = std::tuple{event.at("tid").get<int>(), units(event.at("ts"))};
    else std::tie(std::get<3>(flow), std::get<4>(flow)) = std::tuple{event.at("tid").get<int>(), units(event.at("ts"))};
  }
  std::multiset<Flow> found;
  for (const auto& [id, flow] : by_id) found.insert(flow);
  return found;
}

const char* const two_functions =
    "levels 2\n"
    "function main\n  call a\n  call b after 0\n"
    "function a\n  run 2\n  run 3\n"
    "function b\n  run 1\n";

// Rows: 0 the top CS, 1 the lowest, 2 and 3 the processors (times in thousandths of a unit).
TEST(HierarchyTimeline, TheWorkedExampleHandComputed) {
  // schedule 0.1, transfer 0.2: the top serves a at 0..0.1, it arrives at 0.3; the lowest CS serves a's tasks
  // at 0.3..0.4 (to processor 0, the last idle, arriving 0.6: runs 0.6..2.6) and 0.4..0.5 (processor 1:
  // 0.7..3.7); a's result reaches the top at 4.1, which serves b at 4.1..4.2 (arrives 4.4); its task is
  // served at 4.4..4.5 to processor 1 (freed last, so on top of the idle stack): runs 4.7..5.7.
  const Traced result = traced(two_functions, "levels 2\nfanout 1\nprocessors 2\nschedule 0.1\ntransfer 0.2\n");
  EXPECT_NEAR(result.run.time, 6.1, 1e-12);
  std::map<int, std::string> rows;
  for (const auto& event : result.events)
    if (event.at("ph") == "M") rows[event.at("tid").get<int>()] = event.at("args").at("name").get<std::string>();
  EXPECT_EQ(rows, (std::map<int, std::string>{{0, "level 1 CS 0"}, {1, "level 2 CS 0"}, {2, "processor 0"}, {3, "processor 1"}}));
  EXPECT_EQ(slices(result.events, "elementary"), (std::multiset<Slice>{{2, "a 0", 600, 2600}, {3, "a 1", 700, 3700}, {3, "b 0", 4700, 5700}}));
  EXPECT_EQ(slices(result.events, "schedule"),
            (std::multiset<Slice>{{0, "schedule", 0, 100}, {0, "schedule", 4100, 4200}, {1, "schedule", 300, 400}, {1, "schedule", 400, 500},
                                  {1, "schedule", 4400, 4500}}));
  EXPECT_EQ(flows(result.events, "grasp"), (std::multiset<Flow>{{"grasp a", 0, 0, 1, 300},
                                                                {"grasp a", 1, 300, 2, 600},
                                                                {"grasp a", 1, 400, 3, 700},
                                                                {"grasp b", 0, 4100, 1, 4400},
                                                                {"grasp b", 1, 4400, 3, 4700}}));
  EXPECT_TRUE(flows(result.events, "migrate").empty());
  // Results up, a transfer (0.2) each: a 0 ends at 2.6 (to the lowest CS at 2.8), a 1 at 3.7 (3.9), which
  // completes a: its result leaves the lowest CS at 3.9 for the top (4.1); b 0 ends at 5.7 (5.9), b's
  // result reaches the top at 6.1, the execution time. main has no parent: no flow.
  EXPECT_EQ(flows(result.events, "result"), (std::multiset<Flow>{{"result a", 2, 2600, 1, 2800},
                                                                 {"result a", 3, 3700, 1, 3900},
                                                                 {"result a", 1, 3900, 0, 4100},
                                                                 {"result b", 3, 5700, 1, 5900},
                                                                 {"result b", 1, 5900, 0, 6100}}));
}

// main runs a (2), b (1) and c (1) at once; two lowest CSs (rows 1, 2: level 2's CS 0 and 1) with one
// processor each (rows 3, 4).
TEST(HierarchyTimeline, AMigrationIsAFlowBetweenTheCss) {
  // No scheduling or transfer time; grasp threshold 2: a and c go to row 1, b to row 2. Row 2 (load 1, the
  // top empty) starves and takes c from row 1 at 0 over the level-2 network (0.5): c arrives at 0.5 and runs
  // after b, 1..2, on processor 1 (docs/hierarchy.md, "Grasp and migration on a crafted case").
  const Traced result = traced("levels 2\nfunction main\n  call a\n  call b\n  call c\nfunction a\n  run 2\nfunction b\n  run 1\nfunction c\n  run 1\n",
                               "levels 2\nfanout 2\nprocessors 1\nschedule 0\ntransfer 0\nnetwork 0 0.5\ngrasp 2\nmigrate-minimum 1\n");
  EXPECT_DOUBLE_EQ(result.run.time, 2.5);
  EXPECT_EQ(slices(result.events, "elementary"), (std::multiset<Slice>{{3, "a 0", 0, 2000}, {4, "b 0", 0, 1000}, {4, "c 0", 1000, 2000}}));
  EXPECT_TRUE(slices(result.events, "schedule").empty());
  EXPECT_EQ(flows(result.events, "migrate"), (std::multiset<Flow>{{"migrate", 1, 0, 2, 500}}));
  EXPECT_EQ(flows(result.events, "grasp"), (std::multiset<Flow>{{"grasp a", 0, 0, 1, 0},
                                                                {"grasp b", 0, 0, 2, 0},
                                                                {"grasp c", 0, 0, 1, 0},
                                                                {"grasp a", 1, 0, 3, 0},
                                                                {"grasp b", 2, 0, 4, 0},
                                                                {"grasp c", 2, 1000, 4, 1000}}));
  // Results (no transfer time): a ends at 2 on processor 0 and b at 1 on processor 1, each completing its
  // function, whose result goes to the top at once; c's task ends at 2 in row 2, which sends the result back
  // over the network to row 1, where c lives (2.5), and c's result goes up at 2.5.
  EXPECT_EQ(flows(result.events, "result"), (std::multiset<Flow>{{"result a", 3, 2000, 1, 2000},
                                                                 {"result a", 1, 2000, 0, 2000},
                                                                 {"result b", 4, 1000, 2, 1000},
                                                                 {"result b", 2, 1000, 0, 1000},
                                                                 {"result c", 4, 2000, 2, 2000},
                                                                 {"result c", 2, 2000, 1, 2500},
                                                                 {"result c", 1, 2500, 0, 2500}}));
}

TEST(HierarchyTimeline, AnExecutionCrossesAsDoublesBitForBit) {
  Execution run;
  run.time = 6.1;
  run.ideal_time = 4.0 / 3.0;
  run.elementary = 123456789012L;
  run.events = (std::uint64_t{1} << 52) + 1;
  run.levels = {{1, 0.1, 0.2, 0.3, 0.4, 5, 6, 7, 8}, {4, 1.0 / 7, 2.5, 3.5, 1e-300, 50, 60, 70, 80}};
  run.processor_utilization = {0.25, 1.0 / 3, 0.0};
  const Execution back = execution_from_values(execution_values(run));
  EXPECT_EQ(back.time, run.time);
  EXPECT_EQ(back.ideal_time, run.ideal_time);
  EXPECT_EQ(back.elementary, run.elementary);
  EXPECT_EQ(back.events, run.events);
  ASSERT_EQ(back.levels.size(), 2U);
  for (std::size_t l = 0; l < 2; ++l) {
    const LevelRun& a = run.levels[l];
    const LevelRun& b = back.levels[l];
    EXPECT_EQ(std::tie(a.control_subsystems, a.utilization, a.occupancy, a.occupancy_maximum, a.occupancy_share, a.grasped, a.migrated, a.transfers, a.network),
              std::tie(b.control_subsystems, b.utilization, b.occupancy, b.occupancy_maximum, b.occupancy_share, b.grasped, b.migrated, b.transfers, b.network));
  }
  EXPECT_EQ(back.processor_utilization, run.processor_utilization);
}

TEST(HierarchyTimeline, ASweepPointCrossesAsDoublesBitForBit) {
  SweepPoint point{"UU20", 4, 32, true, {}};
  point.summary.replications = 3;
  point.summary.events = 987654321;
  point.summary.time = {3, 10.5, 0.25, 1.0 / 3, 10.1, 10.9};
  point.summary.migrated = {3, 7, 1e-310, 2, 5, 9};
  point.summary.levels.push_back({{3, 0.1}, {3, 0.2}, {3, 0.3}, {3, 0.4}, {3, 5}, {3, 6}, {3, 7}, {3, 8.5}});
  point.summary.processor_utilization = {{3, 0.5, 0.1, 0.2, 0.3, 0.7}, {3, 1.0 / 7}};
  const SweepPoint back = point_from_values(point_values(point));
  EXPECT_EQ(back.model, "");  // not carried: the sweep knows it by the point's index
  EXPECT_EQ(std::tie(back.fanout, back.processors, back.possible), std::tie(point.fanout, point.processors, point.possible));
  EXPECT_EQ(back.summary.replications, 3);
  EXPECT_EQ(back.summary.events, 987654321U);
  const auto same = [](const Statistic& a, const Statistic& b) {
    return std::tie(a.count, a.mean, a.deviation, a.half_width, a.minimum, a.maximum) == std::tie(b.count, b.mean, b.deviation, b.half_width, b.minimum, b.maximum);
  };
  EXPECT_TRUE(same(back.summary.time, point.summary.time));
  EXPECT_TRUE(same(back.summary.migrated, point.summary.migrated));
  ASSERT_EQ(back.summary.levels.size(), 1U);
  EXPECT_TRUE(same(back.summary.levels[0].network, point.summary.levels[0].network));
  EXPECT_TRUE(same(back.summary.levels[0].utilization, point.summary.levels[0].utilization));
  ASSERT_EQ(back.summary.processor_utilization.size(), 2U);
  EXPECT_TRUE(same(back.summary.processor_utilization[1], point.summary.processor_utilization[1]));
  EXPECT_TRUE(same(back.summary.processor_utilization[0], point.summary.processor_utilization[0]));
}

}  // namespace
}  // namespace augur::sim::hierarchy
