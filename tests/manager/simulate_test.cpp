// The workload reader and the simulation, against outcomes worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "manager/simulate.hpp"
#include "manager/workload.hpp"

namespace augur::manager {
namespace {

std::string no_files(const std::string& path) { throw core::InputError({path, 0, 0}, "cannot open"); }

Workload parse(const std::string& text, const FileReader& reader = no_files) { return parse_workload(text, "w.workload", reader); }

std::string error_of(const std::string& text, const FileReader& reader = no_files) {
  try {
    (void)parse(text, reader);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Workload, ReadsJobsCurvesAndRepeats) {
  const Workload workload = parse(
      "# two kinds\n"
      "job late arrival=5 work=100 amdahl=0.1 max=8\n"
      "job early work=50 table=4:3,2:1.8,8:5   # (1, 1) added\n"
      "job stream arrival=1 work=10 amdahl=0 repeat=3 every=2\n");
  ASSERT_EQ(workload.jobs.size(), 5U);
  EXPECT_EQ(workload.jobs[0].name, "early");
  EXPECT_EQ(workload.jobs[1].name, "stream.1");
  EXPECT_EQ(workload.jobs[2].arrival, 3.0);
  EXPECT_EQ(workload.jobs[3].name, "late");  // arrives at 5 as stream.3 does, and comes first in the file
  EXPECT_EQ(workload.jobs[4].name, "stream.3");
  EXPECT_EQ(workload.jobs[3].max_processors, 8);
  const SpeedupCurve& table = workload.jobs[0].curve;
  EXPECT_DOUBLE_EQ(table.at(1), 1.0);
  EXPECT_DOUBLE_EQ(table.at(3), 2.4);   // between 2:1.8 and 4:3
  EXPECT_DOUBLE_EQ(table.at(6), 4.0);   // between 4:3 and 8:5
  EXPECT_DOUBLE_EQ(table.at(64), 5.0);  // held beyond 8
  EXPECT_DOUBLE_EQ(workload.jobs[3].curve.at(10), 1.0 / (0.1 + 0.9 / 10));
}

TEST(Workload, ErrorsAtLineAndColumn) {
  EXPECT_EQ(error_of("job a work=1 amdahl=0\njob b work=x amdahl=0\n"), "w.workload:2:12: work: expected a number, found 'x'");
  EXPECT_EQ(error_of("job a work=1 amdahl=0 ways=2\n"), "w.workload:1:23: unknown key 'ways' (expected arrival, work, max, amdahl, table, speedup, repeat, every, poisson, rate or seed)");
  EXPECT_EQ(error_of("job a amdahl=0\n"), "w.workload:1:5: job 'a': work= is required");
  EXPECT_EQ(error_of("job a work=1\n"), "w.workload:1:5: job 'a': give exactly one of amdahl=, table= and speedup=");
  EXPECT_EQ(error_of("job a work=1 table=2:1.5,2:1.7\n"), "w.workload:1:20: table: two speedups for 2 processors");
  EXPECT_EQ(error_of("job a work=1 table=2-1.5\n"), "w.workload:1:20: table: expected P:S, found '2-1.5'");
  EXPECT_EQ(error_of("task a work=1 amdahl=0\n"), "w.workload:1:1: expected 'job', found 'task'");
  EXPECT_EQ(error_of("job a work=1 amdahl=1.5\n"), "w.workload:1:21: amdahl: f must be in [0, 1]");
  EXPECT_EQ(error_of("# nothing\n"), "w.workload: no job in the workload");
  EXPECT_EQ(error_of("job a work=1 speedup=s.json\n"), "w.workload:1:22: speedup: s.json: cannot open");
}

// The arrivals of a poisson= line follow their definition (docs/formats.md): a Poisson process from arrival=,
// gaps -ln(1 - u) / rate with u from the top 53 bits of mt19937_64 seeded with seed=, rounded to the ms.
TEST(Workload, PoissonArrivalsFollowTheirDefinition) {
  const Workload workload = parse("job s arrival=10 work=1 amdahl=0 poisson=3 rate=0.5 seed=7\njob t arrival=11 work=1 amdahl=0\n");
  std::mt19937_64 generator(7);
  const double u1 = static_cast<double>(generator() >> 11) / 9007199254740992.0;
  const double u2 = static_cast<double>(generator() >> 11) / 9007199254740992.0;
  const double u3 = static_cast<double>(generator() >> 11) / 9007199254740992.0;
  const double first = 10.0 - std::log(1.0 - u1) * 2.0;
  const double second = first - std::log(1.0 - u2) * 2.0;
  const double third = second - std::log(1.0 - u3) * 2.0;
  std::map<std::string, double> arrival;
  for (const WorkloadJob& job : workload.jobs) arrival[job.name] = job.arrival;
  ASSERT_EQ(arrival.size(), 4U);
  EXPECT_NEAR(arrival["s.1"], first, 0.0005 + 1e-12);
  EXPECT_NEAR(arrival["s.2"], second, 0.0005 + 1e-12);
  EXPECT_NEAR(arrival["s.3"], third, 0.0005 + 1e-12);
  EXPECT_EQ(arrival["t"], 11.0);
  for (std::size_t index = 1; index < workload.jobs.size(); ++index) EXPECT_LE(workload.jobs[index - 1].arrival, workload.jobs[index].arrival);
  // The same seed, the same arrivals; another seed, others.
  EXPECT_EQ(poisson_arrivals(10.0, 3, 0.5, 7), (std::vector<double>{arrival["s.1"], arrival["s.2"], arrival["s.3"]}));
  EXPECT_NE(poisson_arrivals(10.0, 3, 0.5, 8)[1], arrival["s.2"]);
}

// Over 20000 gaps at rate 2: the mean is 1/2 (standard error 0.5 / sqrt(20000) = 0.0035) and half the gaps
// are below the median ln 2 / 2 (standard error 0.0035), as for an exponential distribution.
TEST(Workload, PoissonGapsAreExponential) {
  const std::vector<double> arrivals = poisson_arrivals(0.0, 20001, 2.0, 3);  // the first gap left out
  double sum = 0.0;
  int below_median = 0;
  for (std::size_t index = 1; index < arrivals.size(); ++index) {
    const double gap = arrivals[index] - arrivals[index - 1];
    sum += gap;
    below_median += gap < std::log(2.0) / 2.0 ? 1 : 0;
  }
  EXPECT_NEAR(sum / 20000.0, 0.5, 0.015);
  EXPECT_NEAR(below_median / 20000.0, 0.5, 0.015);
}

TEST(Workload, PoissonErrorsAtLineAndColumn) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"poisson=3 repeat=2", "1:31: poisson: give either repeat= and every= or poisson= and rate="},
      {"poisson=3", "1:5: poisson: rate= is required (arrivals per second)"},
      {"poisson=3 rate=0", "1:38: rate: must be from 1e-9 to 1e9 arrivals per second"},
      {"rate=2", "1:28: rate: only with poisson="},
      {"poisson=3 rate=1 seed=-1", "1:45: seed: expected a whole number from 0 to 2^64 - 1, found '-1'"},
      {"poisson=0 rate=1", "1:31: poisson: expected a whole number from 1 to 1000000, found '0'"}};
  for (const auto& [fields, message] : cases) EXPECT_EQ(error_of("job a work=1 amdahl=0 " + fields + "\n"), "w.workload:" + message);
}

