// The hybrid method's deterministic limit against the simulator with deterministic service (an
// independent implementation of the same model, whose replications are then all one trajectory): on
// random systems, under FCFS and processor sharing, with one and three visits, the same completion time
// and every task's same start and end.
#include <gtest/gtest.h>

#include <string>

#include "augur/sim/task_system.hpp"
#include "augur/tspp_predictor.hpp"

namespace augur::tspp {
namespace {

TEST(TsppDeterministicSimulation, TheTrajectoryIsTheSimulatorsWithDeterministicService) {
  int checked = 0;
  for (unsigned long long seed = 1; seed <= 6; ++seed) {
    GeneratorOptions generator;
    generator.tasks = 10 + 5 * static_cast<int>(seed);
    generator.resources = 2 + static_cast<int>(seed % 4);
    generator.depth = 2 + static_cast<int>(seed % 4);
    generator.seed = seed;
    const TaskSystem system = generate_task_system(generator);
    for (const bool sharing : {false, true}) {
      for (const int visits : {1, 3}) {
        PredictorOptions options;
        options.method = Method::Hybrid;
        options.stages = hybrid_deterministic_stages;
        options.visits = visits;
        options.discipline = sharing ? Discipline::ProcessorSharing : Discipline::FirstComeFirstServed;
        const Prediction predicted = predict(system, options);
        ASSERT_EQ(predicted.part, "deterministic limit");
        sim::TaskSystemOptions simulation;
        simulation.replications = 2;
        simulation.seed = seed;
        simulation.service = sim::ServiceDistribution::Deterministic;
        simulation.discipline = sharing ? sim::Discipline::ProcessorSharing : sim::Discipline::FirstComeFirstServed;
        simulation.visits = visits;
        const sim::TaskSystemSimulation simulated = sim::simulate(system, simulation);
        const std::string where = "seed " + std::to_string(seed) + ", V = " + std::to_string(visits) + (sharing ? ", PS" : ", FCFS");
        const double tolerance = 1e-9 * simulated.completion.mean;
        EXPECT_NEAR(predicted.completion.mean, simulated.completion.mean, tolerance) << where;
        for (std::size_t i = 0; i < system.tasks.size(); ++i) {
          EXPECT_NEAR(predicted.tasks[i].start.mean, simulated.tasks[i].start.mean, tolerance) << where << ", task " << i;
          EXPECT_NEAR(predicted.tasks[i].end.mean, simulated.tasks[i].end.mean, tolerance) << where << ", task " << i;
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 24);
}

}  // namespace
}  // namespace augur::tspp
