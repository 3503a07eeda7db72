// The shared part of libaugur_preload and libaugur_ompt: options, engine, report at exit (session.hpp).
#include "interpose/session.hpp"

#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "core/json_text.hpp"
#include "augur/selfanalysis_report.hpp"
#include "interpose/run_timeline.hpp"
#include "runtime/process_info.hpp"

extern char** environ;

namespace augur::interpose {

void warn(const std::string& message) { std::fprintf(stderr, "augur: %s\n", message.c_str()); }

namespace {

// The run set's values and the runtime settings, by the rule of every option set (default <
// environment < tool channel; these libraries have no API).
runtime::OptionSources environment_sources() {
  runtime::OptionSources sources;
  sources.environment = [](const char* name) -> const char* { return std::getenv(name); };
  sources.tool_channel = std::getenv(std::string(runtime::tool_channel_variable).c_str());
  return sources;
}

std::string json_string(const std::string& text) { return core::json_quoted(text); }

std::string hex(std::uint64_t value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "\"0x%" PRIx64 "\"", value);
  return buffer;
}

// One loop: its address, the module that holds it and the offset there, and the dynamic symbol
// when there is one (outlined functions are local symbols: `augur run` resolves them with addr2line).
std::string describe_loop(std::uint64_t address) {
  std::string out = "{\"address\": " + hex(address);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(address), &info) != 0) {
    out += ", \"module\": " + json_string(info.dli_fname != nullptr ? info.dli_fname : "");
    out += ", \"offset\": " + hex(address - reinterpret_cast<std::uint64_t>(info.dli_fbase));
    out += ", \"symbol\": " + (info.dli_sname != nullptr && info.dli_saddr == reinterpret_cast<void*>(address)
                                   ? json_string(info.dli_sname)
                                   : std::string("null"));
  }
  return out + "}";
}

// No iterative parallel region, but a period in the worksharing constructs of one (analysed, or only timed).
bool step_inside_region(const Session& state) {
  return state.engine != nullptr && state.engine->regions().region_count() == 0 && state.worksharing != nullptr &&
         state.worksharing->periods().found();
}

// What the run found when there is no measurement to show.
std::string diagnosis(const Session& state) {
  if (!state.disabled_reason.empty()) return state.disabled_reason;
  if (state.intercepted == 0) return "no OpenMP parallel region ran";
  const DynamicRegions& regions = state.engine->regions();
  if (regions.region_count() > 0) return "";
  if (state.worksharing != nullptr && state.worksharing->periods().found()) {
    return "no iterative parallel region, but a period of " + std::to_string(state.worksharing->periods().pattern().length) +
           " worksharing constructs inside one parallel region: analysed in one run from its threads' work between barriers "
           "(the region of kind outer)";
  }
  if (regions.distinct_loops() == 1 && state.intercepted == 1 && state.worksharing != nullptr) {
    const dpd::AdaptiveDetector& detector = state.worksharing->detector();
    return "one parallel region ran, once, and its " + std::to_string(state.worksharing->periods().samples()) +
           " worksharing constructs (barriers, loop ends) showed no periodic pattern (the detector's window grew from " +
           std::to_string(detector.start_window()) + " to " + std::to_string(detector.grown_to()) + " samples): nothing measured; " +
           (state.worksharing->periods().samples() < 2L * detector.start_window() &&
                    state.worksharing->periods().samples() >= 2L * dpd::Detector::min_window
                ? std::string("a window larger than half the constructs that ran cannot see a step repeat: a smaller --dpd-window")
                : std::string("a time step longer than half the window needs a larger --dpd-window"));
  }
  if (regions.distinct_loops() == 1 && state.intercepted == 1) {
    return "one parallel region ran, once: a program with one parallel region around its time loop (orphaned "
           "worksharing loops inside it) is not measured by " + std::string(state.library) + " yet";
  }
  const dpd::AdaptiveDetector& detector = state.engine->detector();
  return std::to_string(state.intercepted) + " parallel regions ran (" + std::to_string(regions.distinct_loops()) +
         " distinct) without a periodic pattern (the detector's window grew from " + std::to_string(detector.start_window()) +
         " to " + std::to_string(detector.grown_to()) +
         " samples): no iterative parallel region, nothing measured; a longer period needs a larger --dpd-window";
}

