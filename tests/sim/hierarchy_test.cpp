// The hierarchical simulator (src/sim/hierarchy): exact times of tiny programs worked out by hand in the
// comments (with and without overhead, grasp and migration on a crafted case), the ideal execution against a
// list-scheduling computation written here, the parsers' errors at file:line:col, and replications that give
// the same numbers on any number of threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "sim/hierarchy/simulate.hpp"

namespace augur::sim::hierarchy {
namespace {

std::string error_of(const std::function<void(const std::string&)>& read, const std::string& input) {
  try {
    read(input);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

void expect_errors(const std::function<void(const std::string&)>& read, const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [input, message] : cases) EXPECT_EQ(error_of(read, input), message) << input;
}

Execution run(const std::string& program, const std::string& machine) {
  return simulate_hierarchy(parse_program(program, "p.program"), parse_machine(machine, "m.machine"));
}

// main calls a then b; a runs 2 and 3 in parallel, b runs 1.
const char* const two_functions =
    "levels 2\n"
    "function main\n  call a\n  call b after 0\n"
    "function a\n  run 2\n  run 3\n"
    "function b\n  run 1\n";

TEST(Hierarchy, TimesWithoutOverheadAreTheIdealOnes) {
  // a's tasks on two processors: 0..2 and 0..3; b after a: 3..4.
  const Execution result = run(two_functions, "levels 2\nfanout 1\nprocessors 2\nschedule 0\ntransfer 0\nnetwork 0\n");
  EXPECT_DOUBLE_EQ(result.time, 4.0);
  EXPECT_DOUBLE_EQ(ideal_time(parse_program(two_functions, "p"), 2), 4.0);
  EXPECT_EQ(result.elementary, 3);
  ASSERT_EQ(result.processor_utilization.size(), 2U);
  EXPECT_DOUBLE_EQ(result.processor_utilization[0] + result.processor_utilization[1], 6.0 / 4.0);
}

TEST(Hierarchy, TimesWithOverheadWorkedOutByHand) {
  // schedule 0.1 and transfer 0.2 at both levels. The top CS hands a down: control unit 0..0.1, a arrives at
  // 0.3. The lowest CS hands out a's tasks: 0.3..0.4 (task of 2: 0.6..2.6) and 0.4..0.5 (task of 3: 0.7..3.7);
  // results back at 2.8 and 3.9; a's result reaches the top at 4.1. b: top control unit 4.1..4.2, arrives at
  // 4.4; its task: control unit 4.4..4.5, runs 4.7..5.7, result 5.9, top at 6.1.
  const Execution result = run(two_functions, "levels 2\nfanout 1\nprocessors 2\nschedule 0.1\ntransfer 0.2\n");
  EXPECT_NEAR(result.time, 6.1, 1e-12);
  ASSERT_EQ(result.levels.size(), 2U);
  EXPECT_EQ(result.levels[0].grasped, 2);     // a and b
  EXPECT_EQ(result.levels[1].grasped, 3);     // the three elementary functions
  EXPECT_EQ(result.levels[0].transfers, 4);   // each packet and its result
  EXPECT_EQ(result.levels[1].migrated, 0);
  EXPECT_NEAR(result.levels[0].utilization, 0.2 / 6.1, 1e-12);
  EXPECT_NEAR(result.levels[1].utilization, 0.3 / 6.1, 1e-12);
  // The top holds main (2 space units) throughout; the lowest CS holds a (2) from 0 to 4.1 (reserved when the
  // top chose it, freed when its last result came back at 3.9) and b (1) from 4.1 to 5.9.
  EXPECT_NEAR(result.levels[0].occupancy, 2.0, 1e-12);
  EXPECT_NEAR(result.levels[1].occupancy, (2 * 3.9 + 1 * (5.9 - 4.1)) / 6.1, 1e-12);
  EXPECT_DOUBLE_EQ(result.levels[1].occupancy_maximum, 2.0);
}

// main runs a (2), b (1) and c (1) at once; two lowest CSs with one processor each.
const char* const three_independent =
    "levels 2\nfunction main\n  call a\n  call b\n  call c\n"
    "function a\n  run 2\nfunction b\n  run 1\nfunction c\n  run 1\n";
const std::string crafted_machine = "levels 2\nfanout 2\nprocessors 1\nschedule 0\ntransfer 0\nnetwork 0 0.5\n";

TEST(Hierarchy, GraspThresholdOne) {
  // a to CS 0, b to CS 1; c waits at the top until CS 1's load falls (b done at 1) and runs 1..2.
  const Execution result = run(three_independent, crafted_machine + "grasp 1\n");
  EXPECT_DOUBLE_EQ(result.time, 2.0);
  EXPECT_EQ(result.levels[0].grasped, 3);
  EXPECT_EQ(result.levels[1].migrated, 0);
}

TEST(Hierarchy, GraspThresholdTwoWithoutMigration) {
  // Both CSs below 2: a to CS 0, b to CS 1, c to CS 0 (the least loaded, the first on ties) behind a: 2..3.
  const Execution result = run(three_independent, crafted_machine + "grasp 2\nmigrate off\n");
  EXPECT_DOUBLE_EQ(result.time, 3.0);
  EXPECT_EQ(result.levels[1].migrated, 0);
}

TEST(Hierarchy, MigrationMovesTheWaitingPacketToTheIdleCs) {
  // As above, but c's task waits in CS 0 while CS 1 (load 1 < 2, the top empty) starves: it migrates at 0,
  // arrives at 0.5 over the level-2 network, waits for b (done at 1), runs 1..2, its result goes back to CS 0
  // at 2.5; the top gets c at 2.5 (a's result came at 2).
  const Execution result = run(three_independent, crafted_machine + "grasp 2\nmigrate-minimum 1\n");
  EXPECT_DOUBLE_EQ(result.time, 2.5);
  EXPECT_EQ(result.levels[1].migrated, 1);
  EXPECT_EQ(result.levels[1].network, 2);  // the packet and its result
  EXPECT_DOUBLE_EQ(ideal_time(parse_program(three_independent, "p"), 2), 2.0);
}

// ---- the ideal execution against list scheduling ----

struct Flat {
  std::vector<std::set<int>> predecessors;  // elementary functions, numbered in depth-first task order
  std::vector<double> time;
};

// The elementary functions of one call of `function`, each waiting for `gate` and for the elementary
// functions of the tasks it depends on; returns them.
std::vector<int> flatten(const Program& program, int function, const std::set<int>& gate, Flat& flat) {
  const auto& f = program.functions[static_cast<std::size_t>(function)];
  std::vector<std::vector<int>> leaves(static_cast<std::size_t>(f.tasks));
  std::vector<std::set<int>> before(static_cast<std::size_t>(f.tasks));
  for (int t = f.first_task; t < f.first_task + f.tasks; ++t)
    for (int s = program.successor_begin[static_cast<std::size_t>(t)]; s < program.successor_begin[static_cast<std::size_t>(t) + 1]; ++s)
      before[static_cast<std::size_t>(program.successors[static_cast<std::size_t>(s)] - f.first_task)].insert(t - f.first_task);
  std::vector<int> all;
  for (int t = 0; t < f.tasks; ++t) {
    std::set<int> waits = gate;
    for (const int p : before[static_cast<std::size_t>(t)]) waits.insert(leaves[static_cast<std::size_t>(p)].begin(), leaves[static_cast<std::size_t>(p)].end());
    const int called = program.callee[static_cast<std::size_t>(f.first_task + t)];
    if (called >= 0) {
      leaves[static_cast<std::size_t>(t)] = flatten(program, called, waits, flat);
    } else {
      leaves[static_cast<std::size_t>(t)] = {static_cast<int>(flat.time.size())};
      flat.predecessors.push_back(waits);
      flat.time.push_back(program.time[static_cast<std::size_t>(f.first_task + t)]);
    }
    all.insert(all.end(), leaves[static_cast<std::size_t>(t)].begin(), leaves[static_cast<std::size_t>(t)].end());
  }
  return all;
}

// Greedy list scheduling: the processor free first takes, among the functions whose predecessors are all
// scheduled, the one ready first (ties: the lower number); it waits for it if it is not ready yet.
double list_schedule(const Flat& flat, int processors) {
  const std::size_t n = flat.time.size();
  std::vector<double> finish(n, -1.0);
  std::vector<double> free(static_cast<std::size_t>(processors), 0.0);
  double makespan = 0.0;
  for (std::size_t done = 0; done < n; ++done) {
    const auto processor = static_cast<std::size_t>(std::min_element(free.begin(), free.end()) - free.begin());
    int best = -1;
    double best_ready = 0.0;
    bool best_now = false;
    for (std::size_t e = 0; e < n; ++e) {
      if (finish[e] >= 0) continue;
      double ready = 0.0;
      bool scheduled = true;
      for (const int p : flat.predecessors[e]) {
        scheduled = scheduled && finish[static_cast<std::size_t>(p)] >= 0;
        ready = std::max(ready, finish[static_cast<std::size_t>(p)]);
      }
      if (!scheduled) continue;
      const bool now = ready <= free[processor];
      if (best < 0 || (now && !best_now) || (now == best_now && ready < best_ready)) {
        best = static_cast<int>(e);
        best_ready = ready;
        best_now = now;
      }
    }
    const double start = std::max(free[processor], best_ready);
    finish[static_cast<std::size_t>(best)] = start + flat.time[static_cast<std::size_t>(best)];
    free[processor] = finish[static_cast<std::size_t>(best)];
    makespan = std::max(makespan, free[processor]);
  }
  return makespan;
}

ProgramModel small_model(int levels, const char* pattern) {
  return parse_model(std::string("nsize uniform 2 6\nndf 1 + poisson 0.8\ntet exponential 1\npattern ") + pattern + "\n", "small.model").for_levels(levels);
}

TEST(Hierarchy, IdealExecutionIsListScheduling) {
  for (const int levels : {1, 2, 3}) {
    for (const char* pattern : {"random", "structured"}) {
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        RandomStream random(seed, 0);
        const Program program = generate_program(small_model(levels, pattern), random, "model");
        Flat flat;
        flatten(program, 0, {}, flat);
        for (const int processors : {1, 2, 3, 5}) {
          EXPECT_NEAR(ideal_time(program, processors), list_schedule(flat, processors), 1e-9)
              << levels << " levels, " << pattern << ", seed " << seed << ", " << processors << " processors";
        }
      }
    }
  }
}

TEST(Hierarchy, OneLevelWithoutOverheadIsTheIdealExecution) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    RandomStream random(seed, 0);
    const Program program = generate_program(small_model(1, "random").for_levels(1), random, "model");
    for (const int processors : {1, 3}) {
      const Execution result = simulate_hierarchy(program, parse_machine("levels 1\nprocessors " + std::to_string(processors) + "\nschedule 0\ntransfer 0\n", "m"));
      EXPECT_NEAR(result.time, ideal_time(program, processors), 1e-9) << seed;
    }
  }
}

