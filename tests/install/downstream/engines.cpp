// A user's C++ program on two installed engines: the task-system predictor and the periodicity detector.
#include <augur/dpd.hpp>
#include <augur/tspp.hpp>
#include <augur/tspp_predictor.hpp>
#include <cstdio>

int main() {
  // One task of demand 2 on one queueing centre: it completes at 2, alone.
  const augur::tspp::TaskSystem system = augur::tspp::parse_task_system(
      "resource\n  cpu <- queuing;\ntask\n  only <- { cpu: 2; }\nstructure\n  { only; }\n", "inline");
  const augur::tspp::Prediction prediction = augur::tspp::predict(system);
  augur::dpd::Detector detector(16);
  int period = 0;
  for (int i = 0; i < 30; ++i) detector.push(i % 3, period);
  std::printf("engines: completion %.3f, period %d\n", prediction.completion.mean, period);
  return 0;
}
