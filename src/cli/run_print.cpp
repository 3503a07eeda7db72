// augur run's printing (run_print.hpp): what the interposition file and the report say, in words.
// Guide: docs/run.md.
#include "run_print.hpp"

#include "run_account.hpp"
#include "run_outer_print.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "core/table.hpp"
#include "verdict_print.hpp"

namespace augur::cli {
namespace {

using nlohmann::json;

// ELF e_type: 2 for a fixed-address executable (addr2line wants the address), 3 for PIE and
// shared objects (it wants the offset in the file).
int elf_type(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  unsigned char header[18] = {};
  if (!file.read(reinterpret_cast<char*>(header), sizeof header)) return 0;
  if (std::memcmp(header, "\x7f" "ELF", 4) != 0) return 0;
  return header[16] | (header[17] << 8);
}

const json* info_region(const json& info, std::uint64_t id) {
  for (const json& region : info["regions"]) {
    if (region.value("id", std::uint64_t{0}) == id) return &region;
  }
  return nullptr;
}

std::string region_name(const json* region) {
  if (region == nullptr || region->at("loops").empty()) return "?";
  return loop_name(region->at("loops")[0]);
}

// "path:line" with the path normalised ("build/../examples" -> "examples") and relative to the current folder
// when it is under it.
std::pair<std::string, std::string> split_source(const std::string& source) {
  const std::size_t colon = source.rfind(':');
  std::string file = colon == std::string::npos ? source : source.substr(0, colon);
  const std::string line = colon == std::string::npos ? "" : source.substr(colon + 1);
  std::filesystem::path path = std::filesystem::path(file).lexically_normal();
  std::error_code error;
  const std::filesystem::path here = std::filesystem::current_path(error);
  if (!error && path.is_absolute()) {
    const std::filesystem::path relative = path.lexically_relative(here);
    if (!relative.empty() && *relative.begin() != "..") path = relative;
  }
  return {path.string(), line};
}

}  // namespace

std::string source_file(const json& loop) {
  return loop.contains("source") && loop["source"].is_string() ? split_source(loop["source"].get<std::string>()).first : "";
}

std::string short_name(std::string name) {
  constexpr std::size_t longest = 60;
  if (name.size() > longest) name = name.substr(0, longest - 3) + "...";
  return name;
}

std::string loop_name(const json& loop, const std::string& same_file) {
  std::string name = short_name(loop.value("name", std::string("?")));
  if (loop.contains("source") && loop["source"].is_string()) {
    const auto [file, line] = split_source(loop["source"].get<std::string>());
    name += " (" + (!same_file.empty() && file == same_file && !line.empty() ? "line " + line : file + (line.empty() ? "" : ":" + line)) + ")";
  }
  return name;
}

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

double table_iteration_time(const selfanalysis::ReportRegion& region, const selfanalysis::ReportPoint& point) {
  return point.calculated && point.speedup > 0.0 ? region.amdahl_factor * region.baseline_time / point.speedup : 0.0;
}

void print_report(const selfanalysis::Report& report, const json& info, const core::ProcessResult& child, const RunOptions& options) {
  std::printf("augur run: %zu iterative parallel region%s found by the periodicity detector (window %d samples)\n",
              report.regions.size(), report.regions.size() == 1 ? "" : "s", info.value("dpd_window", 0));
  const selfanalysis::ReportRegion* main = report.main_region();
  for (const selfanalysis::ReportRegion& region : report.regions) {
    const json* found = info_region(info, region.id);
    std::string loops;
    if (found != nullptr) {
      const json& all = found->at("loops");
      constexpr std::size_t shown = 8;  // as the outer region's construct list
      for (std::size_t index = 0; index < all.size() && index < shown; ++index)
        loops += (loops.empty() ? "" : ", ") + short_name(all[index].value("name", std::string("?")));
      if (all.size() > shown) loops += ", ... (" + std::to_string(all.size() - shown) + " more)";
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
                main->sequential_fraction < 0.0 ? "unknown" : core::format_fraction(main->sequential_fraction).c_str(),
                main->amdahl_factor);
    // T(p) is the time per iteration the speedup stands for, AF(B) x T(B) / S(p) (S(p) weighs the history of
    // windows, thesis Figure 4.7); the last window's own mean is in the --json report (`iteration_time_s`).
    std::printf("  %4s  %8s  %5s  %12s  %8s\n", "p", "S(p)", "state", "T(p)", "ST'");
    for (const selfanalysis::ReportPoint& point : main->points) {
      const double implied = table_iteration_time(*main, point);
      std::printf("  %4d  %8s  %5s  %12s  %8s\n", point.processors,
                  point.calculated ? std::to_string(point.speedup).substr(0, 6).c_str() : "-",
                  !point.calculated ? "PNC" : point.processors == main->baseline ? "AF" : "PC",
                  implied > 0.0 ? format_seconds(implied).c_str() : "-",
                  point.self_tuning > 0.0 ? std::to_string(point.self_tuning).substr(0, 6).c_str() : "-");
    }
    std::printf("  T(p) = AF(B) x T(B) / S(p): the time per iteration the speedup (history-weighted) stands for;\n"
                "  state AF: on the baseline's count S(B) is Amdahl's Factor computed from f, not a measured speedup\n");
  }
  if (main->estimated_time >= 0.0) {
    const double error = main->elapsed > 0.0 ? (main->estimated_time - main->elapsed) / main->elapsed * 100.0 : 0.0;
    std::printf("  execution time of the region on P=%d: estimated %s (at iteration %ld), actual %s (%+.1f%%)\n",
                main->estimate_processors, format_seconds(main->estimated_time).c_str(), main->estimated_at_iteration,
                format_seconds(main->elapsed).c_str(), error);
  } else if (options.iterations() <= 0) {
    std::printf("  execution time of the region: actual %s; no estimate without the iteration count (--iterations N)\n",
                format_seconds(main->elapsed).c_str());
  } else {
    std::printf("  execution time of the region: actual %s; no estimate (the speedup on P was not calculated)\n",
                format_seconds(main->elapsed).c_str());
  }
  if (report.mode != "time") print_loops_account(*main, report.allocated_processors);
  std::printf("program: %s wall time\n", format_seconds(child.wall_seconds).c_str());
  for (const std::string& note : report.notes) std::printf("note: %s\n", note.c_str());
  for (const std::string& note : main->notes) std::printf("note: %s\n", note.c_str());
  if (const auto verdict = run_verdict(report)) print_verdict(*verdict);
}


namespace {

// The one-run analysis of the outer region (kind "outer" in the report).
void print_one_run(const selfanalysis::ReportRegion& outer, const RunOptions& options) {
  const int team = outer.team;
  if (outer.points.empty()) {
    std::printf("  one-run analysis: no speedup: %s\n", outer.noise.verdict.c_str());
    return;
  }
  std::printf("one-run analysis on %d thread%s (%ld iterations measured on the team, %ld baseline iterations):\n", team,
              team == 1 ? "" : "s", outer.measured_iterations, outer.baseline_steps);
  const std::string source = outer.one_thread_source == "baseline"
                                 ? "baseline iterations: the threads one after the other"
                                 : "the threads' work added up: no baseline iterations";
  if (team == 1) {  // T(P) is T(1): one time, measured, and the work added up beside it
    std::printf("  T(1)=%s (the steps on one thread; their work added up: %s)  f=%s\n", format_seconds(outer.iteration_time).c_str(),
                format_seconds(outer.work_one_thread_time).c_str(), core::format_fraction(outer.sequential_fraction).c_str());
  } else {
    std::printf("  T(1)=%s (%s)  T(%d)=%s  f=%s  AF(%d)=%.3f\n", format_seconds(outer.one_thread_time).c_str(), source.c_str(),
                team, format_seconds(outer.iteration_time).c_str(), core::format_fraction(outer.sequential_fraction).c_str(), team,
                outer.amdahl_factor);
  }
  // PE = LB x CE holds when T(1) is the work added up (docs/self-analysis.md, "The figures"); from baseline iterations
  // PE is S(P) / P and LB x CE the work's own efficiency beside it.
  if (team == 1)  // S(1) = 1: no parallel efficiency; what the step spends beside the work is the runtime's
    std::printf("  communication efficiency %.3f = the work / the step (the runtime's constructs and waits take the rest)\n",
                outer.communication);
  else if (outer.one_thread_source == "baseline")
    std::printf("  parallel efficiency %.3f = S(%d) / %d; of the work added up: %.3f = load balance %.3f x communication %.3f\n",
                outer.parallel_efficiency, team, team, outer.load_balance * outer.communication, outer.load_balance, outer.communication);
  else
    std::printf("  parallel efficiency %.3f = load balance %.3f x communication %.3f\n", outer.parallel_efficiency, outer.load_balance,
                outer.communication);
  const bool spins_seen = outer.spin_time > 0.0;
  const bool sampled = outer.spin_source == "samples";  // libgomp: spin loops in the code, sampled; libomp: flushes
  if (spins_seen && outer.iteration_time > 0.0 && team > 1)
    std::printf("  spins on flags: %s a step %s (%.1f%% of the team's time), taken out of the threads' work\n",
                format_seconds(outer.spin_time).c_str(), sampled ? "in spin loops (sampled)" : "on flushes",
                100.0 * outer.spin_time / (outer.iteration_time * team));
  if (outer.baseline_stopped && team > 1)
    std::printf("  caution: the baseline iterations stopped: a thread waited for another inside a construct (a pipeline\n"
                "    synchronised with flags?); T(1) is the threads' work added up, %s\n",
                !spins_seen ? "their waits inside the constructs\n    counted as work, so S(p) reads high"
                : sampled   ? "less their spins in the sampled spin loops\n    (a wait without a fence or a pause still counts as work)"
                            : "less their spins on flushes (a wait\n    without a flush call still counts as work)");
  print_placement(outer);
  std::printf("  %4s  %8s  %-8s  %12s\n", "p", "S(p)", "source", "T(p)");
  for (const selfanalysis::ReportPoint& point : outer.points) {
    std::printf("  %4d  %8.4f  %-8s  %12s\n", point.processors, point.speedup, point.measured ? "measured" : "model",
                format_seconds(point.iteration_time).c_str());
  }
  if (outer.estimated_time >= 0.0) {
    print_outer_estimates(outer);
  } else if (options.iterations() <= 0) {
    std::printf("  execution time of the region: actual %s; no estimate without the iteration count (--iterations N)\n",
                format_seconds(outer.elapsed).c_str());
  }
  print_outer_account(outer);
}

// The second run of --check-run against the one-run prediction.
void print_check(const interpose::SecondRunResult& second, const selfanalysis::ReportRegion* outer, int team) {
  if (second.period && second.period->iteration_time) {
    std::printf("  check: time per iteration on %d thread%s (second run): %s (median of %ld measured iterations)\n",
                second.threads, second.threads == 1 ? "" : "s", format_seconds(*second.period->iteration_time).c_str(),
                second.period->measured_iterations);
  }
  if (!second.speedup) {
    std::printf("  check: not measured: %s\n", second.problem.c_str());
    return;
  }
  std::printf("  check: T(%d)/T(%d) from two runs: %.4f", second.threads, team, *second.speedup);
  const selfanalysis::ReportPoint* base = outer != nullptr ? outer->point(second.threads) : nullptr;
  const selfanalysis::ReportPoint* own = outer != nullptr ? outer->point(team) : nullptr;
  if (base != nullptr && own != nullptr && base->speedup > 0.0) {
    const double predicted = own->speedup / base->speedup;
    std::printf("; the one-run prediction %.4f (%+.1f%%)", predicted, (predicted / *second.speedup - 1.0) * 100.0);
  }
  std::printf("\n");
}

}  // namespace

void print_worksharing(const interpose::RunInfo& run, const json& found, const core::ProcessResult& child,
                       const selfanalysis::Report& report, const std::optional<interpose::SecondRunResult>& second,
                       const RunOptions& options) {
  const interpose::WorksharingPeriod& period = *run.worksharing;
  std::printf("augur run: no iterative parallel region (%ld parallel region%s ran); the periodicity detector found the time "
              "loop inside one, in its worksharing constructs (window %d samples)\n",
              run.intercepted, run.intercepted == 1 ? "" : "s", run.dpd_window);
  std::printf("  * region %s: period %d (worksharing construct%s per iteration: %s), %ld iterations\n",
              loop_name(found.at("region")).c_str(), period.length, period.length == 1 ? "" : "s", construct_list(found, 8).c_str(),
              period.iterations);
  const selfanalysis::ReportRegion* outer = nullptr;
  for (const selfanalysis::ReportRegion& region : report.regions) {
    if (region.kind == "outer") outer = &region;
  }
  if (outer != nullptr) {
    print_one_run(*outer, options);
  } else if (report.mode == "time") {
    std::printf("  mode time: only timed; time per iteration on %d threads: %s\n", period.team_size,
                period.iteration_time ? format_seconds(*period.iteration_time).c_str() : "not measured");
  } else {
    std::printf("  one-run analysis: none (%s)\n", period.iteration_time ? "no team measurement" : "no iteration was timed");
  }
  if (second) print_check(*second, outer, period.team_size);
  std::printf("program: %s wall time\n", format_seconds(child.wall_seconds).c_str());
  for (const std::string& note : report.notes) std::printf("note: %s\n", note.c_str());
  if (const auto verdict = run_verdict(report)) print_verdict(*verdict);
}

void record_second_run(json& found, const interpose::SecondRunResult& second) {
  if (!second.ran) return;  // the preload's own note stays
  json baseline_run = {{"threads", second.threads}, {"iteration_time_median_s", nullptr}, {"iterations", nullptr}};
  if (second.period) {
    const interpose::WorksharingPeriod& period = *second.period;
    baseline_run["iteration_time_median_s"] = period.iteration_time ? json(*period.iteration_time) : json(nullptr);
    baseline_run["iterations"] = period.iterations;
    baseline_run["measured_iterations"] = period.measured_iterations;
    baseline_run["team_size"] = period.team_size;
  }
  if (second.speedup) found["speedup"] = *second.speedup;
  found["speedup_note"] = second.note();
  found["baseline_run"] = baseline_run;
}

}  // namespace augur::cli
