// Busy work for the tests of libaugur's experiments and superstep traces (experiment_runtime_test.cpp,
// superstep_trace_test.cpp): `seconds` of wall-clock time (omp_get_wtime) spent on the calling thread.
#pragma once

#include <omp.h>

namespace augur::test {

inline void spin_for(double seconds) {
  const double start = omp_get_wtime();
  volatile double sink = 0;
  while (omp_get_wtime() - start < seconds) sink = sink + 1;
}

}  // namespace augur::test
