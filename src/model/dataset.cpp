#include "model/dataset.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "core/files.hpp"
#include "core/lines.hpp"
#include "augur/core/stats.hpp"

namespace augur::model {
namespace {

using core::InputError;
using core::SourceLocation;

using Line = core::TextLine;
using core::significant_lines;

bool is_blank(char character) {
  return character == ' ' || character == '\t' || character == '\r';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::string lowercase(std::string_view text) {
  std::string result(text);
  for (char& character : result) {
    if (character >= 'A' && character <= 'Z') character = static_cast<char>(character - 'A' + 'a');
  }
  return result;
}

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

SourceLocation at(const std::string& file, const Line& line, std::size_t index = 0) {
  return {file, line.number, static_cast<long>(index) + 1};
}

// The finite number that the whole of `text` spells (as std::from_chars reads it); an InputError at
// `location` otherwise, with `context` appended to the message.
double parse_number(std::string_view text, const SourceLocation& location, const std::string& context = "") {
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

// ---- CSV ----------------------------------------------------------------------------------------

struct Cell {
  std::string text;   // unquoted and trimmed, or the verbatim content of a quoted field
  std::size_t index;  // 0-based position in the line where the cell's text (or its opening quote) begins
};

std::vector<Cell> split_csv(const std::string& file, const Line& line) {
  const std::string_view text = line.text;
  std::vector<Cell> cells;
  std::size_t position = 0;
  while (true) {
    while (position < text.size() && is_blank(text[position])) ++position;
    Cell cell{{}, position};
    if (position < text.size() && text[position] == '"') {
      for (++position;; ++position) {
        if (position >= text.size()) throw InputError(at(file, line, cell.index), "unterminated quoted field");
        if (text[position] != '"') {
          cell.text += text[position];
        } else if (position + 1 < text.size() && text[position + 1] == '"') {
          cell.text += text[++position];  // "" is one quote
        } else {
          break;
        }
      }
      for (++position; position < text.size() && is_blank(text[position]);) ++position;
      if (position < text.size() && text[position] != ',') {
        throw InputError(at(file, line, position), "unexpected text after a quoted field");
      }
    } else {
      const std::size_t end = std::min(text.find(',', position), text.size());
      cell.text = trim(text.substr(position, end - position));
      position = end;
    }
    cells.push_back(std::move(cell));
    if (position >= text.size()) return cells;
    ++position;  // the comma
  }
}

Dataset parse_csv(const std::string& file, const std::vector<Line>& lines, const ReadOptions& options) {
  DatasetBuilder builder(file);
  if (lines.empty()) return builder.finish();
  const Line& header_line = lines.front();
  const SourceLocation header_location = at(file, header_line);
  std::vector<std::string> names;
  bool only_numbers = true;
  for (const Cell& cell : split_csv(file, header_line)) {
    std::string name(trim(cell.text));
    if (name.empty()) throw InputError(at(file, header_line, cell.index), "empty column name");
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw InputError(at(file, header_line, cell.index), "column '" + name + "' appears twice");
    }
    double ignored = 0.0;
    only_numbers = only_numbers &&
                   std::from_chars(name.data(), name.data() + name.size(), ignored).ptr == name.data() + name.size();
    names.push_back(std::move(name));
  }
  if (only_numbers) throw InputError(header_location, "expected a header row of column names, found numbers");

  const auto named = [&](const std::string& name, const std::string& role) {
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) {
      throw InputError(header_location, "no column '" + name + "' (" + role + ") in the header");
    }
    return static_cast<std::size_t>(found - names.begin());
  };
  const auto special = [&](std::initializer_list<std::string_view> candidates) -> std::optional<std::size_t> {
    for (std::size_t column = 0; column < names.size(); ++column) {
      if (std::find(candidates.begin(), candidates.end(), lowercase(names[column])) != candidates.end()) return column;
    }
    return std::nullopt;
  };
  const std::optional<std::size_t> region_column = special({"region"});
  const std::optional<std::size_t> metric_column = special({"metric"});
  const std::optional<std::size_t> repetition_column = special({"repetition", "rep"});
  const auto is_special = [&](std::size_t column) {
    return column == region_column || column == metric_column || column == repetition_column;
  };

  std::optional<std::size_t> value_column;
  if (!options.value_column.empty()) value_column = named(options.value_column, "the value column");
  if (!value_column) value_column = special({"value"});
  if (!value_column) value_column = special({"time"});
  for (std::size_t column = names.size(); !value_column && column-- > 0;) {
    if (!is_special(column)) value_column = column;
  }
  if (!value_column) throw InputError(header_location, "no value column in the header");

  std::vector<std::size_t> parameter_columns;
  for (const std::string& name : options.parameter_columns) {
    parameter_columns.push_back(named(name, "a parameter"));
    if (parameter_columns.back() == *value_column) {
      throw InputError(header_location, "column '" + name + "' cannot be both a parameter and the value");
    }
  }
  for (std::size_t column = 0; options.parameter_columns.empty() && column < names.size(); ++column) {
    if (column != *value_column && !is_special(column)) parameter_columns.push_back(column);
  }
  std::vector<std::string> parameters;
  for (const std::size_t column : parameter_columns) parameters.push_back(names[column]);

  for (auto line = lines.begin() + 1; line != lines.end(); ++line) {
    const std::vector<Cell> cells = split_csv(file, *line);
    if (cells.size() != names.size()) {
      throw InputError(at(file, *line), "row has " + std::to_string(cells.size()) + " fields, the header has " +
                                            std::to_string(names.size()));
    }
    const auto number = [&](std::size_t column) {
      return parse_number(cells[column].text, at(file, *line, cells[column].index),
                          " (column '" + names[column] + "')");
    };
    std::vector<double> point;
    for (const std::size_t column : parameter_columns) point.push_back(number(column));
    const double value = number(*value_column);
    const std::string region = region_column ? cells[*region_column].text : "main";
    const std::string metric = metric_column ? cells[*metric_column].text : names[*value_column];
    builder.add(builder.series(region, metric, parameters, at(file, *line)), std::move(point), {value});
  }
  return builder.finish();
}

// ---- Extra-P text -------------------------------------------------------------------------------

class ExtraPTextReader {
public:
  explicit ExtraPTextReader(const std::string& file) : file_(file), builder_(file) {}