TEST(Workload, SpeedupsFromTheJsonOfAugurSpeedupAndOfAReport) {
  const std::map<std::string, std::string> files{
      {"speedup.json", R"({"points": [{"p": 2, "sa_n": 1.9, "ts": 1.8}, {"p": 4, "sa_n": null, "ts": 3.2}]})"},
      {"report.json", R"({"regions": [{"speedup": [{"p": 1, "value": 1, "state": "PC"},
                          {"p": 2, "value": 1.5, "state": "PC"}, {"p": 3, "value": null, "state": "PNC"}]}]})"},
      {"broken.json", "{\n  \"points\": [,]\n}"},
      {"other.json", R"({"hello": 1})"}};
  const FileReader reader = [&](const std::string& path) { return files.at(path); };
  const Workload workload = parse("job s work=1 speedup=speedup.json\njob r work=1 speedup=report.json\n", reader);
  EXPECT_EQ(workload.jobs[0].curve.points, (std::vector<std::pair<int, double>>{{1, 1.0}, {2, 1.9}, {4, 3.2}}));
  EXPECT_EQ(workload.jobs[1].curve.points, (std::vector<std::pair<int, double>>{{1, 1.0}, {2, 1.5}}));
  EXPECT_EQ(error_of("job b work=1 speedup=broken.json\n", reader), "w.workload:1:22: speedup: broken.json:2:14: malformed JSON");
  EXPECT_EQ(error_of("job b work=1 speedup=other.json\n", reader),
            "w.workload:1:22: speedup: other.json: neither the JSON of augur speedup (points) nor a self-analysis report (regions)");
}

SimulationOptions options_for(PolicyKind policy, int cpus) {
  SimulationOptions options;
  options.policy.policy = policy;
  options.policy.cpus = cpus;
  options.quantum = 1.0;
  return options;
}

using Moves = std::vector<std::pair<double, int>>;

// The first five allocations of a job (fewer if it had fewer).
Moves first_moves(const SimulationResult& result, std::size_t job) {
  const Moves& all = result.jobs[job].allocations;
  return Moves(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(all.size(), 5)));
}

