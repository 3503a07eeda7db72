// augur run: runs an unmodified program with LD_PRELOAD=libaugur_preload.so (libgomp) or
// OMP_TOOL_LIBRARIES=libaugur_ompt.so (LLVM's libomp) and prints what the self-analyzer measured of the
// iterative parallel region the periodicity detector found.
// Guide: docs/run.md.
#include "run_command.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "core/files.hpp"
#include "core/process.hpp"
#include "augur/selfanalysis_report.hpp"
#include "locations.hpp"
#include "runtime/options.hpp"

extern char** environ;

namespace augur::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The libaugur options `augur run` mirrors: flag name and option key (AUGUR_<KEY>).
struct MirroredOption {
  const char* flag;
  const char* key;
  const char* help;
};
constexpr MirroredOption mirrored_options[] = {
    {"--mode", "mode", "analyze (default) or time (only time the region: no baseline, no thread changes)"},
    {"--baseline", "baseline", "Processors B of the baseline iterations: a count or 'half' (default 4, never above P)"},
    {"--warmup-iterations", "warmup_iterations", "Iterations run on P, unmeasured, before the baseline (default 1)"},
    {"--baseline-iterations", "baseline_iterations", "Iterations averaged into T(B) (default 3)"},
    {"--measure-iterations", "measure_iterations", "Iterations averaged into each T(p) (default 3)"},
    {"--history", "history", "Weight of the previous speedup, in [0, 1) (default 0.6)"},
    {"--sweep", "sweep", "SA(1 exec): comma-separated processor counts visited after the baseline"},
    {"--sweep-every", "sweep_every", "Iterations on each count of the sweep (default 10)"},
    {"--self-tuning", "self_tuning", "1: measure ST' (default), 0: not"},
};

enum class OpenMpRuntime { Gomp, LlvmOmp, None, Static };

// Which OpenMP runtime the program loads, from its dependencies (ldd lists them transitively).
OpenMpRuntime detect_runtime(const std::string& program, std::string& detail) {
  core::ProcessResult result = core::run_process({"ldd", program});
  const std::string& text = result.standard_output;
  if (text.find("libgomp") != std::string::npos) return OpenMpRuntime::Gomp;
  if (text.find("libomp.so") != std::string::npos || text.find("libiomp5") != std::string::npos) return OpenMpRuntime::LlvmOmp;
  if (!result.succeeded() || text.find("not a dynamic executable") != std::string::npos ||
      text.find("statically linked") != std::string::npos) {
    detail = "ldd: " + (text.empty() ? result.standard_error : text);
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == ' ' || detail.back() == '\t')) detail.pop_back();
    return OpenMpRuntime::Static;
  }
  return OpenMpRuntime::None;
}

using Child = core::ProcessResult;
using core::find_program;

// ELF e_type: 2 for a fixed-address executable (addr2line wants the address), 3 for PIE and
// shared objects (it wants the offset in the file).
int elf_type(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  unsigned char header[18] = {};
  if (!file.read(reinterpret_cast<char*>(header), sizeof header)) return 0;
  if (std::memcmp(header, "\x7f" "ELF", 4) != 0) return 0;
  return header[16] | (header[17] << 8);
}