  Dataset read(const std::vector<Line>& lines) {
    for (const Line& line : lines) {
      std::size_t start = 0;
      while (start < line.text.size() && is_blank(line.text[start])) ++start;
      std::size_t end = start;
      while (end < line.text.size() && !is_blank(line.text[end])) ++end;
      const std::string_view keyword = line.text.substr(start, end - start);
      const SourceLocation location = at(file_, line, start);
      if (keyword == "PARAMETER") {
        read_parameters(line, end, location);
      } else if (keyword == "POINTS") {
        read_points(line, end, location);
      } else if (keyword == "REGION") {
        close_block(false);
        region_ = name_after(line, end, location, "REGION");
        block_ = Block{location, "REGION '" + *region_ + "'"};
      } else if (keyword == "METRIC") {
        close_block(false);
        metric_ = name_after(line, end, location, "METRIC");
        if (region_) block_ = Block{location, "METRIC '" + metric_ + "' of REGION '" + *region_ + "'"};
      } else if (keyword == "DATA") {
        read_data(line, end, location);
      } else {
        throw InputError(location, "unknown keyword '" + std::string(keyword) +
                                       "' (expected PARAMETER, POINTS, REGION, METRIC or DATA)");
      }
    }
    close_block(true);
    return builder_.finish();
  }

private:
  // The DATA lines that follow a REGION or METRIC line: one per point.
  struct Block {
    SourceLocation opened;
    std::string description;
    std::size_t data_lines = 0;
  };

  std::string name_after(const Line& line, std::size_t end, const SourceLocation& location, const char* keyword) const {
    const std::string_view name = trim(line.text.substr(end));
    if (name.empty()) throw InputError(location, std::string(keyword) + " without a name");
    return std::string(name);
  }

  void read_parameters(const Line& line, std::size_t position, const SourceLocation& location) {
    if (!points_.empty()) throw InputError(location, "PARAMETER after POINTS");
    const std::size_t count = parameters_.size();
    for (const auto& [word, index] : words(line, position)) {
      if (std::find(parameters_.begin(), parameters_.end(), word) != parameters_.end()) {
        throw InputError(at(file_, line, index), "parameter '" + word + "' declared twice");
      }
      parameters_.push_back(word);
    }
    if (parameters_.size() == count) throw InputError(location, "PARAMETER without a name");
  }

