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

#include "augur/dpd.hpp"
#include "augur/selfanalysis.hpp"
#include "dynamic_regions.hpp"
#include "worksharing_periods.hpp"
#include "runtime/options.hpp"
#include "runtime/system_clock.hpp"

namespace augur::interpose {

// Drives the analyzer with the calls DynamicRegions makes (the engine's answers are ignored: misuse
// cannot come from a user here).
class AnalyzerListener final : public RegionListener {
public:
  explicit AnalyzerListener(selfanalysis::Analyzer& analyzer) : analyzer_(analyzer) {}
  void init_parallel_region(std::uint64_t ipr, int length, long iterations) override {
    (void)analyzer_.init_parallel_region(ipr, length, iterations);
  }
  void open_iteration() override { (void)analyzer_.open_iteration(); }
  void init_par() override { (void)analyzer_.init_par(); }
  void end_par() override { (void)analyzer_.end_par(); }
  void close_iteration() override { (void)analyzer_.close_iteration(); }
  void end_parallel_region() override { (void)analyzer_.end_parallel_region(); }

private:
  selfanalysis::Analyzer& analyzer_;
};

struct Session {
  const char* runtime = "";  // "libgomp" or "libomp", the info file's `runtime`
  const char* library = "";  // "libaugur_preload" or "libaugur_ompt", in messages
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
  std::unique_ptr<DetectingRegions<dpd::Detector>> engine;
  // The second detector: the ends of worksharing constructs on the master thread of the measured
  // parallel regions (one outer region around the time loop; docs/run.md). Null where the event
  // source has none.
  std::unique_ptr<DetectingWorksharing<dpd::Detector>> worksharing;
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

// At exit: closes the engine, writes the summary (AUGUR_SUMMARY), the report (AUGUR_REPORT) and the
// interposition file (AUGUR_RUN_INFO). Runs once; never throws.
void finish_session(Session& session);

// The interposition file (docs/run.md, "The interposition file").
std::string render_info(const Session& session);

// The interposition file's path (option run.info: AUGUR_RUN_INFO or the tool channel), for a library
// that never started a session; empty: none. May throw (allocation).
std::string info_path_from_environment();

// `pattern` with "%p" replaced by the process id.
std::string expand_path(const std::string& pattern);

}  // namespace augur::interpose
