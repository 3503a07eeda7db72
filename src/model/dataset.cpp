#include "model/dataset.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

#include "augur/core/stats.hpp"
#include "core/files.hpp"
#include "dataset_readers.hpp"

namespace augur::model {
namespace {

using namespace readers;
using core::significant_lines;

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

// The names of the header's columns: not empty, each once, not all numbers (a header, not a first row).
std::vector<std::string> column_names(const std::string& file, const Line& header_line, const std::vector<Cell>& header) {
  std::vector<std::string> names;
  bool only_numbers = true;
  for (const Cell& cell : header) {
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
  if (only_numbers) throw InputError(at(file, header_line), "expected a header row of column names, found numbers");
  return names;
}

Dataset parse_csv(const std::string& file, const std::vector<Line>& lines, const ReadOptions& options) {
  DatasetBuilder builder(file);
  if (lines.empty()) return builder.finish();
  const Line& header_line = lines.front();
  const SourceLocation header_location = at(file, header_line);
  const std::vector<Cell> header = split_csv(file, header_line);
  const std::vector<std::string> names = column_names(file, header_line, header);

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
  for (const std::size_t column : parameter_columns) {
    check_parameter_name(names[column], at(file, header_line, header[column].index), "column");
    parameters.push_back(names[column]);
  }

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
      check_parameter_name(word, at(file_, line, index), "the name");
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
      return parse_json_lines(file, lines);
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