  // POINTS 4 8 | (4) (8) | (4 1000) (8 1000) | ((4) (1000)) ((8) (1000))
  void read_points(const Line& line, std::size_t position, const SourceLocation& location) {
    if (parameters_.empty()) throw InputError(location, "POINTS before any PARAMETER");
    if (region_) throw InputError(location, "POINTS after REGION");
    const std::string_view text = line.text;
    const auto skip_blanks = [&] {
      while (position < text.size() && is_blank(text[position])) ++position;
    };
    const auto number = [&] {
      const std::size_t start = position;
      while (position < text.size() && !is_blank(text[position]) && text[position] != '(' && text[position] != ')') {
        ++position;
      }
      return parse_number(text.substr(start, position - start), at(file_, line, start));
    };
    const auto close = [&](std::size_t open) {
      if (position >= text.size()) throw InputError(at(file_, line, open), "unclosed '('");
      if (text[position] != ')') throw InputError(at(file_, line, position), "expected ')'");
      ++position;
    };
    const std::size_t count = points_.size();
    for (skip_blanks(); position < text.size(); skip_blanks()) {
      const std::size_t start = position;
      std::vector<double> point;
      if (text[position] == ')') throw InputError(at(file_, line, position), "unmatched ')'");
      if (text[position] != '(') {
        point.push_back(number());
      } else {
        for (++position, skip_blanks(); position < text.size() && text[position] != ')'; skip_blanks()) {
          if (text[position] != '(') {
            point.push_back(number());
            continue;
          }
          const std::size_t open = position++;  // Extra-P's nested form: one coordinate in parentheses
          skip_blanks();
          point.push_back(number());
          skip_blanks();
          close(open);
        }
        close(start);
      }
      if (point.size() != parameters_.size()) {
        throw InputError(at(file_, line, start), "expected " + std::to_string(parameters_.size()) + " coordinates (" +
                                                     join(parameters_) + "), found " + std::to_string(point.size()));
      }
      points_.push_back(std::move(point));
    }
    if (points_.size() == count) throw InputError(location, "POINTS without points");
  }

  void read_data(const Line& line, std::size_t position, const SourceLocation& location) {
    if (!region_) throw InputError(location, "DATA before any REGION");
    if (points_.empty()) throw InputError(location, "DATA before any POINTS");
    if (block_->data_lines == points_.size()) {
      throw InputError(location, "more DATA lines than points (" + std::to_string(points_.size()) + ") after " +
                                     block_->description);
    }
    std::vector<double> values;
    for (const auto& [word, index] : words(line, position)) {
      values.push_back(parse_number(word, at(file_, line, index)));
    }
    if (values.empty()) throw InputError(location, "DATA without values");
    const std::size_t series = builder_.series(*region_, metric_, parameters_, block_->opened);
    builder_.add(series, points_[block_->data_lines++], values);
  }

  // A block ends at the next REGION or METRIC (then it may also be empty) or at the end of the input.
  void close_block(bool at_end) {
    if (!block_ || block_->data_lines == points_.size() || (!at_end && block_->data_lines == 0)) return;
    throw InputError(block_->opened, block_->description + " needs one DATA line per point (" +
                                         std::to_string(points_.size()) + "), found " +
                                         std::to_string(block_->data_lines));
  }

  // The blank-separated words of the line from `position` on, with their 0-based positions.
  static std::vector<std::pair<std::string, std::size_t>> words(const Line& line, std::size_t position) {
    std::vector<std::pair<std::string, std::size_t>> result;
    while (true) {
      while (position < line.text.size() && is_blank(line.text[position])) ++position;
      if (position >= line.text.size()) return result;
      const std::size_t start = position;
      while (position < line.text.size() && !is_blank(line.text[position])) ++position;
      result.emplace_back(line.text.substr(start, position - start), start);
    }
  }

  std::string file_;
  DatasetBuilder builder_;
  std::vector<std::string> parameters_;
  std::vector<std::vector<double>> points_;
  std::optional<std::string> region_;
  std::string metric_ = "time";
  std::optional<Block> block_;
};

// ---- JSON Lines ---------------------------------------------------------------------------------

using Json = nlohmann::json;

class JsonLinesReader {
public:
  explicit JsonLinesReader(const std::string& file) : file_(file), builder_(file) {}

  Dataset read(const std::vector<Line>& lines) {
    for (const Line& line : lines) {
      const SourceLocation location = at(file_, line);
      const Json record = parse_line(line);
      if (!record.is_object()) throw InputError(location, "expected a JSON object");
      if (record.contains("augur")) {
        read_header(record, location, &line == &lines.front());
      } else if (record.contains("experiment")) {
        read_experiment(record, location);
      } else if (record.contains("params")) {
        read_extrap(record, location);
      } else {
        throw InputError(location, "a record needs the key 'experiment' (augur) or 'params' (Extra-P)");
      }
    }
    for (const auto& [name, experiment] : experiments_) {
      for (const std::size_t series : experiment.series) builder_.at(series).formula = experiment.formula;
    }
    return builder_.finish();
  }

private:
  struct Experiment {
    std::vector<std::string> variables;
    long line = 0;
    std::string formula;
    long formula_line = 0;
    std::set<std::size_t> series;
  };