// Names (and source lines when the program has debug information) of the loops, with addr2line;
// "" when unknown. Adds "name" and "source" to each loop of the interposition file.
void resolve_names(json& info) {
  // The loops of the regions, and the outer region and the worksharing constructs of one (call sites:
  // return addresses, looked up one byte back, at the call).
  std::vector<json*> all;
  for (json& region : info["regions"]) {
    for (json& loop : region["loops"]) all.push_back(&loop);
  }
  if (info.contains("worksharing") && info["worksharing"].is_object() && info["worksharing"].value("found", false)) {
    json& worksharing = info["worksharing"];
    if (worksharing.contains("region")) all.push_back(&worksharing["region"]);
    for (json& construct : worksharing["constructs"]) all.push_back(&construct);
  }
  std::map<std::string, std::vector<json*>> by_module;
  for (json* loop : all) {
    if (loop->contains("module") && (*loop)["module"].is_string()) by_module[(*loop)["module"].get<std::string>()].push_back(loop);
  }
  for (auto& [module, loops] : by_module) {
    const bool fixed = elf_type(module) == 2;
    std::vector<std::string> argv = {"addr2line", "-f", "-C", "-e", module};
    for (json* loop : loops) {
      std::string where = (*loop)[fixed ? "address" : "offset"].get<std::string>();
      if (loop->contains("kind")) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "0x%llx", std::stoull(where, nullptr, 16) - 1);
        where = buffer;
      }
      argv.push_back(where);
    }
    core::ProcessResult result;
    try {
      result = core::run_process(argv);
    } catch (const std::exception&) {
      continue;  // no addr2line: dynamic symbols only
    }
    if (!result.succeeded()) continue;
    std::stringstream lines(result.standard_output);
    for (json* loop : loops) {
      std::string name, source;
      if (!std::getline(lines, name) || !std::getline(lines, source)) break;
      const std::size_t discriminator = source.find(" (discriminator");
      if (discriminator != std::string::npos) source.erase(discriminator);
      if (name != "??") (*loop)["name"] = name;
      if (source.rfind("??", 0) != 0 && source.find(":0") == std::string::npos && source.find(":?") == std::string::npos) {
        (*loop)["source"] = source;
      }
    }
  }
  for (json* loop : all) {
    if (!loop->contains("name")) (*loop)["name"] = loop->value("symbol", json()).is_string() ? (*loop)["symbol"] : (*loop)["address"];
  }
}

std::string format_seconds(double seconds) {
  char buffer[64];
  if (seconds < 1e-3) {
    std::snprintf(buffer, sizeof buffer, "%.1f us", seconds * 1e6);
  } else if (seconds < 1.0) {
    std::snprintf(buffer, sizeof buffer, "%.3f ms", seconds * 1e3);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f s", seconds);
  }
  return buffer;
}

const json* info_region(const json& info, std::uint64_t id) {
  for (const json& region : info["regions"]) {
    if (region.value("id", std::uint64_t{0}) == id) return &region;
  }
  return nullptr;
}

std::string region_name(const json* region) {
  if (region == nullptr || region->at("loops").empty()) return "?";
  const json& first = region->at("loops")[0];
  std::string name = first.value("name", std::string("?"));
  if (first.contains("source")) name += " (" + first["source"].get<std::string>() + ")";
  return name;
}

void print_report(const selfanalysis::Report& report, const json& info, const Child& child, const RunOptions& options) {
  std::printf("augur run: %zu iterative parallel region%s found by the periodicity detector (window %d samples)\n",
              report.regions.size(), report.regions.size() == 1 ? "" : "s", info.value("dpd_window", 0));
  const selfanalysis::ReportRegion* main = report.main_region();
  for (const selfanalysis::ReportRegion& region : report.regions) {
    const json* found = info_region(info, region.id);
    std::string loops;
    if (found != nullptr) {
      for (const json& loop : found->at("loops")) loops += (loops.empty() ? "" : ", ") + loop.value("name", std::string("?"));
    }
    std::printf("  %s region %s: period %d (%s), %ld iterations, %s%s\n", &region == main ? "*" : " ",
                region_name(found).c_str(), region.length, loops.c_str(), region.iterations,
                format_seconds(region.elapsed).c_str(), &region == main ? "  <- main region" : "");
  }
  if (main == nullptr) return;
  std::printf("main region %s:\n", region_name(info_region(info, main->id)).c_str());
  if (report.mode == "time") {
    std::printf("  mode time: the region was only timed (%s)\n", format_seconds(main->elapsed).c_str());
  } else if (main->baseline <= 0) {
    std::printf("  no baseline: too few iterations after detection (%ld)\n", main->iterations);
  } else {
    std::printf("  baseline B=%d  T(B)=%s  f=%s  AF(B)=%.3f\n", main->baseline, format_seconds(main->baseline_time).c_str(),
                main->sequential_fraction < 0.0 ? "unknown" : std::to_string(main->sequential_fraction).substr(0, 6).c_str(),
                main->amdahl_factor);
    std::printf("  %4s  %8s  %5s  %12s  %8s\n", "p", "S(p)", "state", "T(p)", "ST'");
    for (const selfanalysis::ReportPoint& point : main->points) {
      std::printf("  %4d  %8s  %5s  %12s  %8s\n", point.processors,
                  point.calculated ? std::to_string(point.speedup).substr(0, 6).c_str() : "-", point.calculated ? "PC" : "PNC",
                  point.iteration_time > 0.0 ? format_seconds(point.iteration_time).c_str() : "-",
                  point.self_tuning > 0.0 ? std::to_string(point.self_tuning).substr(0, 6).c_str() : "-");
    }
  }
  if (main->estimated_time >= 0.0) {
    const double error = main->elapsed > 0.0 ? (main->estimated_time - main->elapsed) / main->elapsed * 100.0 : 0.0;
    std::printf("  execution time of the region on P=%d: estimated %s (at iteration %ld), actual %s (%+.1f%%)\n",
                main->estimate_processors, format_seconds(main->estimated_time).c_str(), main->estimated_at_iteration,
                format_seconds(main->elapsed).c_str(), error);
  } else if (options.iterations <= 0) {
    std::printf("  execution time of the region: actual %s; no estimate without the iteration count (--iterations N)\n",
                format_seconds(main->elapsed).c_str());
  } else {
    std::printf("  execution time of the region: actual %s; no estimate (the speedup on P was not calculated)\n",
                format_seconds(main->elapsed).c_str());
  }
  std::printf("program: %s wall time\n", format_seconds(child.wall_seconds).c_str());
  for (const std::string& note : report.notes) std::printf("note: %s\n", note.c_str());
  for (const std::string& note : main->notes) std::printf("note: %s\n", note.c_str());
}

