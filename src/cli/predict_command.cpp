#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "command.hpp"
#include "core/table.hpp"
#include "core/csv.hpp"
#include "core/json_text.hpp"
#include "flags.hpp"
#include "fit_command.hpp"
#include "model/holdout.hpp"

namespace augur::cli {

void add_predict_options(CLI::App* command, PredictOptions& options) {
  add_model_options(*command, options.model);
  add_csv_flag(*command, options.model.csv, "CSV instead of the table: one line per series and point");
  command->add_option("--at", options.at, "A point, e.g. 'P=256,N=1048576' (repeatable)");
  command->add_option("--grid", options.grid,
                      "Values of one parameter: 'P=1,2,4', 'P=64:1024:*2' (geometric) or 'N=100:500:+100' (arithmetic); "
                      "repeat for a grid; --at values complete each grid point");
  command->add_option("--confidence", options.confidence, "Confidence of the prediction intervals")->default_val(0.95)->check(finite_number())->check(CLI::Range(0.5, 0.9999));
  command->footer("Examples:\n  augur predict fft.csv --formula 'f[0] + f[1]*log(P) + f[2]*(N/P)*log(N/P)' --at N=4194304 --grid P=1:64:*2\n"
                  "  augur predict fft.cll.jsonl --region fft --exclude N=4194304 --at N=4194304 --grid P=1,2,4\n"
                  "Where the data holds measurements at a predicted point, the measured value and the error of the "
                  "prediction are shown beside it.");
}

namespace {

using Assignment = std::map<std::string, double>;

double parse_number(const std::string& text, const std::string& origin, const std::string& what) {
  double value = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() || !std::isfinite(value)) {
    throw core::InputError({origin, 0, 0}, "'" + text + "' is not a number (" + what + ")");
  }
  return value;
}

Assignment parse_point(const std::string& text) {
  const std::string option = "--at";
  Assignment point;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0) throw core::InputError({option + " " + text, 0, 0}, "expected NAME=VALUE, not '" + item + "'");
    const std::string name = item.substr(0, equals);
    point[name] = parse_number(item.substr(equals + 1), option + " " + text, name);
    start = end + 1;
  }
  return point;
}

std::pair<std::string, std::vector<double>> parse_grid(const std::string& text) {
  const std::string origin = "--grid " + text;
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) throw core::InputError({origin, 0, 0}, "expected NAME=VALUES");
  const std::string name = text.substr(0, equals);
  const std::string values = text.substr(equals + 1);
  std::vector<double> result;
  const auto colon = values.find(':');
  if (colon == std::string::npos) {
    std::size_t start = 0;
    while (start <= values.size()) {
      const std::size_t end = std::min(values.find(',', start), values.size());
      result.push_back(parse_number(values.substr(start, end - start), origin, name));
      start = end + 1;
    }
    return {name, result};
  }
  const auto second = values.find(':', colon + 1);
  if (second == std::string::npos || second + 2 > values.size() || (values[second + 1] != '*' && values[second + 1] != '+')) {
    throw core::InputError({origin, 0, 0}, "expected FROM:TO:*FACTOR or FROM:TO:+STEP");
  }
  const double from = parse_number(values.substr(0, colon), origin, name);
  const double to = parse_number(values.substr(colon + 1, second - colon - 1), origin, name);
  const double step = parse_number(values.substr(second + 2), origin, name);
  const bool geometric = values[second + 1] == '*';
  if ((geometric && (step <= 1.0 || from <= 0.0)) || (!geometric && step <= 0.0) || to < from) {
    throw core::InputError({origin, 0, 0}, geometric ? "a geometric grid needs 0 < FROM <= TO and a factor > 1" : "an arithmetic grid needs FROM <= TO and a step > 0");
  }
  // How many steps fit from FROM to TO, found without computing TO − FROM or TO / FROM (either may overflow
  // at the ends of the range of doubles); a margin of 1e-9 of a step keeps a TO reached by rounding.
  const double steps = geometric ? (std::log2(to) - std::log2(from)) / std::log2(step) : to / step - from / step;
  if (!(steps <= 99999.0)) throw core::InputError({origin, 0, 0}, "more than 100000 values");
  const auto count = static_cast<std::size_t>(std::floor(steps + 1e-9)) + 1;
  double value = from;
  for (std::size_t index = 0; index < count; ++index) {
    if (index > 0) {  // FROM + i·STEP when that is finite (no drift); by adding the step when it is not
      const double offset = static_cast<double>(index) * step;
      value = geometric ? value * step : std::isfinite(offset) ? from + offset : value + step;
    }
    if (!std::isfinite(value)) break;  // the last step rounded past the largest double
    if (!result.empty() && value <= result.back()) {
      throw core::InputError({origin, 0, 0}, "the step " + core::format_shortest(step) + " is below the precision of the values near " + core::format_shortest(value));
    }
    result.push_back(value);
  }
  return {name, result};
}