  Json parse_line(const Line& line) const {
    try {
      return Json::parse(line.text.begin(), line.text.end());
    } catch (const Json::exception& error) {
      // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." → "syntax error ...";
      // "[json.exception.out_of_range.406] number overflow parsing '1e999'" → "number overflow parsing '1e999'"
      const std::string message = error.what();
      const auto* syntax_error = dynamic_cast<const Json::parse_error*>(&error);
      const std::size_t start = syntax_error ? message.find(": ", message.find(", column ")) : message.find("] ");
      const long column = syntax_error && syntax_error->byte > 0 ? static_cast<long>(syntax_error->byte) : 1;
      throw InputError({file_, line.number, column},
                       "invalid JSON: " + (start == std::string::npos ? message : message.substr(start + 2)));
    }
  }

  static const Json& field(const Json& record, const char* key, const SourceLocation& location) {
    const auto found = record.find(key);
    if (found == record.end()) throw InputError(location, std::string("missing key '") + key + "'");
    return *found;
  }

  // An optional key: absent or null is nullptr.
  static const Json* optional_field(const Json& record, const char* key) {
    const auto found = record.find(key);
    return found == record.end() || found->is_null() ? nullptr : &*found;
  }

  static std::string string_of(const Json& value, const std::string& what, const SourceLocation& location) {
    if (!value.is_string()) throw InputError(location, what + " must be a string");
    return value.get<std::string>();
  }

  static double number_of(const Json& value, const std::string& what, const SourceLocation& location) {
    if (!value.is_number()) throw InputError(location, what + " must be a number");
    const double number = value.get<double>();
    if (!std::isfinite(number)) throw InputError(location, what + " is not finite");
    return number;
  }

  // The names (sorted) and values (in the names' order) of an object of numbers.
  static std::pair<std::vector<std::string>, std::vector<double>> numbers_of(const Json& object, const char* key,
                                                                             const char* item,
                                                                             const SourceLocation& location) {
    if (!object.is_object()) throw InputError(location, std::string("'") + key + "' must be an object");
    std::vector<std::string> names;
    for (const auto& [name, value] : object.items()) names.push_back(name);
    std::sort(names.begin(), names.end());
    std::vector<double> values;
    for (const std::string& name : names) {
      values.push_back(number_of(object[name], item + (" '" + name + "'"), location));
    }
    return {std::move(names), std::move(values)};
  }

  static void check_integer(const Json& record, const char* key, const SourceLocation& location) {
    const Json* value = optional_field(record, key);
    if (value != nullptr && !value->is_number_integer()) {
      throw InputError(location, std::string("'") + key + "' must be an integer");
    }
  }

  void read_header(const Json& record, const SourceLocation& location, bool first) const {
    if (!first) throw InputError(location, "the header {\"augur\": ...} must be the first line");
    const std::string kind = string_of(record["augur"], "'augur'", location);
    if (kind != "experiments") {
      throw InputError(location, "unknown header 'augur': '" + kind + "' (expected 'experiments')");
    }
    const Json& version = field(record, "version", location);
    if (!version.is_number_integer()) throw InputError(location, "'version' must be an integer");
    if (version.get<long long>() != 1) {
      throw InputError(location, "augur experiments version " + std::to_string(version.get<long long>()) +
                                     " is not supported (expected 1)");
    }
  }

