// Cost per sample of the Dynamic Periodicity Detector (docs/dpd.md, "Cost"), for windows of 64 to 1024
// samples, on three streams: a steady period of 7, a period that changes every 1000 samples, and an
// aperiodic stream (the worst case: every shift is compared at every sample); without a period also at
// 2048 and 4096, and the adaptive detector's growth from 128 to 2048. As a reference, the definition
// evaluated directly at every sample (each shift's pairs compared until one differs).
// Prints figures; never fails.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "augur/dpd.hpp"

namespace {

using augur::dpd::AdaptiveDetector;
using augur::dpd::Detector;

// 70000 samples: 10000 periods of 7.
std::vector<long> steady_stream() {
  std::vector<long> stream;
  for (int index = 0; index < 70000; ++index) stream.push_back(0x401000L + 0x40L * (index % 7));
  return stream;
}

// 70 segments of 1000 samples, each with its own loops and a period from {3, 5, 7, 11, 13, 2, 17, 9}.
std::vector<long> changing_stream() {
  const int periods[] = {3, 5, 7, 11, 13, 2, 17, 9};
  std::vector<long> stream;
  for (int segment = 0; segment < 70; ++segment) {
    const int period = periods[segment % 8];
    for (int index = 0; index < 1000; ++index) stream.push_back(0x500000L + 0x1000L * segment + 0x40L * (index % period));
  }
  return stream;
}

// 65536 distinct samples: never periodic within a window of at most 1024.
std::vector<long> aperiodic_stream() {
  std::vector<long> stream;
  for (long index = 0; index < 65536; ++index) stream.push_back(0x600000L + 0x40L * index);
  return stream;
}

const std::vector<long>& stream_for(int kind) {
  static const std::vector<long> steady = steady_stream();
  static const std::vector<long> changing = changing_stream();
  static const std::vector<long> aperiodic = aperiodic_stream();
  if (kind == 0) return steady;
  if (kind == 1) return changing;
  return aperiodic;
}

// One push per benchmark iteration, the stream read round and round. Counters: the sample comparisons
// per sample (the detector's own count) and the fraction of samples with a known period.
void detector_per_sample(benchmark::State& state, int kind) {
  const std::vector<long>& stream = stream_for(kind);
  Detector detector(static_cast<int>(state.range(0)));
  for (const long sample : stream) detector.push(sample);  // warm: one pass before timing
  const std::int64_t comparisons = detector.statistics().comparisons;
  std::size_t index = 0;
  std::int64_t periodic = 0;
  for (auto _ : state) {
    int period = 0;
    benchmark::DoNotOptimize(detector.push(stream[index], period));
    periodic += period > 0 ? 1 : 0;
    if (++index == stream.size()) index = 0;
  }
  const auto samples = static_cast<double>(state.iterations());
  state.counters["compares/sample"] = static_cast<double>(detector.statistics().comparisons - comparisons) / samples;
  state.counters["periodic"] = static_cast<double>(periodic) / samples;
}

void steady_period_7(benchmark::State& state) { detector_per_sample(state, 0); }
void period_changes_every_1000(benchmark::State& state) { detector_per_sample(state, 1); }
void aperiodic(benchmark::State& state) { detector_per_sample(state, 2); }
BENCHMARK(steady_period_7)->RangeMultiplier(2)->Range(64, 1024);
BENCHMARK(period_changes_every_1000)->RangeMultiplier(2)->Range(64, 1024);
BENCHMARK(aperiodic)->RangeMultiplier(2)->Range(64, 1024);
// The windows the adaptive detector may grow to (its default bound is 2048).
BENCHMARK(aperiodic)->Arg(2048)->Arg(4096);

// The adaptive detector from a window of 128 to its bound of 2048 on distinct samples: 2048 pushes and
// the four growths (set_window) among them, per iteration (docs/dpd.md, "The adaptive detector").
void adaptive_growth_to_bound(benchmark::State& state) {
  const std::vector<long>& stream = stream_for(2);
  for (auto _ : state) {
    AdaptiveDetector detector(128);
    for (std::size_t index = 0; index < 2048; ++index) detector.push(stream[index]);
    benchmark::DoNotOptimize(detector.window());
  }
}
BENCHMARK(adaptive_growth_to_bound)->Unit(benchmark::kMillisecond);

// The reference: d(m) evaluated from the definition at every sample, over the same window.
class DirectSearch {
public:
  explicit DirectSearch(int window) : window_(window), history_(2 * static_cast<std::size_t>(window), 0) {}
  int push(long sample) {
    head_ = (head_ == 0 ? window_ : head_) - 1;
    history_[static_cast<std::size_t>(head_)] = sample;
    history_[static_cast<std::size_t>(head_ + window_)] = sample;
    held_ = std::min(held_ + 1, window_);
    const long* past = history_.data() + head_;  // past[j] = x(n - j)
    for (int shift = 1; shift <= held_ / 2; ++shift) {
      int index = 0;
      while (index < held_ - shift && past[index] == past[index + shift]) ++index;
      if (index == held_ - shift) return shift;
    }
    return 0;
  }

private:
  int window_;
  std::vector<long> history_;
  int head_ = 0;
  int held_ = 0;
};

void direct_per_sample(benchmark::State& state, int kind) {
  const std::vector<long>& stream = stream_for(kind);
  DirectSearch search(static_cast<int>(state.range(0)));
  for (std::size_t index = 0; index < 4096; ++index) search.push(stream[index]);
  std::size_t index = 4096 % stream.size();
  for (auto _ : state) {
    benchmark::DoNotOptimize(search.push(stream[index]));
    if (++index == stream.size()) index = 0;
  }
}

void direct_steady_period_7(benchmark::State& state) { direct_per_sample(state, 0); }
void direct_period_changes_every_1000(benchmark::State& state) { direct_per_sample(state, 1); }
void direct_aperiodic(benchmark::State& state) { direct_per_sample(state, 2); }
BENCHMARK(direct_steady_period_7)->RangeMultiplier(2)->Range(64, 1024);
BENCHMARK(direct_period_changes_every_1000)->RangeMultiplier(2)->Range(64, 1024);
BENCHMARK(direct_aperiodic)->RangeMultiplier(2)->Range(64, 1024);

}  // namespace

BENCHMARK_MAIN();
