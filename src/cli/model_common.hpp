// What augur fit, predict and plot share: the data and modeling options, loading, fitting every
// selected series, and the words and numbers they print.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/holdout.hpp"
#include "model/model.hpp"

namespace augur::cli {

struct ModelCommandOptions {
  std::string data;
  std::string format = "auto";
  std::string value_column;
  std::string parameter_columns;  // comma-separated
  std::string region;             // empty: every region
  std::string metric;             // empty: every metric
  std::string formula;
  std::vector<std::string> variables;  // "q=N/P"
  std::string aggregate = "mean";
  std::string segments = "1";
  std::string segment_by;
  bool relative = false;
  bool nonnegative = false;
  int max_terms = 3;
  std::string negative = "auto";
  bool json = false;
  bool csv = false;  // fit, predict: --csv (declared by each)
  bool progress = false;  // --progress: progress lines on stderr even when it is not a terminal
  bool quiet = false;     // -q: no progress
  // --exclude: points left out of the fit ("N=4194304", "N=1024,P=4"): a measurement is left out when
  // its parameters have every value one of these gives. Left-out points are kept in FittedSeries::held_out.
  std::vector<std::string> exclude;
};

// Declares the options every modeling command takes.
void add_model_options(CLI::App& command, ModelCommandOptions& options);

using model::FittedSeries;

// Reads the data and models each selected series. Throws core::InputError / std::runtime_error for
// bad input (the data file, an option); a series that cannot be modeled gets its `error` instead.
// `label` ("augur fit") names the progress bar over the series, drawn on a terminal when the fits take a while.
// Ctrl-C is caught from the start: the search stops at its next hypothesis and Interrupted is thrown
// (report_error prints "augur fit: interrupted" and returns 130); nothing has been printed or written then.
[[nodiscard]] std::vector<FittedSeries> fit_all(const ModelCommandOptions& options, const std::string& label);

// "%.4g" and friends.
[[nodiscard]] std::string significant(double value, int digits = 4);

// The model's parameter ranges in a segment: "N 1024..65536, P 1..4".
[[nodiscard]] std::string segment_bounds(const model::SeriesModel& model, const model::Segment& segment);

// JSON of one fitted series: region, metric, formula, python, constants, segments, quality.
[[nodiscard]] nlohmann::json series_json(const model::SeriesModel& model);


}  // namespace augur::cli