  // {"experiment":"fft","formula":"...","variables":{"N":1024,"P":4},"time":0.0123,"rank":0,"ranks":4,
  //  "threads":1,"counters":{"PAPI_TOT_CYC":123}}
  void read_experiment(const Json& record, const SourceLocation& location) {
    const std::string name = string_of(record["experiment"], "'experiment'", location);
    auto [variables, point] = numbers_of(field(record, "variables", location), "variables", "variable", location);
    const double time = number_of(field(record, "time", location), "'time'", location);
    for (const char* key : {"rank", "ranks", "threads"}) check_integer(record, key, location);
    std::vector<std::pair<std::string, double>> counters;
    if (const Json* object = optional_field(record, "counters")) {
      auto [names, values] = numbers_of(*object, "counters", "counter", location);
      for (std::size_t index = 0; index < names.size(); ++index) counters.emplace_back(names[index], values[index]);
      if (object->contains("time")) throw InputError(location, "counter 'time' would be taken for the metric 'time'");
    }
    Experiment& experiment =
        experiments_.try_emplace(name, Experiment{variables, location.line, {}, 0, {}}).first->second;
    if (experiment.variables != variables) {
      throw InputError(location, "variables (" + join(variables) + ") differ from (" + join(experiment.variables) +
                                     ") of experiment '" + name + "' at line " + std::to_string(experiment.line));
    }
    if (const Json* formula_value = optional_field(record, "formula")) {
      const std::string formula = string_of(*formula_value, "'formula'", location);
      if (experiment.formula.empty()) {
        experiment.formula = formula;
        experiment.formula_line = location.line;
      } else if (formula != experiment.formula) {
        throw InputError(location, "formula '" + formula + "' differs from '" + experiment.formula +
                                       "' of experiment '" + name + "' at line " +
                                       std::to_string(experiment.formula_line));
      }
    }
    counters.insert(counters.begin(), {"time", time});
    for (const auto& [metric, value] : counters) {
      const std::size_t series = builder_.series(name, metric, variables, location);
      builder_.add(series, point, {value});
      experiment.series.insert(series);
    }
  }

  // {"params":{"p":4,"n":10},"value":1.5 or [1.5,1.6],"callpath":"main","metric":"time"}
  void read_extrap(const Json& record, const SourceLocation& location) {
    auto [parameters, point] = numbers_of(record["params"], "params", "parameter", location);
    const Json& value = field(record, "value", location);
    std::vector<double> values;
    if (value.is_array()) {
      for (const Json& item : value) values.push_back(number_of(item, "'value'", location));
      if (values.empty()) throw InputError(location, "'value' must not be an empty array");
    } else {
      if (!value.is_number()) throw InputError(location, "'value' must be a number or an array of numbers");
      values.push_back(number_of(value, "'value'", location));
    }
    const Json* callpath = optional_field(record, "callpath");
    const Json* metric = optional_field(record, "metric");
    const std::string region = callpath ? string_of(*callpath, "'callpath'", location) : "main";
    const std::string metric_name = metric ? string_of(*metric, "'metric'", location) : "time";
    builder_.add(builder_.series(region, metric_name, parameters, location), std::move(point), values);
  }

  std::string file_;
  DatasetBuilder builder_;
  std::map<std::string, Experiment> experiments_;
};

InputFormat detect(const std::vector<Line>& lines) {
  if (lines.empty()) return InputFormat::Csv;
  const std::string_view first = trim(lines.front().text);
  const std::string_view word = first.substr(0, std::min(first.find_first_of(" \t"), first.size()));
  if (word == "PARAMETER") return InputFormat::ExtraPText;
  if (first.front() == '{') return InputFormat::JsonLines;
  return InputFormat::Csv;
}

}  // namespace

Dataset parse_dataset(const std::string& file, const std::string& text, const ReadOptions& options) {
  const std::vector<Line> lines = significant_lines(text);
  switch (options.format == InputFormat::Automatic ? detect(lines) : options.format) {
    case InputFormat::Automatic:
    case InputFormat::Csv:
      return parse_csv(file, lines, options);
    case InputFormat::ExtraPText:
      return ExtraPTextReader(file).read(lines);
    case InputFormat::JsonLines:
      return JsonLinesReader(file).read(lines);
  }
  throw std::logic_error("unknown input format");
}

Dataset read_dataset(const std::string& path, const ReadOptions& options) {
  return parse_dataset(path, core::read_file(path), options);
}

double aggregate(const std::vector<double>& values, Aggregate how) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  switch (how) {
    case Aggregate::Mean:
      return core::mean(values);
    case Aggregate::Median:
      return core::median(values);
    case Aggregate::Minimum:
      return *std::min_element(values.begin(), values.end());
    case Aggregate::Maximum:
      return *std::max_element(values.begin(), values.end());
  }
  throw std::logic_error("unknown aggregate");
}

Aggregate parse_aggregate(const std::string& name) {
  if (name == "mean") return Aggregate::Mean;
  if (name == "median") return Aggregate::Median;
  if (name == "min") return Aggregate::Minimum;
  if (name == "max") return Aggregate::Maximum;
  throw std::invalid_argument("unknown aggregate '" + name + "' (expected mean, median, min or max)");
}

}  // namespace augur::model
