// Hand-made runs for the coupling engine's tests: kernels of known times, chains of known coupling values.
#pragma once

#include <vector>

#include "augur/coupling.hpp"

namespace augur::coupling {

// gtest's Test::Run hides the name inside TEST bodies.
using MeasuredRun = Run;

inline Timing timing(double seconds) {
  Timing t;
  t.seconds = seconds;
  t.ci_low = seconds;
  t.ci_high = seconds;
  t.samples = {seconds};
  return t;
}

// Four kernels with P = 1, 2, 3, 4 s, 10 iterations; chains of length 2 and 3 with given couplings; the
// loop measured at 90 s.
inline MeasuredRun four_kernels(double pair_coupling, double triple_coupling) {
  MeasuredRun run;
  run.application = "toy";
  run.dataset = "A";
  run.problem_size = 1000;
  run.iterations = 10;
  run.threads = 2;
  run.machine.cpu_model = "CPU";
  run.machine.l2_bytes = 1 << 20;
  for (const char* name : {"a", "b", "c", "d"}) run.kernels.push_back({name, 1});
  for (int i = 0; i < 4; ++i) run.chains.emplace_back(std::vector<int>{i}, timing(i + 1.0));
  for (int length = 2; length <= 3; ++length) {
    for (int first = 0; first < 4; ++first) {
      const auto chain = cyclic_chain(first, length, 4);
      double sum = 0;
      for (const int k : chain) sum += k + 1.0;
      run.chains.emplace_back(chain, timing((length == 2 ? pair_coupling : triple_coupling) * sum));
    }
  }
  run.loop = timing(90.0);
  return run;
}

}  // namespace augur::coupling
