// The task-system simulator on the engine, on cases with exact answers (the engine alone: engine_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "augur/sim/task_system.hpp"
#include "support/trace_nesting.hpp"

namespace augur::sim {
namespace {

TaskSystemOptions deterministic(Discipline discipline = Discipline::FirstComeFirstServed, int visits = 1) {
  TaskSystemOptions options;
  options.replications = 3;
  options.service = ServiceDistribution::Deterministic;
  options.discipline = discipline;
  options.visits = visits;
  return options;
}

tspp::TaskSystem system_of(const std::string& text) { return tspp::parse_task_system(text, "test"); }

TEST(TaskSystemSimulation, ATaskAloneTakesItsDemand) {
  const auto system = system_of("resource cpu <- queuing; disk <- delay;\ntask a <- { cpu: 2; disk: 3; }\nstructure { a; }");
  for (int visits : {1, 10}) {
    const auto result = simulate(system, deterministic(Discipline::FirstComeFirstServed, visits));
    EXPECT_NEAR(result.completion.mean, 5.0, 1e-9) << "V = " << visits;
    EXPECT_NEAR(result.completion.deviation, 0.0, 1e-9);
    EXPECT_NEAR(result.resources[0].utilization, 0.4, 1e-9);
    EXPECT_NEAR(result.tasks[0].queue_of_task[0], 0.4, 1e-9);
    EXPECT_NEAR(result.tasks[0].arrival_queue[0], 0.0, 1e-12);
  }
}

TEST(TaskSystemSimulation, SerialTasksFollowEachOther) {
  const auto system = system_of("resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure { a; b; }");
  const auto result = simulate(system, deterministic());
  EXPECT_NEAR(result.tasks[1].start.mean, 1.0, 1e-12);
  EXPECT_NEAR(result.completion.mean, 3.0, 1e-12);
  EXPECT_NEAR(result.resources[0].utilization, 1.0, 1e-12);
}

TEST(TaskSystemSimulation, DisciplinesAndServersOnTwoParallelTasks) {
  const std::string tasks = "task a <- { cpu: 1; } b <- { cpu: 1; }\nstructure [ a; b; ]";
  // FCFS, one server: a is served first, b waits for it.
  const auto fcfs = simulate(system_of("resource cpu <- queuing;\n" + tasks), deterministic());
  EXPECT_NEAR(fcfs.tasks[0].residence.mean, 1.0, 1e-12);
  EXPECT_NEAR(fcfs.tasks[1].residence.mean, 2.0, 1e-12);
  EXPECT_NEAR(fcfs.tasks[1].arrival_queue[0], 1.0, 1e-12) << "b finds a there";
  EXPECT_NEAR(fcfs.completion.mean, 2.0, 1e-12);
  EXPECT_NEAR(fcfs.resources[0].queue_length, 1.5, 1e-12);  // 2 customers for 1, then 1 for 1
  // Processor sharing: both at half speed, both done at 2.
  const auto ps = simulate(system_of("resource cpu <- queuing;\n" + tasks), deterministic(Discipline::ProcessorSharing));
  EXPECT_NEAR(ps.tasks[0].residence.mean, 2.0, 1e-12);
  EXPECT_NEAR(ps.tasks[1].residence.mean, 2.0, 1e-12);
  // Two servers, or a delay centre: no waiting.
  const auto two = simulate(system_of("resource cpu <- queuing 2;\n" + tasks), deterministic());
  EXPECT_NEAR(two.completion.mean, 1.0, 1e-12);
  EXPECT_NEAR(two.resources[0].utilization, 1.0, 1e-12);
  const auto delay = simulate(system_of("resource cpu <- delay;\n" + tasks), deterministic());
  EXPECT_NEAR(delay.completion.mean, 1.0, 1e-12);
}

TEST(TaskSystemSimulation, ExponentialServiceHasTheRightMean) {
  // Two parallel tasks of mean demand 1 on one server: the server works until both are done, so the
  // completion time is the sum of two exponential services: mean 2.
  const auto system = system_of("resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 1; }\nstructure [ a; b; ]");
  TaskSystemOptions options;
  options.replications = 20000;
  const auto result = simulate(system, options);
  EXPECT_NEAR(result.completion.mean, 2.0, 3 * result.completion.half_width);
  EXPECT_NEAR(result.completion.deviation, std::sqrt(2.0), 0.05);
  EXPECT_GT(result.completion.half_width, 0.0);
  EXPECT_EQ(result.completion.count, 20000);
  EXPECT_GT(result.completion.minimum, 0.0);
  EXPECT_GT(result.completion.maximum, 4 * 2.0) << "an exponential sum exceeds 4 means in 20000 draws";
}

TEST(TaskSystemSimulation, SameSeedSameResults) {
  const auto system = system_of(
      "resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 2; } b <- { cpu: 2; disk: 1; }\n"
      "structure [ a; b; ]");
  TaskSystemOptions options;
  options.replications = 100;
  const auto first = simulate(system, options);
  const auto second = simulate(system, options);
  EXPECT_EQ(first.completion.mean, second.completion.mean);
  options.seed = 2;
  EXPECT_NE(simulate(system, options).completion.mean, first.completion.mean);
}

TEST(TaskSystemSimulation, LongChainsOfEmptyTasksDoNotRecurse) {
  std::string text = "resource cpu <- queuing;\ntask\n";
  std::string structure = "structure {\n";
  for (int i = 0; i < 20000; ++i) {
    text += "  t" + std::to_string(i) + " <- { }\n";
    structure += "  t" + std::to_string(i) + ";\n";
  }
  text += "  last <- { cpu: 1; }\n";
  const auto result = simulate(system_of(text + structure + "  last;\n}\n"), deterministic());
  EXPECT_NEAR(result.completion.mean, 1.0, 1e-12);
}

TEST(TaskSystemSimulation, RecordsTheFirstReplicationsTimeline) {
  const auto system = system_of("resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 2; }\nstructure { a; }");
  const auto result = simulate(system, deterministic(Discipline::FirstComeFirstServed, 3), true);
  ASSERT_EQ(result.trace.size(), 6u);  // 3 cycles x 2 resources
  EXPECT_EQ(result.trace[0].resource, 0);
  EXPECT_NEAR(result.trace[0].end - result.trace[0].start, 1.0 / 3, 1e-12);
  EXPECT_NEAR(result.trace.back().end, 3.0, 1e-12);
  EXPECT_TRUE(simulate(system, deterministic(Discipline::FirstComeFirstServed, 3)).trace.empty()) << "only when asked";
}

TEST(TaskSystemTimeline, OneRowPerResourceOneSpanPerService) {
  const auto system = system_of("resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 2; }\nstructure { a; }");
  const auto result = simulate(system, deterministic(), true);
  const Timeline timeline = task_system_timeline(system, result);
  EXPECT_EQ(timeline.json(),
            R"({"traceEvents":[{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"cpu"}},)"
            R"({"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"disk"}},)"
            R"({"name":"a","cat":"cpu","ph":"X","pid":1,"tid":0,"ts":0.0,"dur":1000000.0},)"
            R"({"name":"a","cat":"disk","ph":"X","pid":1,"tid":1,"ts":1000000.0,"dur":2000000.0}],"displayTimeUnit":"ms"})"
            "\n");
}