TEST(Simulate, OneLinearJobUsesTheWholeMachine) {
  const SimulationResult result = simulate(parse("job a work=64 amdahl=0\n"), options_for(PolicyKind::equipartition, 4));
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_DOUBLE_EQ(result.jobs[0].finish, 16.0);
  EXPECT_DOUBLE_EQ(result.mean_response_time, 16.0);
  EXPECT_DOUBLE_EQ(result.utilization, 1.0);
  EXPECT_DOUBLE_EQ(result.mean_efficiency, 1.0);
  EXPECT_EQ(result.jobs[0].allocations, (std::vector<std::pair<double, int>>{{0.0, 4}, {16.0, 0}}));
}

TEST(Simulate, AQuantumTooShortForTheWorkIsRefusedBeforeTheRun) {
  // 64 s of work, at best 4 times faster on 4 processors: at least 16 s of decisions, 16 / 1.5e-6 > 10^7
  // quanta; a quantum of 1e-300 would creep forward for 10^7 decisions before the error.
  SimulationOptions options = options_for(PolicyKind::equipartition, 4);
  const Workload workload = parse("job a work=64 amdahl=0\n");
  for (const double quantum : {1e-300, 1.5e-6}) {
    options.quantum = quantum;
    try {
      (void)simulate(workload, options);
      ADD_FAILURE() << quantum << " was accepted";
    } catch (const std::runtime_error& error) {
      EXPECT_STREQ(error.what(), "more than 10^7 decisions: the workload is too long for the quantum (a longer --quantum): a alone runs longer than 10^7 quanta");
    }
  }
  options.quantum = 1e-3;  // 16 000 quanta: run
  EXPECT_NEAR(simulate(workload, options).jobs[0].finish, 16.0, 1e-6);
}

TEST(Simulate, ALateArrivalWaitsForTheNextQuantumAndTakesOverWhatIsFreed) {
  // A (10 s of work) alone on 2 until the decision at 3 (B arrived at 2.5): A 4 left, 1 each: A ends at 7,
  // B has done 4 of its 10; from 7 B has both: 6 / 2 = 3 s, ends at 10.
  const SimulationResult result =
      simulate(parse("job a work=10 amdahl=0\njob b arrival=2.5 work=10 amdahl=0\n"), options_for(PolicyKind::equipartition, 2));
  EXPECT_DOUBLE_EQ(result.jobs[0].finish, 7.0);
  EXPECT_DOUBLE_EQ(result.jobs[1].start, 3.0);
  EXPECT_DOUBLE_EQ(result.jobs[1].finish, 10.0);
  EXPECT_DOUBLE_EQ(result.mean_response_time, (7.0 + 7.5) / 2);
  EXPECT_DOUBLE_EQ(result.makespan, 10.0);
  EXPECT_DOUBLE_EQ(result.utilization, 1.0);
  EXPECT_EQ(result.jobs[1].allocations, (std::vector<std::pair<double, int>>{{3.0, 1}, {7.0, 2}, {10.0, 0}}));
}

TEST(Simulate, PdpaMovesTheProcessorsAsItsStatesSay) {
  // A linear (E = 1), B f = 0.5 (E(16) = 0.12, E(12) = 0.15, E(8) = 0.22, E(4) = 0.4, E(1) = 1): every
  // quantum A grows by 4 with what B frees, until B is at one and A has the other 31.
  const SimulationResult result =
      simulate(parse("job a work=100000 amdahl=0\njob b work=100000 amdahl=0.5\n"), options_for(PolicyKind::pdpa, 32));
  EXPECT_EQ(first_moves(result, 0), (Moves{{0, 16}, {1, 20}, {2, 24}, {3, 28}, {4, 31}}));
  EXPECT_EQ(first_moves(result, 1), (Moves{{0, 16}, {1, 12}, {2, 8}, {3, 4}, {4, 1}}));
}

TEST(Simulate, NoiseMovesWhatTheJobsMeasureAndNothingElse) {
  const Workload workload = parse(
      "job a work=3000 table=4:6.5,8:11.5,16:19,32:27,48:31\n"
      "job b arrival=3 work=1500 table=4:3,8:4.6,16:6.2,32:7,48:7.2\n"
      "job c arrival=7 work=4000 table=4:3.9,8:7.6,16:14.5,32:26,48:35\n");
  SimulationOptions exact = options_for(PolicyKind::equipartition, 64);
  SimulationOptions noisy = exact;
  noisy.speedup_noise = 0.3;
  // Equipartition reads no speedup: the noise changes nothing.
  const SimulationResult plain = simulate(workload, exact);
  const SimulationResult shaken = simulate(workload, noisy);
  for (std::size_t job = 0; job < 3; ++job) EXPECT_EQ(plain.jobs[job].allocations, shaken.jobs[job].allocations);
  // A policy that reads them decides otherwise with noise, the same for the same seed, otherwise for another.
  exact.policy.policy = noisy.policy.policy = PolicyKind::shortest_first;
  const SimulationResult once = simulate(workload, noisy);
  EXPECT_EQ(once.jobs[0].allocations, simulate(workload, noisy).jobs[0].allocations);
  EXPECT_NE(once.jobs[0].allocations, simulate(workload, exact).jobs[0].allocations);
  noisy.seed = 2;
  EXPECT_NE(once.jobs[0].allocations, simulate(workload, noisy).jobs[0].allocations);
  // The work done is the true curve's whatever was measured: the job alone on 64 for its whole life
  // under equipartition ends at 3000 / 31 (flat past 48).
  noisy.policy.policy = PolicyKind::equipartition;
  EXPECT_NEAR(simulate(parse("job a work=3000 table=4:6.5,8:11.5,16:19,32:27,48:31\n"), noisy).jobs[0].finish, 3000.0 / 31.0, 1e-9);
  noisy.speedup_noise = -0.1;
  EXPECT_THROW((void)simulate(workload, noisy), std::invalid_argument);
}

