#include "selfanalysis/speedup_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "augur/core/stats.hpp"

namespace augur::selfanalysis {
namespace {

constexpr double unknown = std::numeric_limits<double>::quiet_NaN();

double median_or_unknown(const std::vector<double>& values) { return values.empty() ? unknown : core::median(values); }
double min_or_unknown(const std::vector<double>& values) {
  return values.empty() ? unknown : *std::min_element(values.begin(), values.end());
}
double max_or_unknown(const std::vector<double>& values) {
  return values.empty() ? unknown : *std::max_element(values.begin(), values.end());
}

// The region: the one asked for, or the longest-running one of the first analyzed run.
const ReportRegion& reference_region(const ExperimentInput& input) {
  for (const ExperimentRun& run : input.analyzed) {
    const ReportRegion* region = input.choose_region ? run.report.region(input.region_id) : run.report.main_region();
    if (region != nullptr) return *region;
  }
  throw std::runtime_error(input.choose_region ? "no run reported region " + std::to_string(input.region_id)
                                               : "no run reported an iterative parallel region");
}

// The runs' values of the region, per processor count.
struct Samples {
  std::map<int, std::vector<double>> times, region_times, analyzed_times, analyzed_region_times, speedups, mean_speedups,
      swept, tunings, estimates;
  std::map<int, std::vector<double>> traditional_by_repetition;  // TS of each repetition's own pair of runs
  int baseline = 0;  // B of the analyzed runs on the largest P
  std::map<int, std::vector<std::string>> verdicts, disturbed;  // the noise verdicts of the analyzed runs
};

void collect_timed(const ExperimentInput& input, std::uint64_t region_id, Samples& samples) {
  std::map<int, std::map<int, double>> region_time_by_repetition;  // [repetition][p]
  for (const ExperimentRun& run : input.timed) {
    samples.times[run.processors].push_back(run.wall_seconds);
    if (const ReportRegion* region = run.report.region(region_id)) {
      samples.region_times[run.processors].push_back(region->elapsed);
      region_time_by_repetition[run.repetition][run.processors] = region->elapsed;
    }
  }
  for (const auto& [repetition, by_processors] : region_time_by_repetition) {
    const auto serial = by_processors.find(1);
    if (serial == by_processors.end()) continue;
    for (const auto& [processors, time] : by_processors) {
      samples.traditional_by_repetition[processors].push_back(serial->second / time);
    }
  }
}

void collect_analyzed(const ExperimentInput& input, std::uint64_t region_id, Samples& samples) {
  int largest = 0;
  for (const ExperimentRun& run : input.analyzed) {
    samples.analyzed_times[run.processors].push_back(run.wall_seconds);
    const ReportRegion* region = run.report.region(region_id);
    if (region == nullptr) continue;
    samples.analyzed_region_times[run.processors].push_back(region->elapsed);
    if (region->noise.present) {
      samples.verdicts[run.processors].push_back(region->noise.verdict);
      if (region->noise.disturbed) samples.disturbed[run.processors].push_back(region->noise.verdict);
    }
    if (run.processors >= largest) {
      largest = run.processors;
      samples.baseline = region->baseline;
    }
    if (const ReportPoint* point = region->point(run.processors)) {
      if (point->calculated) samples.speedups[run.processors].push_back(point->speedup);
      if (point->calculated && point->mean_speedup > 0.0) samples.mean_speedups[run.processors].push_back(point->mean_speedup);
      if (point->self_tuning > 0.0) samples.tunings[run.processors].push_back(point->self_tuning);
    }
    if (region->estimated_time >= 0.0 && region->estimate_processors == run.processors) {
      samples.estimates[run.processors].push_back(region->estimated_time);
    }
  }
  for (const ExperimentRun& run : input.swept) {
    const ReportRegion* region = run.report.region(region_id);
    if (region == nullptr) continue;
    for (const ReportPoint& point : region->points) {
      if (point.calculated) samples.swept[point.processors].push_back(point.speedup);
    }
  }
}

// "noise: 2 of 6 analyzed runs disturbed (p=2: 2 of 3); first: measurement disturbed: ..." or "noise: all N clean".
std::string noise_line(const Samples& samples) {
  std::size_t judged = 0;
  std::size_t disturbed = 0;
  std::string counts;
  std::string first;
  for (const auto& [processors, verdicts] : samples.verdicts) {
    judged += verdicts.size();
    const auto found = samples.disturbed.find(processors);
    if (found == samples.disturbed.end() || found->second.empty()) continue;
    disturbed += found->second.size();
    counts += (counts.empty() ? "" : ", ") + std::string("p=") + std::to_string(processors) + ": " +
              std::to_string(found->second.size()) + " of " + std::to_string(verdicts.size());
    if (first.empty()) first = found->second.front();
  }
  if (judged == 0) return "";
  if (disturbed == 0) {
    return "noise: all " + std::to_string(judged) + " analyzed runs measured clean (docs/self-analysis.md, \"The noise verdict\")";
  }
  return "noise: " + std::to_string(disturbed) + " of " + std::to_string(judged) + " analyzed runs disturbed (" + counts +
         "); trust their SA(N) less; first: " + first;
}

// One row per processor count that ran, medians of the samples; the overall overhead.
void add_points(Samples& samples, ExperimentResult& result) {
  std::vector<int> processor_counts;
  for (const auto& [processors, values] : samples.times) processor_counts.push_back(processors);
  for (const auto& [processors, values] : samples.analyzed_times) processor_counts.push_back(processors);
  std::sort(processor_counts.begin(), processor_counts.end());
  processor_counts.erase(std::unique(processor_counts.begin(), processor_counts.end()), processor_counts.end());

  const double serial_region_time = median_or_unknown(samples.region_times[1]);
  double total_time = 0.0;
  double total_analyzed = 0.0;
  for (int processors : processor_counts) {
    ExperimentPoint point;
    point.processors = processors;
    point.time = median_or_unknown(samples.times[processors]);
    point.region_time = median_or_unknown(samples.region_times[processors]);
    point.analyzed_time = median_or_unknown(samples.analyzed_times[processors]);
    // TS(p) = T(1) / T(p) (seed 000, Figure 3), on the region as the self-analyzer sees it.
    point.traditional = serial_region_time / point.region_time;
    point.traditional_min = min_or_unknown(samples.traditional_by_repetition[processors]);
    point.traditional_max = max_or_unknown(samples.traditional_by_repetition[processors]);
    point.self_analyzer = median_or_unknown(samples.speedups[processors]);
    point.self_analyzer_mean = median_or_unknown(samples.mean_speedups[processors]);
    point.self_analyzer_min = min_or_unknown(samples.speedups[processors]);
    point.self_analyzer_max = max_or_unknown(samples.speedups[processors]);
    point.self_analyzer_one = median_or_unknown(samples.swept[processors]);
    point.self_tuning = median_or_unknown(samples.tunings[processors]);
    point.estimated_time = median_or_unknown(samples.estimates[processors]);
    point.analyzed_region_time = median_or_unknown(samples.analyzed_region_times[processors]);
    point.overhead = point.analyzed_time / point.time;
    point.verdicts = samples.verdicts[processors];
    point.judged_runs = static_cast<int>(point.verdicts.size());
    point.disturbed_runs = static_cast<int>(samples.disturbed[processors].size());
    if (!std::isnan(point.overhead)) {
      total_time += point.time;
      total_analyzed += point.analyzed_time;
    }
    result.points.push_back(point);
  }
  result.overhead = total_time > 0.0 ? total_analyzed / total_time : unknown;
  result.noise_verdict = noise_line(samples);
}

// What the runs' reports said, once each, and what the table cannot show.
void add_notes(const ExperimentInput& input, Samples& samples, ExperimentResult& result) {
  auto add_note = [&](const std::string& note) {
    if (std::find(result.notes.begin(), result.notes.end(), note) == result.notes.end()) result.notes.push_back(note);
  };
  // An outer region's note on where T(1) came from differs with the thread count (no baseline steps on one
  // thread): each such note once, with the thread counts it is about.
  std::vector<std::pair<std::string, std::vector<int>>> per_count;
  for (const auto* runs : {&input.timed, &input.analyzed, &input.swept}) {
    for (const ExperimentRun& run : *runs) {
      for (const std::string& note : run.report.notes) add_note(note);
      const ReportRegion* region = run.report.region(result.region_id);
      if (region == nullptr) continue;
      for (const std::string& note : region->notes) {
        if (runs == &input.swept) continue;  // the sweep's own warning is summarised below
        if (note.rfind("one run:", 0) != 0) {
          add_note(note);
          continue;
        }
        auto entry = std::find_if(per_count.begin(), per_count.end(), [&note](const auto& item) { return item.first == note; });
        if (entry == per_count.end()) entry = per_count.insert(per_count.end(), {note, {}});
        if (std::find(entry->second.begin(), entry->second.end(), run.processors) == entry->second.end())
          entry->second.push_back(run.processors);
      }
    }
  }
  for (auto& [note, counts] : per_count) {
    std::sort(counts.begin(), counts.end());
    std::string list;
    for (std::size_t index = 0; index < counts.size(); ++index)
      list += (index == 0 ? "" : index + 1 == counts.size() ? " and " : ", ") + std::to_string(counts[index]);
    add_note("on " + list + (counts.size() == 1 && counts[0] == 1 ? " thread, " : " threads, ") + note);
  }
  for (const ExperimentPoint& point : result.points) {
    if (std::isnan(point.self_analyzer) && !samples.analyzed_times[point.processors].empty()) {
      add_note("no self-analyzer speedup on " + std::to_string(point.processors) +
               (point.processors == 1 ? " thread" : " threads") +
               ": the runs ended before a measurement window completed; give the program more iterations");
    }
  }
  if (samples.region_times[1].empty()) result.notes.push_back("no run on 1 thread: TS is unknown");
  if (!input.swept.empty() && samples.swept.empty()) {
    result.notes.push_back("the sweep run computed no speedup: give the program more iterations");
  }
  if (!input.swept.empty()) {
    result.notes.push_back("SA(1 exec) comes from one run that changes the threads every few iterations: data placement "
                           "distorts it; read its trend, not its values (seed 000, section 4.1)");
  }
  if (result.baseline > 1) {
    result.notes.push_back("the baseline is " + std::to_string(result.baseline) +
                           " processors: SA is normalised by Amdahl's Factor and can differ from TS in value (thesis 4.3.1)");
  }
}

}  // namespace

ExperimentResult summarize_experiment(const ExperimentInput& input) {
  ExperimentResult result;
  const ReportRegion& reference = reference_region(input);
  result.region_id = reference.id;
  result.region_length = reference.length;
  Samples samples;
  collect_timed(input, result.region_id, samples);
  collect_analyzed(input, result.region_id, samples);
  result.baseline = samples.baseline;
  add_points(samples, result);
  add_notes(input, samples, result);
  return result;
}

const char* run_kind_name(RunKind kind) {
  switch (kind) {
    case RunKind::time: return "time";
    case RunKind::analyze: return "analyze";
    case RunKind::sweep: return "sweep";
  }
  return "time";
}

std::vector<PlannedRun> plan_experiment(int max_threads, int repeat, bool sweep) {
  std::vector<PlannedRun> plans;
  for (int repetition = 0; repetition < repeat; ++repetition) {
    for (int p = 1; p <= max_threads; ++p) {
      plans.push_back({RunKind::time, p, repetition});
      plans.push_back({RunKind::analyze, p, repetition});
    }
    if (sweep) plans.push_back({RunKind::sweep, max_threads, repetition});
  }
  return plans;
}

std::vector<std::pair<std::string, std::string>> run_environment(const PlannedRun& run, const RunSettings& settings) {
  return {{"OMP_NUM_THREADS", std::to_string(run.processors)}, {"OMP_WAIT_POLICY", settings.wait_policy}};
}

std::vector<std::pair<std::string, std::string>> run_options(const PlannedRun& run, const RunSettings& settings,
                                                             const std::string& report_path) {
  std::string sweep_list;
  if (run.kind == RunKind::sweep) {
    for (int p = 1; p <= settings.max_threads; ++p) sweep_list += (p > 1 ? "," : "") + std::to_string(p);
  }
  std::vector<std::pair<std::string, std::string>> options = {
      {"mode", run.kind == RunKind::time ? "time" : "analyze"},
      {"report", report_path},
      {"summary", "0"},
  };
  if (!settings.baseline.empty()) options.emplace_back("baseline", settings.baseline);
  options.emplace_back("sweep", sweep_list);
  options.emplace_back("sweep_every", std::to_string(settings.sweep_every));
  return options;
}

void add_run(ExperimentInput& input, RunKind kind, ExperimentRun run) {
  std::vector<ExperimentRun>& runs = kind == RunKind::time ? input.timed : kind == RunKind::analyze ? input.analyzed : input.swept;
  runs.push_back(std::move(run));
}

std::string last_lines(const std::string& text, int count) {
  std::size_t position = text.size();
  while (count-- > 0 && position > 0) {
    const auto newline = text.rfind('\n', position - 1);
    if (newline == std::string::npos) return text;
    position = newline;
    if (position + 1 == text.size()) ++count;
  }
  return text.substr(position == 0 ? 0 : position + 1);
}

}  // namespace augur::selfanalysis