// augur sim --trace: the timeline streamed while the simulation runs is the text of the recorded one, and
// the results are the same, for any number of threads.
TEST(TaskSystemTimeline, StreamedAsItRunsIsTheRecordedOne) {
  const auto system = system_of("resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 2; }\n"
                                "  b <- { cpu: 0.5; disk: 1; }\nstructure { [ a; b; ] }");
  TaskSystemOptions options;
  options.replications = 20;
  options.visits = 4;
  const auto recorded = simulate(system, options, true);
  for (int threads : {1, 3}) {
    options.threads = threads;
    std::string text;
    TimelineWriter writer([&](std::string_view piece) { text += piece; });
    const auto streamed = simulate(system, options, writer);
    writer.finish();
    EXPECT_EQ(text, task_system_timeline(system, recorded).json()) << threads << " threads";
    EXPECT_TRUE(streamed.trace.empty()) << "nothing kept";
    EXPECT_EQ(streamed.completion.mean, recorded.completion.mean);
    EXPECT_EQ(streamed.events, recorded.events);
  }
}

// Services that overlap at one resource go to lanes of their own, so that no row of the timeline holds
// partially overlapping slices (Perfetto cannot nest them). a runs from 0; d keeps b away until 1. Under
// processor sharing a has 1 of 2 left at 1, then both share the cpu at rate 1/2: a ends at 3, b (1 of 2
// left) alone ends at 4. With two servers, a is [0, 2] and b [1, 3]; a delay is the same.
const char* const overlapping = "resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 2; } d <- { disk: 1; } b <- { cpu: 2; }\n"
                                "structure { [ a; { d; b; } ] }";

