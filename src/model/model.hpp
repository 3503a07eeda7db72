// The modeling engine: a series of measurements → a fitted formula (given, recorded with the data, or
// found by the search), its constants with standard errors, its intervals of validity, predictions.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/dataset.hpp"
#include "model/fit.hpp"
#include "model/formula.hpp"
#include "model/search.hpp"
#include "model/segment.hpp"

namespace augur::model {

struct DerivedVariable {
  std::string name;        // e.g. "q"
  std::string expression;  // of the parameters, e.g. "N/P"
};

struct ModelOptions {
  std::string formula;         // empty: the formula recorded with the series, else the search
  std::string formula_origin;  // what an error in `formula` is reported under ("--formula")
  std::vector<DerivedVariable> derived;  // variables the formula or the search may use besides the parameters
  Aggregate aggregate = Aggregate::Mean;
  FitOptions fit;
  SearchOptions search;
  int segments = 1;                // 0: automatic (BIC)
  std::string segment_parameter;   // empty: any parameter
};

// A competitive hypothesis of the search besides the chosen formula (see SearchResult::alternatives).
struct AlternativeModel {
  Formula formula;
  LinearFit fit;
  Eigen::MatrixXd design;  // its terms at the measured points
};

struct SeriesModel {
  std::string region;
  std::string metric;
  std::vector<std::string> parameters;
  std::vector<DerivedVariable> derived;
  Formula formula;         // with a search per segment (--segments without a formula): the first segment's
  // A search per segment: segment i's own formula (empty when every segment has `formula`).
  std::vector<Formula> pieces;
  bool searched = false;   // the formula was found by the search
  int hypotheses = 0;      // how many the search fitted
  // The search's other competitive hypotheses (unsegmented models only): prediction intervals span theirs.
  std::vector<AlternativeModel> alternatives;
  std::vector<std::string> notes;  // what the search said about the variables (values ≤ 0)
  Eigen::MatrixXd design;          // the formula's terms at the measured points (searched models)
  Segmentation segmentation;
  std::vector<std::vector<double>> points;  // the measured points
  std::vector<double> values;               // their aggregated values
  std::vector<double> spread;               // relative standard deviation of each point's repetitions (0 for one)
  std::vector<double> minimum;              // the smallest and largest repetition of each point
  std::vector<double> maximum;
  std::vector<double> fitted;               // the model at each point (its segment's constants)
  double rss = 0.0;                         // over all points and segments
  double smape = 0.0;
  double loo_smape = 0.0;
  double r2 = 0.0;
  double adjusted_r2 = 0.0;                 // with every segment's constants and change points counted
};

// The formula of segment `index`: its own when each segment has its own searched formula, else model.formula.
[[nodiscard]] const Formula& segment_formula(const SeriesModel& model, std::size_t index);

// The formula with its constant names; with a search per segment, the segments' formulas joined by "; ".
[[nodiscard]] std::string symbolic_text(const SeriesModel& model);

// Segment `index`'s formula with the constants put in, in Python syntax over the parameters only (derived
// variables written out).
[[nodiscard]] std::string python_text(const SeriesModel& model, const std::vector<double>& constants, std::size_t index = 0);

// The whole model in Python over the parameters: python_text of its one segment, or for several segments
// a conditional expression choosing each segment's constants where segment_for would (the cut between
// neighbouring segments halfway in log scale).
[[nodiscard]] std::string piecewise_python_text(const SeriesModel& model);

// Throws core::InputError for a bad formula (at its place) or a formula variable the data lacks, and
// std::invalid_argument for data the method cannot fit (too few points for the constants, ...).
[[nodiscard]] SeriesModel build_model(const Series& series, const ModelOptions& options);

struct Prediction {
  Interval interval;       // value with its prediction interval
  std::size_t segment = 0; // which segment's constants were used
};

// `point` in the order of model.parameters. An InputError (under `origin`) when a term is not defined there.
// For a searched model of one segment the interval spans the prediction intervals of the competitive
// hypotheses too (those defined at the point), so that it accounts for the choice of the formula, and
// without --relative each is predict_with_robust_interval's (noise that grows with the value).
[[nodiscard]] Prediction predict(const SeriesModel& model, const std::vector<double>& point, double confidence = 0.95,
                                 const std::string& origin = "--at");

}  // namespace augur::model