std::string loop_name(const json& loop) {
  std::string name = loop.value("name", std::string("?"));
  if (loop.contains("source")) name += " (" + loop["source"].get<std::string>() + ")";
  return name;
}

// One outer parallel region: the period found in its worksharing constructs (docs/run.md). `found` is the
// interposition file's `worksharing`, with `baseline_run` and a numeric `speedup` when a second run measured
// the baseline; `second_run_problem` says why a second run gave no speedup ("" when none was tried or it did).
void print_worksharing(const json& info, const json& found, const Child& child, const std::string& second_run_problem,
                       const std::vector<std::string>& notes) {
  const long intercepted = info.value("intercepted", 0L);
  std::printf("augur run: no iterative parallel region (%ld parallel region%s ran); the periodicity detector found the time "
              "loop inside one, in its worksharing constructs (window %d samples)\n",
              intercepted, intercepted == 1 ? "" : "s", info.value("dpd_window", 0));
  std::string constructs;
  for (const json& construct : found.at("constructs")) {
    constructs += (constructs.empty() ? "" : ", ") + loop_name(construct) + " " + construct.value("kind", std::string("?"));
  }
  const int length = found.value("length", 0);
  std::printf("  * region %s: period %d (worksharing construct%s per iteration: %s), %ld iterations\n",
              loop_name(found.at("region")).c_str(), length, length == 1 ? "" : "s", constructs.c_str(),
              found.value("iterations", 0L));
  const int team = found.value("team_size", 0);
  if (found.contains("iteration_time_median_s") && found["iteration_time_median_s"].is_number()) {
    std::printf("  time per iteration on %d thread%s: %s (median of %ld measured iterations)\n", team, team == 1 ? "" : "s",
                format_seconds(found["iteration_time_median_s"].get<double>()).c_str(), found.value("measured_iterations", 0L));
  } else {
    std::printf("  time per iteration: not measured (no two consecutive iterations in one region)\n");
  }
  const json baseline_run = found.value("baseline_run", json());
  if (baseline_run.is_object() && baseline_run.value("iteration_time_median_s", json()).is_number()) {
    const int threads = baseline_run.value("threads", 0);
    std::printf("  time per iteration on %d thread%s (second run): %s (median of %ld measured iterations)\n", threads,
                threads == 1 ? "" : "s", format_seconds(baseline_run["iteration_time_median_s"].get<double>()).c_str(),
                baseline_run.value("measured_iterations", 0L));
  }
  if (found.value("speedup", json()).is_number()) {
    const int threads = baseline_run.value("threads", 0);
    std::printf("  speedup from two runs: T(%d)/T(%d) per iteration, medians: %.4f%s\n", threads, team,
                found["speedup"].get<double>(),
                threads == 1 ? "" : (" (relative to " + std::to_string(threads) + " threads, not to 1)").c_str());
  } else if (!second_run_problem.empty()) {
    std::printf("  speedup: not measured: %s\n", second_run_problem.c_str());
  } else {
    std::printf("  speedup: cannot be measured in one run: a team keeps its size for the whole parallel region, so every "
                "iteration ran on %d thread%s; run the program again on another thread count (augur run -p 1, or augur "
                "speedup) and divide the times per iteration\n",
                team, team == 1 ? "" : "s");
  }
  std::printf("program: %s wall time\n", format_seconds(child.wall_seconds).c_str());
  for (const std::string& note : notes) std::printf("note: %s\n", note.c_str());
}

