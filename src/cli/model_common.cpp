#include "model_common.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"
#include "core/json_text.hpp"
#include "model/holdout.hpp"
#include "flags.hpp"
#include "progress.hpp"

namespace augur::cli {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) {
    const auto first = part.find_first_not_of(" \t");
    const auto last = part.find_last_not_of(" \t");
    if (first != std::string::npos) parts.push_back(part.substr(first, last - first + 1));
  }
  return parts;
}

model::InputFormat parse_format(const std::string& name) {
  if (name == "auto") return model::InputFormat::Automatic;
  if (name == "csv") return model::InputFormat::Csv;
  if (name == "extrap") return model::InputFormat::ExtraPText;
  if (name == "jsonl") return model::InputFormat::JsonLines;
  throw core::InputError({"--format", 0, 0}, "unknown format '" + name + "' (auto, csv, extrap, jsonl)");
}

using core::is_name;  // the expression language's NAME, as the dataset readers check it

nlohmann::json number(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); }

std::vector<double> constants_of(const model::Segment& segment) {
  return {segment.fit.constants.data(), segment.fit.constants.data() + segment.fit.constants.size()};
}

}  // namespace

void add_model_options(CLI::App& command, ModelCommandOptions& options) {
  command.add_option("DATA", options.data, "Measurements: CSV, Extra-P text or JSON Lines (docs/formats.md)")->required();
  command.add_option("--formula", options.formula,
                     "Complexity formula in CALL's canonical form, e.g. 'c[0] + c[1]*N*log(N)/P' (log is base 2); "
                     "default: the formula recorded with the data, else an automatic search");
  command.add_option("--variable", options.variables, "A derived variable the formula or the search may use, e.g. 'q=N/P' (repeatable)");
  command.add_option("--segments", options.segments, "Intervals of validity: 'auto' (chosen by BIC) or a number of segments")->default_val("1");
  command.add_option("--segment-by", options.segment_by, "Split along this parameter only (default: the best one)");
  command.add_option("--aggregate", options.aggregate, "How repetitions of a point combine: mean, median, min, max")->default_val("mean");
  command.add_flag("--relative", options.relative, "Weight points by 1/y² (fit relative errors: timing noise is multiplicative)");
  command.add_flag("--nonnegative", options.nonnegative, "Constrain every constant to be >= 0");
  command.add_option("--max-terms", options.max_terms, "Search: at most this many terms besides the constant")->default_val(3)->check(CLI::Range(1, 5));
  command.add_option("--negative-exponents", options.negative, "Search: also x^-i terms: auto (where the values fall), always, never")->default_val("auto");
  command.add_option("--region", options.region, "Only this region (call path, experiment)");
  command.add_option("--metric", options.metric, "Only this metric");
  command.add_option("--format", options.format, "Input format: auto, csv, extrap, jsonl")->default_val("auto");
  command.add_option("--value", options.value_column, "CSV: the column of the measured values (default: 'value', 'time', else the last)");
  command.add_option("--parameters", options.parameter_columns, "CSV: the parameter columns, comma-separated (default: all others)");
  add_progress_flags(command, options.progress, options.quiet, " (over several series)");
  command.add_option("--exclude", options.exclude,
                     "Leave the measurements at these parameter values out of the fit, e.g. 'N=4194304' or 'N=1024,P=4' "
                     "(repeatable); predict still compares its predictions there with what was measured");
  add_json_flag(command, options.json, "Write JSON instead of tables");
}