// The period found in the worksharing constructs of one parallel region (docs/run.md), or null.
std::string render_worksharing(const Session& state) {
  if (state.worksharing == nullptr) return "null";
  const WorksharingPeriods& periods = state.worksharing->periods();
  std::string out = "{\"window\": " + std::to_string(state.worksharing->detector().grown_to()) + ", \"samples\": " +
                    std::to_string(periods.samples()) + ", \"distinct_sites\": " +
                    std::to_string(periods.distinct_sites()) + ", \"found\": " + (periods.found() ? "true" : "false");
  if (!periods.found()) return out + "}";
  const WorksharingPattern& pattern = periods.pattern();
  char number[64];
  const double median = periods.median_time();
  std::snprintf(number, sizeof number, "%.9g", median);
  out += ", \"region\": " + describe_loop(pattern.region) + ", \"length\": " + std::to_string(pattern.length) +
         ", \"team_size\": " + std::to_string(pattern.team_size) + ", \"iterations\": " + std::to_string(periods.iterations()) +
         ", \"measured_iterations\": " + std::to_string(periods.measured_iterations()) +
         ", \"iteration_time_median_s\": " + (median < 0.0 ? std::string("null") : std::string(number)) +
         ", \"speedup\": null, \"speedup_note\": " +
         json_string("the one-run analysis is the report's region of kind outer; a second run (augur run --check-run) "
                     "gives T(B)/T(P) here") +
         ", \"constructs\": [";
  for (int index = 0; index < pattern.constructs_known; ++index) {
    std::string construct = describe_loop(pattern.constructs[static_cast<std::size_t>(index)]);
    construct.pop_back();  // the closing brace
    construct += ", \"kind\": " + json_string(construct_end_name(pattern.kinds[static_cast<std::size_t>(index)])) + "}";
    out += (index == 0 ? "" : ", ") + construct;
  }
  return out + "]}";
}

// The outer region measured in one run, when the program has no iterative parallel region but a period in the
// worksharing constructs of one (and the mode analyses).
std::vector<selfanalysis::OuterRegionResult> outer_results(const Session& state, const selfanalysis::MachineContext& machine) {
  std::vector<selfanalysis::OuterRegionResult> results;
  if (state.outer == nullptr || state.worksharing == nullptr || state.engine == nullptr) return results;
  if (state.engine->regions().region_count() > 0 || state.settings.mode != runtime::Mode::Analyze) return results;
  const WorksharingPeriods& periods = state.worksharing->periods();
  if (!periods.found()) return results;
  selfanalysis::OuterRegionResult result;
  result.tool = state.outer->tool;
  result.baseline_stopped = state.outer->recorder.failed();
  result.sees_spins = state.sees_spins;
  result.spin_source = state.spin_source;
  const TeamRecorder::CourtesyTotals courtesy = state.outer->recorder.courtesy();
  result.tool.courtesy_waits = courtesy.waits;
  result.tool.courtesy_ran_out = courtesy.ran_out;
  result.tool.courtesy_seconds = courtesy.seconds;
  result.id = periods.pattern().region;
  result.length = periods.pattern().length;
  result.iterations = periods.iterations();
  result.expected_iterations = state.expected_iterations;
  result.elapsed = state.outer->elapsed;
  result.account_whole = !state.outer->entered_again;
  result.first_estimate = state.outer->estimates.first();
  result.latest_estimate = state.outer->estimates.latest();
  selfanalysis::TeamPolicy policy;
  policy.quiet_machine = machine.quiet();
  policy.other_cpu_load = machine.other_cpu_load;
  const int team = state.outer->analysis.team();
  if (machine.competed(team)) policy.competed_reason = machine.competed_reason(team);
  result.summary = selfanalysis::summarize(state.outer->analysis, policy);
  result.placement = state.outer->placement;
  if (machine.known && machine.oversubscribed() && machine.spinning()) {
    char load[32];
    std::snprintf(load, sizeof load, "%.1f", std::max(machine.load_average_start, machine.load_average_end));
    result.summary.meaningless = true;
    result.summary.disturbed = true;
    result.summary.reasons.push_back("OMP_WAIT_POLICY=" + machine.wait_policy + " on an oversubscribed machine (load average " +
                                     load + " on " + std::to_string(machine.available_processors) +
                                     " processors): spinning threads take the cores the working ones need; rerun with "
                                     "OMP_WAIT_POLICY=passive");
  }
  result.predict_up_to = std::max({result.summary.team * 2, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)), 1});
  results.push_back(std::move(result));
  return results;
}

