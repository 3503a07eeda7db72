#include "speedup_print.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/csv.hpp"
#include "core/table.hpp"
#include "core/json_text.hpp"
#include "verdict_print.hpp"

namespace augur::cli {
namespace {

nlohmann::ordered_json number(double value) {
  return std::isnan(value) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(value);
}

}  // namespace

void print_speedup_json(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result, int max_threads,
                const std::string& wait_policy, bool outer, const selfanalysis::Verdict& verdict) {
  nlohmann::ordered_json json;
  json["command"] = options.command;
  json["region"] = {{"id", result.region_id}, {"length", result.region_length}, {"kind", outer ? "outer" : "loops"}};
  json["baseline"] = outer ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(result.baseline);
  json["max_threads"] = max_threads;
  json["repeat"] = options.repeat;
  json["wait_policy"] = wait_policy;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& point : result.points) {
    nlohmann::ordered_json item;
    item["p"] = point.processors;
    item["time_s"] = number(point.time);
    item["region_time_s"] = number(point.region_time);
    item["time_sa_s"] = number(point.analyzed_time);
    item["ts"] = number(point.traditional);
    item["ts_min"] = number(point.traditional_min);
    item["ts_max"] = number(point.traditional_max);
    item["sa_n"] = number(point.self_analyzer);
    item["sa_n_min"] = number(point.self_analyzer_min);
    item["sa_n_max"] = number(point.self_analyzer_max);
    item["sa_n_mean"] = number(point.self_analyzer_mean);
    item["sa_1"] = number(point.self_analyzer_one);
    item["st"] = number(point.self_tuning);
    item["estimated_time_s"] = number(point.estimated_time);
    item["region_time_sa_s"] = number(point.analyzed_region_time);
    item["overhead"] = number(point.overhead);
    item["judged_runs"] = point.judged_runs;
    item["disturbed_runs"] = point.disturbed_runs;
    item["verdicts"] = point.verdicts;
    points.push_back(std::move(item));
  }
  json["points"] = std::move(points);
  json["overhead"] = number(result.overhead);
  json["noise_verdict"] = result.noise_verdict.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(result.noise_verdict);
  json["notes"] = result.notes;
  json["verdict"] = selfanalysis::verdict_json(verdict);
  std::printf("%s\n", core::json_text(json, 2).c_str());
}

std::string render_speedup_csv(const selfanalysis::ExperimentResult& result) {
  std::string out = core::csv_record({"p", "time_s", "region_time_s", "time_sa_s", "ts", "ts_min", "ts_max", "sa_n", "sa_n_min", "sa_n_max",
                                      "sa_n_mean", "sa_1", "st", "estimated_time_s", "region_time_sa_s", "overhead", "judged_runs",
                                      "disturbed_runs"});
  for (const auto& point : result.points) {
    std::vector<std::string> fields{std::to_string(point.processors)};
    for (const double value : {point.time, point.region_time, point.analyzed_time, point.traditional, point.traditional_min,
                               point.traditional_max, point.self_analyzer, point.self_analyzer_min, point.self_analyzer_max,
                               point.self_analyzer_mean, point.self_analyzer_one, point.self_tuning, point.estimated_time,
                               point.analyzed_region_time, point.overhead}) {
      fields.push_back(core::csv_number(value));
    }
    fields.push_back(std::to_string(point.judged_runs));
    fields.push_back(std::to_string(point.disturbed_runs));
    out += core::csv_record(fields);
  }
  return out;
}

void print_speedup_table(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result, const std::string& wait_policy,
                         bool outer, const selfanalysis::Verdict& verdict) {
  std::string command;
  for (const auto& word : options.command) command += (command.empty() ? "" : " ") + word;
  std::printf("augur speedup: %s\n", command.c_str());
  const std::string region = outer ? "one outer parallel region, " + std::to_string(result.region_length) +
                                         " worksharing constructs per step), baseline: the team's threads one after the other"
                                   : std::to_string(result.region_length) + " parallel loops), baseline " + std::to_string(result.baseline);
  std::printf("region %llu (%s, median of %d run%s per point, OMP_WAIT_POLICY=%s\n\n",
              static_cast<unsigned long long>(result.region_id), region.c_str(), options.repeat,
              options.repeat == 1 ? "" : "s", wait_policy.c_str());
  using core::format_number;
  core::TextTable table(
      {"p", "time_s", "region_s", "TS", "SA(N)", "SA(N)run", "SA(1)", "ST'", "est_s", "sa_region_s", "overhead", "disturbed"});
  for (const auto& point : result.points) {
    table.add_row({std::to_string(point.processors), format_number(point.time, 3), format_number(point.region_time, 3),
                   format_number(point.traditional, 2), format_number(point.self_analyzer, 2),
                   format_number(point.self_analyzer_mean, 2),
                   format_number(point.self_analyzer_one, 2), format_number(point.self_tuning, 2),
                   format_number(point.estimated_time, 3), format_number(point.analyzed_region_time, 3),
                   format_number(point.overhead, 3),
                   point.judged_runs == 0 ? std::string("-")
                                          : std::to_string(point.disturbed_runs) + "/" + std::to_string(point.judged_runs)});
  }
  std::printf("%s\n", table.render().c_str());
  if (options.repeat > 1) {
    std::printf("spread over the %d repetitions (min..max):\n", options.repeat);
    for (const auto& point : result.points) {
      if (point.processors == 1) continue;
      std::printf("  p=%d  TS %s..%s  SA(N) %s..%s\n", point.processors, format_number(point.traditional_min, 2).c_str(),
                  format_number(point.traditional_max, 2).c_str(), format_number(point.self_analyzer_min, 2).c_str(),
                  format_number(point.self_analyzer_max, 2).c_str());
    }
    std::printf("\n");
  }
  std::printf("overhead of the self-analyzer (time with / time without, all points): %s\n",
              format_number(result.overhead, 3).c_str());
  if (!result.noise_verdict.empty()) std::printf("%s\n", result.noise_verdict.c_str());
  std::printf("time_s, region_s: program and region without the self-analyzer; TS = region_s(1) / region_s(p);\n"
              "SA(N): self-analyzer, one run per p (its last value); SA(N)run: the same runs' T(B) / mean T(p) over\n"
              "the whole run; SA(1): one run sweeping p; ST': self-tuning' (busy CPU / wall);\n"
              "est_s: the self-analyzer's first estimate of the region time; sa_region_s: that region's actual time;\n"
              "disturbed: analyzed runs on p whose noise verdict says disturbed / runs judged.\n");
  for (const auto& note : result.notes) std::printf("note: %s\n", note.c_str());
  print_verdict(verdict);
}

}  // namespace augur::cli
