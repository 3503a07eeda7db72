// The self-analysis engine: the SelfAnalyzer of Corbalan & Labarta (seed 000) and of the thesis
// chapter 4 (seed 003), as pure C++. It is driven by the probes of an iterative parallel region
// (init_parallel_region, open/close_iteration, init/end_par) and decides how many threads run each
// iteration. Time and thread control are injected so that tests can drive it exactly.
//
// Method, equations and options: docs/self-analysis.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace augur::selfanalysis {

// Where time comes from.
class Clock {
public:
  virtual ~Clock() = default;
  // Monotonic wall-clock time in seconds.
  virtual double wall_seconds() = 0;
  // CPU time consumed by all threads of the process, in seconds (for the self-tuning' estimator).
  virtual double process_cpu_seconds() = 0;
  // Involuntary context switches so far (getrusage's ru_nivcsw: the times a thread was preempted) of
  // the thread that calls it, the owner of the measurement; negative when unknown. The noise verdict
  // counts them per window. Read on the owner thread at window edges only.
  virtual long involuntary_switches() { return -1; }
};

// How the processors of the program are controlled (the thesis' NthLib interface, Table 4.3).
class ThreadControl {
public:
  virtual ~ThreadControl() = default;
  // P: the processors allocated to the program (by the user, a scheduler, or the sweep).
  virtual int allocated_processors() = 0;
  // nth_set_active_threads(n): run the next parallel loops on n of the allocated processors.
  virtual void set_active_threads(int threads) = 0;
  // appl_stopped(): true if the program was stopped since the last call.
  virtual bool stopped_since_last_call() = 0;
};

// Which processor count the baseline iterations run on.
struct BaselinePolicy {
  // Automatic (the default): half of the allocation, at most automatic_limit, B = min(4, P / 2): a measured
  // speedup on a small machine (B < P from P = 2 on) and the thesis' recommended 4 on a large one
  // (docs/self-analysis.md, "Baseline"). Fixed: `processors`. Half: half of the allocation.
  enum class Kind { Automatic, Fixed, Half };
  static constexpr int automatic_limit = 4;
  Kind kind = Kind::Automatic;
  int processors = 4;  // for Kind::Fixed

  // B for a program with `allocated` processors: the rule of `kind`, at least 1 and never more than the
  // allocation (thesis 4.3.1: "if P is less than baseline, use P as baseline").
  [[nodiscard]] int resolve(int allocated) const;
  [[nodiscard]] std::string describe() const;  // "auto", "4", "half"
};

// When the noise verdict calls a measurement disturbed (docs/self-analysis.md, "The noise verdict").
struct NoiseThresholds {
  double slow_window = 0.10;       // a baseline window slower than the fastest one by more than this fraction
  long preempted_window = 2;       // a window with at least this many involuntary context switches
  double disturbed_fraction = 0.2; // more than this fraction of the windows slowed or preempted: disturbed
  double spread = 0.05;            // MAD/median of the window times on a processor count above this: disturbed
  double table_deviation = 0.10;   // the table's history-weighted S(P) this far from the windows' median (or two of
                                   // its deviations, if more): disturbed
  double history_weight = 0.6;     // the table's weight w of the history (Config::history_weight; the report sets it)
};

// Window means kept per processor count and for the baseline (the oldest are overwritten beyond).
inline constexpr std::size_t max_kept_windows = 256;

// The windows of one kind: their mean iteration times and involuntary context switches.
struct WindowLog {
  std::vector<double> means;     // seconds, at most max_kept_windows (a ring beyond)
  std::vector<long> switches;    // same indices; -1 when unknown
  long total = 0;                // windows ever added
  void reserve();                // room for max_kept_windows
  void add(double mean, long switched);
};

