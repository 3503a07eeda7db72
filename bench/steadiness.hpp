// How steady the machine is, with nothing of ours running: a fixed piece of work (pure arithmetic, then reads
// that stream through the caches) timed in chunks of about a millisecond for a while, on one thread, then on two
// threads at once (bench_outer_region's team). On a quiet machine every chunk takes the same time; on a shared
// host (a virtual machine's processors or caches shared with other guests, frequency changes) some chunks take
// longer, and a figure averaged over a run then exceeds one taken as a median of its parts. bench_outer_region
// prints it before each program (docs/benchmarks.md, "Outer-region programs"): the one-run T(1) is the median of
// the baseline steps, the reference T(1) a whole run's mean, so the mean's excess over the median on a fixed
// computation says how far the two can fall apart through the machine alone.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_median.hpp"

namespace augur::bench {

// What the chunks' times say: their median, the mean's excess over it (mean / median - 1: what a whole-run
// average loses to slow phases against a median), the share of chunks more than 10% above the median, and the
// slowest against the median. Pure; all zero for no chunk.
struct Steadiness {
  long chunks = 0;
  double median_s = 0.0;
  double mean_excess = 0.0;
  double slow_share = 0.0;
  double slowest = 0.0;
};

inline Steadiness steadiness_of(std::vector<double> times) {
  Steadiness figures;
  figures.chunks = static_cast<long>(times.size());
  if (times.empty()) return figures;
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  figures.median_s = median(times);
  if (figures.median_s <= 0.0) return figures;
  double sum = 0.0;
  long slow = 0;
  for (const double time : times) {
    sum += time;
    if (time > 1.1 * figures.median_s) ++slow;
  }
  figures.mean_excess = sum / static_cast<double>(n) / figures.median_s - 1.0;
  figures.slow_share = static_cast<double>(slow) / static_cast<double>(n);
  figures.slowest = times.back() / figures.median_s - 1.0;
  return figures;
}

// The fixed work of a chunk, of one of two kinds. Arithmetic: `steps` dependent multiply-adds (a few cycles
// each, no memory traffic), from a start read from a volatile so that no call's result is known to the compiler
// (hoisted out of the timing loop, the work would run once). Memory: `steps` reads, one a cache line, going round
// an array of 8 MiB of the worker's own (past a core's L2 here, within the shared L3 for two workers): how steady
// the shared cache and memory are for a program that streams its data.
enum class Work { Arithmetic, Memory };

class Worker {
public:
  explicit Worker(Work kind) : kind_(kind) {
    if (kind_ == Work::Memory) data_.assign(std::size_t{8} << 20 >> 3, 1.0);  // 8 MiB of doubles, touched
  }
  double chunk(long steps) {
    if (kind_ == Work::Arithmetic) {
      static volatile double start = 1.0;
      double x = start;
      for (long step = 0; step < steps; ++step) x = x * 0.9999999 + 1e-7;
      return x;
    }
    // Four independent sums, a line each, so that the reads and not one chain of additions set the pace.
    double sum[4] = {0.0, 0.0, 0.0, 0.0};
    const std::size_t size = data_.size();  // a multiple of 32 doubles: four lines fit before the wrap
    for (long step = 0; step + 4 <= steps; step += 4) {
      sum[0] += data_[at_];
      sum[1] += data_[at_ + 8];
      sum[2] += data_[at_ + 16];
      sum[3] += data_[at_ + 24];
      at_ += 32;  // the next four cache lines
      if (at_ >= size) at_ = 0;
    }
    return sum[0] + sum[1] + sum[2] + sum[3];
  }

private:
  Work kind_;
  std::vector<double> data_;
  std::size_t at_ = 0;
};

inline double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The steps of a chunk of `kind` that take about `chunk_s` here: the fastest of 5 timings of a trial size, scaled.
inline long calibrate_work(Work kind, double chunk_s) {
  const long trial = 100000;
  Worker worker(kind);
  (void)worker.chunk(trial);  // the array into the caches
  double fastest = 1e9;
  volatile double sink = 0.0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const double start = seconds_now();
    sink = sink + worker.chunk(trial);
    fastest = std::min(fastest, seconds_now() - start);
  }
  return std::max(1000L, static_cast<long>(static_cast<double>(trial) * chunk_s / std::max(fastest, 1e-7)));
}