std::vector<Assignment> points_of(const PredictOptions& options) {
  std::vector<Assignment> fixed;
  for (const std::string& text : options.at) fixed.push_back(parse_point(text));
  if (options.grid.empty()) return fixed;
  std::vector<Assignment> grid{{}};
  for (const std::string& text : options.grid) {
    const auto [name, values] = parse_grid(text);
    std::vector<Assignment> next;
    for (const Assignment& partial : grid) {
      for (double value : values) {
        Assignment point = partial;
        point[name] = value;
        next.push_back(point);
      }
    }
    grid = std::move(next);
    if (grid.size() > 1000000) throw core::InputError({"--grid", 0, 0}, "the grid has more than a million points");
  }
  if (fixed.empty()) return grid;
  for (const Assignment& base : fixed) {
    for (const auto& [name, value] : base) {
      if (grid.front().count(name) != 0) throw core::InputError({"--at", 0, 0}, "'" + name + "' is given by both --at and --grid");
    }
  }
  std::vector<Assignment> combined;
  for (const Assignment& base : fixed) {
    for (Assignment point : grid) {
      point.insert(base.begin(), base.end());
      combined.push_back(point);
    }
  }
  return combined;
}

std::string describe(const Assignment& point) {
  std::string text;
  for (const auto& [name, value] : point) text += (text.empty() ? "" : ",") + name + "=" + core::format_shortest(value);
  return text;
}

// The values of the model's parameters at `point`, in the model's order; every name of the point must be one.
std::vector<double> values_at(const model::SeriesModel& model, const Assignment& point, const PredictOptions& options) {
  for (const auto& [name, value] : point) {
    if (std::find(model.parameters.begin(), model.parameters.end(), name) == model.parameters.end()) {
      std::string known;
      for (const std::string& parameter : model.parameters) known += (known.empty() ? "" : ", ") + parameter;
      const std::string prefix = name + "=";
      const bool from_grid = std::any_of(options.grid.begin(), options.grid.end(),
                                         [&prefix](const std::string& grid) { return grid.rfind(prefix, 0) == 0; });
      throw core::InputError({from_grid ? "--grid" : "--at", 0, 0}, "'" + name + "' is not a parameter of " + model.region + " (it has " + known + ")");
    }
  }
  std::vector<double> values;
  for (const std::string& parameter : model.parameters) {
    const auto found = point.find(parameter);
    if (found == point.end()) throw core::InputError({"--at", 0, 0}, "the model of " + model.region + " needs a value for " + parameter);
    values.push_back(found->second);
  }
  return values;
}

}  // namespace