// The thesis' cpus_speedup, cpus_prediction_time and cpus_reference_time (Table 4.3) into the manager's slot.
void report_speedup(const selfanalysis::SpeedupEvent& event, void* data) {
  auto* connection = static_cast<manager::Connection*>(data);
  connection->report_speedup(event.processors, event.speedup, event.estimated_time);
  if (event.region->baseline_done) connection->report_reference(event.region->baseline_time, event.region->baseline_processors);
}

// Connects to the manager of the option `manager` when it runs; one warning when its segment cannot be used.
void connect_manager(Session& session) {
  if (session.settings.manager == "off" || !session.settings.engine.analyze) return;
  manager::Connection::Result result =
      manager::Connection::connect(session.settings.manager, ::getpid(), program_invocation_short_name, session.initial_allocation);
  if (result.connection == nullptr) {
    if (result.failure != manager::OpenFailure::Absent) {
      warn(std::string(session.library) + ": AUGUR_MANAGER: " + result.error + "; running without the manager");
    }
    return;
  }
  session.manager = std::move(result.connection);
  session.analyzer->set_listener(report_speedup, session.manager.get());
  session.listener->report_to(session.manager.get());
}

}  // namespace

void AnalyzerListener::report_iteration() {
  const selfanalysis::Region* region = analyzer_.current();
  if (region == nullptr) return;
  manager_->report_iteration(manager::monotonic_ns(), region->iterations_closed, analyzer_.active_threads());
}

const std::atomic<std::int32_t>* managed_allocation(const Session& session) {
  return session.manager == nullptr ? nullptr : &session.manager->segment().slot(session.manager->slot_index()).allocation;
}