// `threads` threads, each with a worker of `kind`, start together and each times chunks of `steps` until
// `seconds` have passed: the chunk times of all of them.
inline std::vector<double> time_chunks(Work kind, int threads, double seconds, long steps) {
  std::vector<std::vector<double>> times(static_cast<std::size_t>(threads));
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> team;
  for (int thread = 0; thread < threads; ++thread) {
    team.emplace_back([&, thread] {
      std::vector<double>& own = times[static_cast<std::size_t>(thread)];
      Worker worker(kind);
      volatile double sink = worker.chunk(steps);  // its array into the caches, untimed
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      const double end = seconds_now() + seconds;
      for (double start = seconds_now(); start < end;) {
        sink = sink + worker.chunk(steps);
        const double now = seconds_now();
        own.push_back(now - start);
        start = now;
      }
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  go.store(true);
  for (std::thread& thread : team) thread.join();
  std::vector<double> all;
  for (const std::vector<double>& own : times) all.insert(all.end(), own.begin(), own.end());
  return all;
}

inline std::string steadiness_text(const Steadiness& figures) {
  char text[160];
  std::snprintf(text, sizeof text, "mean %+.1f%% of the median chunk (%.3f ms), %.0f%% of %ld chunks 10%% slower, slowest %+.0f%%",
                100.0 * figures.mean_excess, figures.median_s * 1e3, 100.0 * figures.slow_share, figures.chunks,
                100.0 * figures.slowest);
  return text;
}

// Each kind of work on one thread for `seconds`, then on `processors` threads at once for as long.
struct MachineSteadiness {
  Steadiness arithmetic_one, arithmetic_all, memory_one, memory_all;
  int processors = 1;
};

inline MachineSteadiness measure_steadiness(double seconds, int processors) {
  MachineSteadiness result;
  result.processors = std::max(1, processors);
  const long arithmetic = calibrate_work(Work::Arithmetic, 1e-3);
  result.arithmetic_one = steadiness_of(time_chunks(Work::Arithmetic, 1, seconds, arithmetic));
  result.arithmetic_all = steadiness_of(time_chunks(Work::Arithmetic, result.processors, seconds, arithmetic));
  const long memory = calibrate_work(Work::Memory, 1e-3);
  result.memory_one = steadiness_of(time_chunks(Work::Memory, 1, seconds, memory));
  result.memory_all = steadiness_of(time_chunks(Work::Memory, result.processors, seconds, memory));
  return result;
}

// The lines bench_outer_region prints before a program.
inline std::string steadiness_lines(const MachineSteadiness& machine, double seconds) {
  char head[220];
  std::snprintf(head, sizeof head,
                "  the machine's steadiness before it (1 ms chunks of fixed work, %.1f s each: arithmetic, then reading 8 MiB "
                "a thread; on 1 thread, then on %d at once):\n",
                seconds, machine.processors);
  const std::string all = "on " + std::to_string(machine.processors) + " threads: ";
  return head + ("    arithmetic on 1 thread: " + steadiness_text(machine.arithmetic_one) + "\n") + "    arithmetic " + all +
         steadiness_text(machine.arithmetic_all) + "\n    memory on 1 thread: " + steadiness_text(machine.memory_one) +
         "\n    memory " + all + steadiness_text(machine.memory_all) + "\n";
}

// Under the tally: over the measurements (one before each program), the range and median of the mean's excess
// over the median chunk, for each kind of work on one thread and on all processors at once. Pure.
inline std::string steadiness_summary(const std::vector<MachineSteadiness>& measured) {
  if (measured.empty()) return "";
  const auto line = [&measured](const std::string& what, auto pick) {
    std::vector<double> excess;
    for (const MachineSteadiness& one : measured) excess.push_back(pick(one).mean_excess);
    std::sort(excess.begin(), excess.end());
    const double middle = median(excess);
    char text[200];
    std::snprintf(text, sizeof text, "  %s: mean %+.1f%% of the median chunk in the median, %+.1f%% to %+.1f%%\n", what.c_str(),
                  100.0 * middle, 100.0 * excess.front(), 100.0 * excess.back());
    return std::string(text);
  };
  const std::string all = " on " + std::to_string(measured.front().processors) + " threads at once";
  return "== the machine's steadiness before each of " + std::to_string(measured.size()) +
         (measured.size() == 1 ? " program" : " programs") + " (1 ms chunks of fixed work)\n" +
         line("arithmetic on 1 thread", [](const MachineSteadiness& one) { return one.arithmetic_one; }) +
         line("arithmetic" + all, [](const MachineSteadiness& one) { return one.arithmetic_all; }) +
         line("memory on 1 thread", [](const MachineSteadiness& one) { return one.memory_one; }) +
         line("memory" + all, [](const MachineSteadiness& one) { return one.memory_all; });
}

}  // namespace augur::bench