// The baseline B of the second run for a team of `team` threads: --baseline (else AUGUR_BASELINE, else
// libaugur's default), resolved as libaugur does (never above the team); when that is the team's own size,
// 1 if the team has more than one thread. 0: no other count to run on.
int second_run_threads(const RunOptions& options, int team) {
  runtime::Settings settings;
  if (const char* variable = std::getenv(runtime::environment_name("baseline").c_str()); variable != nullptr && *variable != '\0') {
    (void)runtime::apply_option(settings, "baseline", variable);  // an invalid value leaves the default, as libaugur warns
  }
  for (const auto& [key, value] : options.augur_options) {
    if (key == "baseline") (void)runtime::apply_option(settings, key, value);
  }
  int baseline = settings.engine.baseline.resolve(team);
  if (baseline == team) baseline = team > 1 ? 1 : 0;
  return baseline;
}

// The constructs of one iteration as (offset, kind), which do not move between runs (addresses may).
std::vector<std::string> construct_keys(const json& worksharing) {
  std::vector<std::string> keys;
  for (const json& construct : worksharing.at("constructs")) {
    keys.push_back(construct.value("module", std::string()) + "+" + construct.value("offset", std::string()) + " " +
                   construct.value("kind", std::string()));
  }
  return keys;
}

// Same constructs in the same cyclic order (the detector may mark the period at another construct).
bool same_cycle(const std::vector<std::string>& first, const std::vector<std::string>& second) {
  if (first.size() != second.size()) return false;
  if (first.empty()) return true;
  for (std::size_t shift = 0; shift < first.size(); ++shift) {
    bool equal = true;
    for (std::size_t index = 0; index < first.size() && equal; ++index) {
      equal = first[index] == second[(index + shift) % second.size()];
    }
    if (equal) return true;
  }
  return false;
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunOptions& options) {
  CLI::App* command = app.add_subcommand(
      "run",
      "Run an unmodified OpenMP program (gcc -fopenmp: under libaugur_preload.so; clang -fopenmp: under the OMPT tool "
      "libaugur_ompt.so): find its iterative parallel region by itself, measure its speedup and predict its execution time.");
  for (const MirroredOption& mirrored : mirrored_options) {
    command->add_option_function<std::string>(
               mirrored.flag, [&options, key = std::string(mirrored.key)](const std::string& value) {
                 options.augur_options.emplace_back(key, value);
               },
               std::string(mirrored.help) + " [" + runtime::environment_name(mirrored.key) + "]")
        ->check([key = std::string(mirrored.key)](const std::string& value) -> std::string {
          runtime::Settings settings;  // the library's own rule for AUGUR_<KEY>
          return runtime::apply_option(settings, key, value).value_or("");
        });
  }
  command->add_option("-p,--threads", options.threads, "OMP_NUM_THREADS for the program (default: as set, or all processors)")
      ->check(CLI::Range(1, 4096));
  command->add_option("--iterations", options.iterations,
                      "Iterations of the program's main loop, when known: gives the estimate of the execution time "
                      "[AUGUR_RUN_ITERATIONS]")
      ->check(CLI::Range(1L, 1L << 40));
  command->add_option("--dpd-window", options.dpd_window, "Samples in the periodicity detector's window (default 128) [AUGUR_DPD_WINDOW]")
      ->check(CLI::Range(4, 1 << 20));
  command->add_option("--json", options.json, "Also write the report (the static report's fields and 'interpose') to FILE");
  command->add_option("--preload", options.preload, "The interposition library (default: this build's libaugur_preload.so, or libaugur_ompt.so for libomp)");
  command->add_flag("--one-run", options.one_run,
                   "One outer parallel region: do not run the program a second time on the baseline's thread count "
                   "(report the time per iteration only, no speedup)");
  command->add_option("program", options.command, "The program and its arguments, after --")->required();
  command->footer(
      "OMP_WAIT_POLICY is set to passive unless already set. The program's output is its own; augur's report\n"
      "follows it on standard output. Guide: docs/run.md. Example:\n"
      "  augur run -p 2 --baseline 1 -- build/bin/swim-plain 512 400");
  return command;
}