TEST(Hierarchy, ReplicationsGiveTheSameNumbersOnAnyThreads) {
  const ProgramModel model = parse_model(preset_model_text("XU20"), "XU20").for_levels(2);
  const Machine machine = uniform_machine(2, 4, 2);
  const auto program_of = [&](int replication) {
    RandomStream random(7, static_cast<std::uint64_t>(replication));
    return generate_program(model, random, "XU20");
  };
  SimulationOptions options;
  options.replications = 6;
  options.threads = 1;
  const Summary one = simulate(program_of, machine, options);
  options.threads = 3;
  const Summary three = simulate(program_of, machine, options);
  EXPECT_EQ(one.time.mean, three.time.mean);
  EXPECT_EQ(one.ratio.half_width, three.ratio.half_width);
  EXPECT_EQ(one.events, three.events);
  EXPECT_GE(one.ratio.minimum, 1.0 - 1e-12);  // overhead never beats the ideal here (first ready first served both)
  EXPECT_GT(one.ratio.half_width, 0.0);
}

// ---- the generator and the program file ----

TEST(Hierarchy, GeneratedProgramsFollowTheModel) {
  const ProgramModel model = parse_model("levels 2\nlevel 1 nsize deterministic 5\nlevel 2 nsize deterministic 3\nndf deterministic 2\ntet deterministic 1.5\npattern structured\n", "m");
  RandomStream random(1, 0);
  const Program program = generate_program(model, random, "m");
  ASSERT_EQ(program.functions.size(), 6U);  // main and its five callees
  EXPECT_EQ(program.elementary_executions(), 15.0);
  // Structured, N_df = 2: tasks 0 and 1 start; task 0's completion fires 2 and 3; task 1's fires 4.
  const auto& main = program.functions[0];
  EXPECT_EQ(main.tasks, 5);
  const std::vector<int> predecessors(program.predecessors.begin(), program.predecessors.begin() + 5);
  EXPECT_EQ(predecessors, (std::vector<int>{0, 0, 1, 1, 1}));
  EXPECT_EQ(program.successors[static_cast<std::size_t>(program.successor_begin[0])], 2);
  // Ideal with enough processors: a callee is 3 tasks of 1.5 (two at once, then the third): 3; main's tasks 0
  // and 1 run 0..3, then 2, 3 and 4 run 3..6. On one processor: 15 × 1.5.
  EXPECT_DOUBLE_EQ(ideal_time(program, 100), 6.0);
  EXPECT_DOUBLE_EQ(ideal_time(program, 1), 22.5);
}

