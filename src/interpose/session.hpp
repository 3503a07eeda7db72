// What libaugur_preload (libgomp wrappers) and libaugur_ompt (the OMPT tool for libomp) share: the
// options read from the environment, the self-analysis engine driven by the Figure 4.11 engine
// (dynamic_regions.hpp) on the periodicity detector, and, at exit, the report and the interposition
// file (docs/run.md). Each library supplies its own thread control and its own event source.
//
// It goes into the user's process: nothing here throws to the caller of start_session or
// finish_session (problems become one warning on stderr).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "augur/dpd.hpp"
#include "augur/selfanalysis.hpp"
#include "dynamic_regions.hpp"
#include "selfanalysis/team_report.hpp"
#include "interpose/core_binding.hpp"
#include "manager/protocol.hpp"
#include "team_recorder.hpp"
#include "worksharing_periods.hpp"
#include "runtime/analysis_trace.hpp"
#include "runtime/options.hpp"
#include "runtime/system_clock.hpp"
#include "runtime/trace_recorder.hpp"

namespace augur::interpose {

// Drives the analyzer with the calls DynamicRegions makes (the engine's answers are ignored: misuse
// cannot come from a user here).
class AnalyzerListener final : public RegionListener {
public:
  explicit AnalyzerListener(selfanalysis::Analyzer& analyzer) : analyzer_(analyzer) {}
  // The processor manager's slot the iterations are reported to (null: none).
  void report_to(manager::Connection* connection) { manager_ = connection; }
  // The timeline the regions and iterations go to (null: none; run_timeline.hpp), with the engine's settings.
  void trace_to(runtime::TraceRecorder* trace, const selfanalysis::Config* config) {
    trace_ = trace;
    config_ = config;
  }
  void init_parallel_region(std::uint64_t ipr, int length, long iterations) override {
    (void)analyzer_.init_parallel_region(ipr, length, iterations);
    if (trace_ != nullptr) timeline_.region_begin(*trace_, ipr, runtime::read_clock(CLOCK_MONOTONIC));
  }
  void open_iteration() override {
    const selfanalysis::Region* region = trace_ != nullptr ? analyzer_.current() : nullptr;
    const bool warming_up = region != nullptr && region->warmup_remaining > 0;
    (void)analyzer_.open_iteration();
    if (trace_ != nullptr) timeline_.iteration_begin(*trace_, analyzer_, warming_up, *config_, runtime::read_clock(CLOCK_MONOTONIC));
  }
  void init_par() override { (void)analyzer_.init_par(); }
  void end_par() override { (void)analyzer_.end_par(); }
  void close_iteration() override {
    (void)analyzer_.close_iteration();
    if (trace_ != nullptr) timeline_.iteration_end(*trace_, runtime::read_clock(CLOCK_MONOTONIC));
    if (manager_ != nullptr) report_iteration();
  }
  void end_parallel_region() override {
    (void)analyzer_.end_parallel_region();
    if (trace_ != nullptr) timeline_.region_end(*trace_, runtime::read_clock(CLOCK_MONOTONIC));
  }

private:
  void report_iteration();  // session.cpp
  selfanalysis::Analyzer& analyzer_;
  manager::Connection* manager_ = nullptr;
  runtime::TraceRecorder* trace_ = nullptr;
  const selfanalysis::Config* config_ = nullptr;
  runtime::AnalysisTrace timeline_;
};

// The one-run analysis of one outer parallel region (docs/run.md, "One outer parallel region, in one run"):
// the threads' work between barriers (team_recorder.hpp) made into time steps of the period the worksharing
// detector found, and analysed (selfanalysis/team.hpp). The master thread of the measured region drives it;
// every thread of its team records its own arrivals and departures.
// What a time step of the outer region is for: measured on the team (Parallel), a baseline step with the threads
// one after the other (Baseline), or dropped: the first step of a baseline window (part of its first construct
// ran in parallel) and the step after one (part of it ran serialized).
enum class StepKind : std::uint8_t { Parallel, Baseline, Dropped };

struct OuterRegion {
  explicit OuterRegion(int capacity)
      : recorder(capacity),
        analysis(capacity),
        work(static_cast<std::size_t>(capacity > 0 ? capacity : 1), -1.0),
        spin(work.size(), 0.0),
        cpus(static_cast<std::size_t>(capacity > 0 ? capacity : 1), -1) {}
  TeamRecorder recorder;
  selfanalysis::TeamAnalysis analysis;
  std::vector<double> work;             // one episode's work per thread (scratch)
  std::vector<double> spin;             // and its spins on flags, taken out of the work (scratch)
  std::vector<int> cpus;                // the core each thread last left a barrier on (scratch)
  selfanalysis::TeamPlacement placement;  // the team on one core or not, per measured step on the team
  std::atomic<bool> measuring{false};   // a measured region runs: its threads record
  bool serial_next = false;             // the master entered a `single` since the last barrier
  StepMark pending = StepMark::None;    // what the last sample on the master was for the steps
  StepKind running = StepKind::Dropped; // the step that runs now
  StepKind ended = StepKind::Dropped;   // the step the pending mark ended
  int window_left = 0;                  // baseline steps still to run in this window
  long since_window = 0;                // steps on the team since the last window
  bool windows = false;                 // baseline windows are run (analyze mode)
  int window_steps = 3;                 // baseline steps per window (the baseline_iterations option)
  long window_every = 20;               // steps on the team between two windows (baseline_every; -1: one window)
  long switches = 0;                    // involuntary context switches at the last step boundary
  double boundary_cpu = 0.0;            // the process's CPU time at the last step boundary, seconds
  double boundary_wall = -1.0;          // the monotonic clock then (negative: none in this region yet)
  double entered_at = 0.0;              // when the current measured region began
  std::uint64_t region = 0;             // the current measured region
  double elapsed = 0.0;                 // the last entry of the region the period was found in, seconds
  selfanalysis::LoopEstimates estimates;  // the first and the latest estimate of an entry's time (run.iterations known)
  selfanalysis::LoopPace pace;          // the loop's pace between baseline windows, for the estimate
  selfanalysis::ToolTime tool;          // the master's stints in the tool (the courtesy waits: the recorder's)
  long kinds_counted = 0;               // steps of the analysis counted into parallel_kept and baseline_kept
  long parallel_kept = 0;
  long baseline_kept = 0;
  selfanalysis::StepTimeSums parallel_times;  // the times of the parallel_kept steps, for the first estimate
  bool window_started = false;          // a baseline window began at the pending step boundary
  bool traced_steps = false;            // the steps' phases went to the timeline in this region
  // The tool's delay of the step on the critical path (docs/self-analysis.md): the master's last arrival
  // stamp, the end of its last sample, its bookkeeping after the last barrier, the delay so far in the step.
  double master_arrival = 0.0;
  double last_sample_end = 0.0;
  double bookkeeping = 0.0;
  double step_delay = 0.0;
  CoreBinding binding;                  // the team on the master's core during baseline windows
  bool bound_now = false;               // the step that runs has the team bound to the master's core
  bool ended_bound = false;             // so had the step the pending mark ended
  bool entered_again = false;           // the region of the period entered again after it was found
};

struct Session {
  const char* runtime = "";  // "libgomp" or "libomp", the info file's `runtime`
  const char* library = "";  // "libaugur_preload" or "libaugur_ompt", in messages
  bool sees_spins = false;  // spins on flags are seen: libomp's flush callback, or sampled spin loops (libgomp)
  const char* spin_source = "flushes";  // or "samples" (libaugur_preload)
  std::string spin_note;   // why spin loops in the code were not sampled (a note of the report)
  std::atomic<int> spin_threads_refused{0};  // threads the kernel did not let sample their spin loops
  runtime::Settings settings;
  int dpd_window = dpd::Detector::default_window;
  long expected_iterations = -1;
  std::string info_path;
  std::string disabled_reason;  // why nothing is measured (empty: measuring)
  int initial_allocation = 0;
  runtime::SystemClock clock;
  runtime::MachineProbe machine;  // for the noise verdict
  std::unique_ptr<selfanalysis::Analyzer> analyzer;
  std::unique_ptr<AnalyzerListener> listener;
  std::unique_ptr<DetectingRegions<dpd::AdaptiveDetector>> engine;
  // The second detector: the ends of worksharing constructs on the master thread of the measured
  // parallel regions (one outer region around the time loop; docs/run.md). Null where the event
  // source has none.
  std::unique_ptr<DetectingWorksharing<dpd::AdaptiveDetector>> worksharing;
  std::unique_ptr<OuterRegion> outer;  // with `worksharing`
  // The processor manager's slot (docs/manager.md), when one runs and the mode analyses: the libraries' thread
  // controls take its allocation (managed_allocation), the listener reports iterations and speedups into it.
  std::unique_ptr<manager::Connection> manager;
  // The timeline (run_timeline.hpp; null: the option `trace` is empty): the recorder, its clock's origin,
  // and the traced parallel region that runs (its count and start), for the threads of its team.
  std::unique_ptr<runtime::TraceRecorder> trace;
  double trace_origin = 0.0;
  std::atomic<std::uint64_t> traced_region{0};
  std::atomic<double> traced_region_start{0.0};
  std::atomic<bool> in_traced_region{false};
  long intercepted = 0;                 // parallel regions seen on the owner thread at level 0
  std::atomic<long> passed_through{0};  // nested, or from another thread
  bool finished = false;
};

void warn(const std::string& message);

// Reads the options (the runtime and run sets of runtime/options.hpp; warns about unknown AUGUR_*) and
// builds the engine on `threads`, unless the program is linked to libaugur or AUGUR_MODE=off.
// May throw (allocation); the caller warns and goes on unmeasured.
// `worksharing`: also build the second detector, for the ends of worksharing constructs.
void start_session(Session& session, selfanalysis::ThreadControl& threads, int initial_allocation, bool worksharing = false);

// The allocation the manager wrote for this program, or null when it runs unmanaged: the thread controls read it
// (a relaxed load; 0 while the manager has decided nothing).
const std::atomic<std::int32_t>* managed_allocation(const Session& session);

// At exit: closes the engine, writes the summary (AUGUR_SUMMARY), the report (AUGUR_REPORT) and the
// interposition file (AUGUR_RUN_INFO). Runs once; never throws.
void finish_session(Session& session);

// The outer region's edges, called by the libraries (each a no-op without `session.outer`):
// the master before its region's team forms and after the region;
void outer_begin(Session& session, std::uint64_t region, double now);
void outer_end(Session& session, double now);
// the master's sample of a worksharing construct's end (what it was for the steps);
void outer_sample(Session& session, std::uint64_t site, ConstructEnd kind, int team, double now);
// the master entered a `single` (the next barrier ends a serial episode);
void outer_single(Session& session);
// any thread of the measured team at a barrier: arrived (`overhead`: seconds since it left the previous
// barrier spent in runtime code a one-thread run does not execute), left (the master then reads the
// episode: `team`). `sample_follows`: the master's sample of the construct comes after its arrival stamp
// (libgomp's wrappers), so it leaves the tool at the sample's end, not here. `spin`: seconds it spun on a flag
// since (flush_spin.hpp), waiting taken out of its work.
void outer_arrive(Session& session, int thread, double now, double overhead = 0.0, bool sample_follows = false, double spin = 0.0);
// whether the measured team runs a baseline step (its threads one after the other) now.
bool outer_serializing(const Session& session);
void outer_depart(Session& session, int thread, bool master, int team, double now);

// The interposition file (docs/run.md, "The interposition file").
std::string render_info(const Session& session);

// The interposition file's path (option run.info: AUGUR_RUN_INFO or the tool channel), for a library
// that never started a session; empty: none. May throw (allocation).
std::string info_path_from_environment();

// `pattern` with "%p" replaced by the process id.
std::string expand_path(const std::string& pattern);

}  // namespace augur::interpose
