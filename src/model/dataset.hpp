// Measurements to model: one series per (region, metric), each point with its repetitions.
//
// Three input formats (docs/formats.md): CSV (one column per parameter, a value column, repetitions as
// repeated rows), Extra-P's text format (PARAMETER / POINTS / REGION / METRIC / DATA) and JSON Lines
// (augur's experiment records, and Extra-P's JSON Lines measurements). Errors are core::InputError at
// the file, line and column at fault.
#pragma once

#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"

namespace augur::model {

// One measured point: the parameter values (in the series' parameter order) and the repetitions.
struct Measurement {
  std::vector<double> point;
  std::vector<double> values;  // at least one
};

// The measurements of one region (code region, call path, experiment) and one metric.
struct Series {
  std::string region;
  std::string metric;
  std::vector<std::string> parameters;  // names, in the order of Measurement::point
  std::vector<Measurement> measurements;  // distinct points, in the order first seen
  std::string formula;  // the complexity formula recorded with the data (experiment records); may be empty
  core::SourceLocation origin;  // where the series starts in its file (for messages)
};

struct Dataset {
  std::string file;
  std::vector<Series> series;  // in the order first seen
};

enum class InputFormat { Automatic, Csv, ExtraPText, JsonLines };

struct ReadOptions {
  InputFormat format = InputFormat::Automatic;
  // CSV: the column holding the measured values. Empty: a column named "value" or "time" (in that
  // order of preference, case-insensitive), else the last column.
  std::string value_column;
  // CSV: columns to use as parameters. Empty: every column that is not the value, "region", "metric"
  // or "repetition" column.
  std::vector<std::string> parameter_columns;
};

// Detects the format (unless given): a first significant line starting with PARAMETER is Extra-P text,
// one starting with '{' is JSON Lines, anything else CSV. Empty input, a file without data, a
// non-numeric or non-finite value, a point with the wrong number of coordinates are InputErrors.
[[nodiscard]] Dataset parse_dataset(const std::string& file, const std::string& text, const ReadOptions& options = {});

// Reads the file (std::runtime_error naming it when it cannot) and parses it.
[[nodiscard]] Dataset read_dataset(const std::string& path, const ReadOptions& options = {});

enum class Aggregate { Mean, Median, Minimum, Maximum };

// The value of a point by the chosen aggregate of its repetitions.
[[nodiscard]] double aggregate(const std::vector<double>& values, Aggregate how);

// "mean", "median", "min", "max"; std::invalid_argument otherwise.
[[nodiscard]] Aggregate parse_aggregate(const std::string& name);

}  // namespace augur::model