TEST(Hierarchy, ProgramFileRoundTrip) {
  RandomStream random(3, 0);
  const Program program = generate_program(small_model(2, "random"), random, "m");
  const Program again = parse_program(write_program(program), "again");
  EXPECT_EQ(again.callee, program.callee);
  EXPECT_EQ(again.time, program.time);
  EXPECT_EQ(again.successors, program.successors);
  EXPECT_EQ(write_program(again), write_program(program));
  EXPECT_EQ(ideal_time(again, 3), ideal_time(program, 3));
}

TEST(Hierarchy, ProgramErrorsAreLocated) {
  expect_errors([](const std::string& text) { (void)parse_program(text, "p"); },
                {{"function main\n", "p:1:1: a program starts with 'levels L'"},
                 {"levels 2\nfunction main\n  call a\n", "p:3:8: no function 'a'"},
                 {"levels 1\nfunction main\n  run 1\n  run 2 after 1\n", "p:4:15: task 1 can only depend on tasks before it (0 to 0), found 1"},
                 {"levels 2\nfunction main\n  run 1\n", "p:3:3: function 'main' is at level 1 of 2: its tasks call functions of the next level ('run' is for the ground level)"},
                 {"levels 3\nfunction main\n  call a\n  call b\nfunction a\n  call b\nfunction b\n  run 1\n",
                  "p:6:8: function 'b' is called at level 3 here and at level 2 before"},
                 {"levels 1\nfunction main\n  run 1\nfunction lost\n  run 1\n", "p:4:1: function 'lost' is never called"},
                 {"levels 1\nfunction main\n  run -1\n", "p:3:7: an execution time cannot be negative"},
                 {"levels 1\nfunction main\nfunction b\n  run 1\n", "p:2:1: function 'main' has no task"}});
}