struct Config {
  // false: only time the regions and count their iterations (no baseline, no change of threads,
  // no speedup) -- the program "without the self-analyzer" of the validation experiment.
  bool analyze = true;
  BaselinePolicy baseline;
  int warmup_iterations = 1;    // iterations after entering a region that run on P and are not measured
  int baseline_iterations = 3;  // iterations averaged into T(B)
  int measure_iterations = 3;   // iterations averaged into each T(p)
  double history_weight = 0.6;  // S = w * S_old + (1 - w) * S_new (thesis Figure 4.7)
  std::vector<int> sweep;       // SA(1 exec): processor counts to visit after the baseline; empty: off
  int sweep_every = 10;         // iterations per processor count in the sweep (>= 2)
  bool self_tuning = true;      // measure the self-tuning' estimator
  double self_tuning_interval = 0.01;  // seconds between two CPU-clock samples
  // Re-measure T(B) with a window of baseline_iterations on B after every `baseline_every` measured
  // iterations on the allocated processors (not during a sweep, and only when B differs from them);
  // 0: never (the thesis' one baseline at the start). docs/self-analysis.md, "The noise verdict".
  int baseline_every = 20;
  NoiseThresholds noise;
};

enum class SpeedupState { NotCalculated, Calculated };  // PNC, PC

// What the engine knows about one processor count in one region.
struct ProcessorStats {
  int processors = 0;
  SpeedupState state = SpeedupState::NotCalculated;
  double speedup = 0.0;         // S(p), history applied (Region::speedup() for the baseline's count)
  double iteration_time = 0.0;  // T(p): mean of the last window, seconds
  long windows = 0;             // speedup values computed
  long iterations = 0;          // measured (not discarded) iterations on p processors
  double measured_time = 0.0;   // their total time, seconds
  double self_tuning_cpu = 0.0;   // CPU seconds of the process in the self-tuning' samples
  double self_tuning_wall = 0.0;  // wall seconds of those samples
  // ST'(p) = efficiency x p = busy CPU time / wall time; 0 when not measured.
  [[nodiscard]] double self_tuning_speedup() const;
  WindowLog windows_log;  // every complete window on p processors (not the baseline's)
  // Window being accumulated (internal, reset on every change of processors).
  double window_sum = 0.0;
  int window_count = 0;
};

struct Region {
  std::uint64_t ipr = 0;
  int length = 0;
  long expected_iterations = -1;  // negative: unknown

  long entries = 0;                  // times init_parallel_region started it
  long iterations_opened = 0;
  long iterations_closed = 0;        // in all entries
  long iterations_discarded = 0;
  long entry_iterations_closed = 0;  // since the region was last entered

  int warmup_remaining = 0;      // warm-up iterations still to run since the region was entered
  int baseline_processors = 0;   // B, resolved when the first iteration opens
  double baseline_time = 0.0;    // T(B), seconds: the median of the baseline windows
  bool baseline_done = false;
  WindowLog baseline_windows;    // the first baseline window and every re-measurement
  bool remeasuring = false;      // a re-measurement window of T(B) runs
  long since_baseline = 0;       // measured iterations on other counts since the last baseline window
  double baseline_sum = 0.0;
  int baseline_count = 0;

  double sequential_time = 0.0;       // time outside parallel loops in measured iterations
  double parallel_time = 0.0;         // time inside parallel loops in measured iterations
  double parallel_cpu_time = 0.0;     // sum of ParallelTime x CPUS
  bool parallel_loops_seen = false;

  double elapsed = 0.0;  // wall time spent in the region (all init..end spans)
  double last_entry_elapsed = 0.0;  // wall time of the last completed entry
  double opened_at = 0.0;  // when the region was last entered
  bool open = false;

  double first_estimate = -1.0;          // ExTime(P) when S(P) was first calculated
  int first_estimate_processors = 0;
  long first_estimate_iteration = 0;

  bool swept = false;  // some speedups come from a sweep (SA(1 exec))
  std::size_t sweep_index = 0;   // position in Config::sweep
  int sweep_done_in_block = 0;   // iterations run at sweep[sweep_index]

  std::vector<ProcessorStats> by_processors;  // index p, 1 .. size-1

  // f = SequentialTime / (SequentialTime + ParallelTime x CPUS) (thesis Figure 4.6); -1 if unknown.
  [[nodiscard]] double sequential_fraction() const;
  // AF(B) = 1 / (f + (1 - f) / B), AF(1) = 1 (thesis Figure 4.5). f unknown counts as 0.
  [[nodiscard]] double amdahl_factor() const;
  [[nodiscard]] const ProcessorStats* stats(int processors) const;
  // S(p) when calculated, else 0. On the baseline's count it is AF(B) by definition, with the
  // current f: the reference the other counts are measured against.
  [[nodiscard]] double speedup(int processors) const;
  // The speedup over the whole run so far: T(B) / (mean time of all measured iterations on p) x AF(B),
  // without the history's weighting towards recent windows; 0 when unknown. For validation: it is
  // what the traditional speedup, a ratio of whole-run times, compares with.
  [[nodiscard]] double mean_speedup(int processors) const;
};

