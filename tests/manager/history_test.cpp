// The programs' history (history.hpp, docs/manager.md "history") on crafted states: a job's program, what
// the history keeps, a new job of a known program given its prior, an unknown one not, its own measurement
// replacing the prior's; hesrpt-plan's decision with and without it, and the simulation passing it on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "manager/history.hpp"
#include "manager/simulate.hpp"
#include "manager/workload.hpp"
#include "policy_support.hpp"

namespace augur::manager {
namespace {

using test::parameters_for;
using test::processors_of;

ApplicationReport of_program(std::uint64_t id, const std::string& program) {
  ApplicationReport report;
  report.id = id;
  report.name = program + "." + std::to_string(id);
  report.program = program;
  return report;
}

SpeedupEntry pc(int processors, double speedup) { return {processors, speedup, SpeedupState::calculated}; }

// A linear program measured at 2, 4 and 8, and its two last finished jobs of 100 and 300 s.
ProgramHistories linear_history() {
  ProgramHistories histories;
  const std::vector<SpeedupEntry> measured{pc(8, 8.0), pc(2, 2.0), pc(4, 4.0)};
  histories.record_speedups("lin", measured);
  histories.record_finished("lin", 50.0);
  histories.record_finished("lin", 100.0);
  histories.record_finished("lin", 300.0);
  return histories;
}

TEST(History, AJobsProgramIsItsNameWithoutItsCopySuffix) {
  EXPECT_EQ(program_of_job("swim.3"), "swim");
  EXPECT_EQ(program_of_job("bt.12"), "bt");
  EXPECT_EQ(program_of_job("swim"), "swim");
  EXPECT_EQ(program_of_job("v1.x"), "v1.x");
  EXPECT_EQ(program_of_job("a."), "a.");
  EXPECT_EQ(program_of_job(".7"), ".7");
}

TEST(History, KeepsTheLatestSpeedupPerProcessorCountAndTheLastTwoWorks) {
  ProgramHistories histories = linear_history();
  const std::vector<SpeedupEntry> again{pc(4, 3.5), {16, 9.0, SpeedupState::not_calculated}};
  histories.record_speedups("lin", again);  // S(4) replaced, a PNC entry ignored
  ASSERT_EQ(histories.programs().size(), 1U);
  const ProgramHistory& lin = histories.programs()[0];
  ASSERT_EQ(lin.speedups.size(), 3U);
  EXPECT_EQ(lin.speedups[0].processors, 2);
  EXPECT_EQ(lin.speedups[1].processors, 4);
  EXPECT_DOUBLE_EQ(lin.speedups[1].speedup, 3.5);
  EXPECT_EQ(lin.speedups[2].processors, 8);
  EXPECT_EQ(lin.works, (std::vector<double>{100.0, 300.0}));
  EXPECT_DOUBLE_EQ(*prior_work(lin), 200.0);  // (100 + 300) / 2
  histories.record_finished("fresh", 0.0);     // no work: nothing learnt
  EXPECT_EQ(histories.programs().size(), 1U);
}

TEST(History, ANewJobOfAKnownProgramGetsThePrior) {
  const ProgramHistories histories = linear_history();
  const ApplicationReport seen = with_prior(of_program(1, "lin"), histories.programs(), HistoryPrior::curve_and_work);
  ASSERT_EQ(seen.speedups.size(), 3U);
  EXPECT_EQ(seen.speedups[2].processors, 8);
  EXPECT_DOUBLE_EQ(seen.speedups[2].speedup, 8.0);
  EXPECT_DOUBLE_EQ(seen.memory.work_left, 200.0);
  // The curve only by default: no work.
  EXPECT_DOUBLE_EQ(with_prior(of_program(1, "lin"), histories.programs()).memory.work_left, 0.0);
}

TEST(History, AnUnknownProgramGetsNoPrior) {
  const ProgramHistories histories = linear_history();
  for (const std::string program : {"other", ""}) {
    const ApplicationReport seen = with_prior(of_program(1, program), histories.programs(), HistoryPrior::curve_and_work);
    EXPECT_TRUE(seen.speedups.empty()) << program;
    EXPECT_DOUBLE_EQ(seen.memory.work_left, 0.0) << program;
  }
}

TEST(History, ItsOwnMeasurementsReplaceThePrior) {
  const ProgramHistories histories = linear_history();
  ApplicationReport report = of_program(1, "lin");
  report.allocation = 4;
  report.speedups = {pc(4, 3.0)};
  report.predicted_time = 10.0;  // W = 10 x 3 = 30 s of its own
  const ApplicationReport seen = with_prior(report, histories.programs(), HistoryPrior::curve_and_work);
  ASSERT_EQ(seen.speedups.size(), 3U);  // its S(4), the prior's S(2) and S(8)
  EXPECT_DOUBLE_EQ(*calculated_speedup(seen, 4), 3.0);
  EXPECT_DOUBLE_EQ(*calculated_speedup(seen, 8), 8.0);
  EXPECT_DOUBLE_EQ(seen.memory.work_left, 0.0);  // its own work is known: the prior's is not taken
}

TEST(History, HesrptPlanGrowsANewJobOfAKnownProgramToWhatItsProgramMeasured) {
  // One new application on 8 processors, nothing measured: without a history it may grow to 1 + step = 5
  // (linear before any measurement) and gets 5; with its program measured linear up to 8 its limit is
  // min(8, 8 + 4) = 8 and it gets all 8. An application of a program the history does not know gets 5.
  const ProgramHistories histories = linear_history();
  PolicyParameters parameters = parameters_for(PolicyKind::hesrpt_plan, 8);
  const std::vector<ApplicationReport> known{of_program(1, "lin")};
  const std::vector<ApplicationReport> unknown{of_program(1, "other")};
  EXPECT_EQ(processors_of(decide(parameters, known)), (std::vector<int>{5}));
  parameters.history = histories.programs();
  const std::vector<Allocation> decision = decide(parameters, known);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{8}));
  EXPECT_EQ(decision[0].reason, "predicted speedup 8.00 with 8, its work unknown yet, weight 0.125, with its program's history");
  EXPECT_EQ(processors_of(decide(parameters, unknown)), (std::vector<int>{5}));
  parameters.policy = PolicyKind::rollout;
  EXPECT_EQ(processors_of(decide(parameters, known)), (std::vector<int>{8}));
}