// S(P) = 2 from 2 processors on (table 2:2, flat past it), 20 s of work on 8 CPUs under shortest-first. As it
// runs, nothing is measured at first: taken as linear, it gets 1 + step = 5. The oracle reports the true
// curve from its arrival: a third processor gains nothing, so 2 from the start, and the job, at speed 2
// either way, ends at 20 / 2 = 10 s.
TEST(Simulate, TheOracleReportsTheTrueCurveFromTheArrival) {
  const Workload workload = parse("job a work=20 table=2:2\n");
  SimulationOptions options = options_for(PolicyKind::shortest_first, 8);
  const SimulationResult learnt = simulate(workload, options);
  ASSERT_FALSE(learnt.jobs[0].allocations.empty());
  EXPECT_EQ(learnt.jobs[0].allocations.front(), (std::pair<double, int>{0.0, 5}));
  EXPECT_DOUBLE_EQ(learnt.jobs[0].finish, 10.0);
  options.oracle = true;
  const SimulationResult oracle = simulate(workload, options);
  EXPECT_EQ(oracle.jobs[0].allocations, (std::vector<std::pair<double, int>>{{0.0, 2}, {10.0, 0}}));
  EXPECT_DOUBLE_EQ(oracle.jobs[0].finish, 10.0);
}

// With the self-analysis in the model: one linear job of 64 s on 8 CPUs runs its first quantum on B = 8 / 2
// = 4 (4 s of work done), then at (20 x 8 + 3 x 4) / 23 = 172 / 23 a second (one iteration in 23 re-measures
// T(B) on 4): the 60 s left take 60 x 23 / 172 = 8.023 s, the end at 9.023 instead of 8.
TEST(Simulate, TheSelfAnalysisRunsItsBaselineFirstAndRemeasuresIt) {
  SimulationOptions options = options_for(PolicyKind::equipartition, 8);
  options.self_analysis = true;
  const SimulationResult result = simulate(parse("job a work=64 amdahl=0\n"), options);
  EXPECT_NEAR(result.jobs[0].finish, 1.0 + 60.0 * 23.0 / 172.0, 1e-9);
  EXPECT_EQ(result.jobs[0].allocations.front(), (std::pair<double, int>{0.0, 8}));
  // PDPA (PdpaMovesTheProcessorsAsItsStatesSay) moves a quantum later: [0, 1] is the baseline, the first
  // S(16) comes at 2, and from then on one move a quantum as before.
  options.policy.policy = PolicyKind::pdpa;
  options.policy.cpus = 32;
  const SimulationResult pdpa = simulate(parse("job a work=100000 amdahl=0\njob b work=100000 amdahl=0.5\n"), options);
  EXPECT_EQ(first_moves(pdpa, 0), (Moves{{0, 16}, {2, 20}, {3, 24}, {4, 28}, {5, 31}}));
  EXPECT_EQ(first_moves(pdpa, 1), (Moves{{0, 16}, {2, 12}, {3, 8}, {4, 4}, {5, 1}}));
}

TEST(Simulate, RefusesABadQuantum) {
  SimulationOptions options = options_for(PolicyKind::equipartition, 2);
  options.quantum = 0.0;
  EXPECT_THROW((void)simulate(parse("job a work=1 amdahl=0\n"), options), std::invalid_argument);
}

TEST(SpeedupJson, ANumberBeyondADoubleIsAnInputErrorNamingTheFile) {
  // nlohmann's parser throws out_of_range (not parse_error) for it: found by fuzz_manager_workload.
  try {
    (void)parse_speedup_json(R"({"points": [{"p": 1e999, "speedup": 1}]})", "big.json");
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    EXPECT_EQ(error.location().file, "big.json");
    EXPECT_NE(std::string(error.what()).find("number overflow"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace augur::manager