TEST(Hierarchy, ModelErrorsAreLocated) {
  expect_errors([](const std::string& text) { (void)parse_model(text, "m"); },
                {{"ndf 1\n", "m:2:1: the model has no 'nsize' line (the tasks of a function graph)"},
                 {"nsize uniform 5 3\n", "m:1:17: uniform A B needs A <= B"},
                 {"nsize four\n", "m:1:7: unknown distribution 'four' (deterministic, uniform, exponential, poisson, empirical)"},
                 {"nsize deterministic 4\nndf poisson 1\n", "m:2:5: 'ndf' can be 0 with poisson 1; a count must be 1 at least (write '1 + poisson 1')"},
                 {"nsize deterministic 4\ntet exponential -1\n", "m:2:17: the mean of exponential must be above 0"},
                 {"nsize deterministic 4\ntet -2 + deterministic 1\n", "m:2:10: an execution time cannot be negative (-2 + deterministic 1 can be -1.000000)"},
                 {"nsize empirical 4:1 2.5:1\n", "m:1:21: 'nsize' counts tasks: expected a whole number, found '2.5'"},
                 {"level 1 nsize deterministic 3\n", "m:1:1: 'level L' needs a 'levels' line before it"},
                 {"nsize deterministic 3\nshape x\n", "m:2:1: unknown setting 'shape' (levels, pattern, nsize, ndf, tet, level L nsize|ndf)"}});
  for (const auto& name : preset_names()) EXPECT_NO_THROW((void)parse_model(preset_model_text(name), name)) << name;
}

TEST(Hierarchy, MachineErrorsAreLocated) {
  expect_errors([](const std::string& text) { (void)parse_machine(text, "m"); },
                {{"levels 2\nfanout 0\n", "m:2:8: expected a whole number from 1 to 65536, found '0'"},
                 {"capacity 0.5\n", "m:1:10: a CS's capacity must hold one space unit at least, found '0.5'"},
                 {"levels 3\nschedule 1 2\n", "m:2:10: 'schedule' takes one value or 3 (one per level), found 2"},
                 {"levels 1\nfanout 4\n", "m:2:1: a one-level machine has no 'fanout' (its one CS holds the processors)"},
                 {"transfer -1\n", "m:1:10: expected a time of at least 0, found '-1'"},
                 {"migrate maybe\n", "m:1:9: 'migrate' is on or off, not 'maybe'"},
                 {"levels 2\nlevels 2\n", "m:2:1: 'levels' given twice"},
                 {"speed 2\n", "m:1:1: unknown setting 'speed' (levels, fanout, processors, capacity, schedule, transfer, network, grasp, migrate, migrate-batch, migrate-minimum)"}});
  const Machine machine = parse_machine("levels 3\nfanout 4 2\nprocessors 8\n", "m");
  EXPECT_EQ(machine.control_subsystems(3), 8);
  EXPECT_EQ(machine.total_processors(), 64);
  EXPECT_EQ(machine.grasp_threshold(2), 2);
  EXPECT_EQ(machine.grasp_threshold(3), 8);
}

TEST(Hierarchy, AFunctionLargerThanTheCapacityIsRefused) {
  EXPECT_EQ(error_of([](const std::string& machine) { (void)run(two_functions, machine); }, "levels 2\nfanout 1\ncapacity 10 1\n"),
            "program: function 'a' has 2 tasks: more than the capacity of a level-2 CS (1 space units)");
}

}  // namespace
}  // namespace augur::sim::hierarchy
