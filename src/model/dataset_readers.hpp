// What the dataset readers share (dataset.cpp: CSV and Extra-P text; dataset_jsonl.cpp: JSON Lines):
// the collection of series, the location of a cell, numbers and parameter names checked at their place.
// Private to augur_model_data.
#pragma once

#include <charconv>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"
#include "core/lines.hpp"
#include "model/dataset.hpp"

namespace augur::model::readers {

using core::InputError;
using core::SourceLocation;
using Line = core::TextLine;

inline bool is_blank(char character) {
  return character == ' ' || character == '\t' || character == '\r';
}

inline std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

inline std::string lowercase(std::string_view text) {
  std::string result(text);
  for (char& character : result) {
    if (character >= 'A' && character <= 'Z') character = static_cast<char>(character - 'A' + 'a');
  }
  return result;
}

inline std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

inline SourceLocation at(const std::string& file, const Line& line, std::size_t index = 0) {
  return {file, line.number, static_cast<long>(index) + 1};
}

// The finite number that the whole of `text` spells (as std::from_chars reads it); an InputError at
// `location` otherwise, with `context` appended to the message.
inline double parse_number(std::string_view text, const SourceLocation& location, const std::string& context = "") {
  if (text.empty()) throw InputError(location, "missing number" + context);
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::invalid_argument || end != text.data() + text.size()) {
    throw InputError(location, "'" + std::string(text) + "' is not a number" + context);
  }
  if (error == std::errc::result_out_of_range || !std::isfinite(value)) {
    throw InputError(location, "'" + std::string(text) + "' is not a finite number" + context);
  }
  return value;
}

// Collects measurements into series keyed by (region, metric), and repetitions into measurements keyed
// by point, both in the order first seen.
class DatasetBuilder {
 public:
  explicit DatasetBuilder(const std::string& file) { dataset_.file = file; }

  // The series of (region, metric), created with `parameters` and origin `location` on first use. Data at
  // `location` for an existing series must have the same parameters.
  std::size_t series(const std::string& region, const std::string& metric, const std::vector<std::string>& parameters,
                     const SourceLocation& location) {
    const auto [found, created] = series_index_.try_emplace({region, metric}, dataset_.series.size());
    if (created) {
      dataset_.series.push_back({region, metric, parameters, {}, {}, location});
      point_index_.emplace_back();
    }
    const Series& series = dataset_.series[found->second];
    if (series.parameters != parameters) {
      throw InputError(location, "parameters (" + join(parameters) + ") differ from (" + join(series.parameters) +
                                     ") of region '" + region + "', metric '" + metric + "' at line " +
                                     std::to_string(series.origin.line));
    }
    return found->second;
  }

  void add(std::size_t series, std::vector<double> point, const std::vector<double>& values) {
    auto& measurements = dataset_.series[series].measurements;
    const auto [found, created] = point_index_[series].try_emplace(point, measurements.size());
    if (created) measurements.push_back({std::move(point), {}});
    auto& repetitions = measurements[found->second].values;
    repetitions.insert(repetitions.end(), values.begin(), values.end());
  }

  Series& at(std::size_t series) { return dataset_.series[series]; }

  Dataset finish() {
    if (dataset_.series.empty()) throw InputError({dataset_.file, 0, 0}, "no measurements in the file");
    return std::move(dataset_);
  }

 private:
  Dataset dataset_;
  std::map<std::pair<std::string, std::string>, std::size_t> series_index_;
  std::vector<std::map<std::vector<double>, std::size_t>> point_index_;
};

// A parameter name must be a NAME of the expression language, as formulas, the search and --at refer to
// parameters by name: an InputError at `location` otherwise (`what`: "column", "the name", ...).
inline void check_parameter_name(const std::string& name, const SourceLocation& location, const std::string& what) {
  if (core::is_name(name)) return;
  throw InputError(location, "cannot use " + what + " '" + name +
                                 "' as a parameter: a parameter's name must be a letter "
                                 "or '_' followed by letters, digits and '_' (formulas refer to parameters by name)");
}

// The JSON Lines reader (dataset_jsonl.cpp).
[[nodiscard]] Dataset parse_json_lines(const std::string& file, const std::vector<Line>& lines);

}  // namespace augur::model::readers