void start_session(Session& session, selfanalysis::ThreadControl& threads, int initial_allocation, bool worksharing) {
  Session* state = &session;
  const runtime::OptionSources sources = environment_sources();
  std::vector<std::string> warnings;
  runtime::check_variables(runtime::variable_names(environ), sources.tool_channel, warnings);
  state->settings = runtime::settings_from(runtime::resolve_options(runtime::runtime_option_set(), sources, warnings));
  const runtime::OptionValues run = runtime::resolve_options(runtime::run_option_set(), sources, warnings);
  // A program linked to libaugur gets these warnings from libaugur: once each, not twice.
  const bool linked_to_libaugur = dlsym(RTLD_DEFAULT, "augur_init_parallel_region") != nullptr;
  if (!linked_to_libaugur) {
    for (const std::string& warning : warnings) warn(warning);
  }
  static_assert(dpd::Detector::min_window == 4 && dpd::Detector::max_window == 1 << 20,
                "the range of dpd.window in src/runtime/options.cpp is the detector's");
  state->dpd_window = static_cast<int>(run.integer("dpd.window"));
  state->expected_iterations = run.text("iterations").empty() ? -1 : run.integer("iterations");
  state->info_path = run.text("info");
  state->initial_allocation = initial_allocation;
  if (linked_to_libaugur) {
    state->disabled_reason = std::string("the program is linked to libaugur (static instrumentation): ") + state->library +
                             " only forwards its parallel regions";
  }
  if (state->settings.mode == runtime::Mode::Off) state->disabled_reason = "AUGUR_MODE=off";
  state->settings.engine.analyze = state->settings.mode == runtime::Mode::Analyze;
  if (state->disabled_reason.empty()) {
    const int processors = std::max(static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)), state->initial_allocation);
    state->analyzer = std::make_unique<selfanalysis::Analyzer>(state->settings.engine, state->clock, threads, processors);
    state->listener = std::make_unique<AnalyzerListener>(*state->analyzer);
    state->machine.start();
    state->engine = std::make_unique<DetectingRegions<dpd::AdaptiveDetector>>(*state->listener, dpd::AdaptiveDetector(state->dpd_window),
                                                                      state->expected_iterations);
    connect_manager(*state);
    if (worksharing) {
      state->worksharing = std::make_unique<DetectingWorksharing<dpd::AdaptiveDetector>>(dpd::AdaptiveDetector(state->dpd_window));
      state->outer = std::make_unique<OuterRegion>(std::max(256, 4 * processors));
      state->outer->windows = state->settings.engine.analyze;
      state->outer->window_steps = std::max(1, state->settings.engine.baseline_iterations);
      state->outer->binding = CoreBinding(CoreBinding::allowed_by_environment(), state->outer->recorder.capacity(),
                                           CoreBinding::release_from_environment());
      // A thread that finds the baseline steps stopped lets itself go from the master's core at once.
      state->outer->recorder.set_failure_hook(
          [](void* context, int thread) { static_cast<const OuterRegion*>(context)->binding.release_own(thread); }, state->outer.get());
      // A window every baseline_every steps on the team, as the re-measured baseline of iterative regions; 0: the first only.
      state->outer->window_every = state->settings.engine.baseline_every > 0 ? state->settings.engine.baseline_every : -1;
    }
    start_timeline(*state);
  }
}

std::string render_info(const Session& state) {
  std::string out = "{\n  \"augur_interpose\": 1,\n";
  out += "  \"runtime\": " + json_string(state.runtime) + ",\n";
  out += "  \"intercepted\": " + std::to_string(state.intercepted) + ",\n";
  out += "  \"passed_through\": " + std::to_string(state.passed_through.load()) + ",\n";
  out += "  \"dpd_window\": " + std::to_string(state.dpd_window) + ",\n";
  out += "  \"disabled\": " + (state.disabled_reason.empty() ? std::string("null") : json_string(state.disabled_reason)) + ",\n";
  if (state.engine == nullptr) return out + "  \"distinct_loops\": 0,\n  \"detections\": 0,\n  \"breaks\": 0,\n  \"regions\": []\n}\n";
  const DynamicRegions& regions = state.engine->regions();
  out += "  \"dpd_window_grown\": " + std::to_string(state.engine->detector().grown_to()) + ",\n";
  out += "  \"distinct_loops\": " + std::to_string(regions.distinct_loops()) + ",\n";
  out += "  \"detections\": " + std::to_string(regions.detections()) + ",\n";
  out += "  \"breaks\": " + std::to_string(regions.breaks()) + ",\n";
  out += "  \"worksharing\": " + render_worksharing(state) + ",\n";
  out += "  \"regions\": [";
  for (int index = 0; index < regions.region_count(); ++index) {
    const DetectedRegion& region = regions.region(index);
    out += index == 0 ? "\n" : ",\n";
    out += "    {\"id\": " + std::to_string(region.ipr) + ", \"length\": " + std::to_string(region.length) +
           ", \"entries\": " + std::to_string(region.entries) + ", \"iterations\": " + std::to_string(region.iterations_completed) +
           ", \"loops\": [";
    for (int loop = 0; loop < region.loops_known; ++loop) {
      out += (loop == 0 ? "" : ", ") + describe_loop(region.loops[static_cast<std::size_t>(loop)]);
    }
    out += "]}";
  }
  return out + "\n  ]\n}\n";
}

