// The JSON of augur couple (--json): src/cli/couple_print.hpp.
#include <cmath>

#include "couple_print.hpp"

namespace augur::cli {
namespace {

using coupling::Run;
using Json = CoupleJson;

Json timing_json(const coupling::Timing& timing) {
  return {{"seconds", timing.seconds},
          {"ci_low", timing.ci_low},
          {"ci_high", timing.ci_high},
          {"repetitions", timing.repetitions},
          {"samples", timing.samples}};
}

Json prediction_json(const coupling::Prediction& prediction) {
  Json out = {{"method", prediction.method}, {"length", prediction.length}, {"seconds", prediction.seconds}};
  out["error"] = prediction.error ? Json(*prediction.error) : Json(nullptr);
  return out;
}

template <typename Value, typename Make>
Json or_null(const Value& value, Make make) {
  return value ? make(*value) : Json(nullptr);
}

Json run_json(const Run& run) {
  return {{"application", run.application},
          {"dataset", run.dataset},
          {"problem_size", run.problem_size},
          {"footprint_bytes", run.footprint_bytes},
          {"iterations", run.iterations},
          {"threads", run.threads},
          {"ranks", run.ranks},
          {"processors", run.processors()},
          {"machine_class", run.machine.machine_class()},
          {"hostname", run.machine.hostname},
          {"started", run.started}};
}

// The runs' list and the mean |error| of a predictor (`key`) and of summation.
Json with_means(const Json& list, const coupling::MeanErrors& means, const std::string& key) {
  Json out = {{"runs", list}};
  out["mean_abs_error"] = means.runs > 0
                              ? Json({{"summation", means.summation()}, {key, means.method()}, {"runs", means.runs}})
                              : Json(nullptr);
  return out;
}

}  // namespace

Json report_json(const SourcedRun& sourced, const coupling::Analysis& analysis) {
  const Run& run = sourced.run;
  Json out = {{"source", sourced.source}, {"run", run_json(run)}};
  Json kernels = Json::array();
  const coupling::Prediction* chosen = analysis.chosen();
  for (std::size_t i = 0; i < run.kernels.size(); ++i) {
    Json kernel = {{"name", run.kernels[i].name}, {"invocations", run.invocations(static_cast<int>(i))}};
    kernel["alone"] = or_null(run.find({static_cast<int>(i)}), timing_json);
    kernel["alpha"] = chosen ? Json(chosen->alpha[i]) : Json(nullptr);
    kernels.push_back(kernel);
  }
  out["kernels"] = kernels;
  Json couplings = Json::array();
  for (const coupling::LengthCouplings& values : analysis.couplings) {
    for (const auto& chain : values.chains) {
      Json names = Json::array();
      for (const int kernel : chain.chain) names.push_back(run.kernels[static_cast<std::size_t>(kernel)].name);
      couplings.push_back({{"length", values.length},
                           {"chain", names},
                           {"seconds", chain.time},
                           {"sum_alone", chain.sum_alone},
                           {"coupling", chain.value}});
    }
  }
  out["couplings"] = couplings;
  out["length"] = analysis.length;
  out["measured"] = or_null(run.loop, timing_json);
  out["widest_interval"] = {
      {"relative_width", analysis.widest.width}, {"where", analysis.widest.where}, {"noisy", analysis.widest.noisy()}};
  Json predictions = Json::array({prediction_json(analysis.summation)});
  for (const auto& prediction : analysis.predictions) predictions.push_back(prediction_json(prediction));
  out["predictions"] = predictions;
  return out;
}

Json summary_json(const std::vector<SourcedRun>& runs, const std::vector<coupling::Analysis>& analyses) {
  Json list = Json::array();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i].run;
    Json entry = run_json(run);
    entry["source"] = runs[i].source;
    entry["measured"] = run.loop ? Json(run.loop->seconds) : Json(nullptr);
    entry["summation"] = prediction_json(analyses[i].summation);
    entry["coupling"] = or_null(analyses[i].chosen(), prediction_json);
    entry["widest_interval"] = analyses[i].widest.width;
    list.push_back(entry);
  }
  return with_means(list, coupling::mean_errors(analyses), "coupling");
}

Json isocoupling_json(const SourcedRun& target, const std::vector<SourcedRun>& sources,
                      const coupling::Isocoupling& isocoupling) {
  Json out = {{"target", run_json(target.run)}, {"source", target.source}, {"length", isocoupling.length}};
  out["measured"] = or_null(target.run.loop, timing_json);
  out["summation"] = prediction_json(isocoupling.summation);
  out["own"] = or_null(isocoupling.own, prediction_json);
  Json list = Json::array();
  for (std::size_t i = 0; i < isocoupling.candidates.size(); ++i) {
    const coupling::Candidate& candidate = isocoupling.candidates[i];
    Json entry = prediction_json(isocoupling.reused[i]);
    entry["from"] = sources[candidate.index].source;
    entry["run"] = run_json(sources[candidate.index].run);
    entry["same_class"] = candidate.same_class;
    entry["size_distance"] = candidate.distance;
    entry["chosen"] = i == 0;
    list.push_back(entry);
  }
  out["reuse"] = list;
  std::vector<std::string> skipped;
  for (const std::size_t index : isocoupling.not_reusable) skipped.push_back(sources[index].source);
  out["not_reusable"] = skipped;
  return out;
}

Json reuse_json(const std::vector<SourcedRun>& runs, const std::vector<coupling::Reuse>& reuses) {
  Json list = Json::array();
  for (std::size_t target = 0; target < runs.size(); ++target) {
    const coupling::Reuse& reuse = reuses[target];
    Json entry = run_json(runs[target].run);
    entry["source"] = runs[target].source;
    entry["summation"] = prediction_json(reuse.summation);
    entry["own"] = or_null(reuse.own, prediction_json);
    entry["nearest"] = reuse.nearest ? Json(runs[*reuse.nearest].source) : Json(nullptr);
    entry["reuse"] = or_null(reuse.reused, prediction_json);
    entry["mean_abs_error_same_processors"] =
        or_null(reuse.same_processors_error, [](double mean) { return Json(mean); });
    entry["mean_abs_error_other_processors"] =
        or_null(reuse.other_processors_error, [](double mean) { return Json(mean); });
    list.push_back(entry);
  }
  return with_means(list, coupling::mean_errors(reuses), "reuse");
}

Json size_series_json(const std::vector<SourcedRun>& runs, const coupling::SizeSeries& series, double threshold) {
  Json out = {{"length", series.length}, {"threshold", threshold}};
  Json list = Json::array();
  for (const std::size_t i : series.order) {
    Json entry = run_json(runs[i].run);
    entry["from"] = runs[i].source;
    const double mean = series.mean_coupling[i];
    entry["mean_coupling"] = std::isfinite(mean) ? Json(mean) : Json(nullptr);
    list.push_back(entry);
  }
  out["runs"] = list;
  Json changes = Json::array();
  for (const auto& transition : series.transitions) {
    changes.push_back({{"before", runs[transition.before].source},
                       {"after", runs[transition.after].source},
                       {"mean_change", transition.mean_change},
                       {"mean_abs_change", transition.mean_abs_change},
                       {"level", transition.level}});
  }
  out["transitions"] = changes;
  return out;
}

}  // namespace augur::cli