int run_run_command(const RunOptions& options) {
  try {
    const std::string program = find_program(options.command[0]);
    if (program.empty() || ::access(program.c_str(), X_OK) != 0) {
      std::fprintf(stderr, "augur run: %s: no such program (or not executable)\n", options.command[0].c_str());
      return 2;
    }
    std::string detail;
    const OpenMpRuntime runtime = detect_runtime(program, detail);
    switch (runtime) {
      case OpenMpRuntime::Gomp: break;
      case OpenMpRuntime::LlvmOmp:
        if (options.preload.empty() && installed_library("libaugur_ompt.so").empty()) {
          std::fprintf(stderr,
                       "augur run: %s uses LLVM's OpenMP runtime (libomp), and this build of augur has no OMPT tool "
                       "(libaugur_ompt: omp-tools.h was not found when it was built); rebuild with gcc -fopenmp, or "
                       "give the tool with --preload\n",
                       program.c_str());
          return 1;
        }
        break;
      case OpenMpRuntime::Static:
        std::fprintf(stderr,
                     "augur run: not an OpenMP program linked to libgomp or libomp: %s is not dynamically linked (%s); "
                     "LD_PRELOAD cannot interpose on it\n",
                     program.c_str(), detail.c_str());
        return 1;
      case OpenMpRuntime::None:
        std::fprintf(stderr,
                     "augur run: not an OpenMP program linked to libgomp or libomp: %s loads neither libgomp.so.1 nor "
                     "libomp.so (ldd); augur run measures programs built with gcc -fopenmp or clang -fopenmp\n",
                     program.c_str());
        return 1;
    }
    const bool ompt = runtime == OpenMpRuntime::LlvmOmp;
    const std::string preload = !options.preload.empty() ? options.preload
                                : ompt                   ? installed_library("libaugur_ompt.so").string()
                                                         : (library_directory() / "libaugur_preload.so").string();
    if (::access(preload.c_str(), R_OK) != 0) {
      std::fprintf(stderr, "augur run: %s: cannot read the %s (--preload)\n", preload.c_str(),
                   ompt ? "OMPT tool" : "interposition library");
      return 2;
    }
    core::TemporaryFolder scratch("augur-run");
    const std::string report_path = (scratch.path() / "report.json").string();
    const std::string info_path = (scratch.path() / "interpose.json").string();
    std::vector<std::pair<std::string, std::string>> environment;
    environment.reserve(32);  // (also keeps gcc 12's -Warray-bounds from a false positive on the emplace_backs below)
    if (ompt) {
      // libomp loads the tool itself (OMPT, OpenMP 5.0 section 4.2.1); a tool already named is kept, after ours.
      const char* previous_tools = std::getenv("OMP_TOOL_LIBRARIES");
      environment.emplace_back("OMP_TOOL_LIBRARIES", previous_tools != nullptr && *previous_tools != '\0'
                                                         ? fs::absolute(preload).string() + ":" + previous_tools
                                                         : fs::absolute(preload).string());
      environment.emplace_back("OMP_TOOL", "enabled");
    } else {
      const char* previous_preload = std::getenv("LD_PRELOAD");
      environment.emplace_back("LD_PRELOAD", previous_preload != nullptr && *previous_preload != '\0'
                                                 ? fs::absolute(preload).string() + ":" + previous_preload
                                                 : fs::absolute(preload).string());
    }
    environment.emplace_back("AUGUR_REPORT", report_path);
    environment.emplace_back("AUGUR_RUN_INFO", info_path);
    environment.emplace_back("AUGUR_SUMMARY", "0");
    if (std::getenv("OMP_WAIT_POLICY") == nullptr) environment.emplace_back("OMP_WAIT_POLICY", "passive");
    if (options.threads > 0) environment.emplace_back("OMP_NUM_THREADS", std::to_string(options.threads));
    if (options.iterations > 0) environment.emplace_back("AUGUR_RUN_ITERATIONS", std::to_string(options.iterations));
    if (options.dpd_window > 0) environment.emplace_back("AUGUR_DPD_WINDOW", std::to_string(options.dpd_window));
    for (const auto& [key, value] : options.augur_options) environment.emplace_back(runtime::environment_name(key), value);

    std::vector<std::string> argv = options.command;
    argv[0] = program;
    const Child child = core::run_attached(argv, environment);
    std::fflush(stdout);
    if (child.signal != 0) {
      std::fprintf(stderr, "augur run: %s was killed by signal %d (%s); no report\n", program.c_str(), child.signal,
                   strsignal(child.signal));
      return 1;
    }
    if (!fs::exists(info_path)) {
      std::fprintf(stderr, "augur run: %s exited with status %d without going through %s's exit (it "
                           "may have called _exit, or exec'd another program); no report\n",
                   program.c_str(), child.exit_code, ompt ? "libaugur_ompt" : "libaugur_preload");
      return 1;
    }
    json info = json::parse(core::read_file(info_path));
    resolve_names(info);
    // The end of every measured run: the --json file (the report with what the interposition saw) and
    // the program's exit status passed on.
    const auto finish = [&](const std::string& report_text) {
      if (!options.json.empty()) {
        json out = json::parse(report_text);
        out["interpose"] = info;
        out["program_wall_time_s"] = child.wall_seconds;
        out["exit_code"] = child.exit_code;
        core::write_file_atomically(options.json, out.dump(2) + "\n");
      }
      if (child.exit_code == 0) return 0;
      std::fprintf(stderr, "augur run: %s exited with status %d\n", program.c_str(), child.exit_code);
      return child.exit_code;
    };
    const std::string problem = !info["disabled"].is_null()            ? info["disabled"].get<std::string>()
                                : info.value("intercepted", 0L) == 0    ? "no OpenMP parallel region ran"
                                : info["regions"].empty()
                                    ? std::to_string(info.value("intercepted", 0L)) + " parallel regions ran (" +
                                          std::to_string(info.value("distinct_loops", 0)) + " distinct) without a periodic pattern"
                                    : "";
    const bool worksharing = info["disabled"].is_null() && info["regions"].empty() && info.contains("worksharing") &&
                             info["worksharing"].is_object() && info["worksharing"].value("found", false);
    if (worksharing && fs::exists(report_path)) {
      const std::string report_text = core::read_file(report_path);
      const selfanalysis::Report report = selfanalysis::parse_report(report_text, report_path);
      json& found = info["worksharing"];
      const int team = found.value("team_size", 0);
      const int baseline = second_run_threads(options, team);
      std::string second_run_problem;
      if (!options.one_run && baseline > 0 && found.value("iteration_time_median_s", json()).is_number()) {
        if (child.exit_code != 0) {
          second_run_problem = "the program exited with status " + std::to_string(child.exit_code) + ", so it was not run again";
        } else {
          // Same program, arguments and environment, OMP_NUM_THREADS=B, its own files (later entries win).
          const std::string second_info_path = (scratch.path() / "interpose-baseline.json").string();
          std::vector<std::pair<std::string, std::string>> second_environment = environment;
          second_environment.emplace_back("OMP_NUM_THREADS", std::to_string(baseline));
          second_environment.emplace_back("AUGUR_REPORT", (scratch.path() / "report-baseline.json").string());
          second_environment.emplace_back("AUGUR_RUN_INFO", second_info_path);
          std::fprintf(stderr, "augur run: second run on %d thread%s for the baseline of the worksharing region\n", baseline,
                       baseline == 1 ? "" : "s");
          std::fflush(stderr);
          const Child second = core::run_attached(argv, second_environment);
          std::fflush(stdout);
          json baseline_run = {{"threads", baseline}, {"iteration_time_median_s", nullptr}, {"iterations", nullptr}};
          if (second.signal != 0) {
            second_run_problem = "the second run, on " + std::to_string(baseline) + " threads, was killed by signal " +
                                 std::to_string(second.signal);
          } else if (second.exit_code != 0) {
            second_run_problem = "the second run, on " + std::to_string(baseline) + " threads, exited with status " +
                                 std::to_string(second.exit_code);
          } else if (!fs::exists(second_info_path)) {
            second_run_problem = "the second run wrote no interposition file";
          } else {
            const json second_info = json::parse(core::read_file(second_info_path));
            const json other = second_info.value("worksharing", json());
            if (!other.is_object() || !other.value("found", false)) {
              second_run_problem = "the second run, on " + std::to_string(baseline) + " threads, found no worksharing period";
            } else {
              baseline_run["iteration_time_median_s"] = other.value("iteration_time_median_s", json());
              baseline_run["iterations"] = other.value("iterations", json());
              baseline_run["measured_iterations"] = other.value("measured_iterations", json());
              baseline_run["team_size"] = other.value("team_size", json());
              if (other.value("length", 0) != found.value("length", 0) || other.value("iterations", 0L) != found.value("iterations", 0L) ||
                  !same_cycle(construct_keys(found), construct_keys(other))) {
                second_run_problem = "the second run found another period (" + std::to_string(other.value("length", 0)) +
                                     " constructs, " + std::to_string(other.value("iterations", 0L)) + " iterations; the first: " +
                                     std::to_string(found.value("length", 0)) + ", " + std::to_string(found.value("iterations", 0L)) + ")";
              } else if (other.value("team_size", 0) != baseline) {
                second_run_problem = "the second run's team had " + std::to_string(other.value("team_size", 0)) +
                                     " threads, not the " + std::to_string(baseline) + " asked for (a num_threads clause?)";
              } else if (!other.value("iteration_time_median_s", json()).is_number() ||
                         other["iteration_time_median_s"].get<double>() <= 0.0 ||
                         found["iteration_time_median_s"].get<double>() <= 0.0) {
                second_run_problem = "the second run measured no time per iteration";
              } else {
                const double ratio =
                    other["iteration_time_median_s"].get<double>() / found["iteration_time_median_s"].get<double>();
                found["speedup"] = ratio;
                found["speedup_note"] =
                    "from two runs: T(" + std::to_string(baseline) + ")/T(" + std::to_string(team) +
                    ") per iteration, medians of each run's measured iterations (the second run on OMP_NUM_THREADS=" +
                    std::to_string(baseline) + ")" + (baseline == 1 ? std::string() : "; relative to " + std::to_string(baseline) + " threads, not to 1");
              }
            }
          }
          found["baseline_run"] = baseline_run;
          if (!second_run_problem.empty()) found["speedup_note"] = "not measured: " + second_run_problem;
        }
      }
      print_worksharing(info, found, child, second_run_problem, {report.notes.empty() ? std::string() : report.notes.front()});
      return finish(report_text);
    }
    if (!problem.empty() || !fs::exists(report_path)) {
      std::string message = problem.empty() ? "no report was written" : problem;
      if (info.value("intercepted", 0L) == 1 && info.value("distinct_loops", 0) == 1) {
        const json constructs = info.value("worksharing", json());
        message = constructs.is_object()
                      ? "one parallel region ran, once, and its " + std::to_string(constructs.value("samples", 0L)) +
                            " worksharing constructs (barriers, loop ends on its master thread) showed no periodic pattern"
                      : "one parallel region ran, once: a program with one parallel region around its time loop (orphaned "
                        "worksharing loops inside it) is not measured by this runtime's tool yet";
      }
      std::fprintf(stderr, "augur run: no iterative parallel region found in %s: %s; nothing measured\n", program.c_str(),
                   message.c_str());
      return 1;
    }
    const std::string report_text = core::read_file(report_path);
    const selfanalysis::Report report = selfanalysis::parse_report(report_text, report_path);
    print_report(report, info, child, options);
    return finish(report_text);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur run: %s\n", error.what());
    return 1;
  }
}

}  // namespace augur::cli