std::string expand_path(const std::string& pattern) {
  std::string path;
  for (std::size_t index = 0; index < pattern.size(); ++index) {
    if (pattern[index] == '%' && index + 1 < pattern.size() && pattern[index + 1] == 'p') {
      path += std::to_string(::getpid());
      ++index;
    } else {
      path += pattern[index];
    }
  }
  return path;
}

std::string info_path_from_environment() {
  std::vector<std::string> unused;  // start_session warns; this is the path of a library that never started one
  return runtime::resolve_options(runtime::run_option_set(), environment_sources(), unused).text("info");
}

void finish_session(Session& session) {
  Session* state = &session;
  if (state->finished) return;
  state->finished = true;
    try {
    if (state->manager != nullptr) state->manager->disconnect();  // its slot back to the manager (the mapping stays)
    if (state->engine != nullptr) state->engine->finish();
    if (state->outer != nullptr) state->outer->estimates.resolve(state->outer->analysis);  // deferred off the master's path
    write_timeline(*state);
    if (state->analyzer != nullptr) state->analyzer->finish();
    const std::string problem = diagnosis(state[0]);
    std::vector<selfanalysis::Region> none;
    const std::vector<selfanalysis::Region>& regions = state->analyzer != nullptr ? state->analyzer->regions() : none;
    selfanalysis::RunContext context;
    context.mode = runtime::mode_name(state->settings.mode);
    context.program = runtime::program_path();
    context.process_id = static_cast<long>(::getpid());
    context.allocated_processors = state->initial_allocation;
    context.available_processors = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
    context.wait_policy = wait_policy == nullptr ? "" : wait_policy;
    context.config = state->settings.engine;
    context.machine = state->machine.finish(context.available_processors);
    const std::vector<selfanalysis::OuterRegionResult> outer = outer_results(*state, context.machine);
    context.notes.push_back(std::string("dynamic instrumentation (") + state->library + ", " + state->runtime +
                            (outer.empty() && !step_inside_region(*state) ? "): regions found by the periodicity detector"
                                           : "): the time step found by the periodicity detector in the worksharing constructs"));
    if (!problem.empty()) context.notes.push_back(problem);
    if (!state->spin_note.empty()) context.notes.push_back(state->spin_note);
    if (const int refused = state->spin_threads_refused.load(std::memory_order_relaxed); refused > 0)
      context.notes.push_back(std::to_string(refused) + " thread(s) could not sample their spin loops: their spins count as work");
    if (state->settings.summary) {
      std::fflush(stdout);
      if (!problem.empty() && outer.empty()) warn(problem);
      if (state->settings.mode != runtime::Mode::Off) {
        std::fputs((outer.empty() ? selfanalysis::render_summary(context, regions) : selfanalysis::outer_summary(outer.front())).c_str(),
                   stderr);
      }
    }
    if (!state->settings.report_path.empty()) {
      const std::string path = expand_path(state->settings.report_path);
      try {
        core::write_file_atomically(path, selfanalysis::add_outer_regions(selfanalysis::render_report(context, regions), outer));
      } catch (const std::exception& error) {
        warn("AUGUR_REPORT: " + core::describe_error(error) + "; no report written");
      }
    }
    if (!state->info_path.empty()) {
      const std::string path = expand_path(state->info_path);
      try {
        core::write_file_atomically(path, render_info(*state));
      } catch (const std::exception& error) {
        warn("AUGUR_RUN_INFO: " + core::describe_error(error) + "; not written");
      }
    }
  } catch (const std::exception& error) {
    warn(std::string(state->library) + " at exit: " + error.what());
  } catch (...) {
    warn(std::string(state->library) + " at exit: unknown exception");
  }
}


}  // namespace augur::interpose