TEST(TaskSystemTimeline, ProcessorSharingPutsOverlappingServicesOnLanes) {
  const auto system = system_of(overlapping);
  const auto result = simulate(system, deterministic(Discipline::ProcessorSharing), true);
  ASSERT_EQ(result.trace.size(), 3u);
  const nlohmann::json timeline = nlohmann::json::parse(task_system_timeline(system, result).json());
  EXPECT_EQ(timeline.dump(),
            R"({"displayTimeUnit":"ms","traceEvents":[{"args":{"name":"cpu"},"name":"thread_name","ph":"M","pid":1,"tid":0},)"
            R"({"args":{"name":"disk"},"name":"thread_name","ph":"M","pid":1,"tid":1},)"
            R"({"cat":"disk","dur":1000000.0,"name":"d","ph":"X","pid":1,"tid":1,"ts":0.0},)"
            R"({"cat":"cpu","dur":3000000.0,"name":"a","ph":"X","pid":1,"tid":0,"ts":0.0},)"
            R"j({"args":{"name":"cpu (lane 2)"},"name":"thread_name","ph":"M","pid":1,"tid":2},)j"
            R"({"cat":"cpu","dur":3000000.0,"name":"b","ph":"X","pid":1,"tid":2,"ts":1000000.0}]})");
  EXPECT_TRUE(test::trace_nesting_problems(timeline).empty());
  // On one row per resource, as before lanes, the checker finds the overlap.
  nlohmann::json one_row = timeline;
  for (auto& event : one_row.at("traceEvents")) {
    if (event.at("tid") == 2) event["tid"] = 0;
  }
  ASSERT_EQ(test::trace_nesting_problems(one_row).size(), 1u);
  EXPECT_EQ(test::trace_nesting_problems(one_row)[0].rfind("pid 1 tid 0: 'b' [1000000", 0), 0u);
}

TEST(TaskSystemTimeline, SeveralServersAndDelaysUseLanesToo) {
  for (const std::string cpu : {"queuing 2", "delay"}) {
    std::string text = overlapping;
    text.replace(text.find("queuing"), 7, cpu);
    const auto system = system_of(text);
    const auto result = simulate(system, deterministic(), true);
    ASSERT_EQ(result.trace.size(), 3u) << cpu;
    EXPECT_EQ(result.trace[1].task, 0) << cpu;  // a on lane 0, [0, 2]
    EXPECT_EQ(result.trace[1].lane, 0) << cpu;
    EXPECT_NEAR(result.trace[1].end, 2.0, 1e-12) << cpu;
    EXPECT_EQ(result.trace[2].task, 2) << cpu;  // b on lane 1, [1, 3]
    EXPECT_EQ(result.trace[2].lane, 1) << cpu;
    EXPECT_NEAR(result.trace[2].start, 1.0, 1e-12) << cpu;
    const nlohmann::json timeline = nlohmann::json::parse(task_system_timeline(system, result).json());
    EXPECT_TRUE(test::trace_nesting_problems(timeline).empty()) << cpu;
  }
}

// Many tasks under processor sharing, exponential services, several visits: every row nests, and a lane is
// reused once free (lanes never exceed the tasks that can be at a resource together).
TEST(TaskSystemTimeline, EveryRowNestsUnderProcessorSharing) {
  std::string text = "resource cpu <- queuing; disk <- queuing 2; net <- delay;\ntask\n";
  std::string structure = "structure { [\n";
  for (int i = 0; i < 8; ++i) {
    text += "  t" + std::to_string(i) + " <- { cpu: " + std::to_string(1 + i % 3) + "; disk: 1; net: 0.5; }\n";
    structure += "  t" + std::to_string(i) + ";\n";
  }
  const auto system = system_of(text + structure + "] }\n");
  for (const Discipline discipline : {Discipline::ProcessorSharing, Discipline::FirstComeFirstServed}) {
    TaskSystemOptions options;
    options.replications = 1;
    options.visits = 5;
    options.discipline = discipline;
    const auto result = simulate(system, options, true);
    ASSERT_EQ(result.trace.size(), 8u * 3u * 5u);
    int lanes = 0;
    for (const TraceInterval& interval : result.trace) lanes = std::max(lanes, interval.lane + 1);
    EXPECT_LE(lanes, 8);
    const nlohmann::json timeline = nlohmann::json::parse(task_system_timeline(system, result).json());
    EXPECT_EQ(test::trace_nesting_problems(timeline), std::vector<std::string>{});
  }
}

void expect_same(const Statistic& a, const Statistic& b, const std::string& what) {
  EXPECT_EQ(a.mean, b.mean) << what;
  EXPECT_EQ(a.deviation, b.deviation) << what;
  EXPECT_EQ(a.half_width, b.half_width) << what;
  EXPECT_EQ(a.minimum, b.minimum) << what;
  EXPECT_EQ(a.maximum, b.maximum) << what;
}

