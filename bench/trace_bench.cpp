// Cost of recording one event of a run's timeline (src/runtime/trace_recorder.hpp; AUGUR_TRACE, augur run
// --trace): a slice begun and ended on the calling thread, the counter and the phase of an iteration, and an
// event dropped by a full buffer. The clock is not read here (the callers read it: ~24 ns, docs/self-analysis.md).
// Prints the median over rounds of CPU nanoseconds per event; never fails. For instruction counts run it under
// valgrind --tool=callgrind with two counts and one kind (kept, dropped or marks), e.g. bench_trace 20000 kept
// and bench_trace 40000 kept: the difference over 7 x 20000 is the count per event (docs/benchmarks.md).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/trace_recorder.hpp"
#include "bench_arguments.hpp"

namespace {

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

using augur::runtime::TraceNumber;
using augur::runtime::TraceRecorder;

// Nanoseconds of CPU per event over `events` slices (begin + end each) into a fresh recorder of `capacity`.
double slices(long events, std::size_t capacity) {
  TraceRecorder recorder(capacity);
  const double start = cpu_seconds();
  for (long k = 0; k < events; ++k) {
    const double time = static_cast<double>(k) * 1e-6;
    recorder.begin("iteration", "iteration", time, static_cast<std::uint64_t>(k), TraceNumber::Decimal, 2);
    recorder.end(time + 5e-7);
  }
  return (cpu_seconds() - start) * 1e9 / static_cast<double>(events);
}

double counters_and_phases(long events) {
  TraceRecorder recorder(static_cast<std::size_t>(2 * events + 16));
  const char* const phases[2] = {"baseline", "allocated"};
  const double start = cpu_seconds();
  for (long k = 0; k < events; ++k) {
    const double time = static_cast<double>(k) * 1e-6;
    recorder.phase(phases[(k / 4) % 2], time);
    recorder.counter("threads", time, static_cast<int>(1 + k % 2));
  }
  return (cpu_seconds() - start) * 1e9 / static_cast<double>(events);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_trace [EVENTS [kept|dropped|marks]]\n"
                                "The cost of recording one timeline event: CPU nanoseconds per event (default 10^6 events)",
                                {}, 2);
  const long events = argc > 1 ? std::atol(argv[1]) : 1000000;
  if (events < 1 || events > 100000000) {
    std::fprintf(stderr, "bench_trace: the count must be from 1 to 10^8\n");
    return 2;
  }
  const std::string only = argc > 2 ? argv[2] : "";
  if (!only.empty() && only != "kept" && only != "dropped" && only != "marks") {
    std::fprintf(stderr, "bench_trace: the kind must be kept, dropped or marks\n");
    return 2;
  }
  std::vector<double> kept{0.0}, full{0.0}, marks{0.0};
  for (int round = 0; round < 7; ++round) {  // interleaved rounds
    if (only.empty() || only == "kept") kept.push_back(slices(events, static_cast<std::size_t>(events)));
    if (only.empty() || only == "dropped") full.push_back(slices(events, 0));  // every event dropped and counted
    if (only.empty() || only == "marks") marks.push_back(counters_and_phases(events));
  }
  kept.erase(kept.begin());
  full.erase(full.begin());
  marks.erase(marks.begin());
  if (!only.empty()) return 0;
  std::printf("slice kept (begin + end, chunks allocated as they fill): %.1f ns per event\n", median(kept));
  std::printf("slice dropped (buffer full):                             %.1f ns per event\n", median(full));
  std::printf("phase + counter of an iteration:                         %.1f ns per iteration\n", median(marks));
  std::printf("(%ld events a round, median of 7 rounds, CPU time of the thread)\n", events);
  return 0;
}