namespace {

// "N=4194304,P=2" → {N: 4194304, P: 2}; an InputError under "--exclude TEXT" otherwise.
model::Exclusion parse_exclusion(const std::string& text) {
  model::Exclusion exclusion;
  exclusion.origin = "--exclude " + text;
  const std::string& origin = exclusion.origin;
  auto& assignment = exclusion.values;
  for (const std::string& item : split(text, ',')) {
    const auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0 || !is_name(item.substr(0, equals))) {
      throw core::InputError({origin, 0, 0}, "expected NAME=VALUE, not '" + item + "'");
    }
    const std::string value = item.substr(equals + 1);
    double number = 0.0;
    const auto result = std::from_chars(value.data(), value.data() + value.size(), number);
    if (value.empty() || result.ec != std::errc() || result.ptr != value.data() + value.size() || !std::isfinite(number)) {
      throw core::InputError({origin, 0, 0}, "'" + value + "' is not a number");
    }
    assignment[item.substr(0, equals)] = number;
  }
  if (assignment.empty()) throw core::InputError({origin, 0, 0}, "expected NAME=VALUE");
  return exclusion;
}

// The modeling options given on the command line; an InputError naming the option at fault.
model::ModelOptions modeling_options(const ModelCommandOptions& options) {
  model::ModelOptions modeling;
  modeling.formula = options.formula;
  try {
    modeling.aggregate = model::parse_aggregate(options.aggregate);
  } catch (const std::invalid_argument&) {
    throw core::InputError({"--aggregate", 0, 0}, "unknown aggregate '" + options.aggregate + "' (mean, median, min, max)");
  }
  modeling.fit.relative = options.relative;
  modeling.fit.nonnegative = options.nonnegative;
  modeling.search.max_terms = options.max_terms;
  if (options.negative == "auto") modeling.search.negative = model::NegativeExponents::Automatic;
  else if (options.negative == "always") modeling.search.negative = model::NegativeExponents::Always;
  else if (options.negative == "never") modeling.search.negative = model::NegativeExponents::Never;
  else throw core::InputError({"--negative-exponents", 0, 0}, "expected auto, always or never, not '" + options.negative + "'");
  if (options.segments == "auto") {
    modeling.segments = 0;
  } else {
    char* end = nullptr;
    const long count = std::strtol(options.segments.c_str(), &end, 10);
    if (options.segments.empty() || *end != '\0' || count < 1 || count > 100) {
      throw core::InputError({"--segments", 0, 0}, "expected 'auto' or a number of segments from 1 to 100, not '" + options.segments + "'");
    }
    modeling.segments = static_cast<int>(count);
  }
  modeling.segment_parameter = options.segment_by;
  for (const std::string& variable : options.variables) {
    const auto equals = variable.find('=');
    const std::string name = equals == std::string::npos ? "" : variable.substr(0, equals);
    if (!is_name(name) || equals + 1 >= variable.size()) {
      throw core::InputError({"--variable", 0, 0}, "expected NAME=EXPRESSION (e.g. q=N/P), not '" + variable + "'");
    }
    const std::string expression = variable.substr(equals + 1);
    (void)core::parse_expression(core::SourceText("--variable " + name, expression));  // syntax errors now, at their column
    modeling.derived.push_back({name, expression});
  }
  return modeling;
}

}  // namespace

std::vector<FittedSeries> fit_all(const ModelCommandOptions& options, const std::string& label) {
  catch_interruptions();  // Ctrl-C: the search stops at its next hypothesis; nothing is printed or written
  model::ReadOptions read;
  read.format = parse_format(options.format);
  read.value_column = options.value_column;
  read.parameter_columns = split(options.parameter_columns, ',');
  model::ModelOptions modeling = modeling_options(options);
  modeling.search.interruption = check_interrupted;
  std::vector<model::Exclusion> exclusions;
  for (const std::string& text : options.exclude) exclusions.push_back(parse_exclusion(text));

  const model::Dataset dataset = model::read_dataset(options.data, read);
  std::optional<Progress> bar;  // over several series, on a terminal (or --progress); erased when the fits are done
  model::DatasetFit fit = model::fit_dataset(dataset, options.region, options.metric, exclusions, modeling, [&](int done, int total) {
    check_interrupted();
    if (total < 2) return;
    if (!bar) bar.emplace(label, total, "series", Progress::mode_for(options.quiet, options.progress));
    bar->update(done);
  });
  bar.reset();
  std::vector<FittedSeries> fitted = std::move(fit.series);
  for (std::size_t index = 0; index < exclusions.size(); ++index) {
    if (!fitted.empty() && !fit.matched[index]) {
      std::fprintf(stderr, "augur: --exclude %s: no measurement has these values; nothing was left out for it\n",
                   options.exclude[index].c_str());
    }
  }
  if (fitted.empty()) {
    std::string what = options.region.empty() ? "" : " region '" + options.region + "'";
    if (!options.metric.empty()) what += " metric '" + options.metric + "'";
    throw core::InputError({options.data, 0, 0}, "no series" + what + " in the data");
  }
  return fitted;
}