TEST(TaskSystemSimulation, AnyThreadCountGivesTheSameBits) {
  const auto system = system_of(
      "resource cpu <- queuing 2; disk <- queuing; net <- delay;\n"
      "task a <- { cpu: 1; disk: 2; } b <- { cpu: 2; disk: 1; net: 1; } c <- { cpu: 1; net: 3; } d <- { disk: 1; }\n"
      "structure { [ a; b; c; ] d; }");
  for (Discipline discipline : {Discipline::FirstComeFirstServed, Discipline::ProcessorSharing}) {
    TaskSystemOptions options;
    options.replications = 301;
    options.discipline = discipline;
    options.visits = 2;
    options.threads = 1;
    std::vector<int> serial_progress;
    const auto serial = simulate(system, options, true, [&](int done, int) { serial_progress.push_back(done); });
    for (int threads : {2, 3, 7}) {
      options.threads = threads;
      std::vector<int> progress;
      const auto parallel = simulate(system, options, true, [&](int done, int) { progress.push_back(done); });
      const std::string where = std::to_string(threads) + " threads";
      EXPECT_EQ(progress, serial_progress) << where << ": progress in order, on the calling thread";
      EXPECT_EQ(parallel.events, serial.events) << where;
      expect_same(parallel.completion, serial.completion, where);
      ASSERT_EQ(parallel.tasks.size(), serial.tasks.size());
      for (std::size_t i = 0; i < serial.tasks.size(); ++i) {
        expect_same(parallel.tasks[i].start, serial.tasks[i].start, where);
        expect_same(parallel.tasks[i].residence, serial.tasks[i].residence, where);
        expect_same(parallel.tasks[i].end, serial.tasks[i].end, where);
        EXPECT_EQ(parallel.tasks[i].arrival_queue, serial.tasks[i].arrival_queue) << where;
        EXPECT_EQ(parallel.tasks[i].queue_of_task, serial.tasks[i].queue_of_task) << where;
      }
      for (std::size_t k = 0; k < serial.resources.size(); ++k) {
        EXPECT_EQ(parallel.resources[k].utilization, serial.resources[k].utilization) << where;
        EXPECT_EQ(parallel.resources[k].queue_length, serial.resources[k].queue_length) << where;
      }
      EXPECT_EQ(task_system_timeline(system, parallel).json(), task_system_timeline(system, serial).json()) << where;
    }
  }
}

// Issue 15, item 8: subnormal (read as 0), huge and mixed-scale demands give finite figures under
// every discipline and service distribution.
TEST(TaskSystemSimulation, ExtremeDemands) {
  const std::string resources = "resource cpu <- queuing; disk <- queuing 2; net <- delay;\n";
  const std::vector<std::string> systems = {
      resources + "task a <- { cpu: 4.9e-324; } b <- { cpu: 1; disk: 1e-320; } c <- { net: 2; }\nstructure [ a; { b; c; } ]",
      resources + "task a <- { cpu: 1e15; disk: 1e15; } b <- { cpu: 1e15; net: 1e15; } c <- { disk: 1e15; }\nstructure [ { a; c; } b; ]",
      resources + "task a <- { cpu: 1e15; disk: 1e-90; } b <- { cpu: 1e-99; net: 1; } c <- { disk: 0.001; } d <- { cpu: 1e-50; }\n"
                  "structure [ { a; c; } [ b; d; ] ]"};
  for (const std::string& text : systems) {
    const auto system = system_of(text);
    for (Discipline discipline : {Discipline::FirstComeFirstServed, Discipline::ProcessorSharing}) {
      for (ServiceDistribution service : {ServiceDistribution::Exponential, ServiceDistribution::Deterministic}) {
        TaskSystemOptions options;
        options.replications = 20;
        options.discipline = discipline;
        options.service = service;
        const auto result = simulate(system, options);
        EXPECT_TRUE(std::isfinite(result.completion.mean) && std::isfinite(result.completion.deviation)) << text;
        for (const auto& task : result.tasks) {
          EXPECT_TRUE(std::isfinite(task.residence.mean) && std::isfinite(task.end.mean)) << text;
          for (double value : task.queue_of_task) EXPECT_TRUE(std::isfinite(value)) << text;
        }
        for (const auto& resource : result.resources) EXPECT_TRUE(std::isfinite(resource.utilization)) << text;
      }
    }
  }
  // The subnormal demands are those of a system without them.
  const auto tiny = simulate(system_of(systems[0]), deterministic());
  const auto none = simulate(system_of(resources + "task a <- { } b <- { cpu: 1; } c <- { net: 2; }\nstructure [ a; { b; c; } ]"),
                             deterministic());
  EXPECT_EQ(tiny.completion.mean, none.completion.mean);
}

}  // namespace
}  // namespace augur::sim