TEST(History, TheSimulationPassesWhatTheFirstCopyMeasuredToTheSecond) {
  // lin.1 alone on 16 processors (100 s of work, linear): 5 processors (1 + step), then 9, 13, 16 as it
  // measures S(5), S(9), S(13) after each whole quantum; done at 3 + (100 - 5 - 9 - 13) / 16 = 7.5625 s,
  // having measured S(16) at 4 s. lin.2 arrives at 10 s: with the history its limit is min(16, 16 + 4):
  // it starts on 16 and is done at 10 + 100 / 16; without, on 5.
  const Workload workload = parse_workload("job lin work=100 amdahl=0 repeat=2 every=10\n", "w.workload",
                                           [](const std::string&) -> std::string { return ""; });
  SimulationOptions options;
  options.policy = parameters_for(PolicyKind::hesrpt_plan, 16);
  const SimulationResult without = simulate(workload, options);
  options.history = true;
  const SimulationResult with = simulate(workload, options);
  ASSERT_EQ(with.jobs.size(), 2U);
  EXPECT_DOUBLE_EQ(with.jobs[0].finish, 7.5625);
  EXPECT_DOUBLE_EQ(without.jobs[0].finish, 7.5625);
  EXPECT_EQ(with.jobs[1].allocations.front(), (std::pair<double, int>{10.0, 16}));
  EXPECT_DOUBLE_EQ(with.jobs[1].finish, 16.25);
  EXPECT_EQ(without.jobs[1].allocations.front(), (std::pair<double, int>{10.0, 5}));
}

}  // namespace
}  // namespace augur::manager