std::string significant(double value, int digits) {
  if (!std::isfinite(value)) return "-";
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

std::string segment_bounds(const model::SeriesModel& model, const model::Segment& segment) {
  std::string text;
  for (std::size_t p = 0; p < model.parameters.size(); ++p) {
    text += (text.empty() ? "" : ", ") + model.parameters[p] + " " + significant(segment.lower[p], 6);
    if (segment.upper[p] != segment.lower[p]) text += ".." + significant(segment.upper[p], 6);
  }
  return text;
}

nlohmann::json series_json(const model::SeriesModel& model) {
  nlohmann::json json;
  json["region"] = model.region;
  json["metric"] = model.metric;
  json["parameters"] = model.parameters;
  json["points"] = model.points.size();
  json["searched"] = model.searched;
  if (model.searched) json["hypotheses"] = model.hypotheses;
  if (model.searched) json["notes"] = model.notes;
  const auto& segments = model.segmentation.segments;
  json["symbolic"] = model::symbolic_text(model);
  if (segments.size() == 1) {
    json["formula"] = model.formula.with_values(constants_of(segments[0]), core::ExpressionStyle::Readable);
    json["python"] = model::python_text(model, constants_of(segments[0]));
  } else {
    std::string readable;
    for (std::size_t index = 0; index < segments.size(); ++index) {
      readable += (index ? "; " : "") + model::segment_formula(model, index).with_values(constants_of(segments[index]), core::ExpressionStyle::Readable) +
                  " for " + segment_bounds(model, segments[index]);
    }
    json["formula"] = readable;
    json["python"] = model::piecewise_python_text(model);
  }
  json["constants"] = nlohmann::json::array();
  json["segments"] = nlohmann::json::array();
  for (std::size_t index = 0; index < segments.size(); ++index) {
    const model::Segment& segment = segments[index];
    const model::Formula& formula = model::segment_formula(model, index);
    nlohmann::json constants = nlohmann::json::array();
    for (std::size_t term = 0; term < formula.terms().size(); ++term) {
      const auto at = static_cast<Eigen::Index>(term);
      constants.push_back({{"name", formula.terms()[term].constant},
                           {"value", number(segment.fit.constants(at))},
                           {"stderr", number(segment.fit.standard_errors(at))}});
      if (segments.size() == 1) json["constants"].push_back(constants.back());
      else {
        auto entry = constants.back();
        entry["segment"] = index;
        json["constants"].push_back(entry);
      }
    }
    nlohmann::json bounds = nlohmann::json::object();
    for (std::size_t p = 0; p < model.parameters.size(); ++p) bounds[model.parameters[p]] = {segment.lower[p], segment.upper[p]};
    json["segments"].push_back({{"bounds", bounds},
                                {"points", segment.members.size()},
                                {"formula", formula.with_values(constants_of(segment), core::ExpressionStyle::Readable)},
                                {"python", model::python_text(model, constants_of(segment), index)},
                                {"constants", constants},
                                {"rss", number(segment.fit.rss)},
                                {"smape", number(segment.fit.smape)}});
    if (!model.pieces.empty()) json["segments"].back()["symbolic"] = formula.text();
  }
  json["rss"] = number(model.rss);
  json["smape"] = number(model.smape);
  json["loo_smape"] = number(model.loo_smape);
  json["r2"] = number(model.r2);
  json["adjusted_r2"] = number(model.adjusted_r2);
  return json;
}

}  // namespace augur::cli
