// The exact method against the simulator (an independent implementation of the same model) on random
// small task systems: the exact mean completion time lies within the simulation's 95% interval, and
// every task's mean start and end within a wider one (there are many of them).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "augur/sim/task_system.hpp"
#include "augur/tspp_predictor.hpp"

namespace augur::tspp {
namespace {

struct Case {
  sim::Discipline simulated;
  Discipline exact;
  int visits;
};

TEST(TsppExactSimulation, TheExactMeansLieWithinTheSimulatedIntervals) {
  const Case cases[] = {{sim::Discipline::FirstComeFirstServed, Discipline::FirstComeFirstServed, 1},
                        {sim::Discipline::ProcessorSharing, Discipline::ProcessorSharing, 1},
                        {sim::Discipline::FirstComeFirstServed, Discipline::FirstComeFirstServed, 2},
                        {sim::Discipline::ProcessorSharing, Discipline::ProcessorSharing, 3}};
  int checked = 0;
  for (unsigned long long seed = 1; seed <= 4; ++seed) {
    GeneratorOptions generator;
    generator.tasks = 5 + static_cast<int>(seed);
    generator.resources = 2 + static_cast<int>(seed % 2);
    generator.depth = 2 + static_cast<int>(seed % 3);
    generator.seed = seed;
    const TaskSystem system = generate_task_system(generator);
    for (const Case& c : cases) {
      PredictorOptions options;
      options.method = Method::Exact;
      options.discipline = c.exact;
      options.visits = c.visits;
      const Prediction exact = predict(system, options);
      sim::TaskSystemOptions simulation;
      simulation.replications = 4000;
      simulation.seed = seed;
      simulation.discipline = c.simulated;
      simulation.visits = c.visits;
      const sim::TaskSystemSimulation simulated = sim::simulate(system, simulation);
      const std::string where = "seed " + std::to_string(seed) + ", V = " + std::to_string(c.visits) +
                                (c.exact == Discipline::ProcessorSharing ? ", PS" : ", FCFS");
      EXPECT_NEAR(exact.completion.mean, simulated.completion.mean, simulated.completion.half_width) << where;
      EXPECT_NEAR(std::sqrt(exact.completion.variance), simulated.completion.deviation, 0.05 * simulated.completion.deviation)
          << where;
      for (std::size_t i = 0; i < system.tasks.size(); ++i) {
        // 99.9%: 3.29 standard errors, the interval's half width being 1.96 of them.
        const double wide = 3.29 / 1.96;
        EXPECT_NEAR(exact.tasks[i].start.mean, simulated.tasks[i].start.mean, wide * simulated.tasks[i].start.half_width) << where;
        EXPECT_NEAR(exact.tasks[i].end.mean, simulated.tasks[i].end.mean, wide * simulated.tasks[i].end.half_width) << where;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 16);
}

}  // namespace
}  // namespace augur::tspp