// One new speedup value.
struct SpeedupEvent {
  const Region* region;
  int processors;
  double speedup;
  double estimated_time;  // negative when unknown
};

using SpeedupListener = void (*)(const SpeedupEvent& event, void* user_data);

// A probe called out of order. NoRegion, IterationNotOpen and ParNotOpen: the call was ignored.
// IterationAlreadyOpen: the open iteration was discarded and a new one opened. ParAlreadyOpen:
// from init_par, ignored; from close_iteration, the loop was taken to end with the iteration.
enum class Misuse { None, NoRegion, IterationNotOpen, IterationAlreadyOpen, ParNotOpen, ParAlreadyOpen };

// The median of the window means kept (0 when there is none).
[[nodiscard]] double median_window(const WindowLog& windows);

// AF(B) = 1 / (f + (1 - f) / B); 1 when B <= 1.
[[nodiscard]] double amdahl_factor(double sequential_fraction, int baseline_processors);

class Analyzer {
public:
  // `max_processors`: the largest processor count the tables are sized for (grown if exceeded).
  Analyzer(Config config, Clock& clock, ThreadControl& threads, int max_processors);

  void set_listener(SpeedupListener listener, void* user_data);

  // The probes. Each returns Misuse::None, or why it was ignored. They allocate nothing, except
  // init_parallel_region the first time it sees a region and the first windows kept on a processor count.
  Misuse init_parallel_region(std::uint64_t ipr, int length, long iterations);
  Misuse end_parallel_region();
  Misuse open_iteration();
  Misuse close_iteration();
  Misuse init_par();
  Misuse end_par();

  // Ends the measurement: closes the open iteration (discarded) and the open region.
  void finish();

  // ExTime(p) = ConsumedTime + AF(B) x T(B) / S(p) x ItersRemaining (thesis Figure 4.8) for the
  // region's current (or last) entry; negative when S(p) or the iteration count is unknown.
  [[nodiscard]] double estimated_time(const Region& region, int processors, double now) const;

  [[nodiscard]] const std::vector<Region>& regions() const { return regions_; }
  // The most recently started region, or nullptr.
  [[nodiscard]] const Region* current() const;
  [[nodiscard]] const Config& config() const { return config_; }
  [[nodiscard]] int max_processors() const { return max_processors_; }
  // The threads the engine last set (those of the iteration in progress or just closed); 0 before the first.
  [[nodiscard]] int active_threads() const { return active_threads_; }

private:
  int choose_processors(Region& region, int allocated);
  void count_closed(Region& region, bool discarded);
  void record_iteration(Region& region, int processors, double duration);
  void record_speedup(Region& region, ProcessorStats& stats, double value, double now);
  long switches_since_mark();  // involuntary switches since the window began; -1 when unknown
  ProcessorStats& stats_for(Region& region, int processors);
  void start_self_tuning_sample(double now);
  void close_self_tuning_sample(Region& region, double now);

  Config config_;
  Clock& clock_;
  ThreadControl& threads_;
  int max_processors_;
  SpeedupListener listener_ = nullptr;
  void* listener_data_ = nullptr;

  std::vector<Region> regions_;
  int current_ = -1;

  // The iteration in progress.
  bool iteration_open_ = false;
  bool iteration_discarded_ = false;
  double iteration_start_ = 0.0;
  double iteration_parallel_ = 0.0;
  int iteration_processors_ = 0;
  int iteration_allocated_ = 0;
  bool par_open_ = false;
  double par_start_ = 0.0;

  int active_threads_ = 0;  // what the engine last set, 0 before the first iteration
  int last_processors_ = 0; // processors of the previous iteration
  long window_switch_mark_ = -1;  // involuntary switches when the window in progress began

  // Self-tuning' sample in progress.
  bool sample_open_ = false;
  double sample_wall_ = 0.0;
  double sample_cpu_ = 0.0;
  int sample_processors_ = 0;
};

}  // namespace augur::selfanalysis