int run_predict_command(const PredictOptions& options) {
  try {
    const std::vector<Assignment> points = points_of(options);
    if (points.empty()) throw core::InputError({"--at", 0, 0}, "give the points to predict with --at or --grid");
    const std::vector<FittedSeries> fitted = fit_all(options.model, "augur predict");
    nlohmann::json predictions = nlohmann::json::array();
    std::vector<std::vector<std::string>> rows;
    std::string csv = core::csv_record({"region", "metric", "at", "predicted", "lower", "upper", "confidence", "segment", "measured", "error_percent"});
    bool any_measured = false;
    int failures = 0;
    for (const FittedSeries& series : fitted) {
      if (!series.error.empty()) {
        std::fprintf(stderr, "augur predict: %s · %s: %s\n", series.region.c_str(), series.metric.c_str(), series.error.c_str());
        ++failures;
        continue;
      }
      const model::SeriesModel& model = series.model;
      for (const Assignment& point : points) {
        const std::vector<double> values = values_at(model, point, options);
        const model::Prediction prediction = model::predict(model, values, options.confidence, "--at " + describe(point));
        const double lower = prediction.interval.lower;
        const double upper = prediction.interval.upper;
        const double measured =
            model::measured_at(series.model, series.held_out, values, model::parse_aggregate(options.model.aggregate));
        // error = (measured - predicted) / measured, the sign of the seed's Table 1
        const double error = std::isfinite(measured) && measured != 0.0 ? 100.0 * (measured - prediction.interval.value) / measured : std::nan("");
        any_measured = any_measured || std::isfinite(measured);
        predictions.push_back({{"region", model.region}, {"metric", model.metric}, {"at", point},
                               {"value", prediction.interval.value},
                               {"lower", std::isfinite(lower) ? nlohmann::json(lower) : nlohmann::json(nullptr)},
                               {"upper", std::isfinite(upper) ? nlohmann::json(upper) : nlohmann::json(nullptr)},
                               {"confidence", options.confidence}, {"segment", prediction.segment},
                               {"measured", std::isfinite(measured) ? nlohmann::json(measured) : nlohmann::json(nullptr)},
                               {"error_percent", std::isfinite(error) ? nlohmann::json(error) : nlohmann::json(nullptr)}});
        csv += core::csv_record({core::csv_field(model.region), core::csv_field(model.metric), core::csv_field(describe(point)),
                                 core::csv_number(prediction.interval.value), core::csv_number(lower), core::csv_number(upper),
                                 core::csv_number(options.confidence), std::to_string(prediction.segment + 1), core::csv_number(measured),
                                 core::csv_number(error)});
        rows.push_back({model.region, model.metric, describe(point), significant(prediction.interval.value, 6), significant(lower, 4),
                       significant(upper, 4), std::to_string(prediction.segment + 1) + "/" + std::to_string(model.segmentation.segments.size()),
                       significant(measured, 6), std::isfinite(error) ? significant(error, 3) + "%" : "-"});
      }
    }
    if (options.model.json) {
      std::printf("%s\n", core::json_text(nlohmann::json{{"data", options.model.data}, {"predictions", predictions}}, 2).c_str());
    } else if (options.model.csv) {
      std::printf("%s", csv.c_str());
    } else {
      std::vector<std::string> header{"region", "metric", "at", "predicted", "lower", "upper", "segment"};
      if (any_measured) header.insert(header.end(), {"measured", "error"});
      core::TextTable table(header);
      for (std::vector<std::string>& row : rows) {
        if (!any_measured) row.resize(header.size());
        table.add_row(row);
      }
      std::printf("%s", table.render().c_str());
      std::printf("(lower, upper: %s%% prediction interval for one new measurement; segment: the interval of validity used",
                  significant(100.0 * options.confidence, 4).c_str());
      if (any_measured) std::printf(";\n measured: the %s of the measurements at the point%s; error: (measured - predicted) / measured",
                                    options.model.aggregate.c_str(), options.model.exclude.empty() ? "" : " (those at --exclude points were left out of the fit)");
      std::printf(")\n");
    }
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    return report_error("predict", error);
  }
}

Runner declare_predict_command(CLI::App& command) {
  auto options = std::make_shared<PredictOptions>();
  add_predict_options(&command, *options);
  return [options] { return run_predict_command(*options); };
}

}  // namespace augur::cli
