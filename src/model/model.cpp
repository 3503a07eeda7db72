#include "model/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "augur/core/stats.hpp"
#include "model/segment_search.hpp"

namespace augur::model {
namespace {

const core::Expression* find_name(const core::Expression& node, const std::string& name) {
  if (node.kind == core::Expression::Kind::Name && node.name == name) return &node;
  for (const auto& operand : node.operands) {
    if (const core::Expression* found = find_name(*operand, name)) return found;
  }
  return nullptr;
}

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

// The parameters and derived variables at a point.
core::Bindings bind_point(const std::vector<std::string>& parameters, const std::vector<DerivedVariable>& derived,
                    const std::vector<double>& point) {
  core::Bindings bindings;
  for (std::size_t p = 0; p < parameters.size(); ++p) bindings[parameters[p]] = point[p];
  for (const DerivedVariable& variable : derived) {
    const core::SourceText source("--variable " + variable.name, variable.expression);
    bindings[variable.name] = core::evaluate(*core::parse_expression(source), bindings, source);
  }
  return bindings;
}

std::string point_text(const std::vector<std::string>& parameters, const std::vector<double>& point) {
  std::string text;
  for (std::size_t p = 0; p < parameters.size(); ++p) {
    text += (text.empty() ? "" : ",") + parameters[p] + "=" + core::format_shortest(point[p]);
  }
  return text;
}

Eigen::RowVectorXd design_row(const Formula& formula, const core::Bindings& bindings) {
  Eigen::RowVectorXd row(static_cast<Eigen::Index>(formula.terms().size()));
  for (std::size_t term = 0; term < formula.terms().size(); ++term) row(static_cast<Eigen::Index>(term)) = formula.regressor(term, bindings);
  return row;
}

// Where segment `index` ends along each parameter: halfway in log scale to the neighbouring segments,
// the rule of model::segment_for, written as a Python condition ("" when it is unbounded).
std::string python_condition(const SeriesModel& model, std::size_t index) {
  const auto& segments = model.segmentation.segments;
  const Segment& segment = segments[index];
  std::string condition;
  for (std::size_t p = 0; p < model.parameters.size(); ++p) {
    double below = -std::numeric_limits<double>::infinity();
    double above = std::numeric_limits<double>::infinity();
    for (const Segment& other : segments) {
      if (other.upper[p] < segment.lower[p]) below = std::max(below, other.upper[p]);
      if (other.lower[p] > segment.upper[p]) above = std::min(above, other.lower[p]);
    }
    auto cut = [](double a, double b) { return a > 0 && b > 0 ? std::sqrt(a * b) : (a + b) / 2.0; };
    if (std::isfinite(below)) condition += std::string(condition.empty() ? "" : " and ") + model.parameters[p] + " >= " + core::format_shortest(cut(below, segment.lower[p]));
    if (std::isfinite(above)) condition += std::string(condition.empty() ? "" : " and ") + model.parameters[p] + " < " + core::format_shortest(cut(segment.upper[p], above));
  }
  return condition;
}



// The whole model: each point by its segment's constants (and formula); RSS, R², SMAPE over all points.
void finish(SeriesModel& model, const Eigen::VectorXd& values) {
  const Eigen::Index rows = values.size();
  model.fitted.assign(static_cast<std::size_t>(rows), 0.0);
  std::vector<double> loo(static_cast<std::size_t>(rows), 0.0);
  double used = 0.0;
  for (const Segment& segment : model.segmentation.segments) {
    used += segment.fit.free_constants;
    for (std::size_t j = 0; j < segment.members.size(); ++j) {
      model.fitted[static_cast<std::size_t>(segment.members[j])] = segment.fit.fitted(static_cast<Eigen::Index>(j));
      loo[static_cast<std::size_t>(segment.members[j])] = segment.fit.loo_predictions(static_cast<Eigen::Index>(j));
    }
  }
  used += static_cast<double>(model.segmentation.segments.size()) - 1.0;
  const Eigen::Map<const Eigen::VectorXd> fitted(model.fitted.data(), rows);
  const Eigen::Map<const Eigen::VectorXd> left_out(loo.data(), rows);
  model.rss = (values - fitted).squaredNorm();
  const double total = (values.array() - values.mean()).square().sum();
  model.smape = smape(values, fitted);
  model.loo_smape = smape(values, left_out);
  const double n = static_cast<double>(rows);
  model.r2 = total > 0 ? 1.0 - model.rss / total : (model.rss == 0 ? 1.0 : 0.0);
  model.adjusted_r2 = n > used ? 1.0 - (1.0 - model.r2) * (n - 1.0) / (n - used) : std::nan("");
}

// The searched formula: one search on all the points, or with --segments one per segment (search_segments).
void search_formula(SeriesModel& model, const Eigen::VectorXd& values, const std::vector<core::Bindings>& bindings,
                    const Eigen::MatrixXd& parameters, const SegmentOptions& segmenting, const ModelOptions& options) {
  const Eigen::Index rows = values.size();
  std::vector<SearchVariable> variables;
  for (std::size_t p = 0; p < model.parameters.size(); ++p) {
    SearchVariable variable{model.parameters[p], Eigen::VectorXd(rows), true};
    for (Eigen::Index i = 0; i < rows; ++i) variable.values(i) = model.points[static_cast<std::size_t>(i)][p];
    variables.push_back(std::move(variable));
  }
  for (const DerivedVariable& derived : model.derived) {
    SearchVariable variable{"(" + derived.expression + ")", Eigen::VectorXd(rows), false};
    for (Eigen::Index i = 0; i < rows; ++i) variable.values(i) = bindings[static_cast<std::size_t>(i)].at(derived.name);
    variables.push_back(std::move(variable));
  }
  SearchOptions search = options.search;
  search.fit = options.fit;
  model.searched = true;
  std::vector<SearchResult> found;
  if (options.segments == 1) {
    found.push_back(search_model(variables, values, search));
  } else {
    SegmentedSearch split = search_segments(variables, values, parameters, segmenting, search);
    model.segmentation = std::move(split.segmentation);
    found = std::move(split.found);
    model.hypotheses = split.hypotheses;
  }
  if (options.segments == 1) model.hypotheses = found.front().hypotheses;
  for (const SearchResult& piece : found) {
    for (const std::string& note : piece.notes) {
      if (std::find(model.notes.begin(), model.notes.end(), note) == model.notes.end()) model.notes.push_back(note);
    }
    if (found.size() > 1) model.pieces.push_back(Formula::from_factors(piece.factors, "c"));
  }
  model.formula = Formula::from_factors(found.front().factors, "c");
  if (found.size() > 1) return;
  for (const Hypothesis& other : found.front().alternatives) {
    AlternativeModel alternative{Formula::from_factors(other.factors, "c"), other.fit, Eigen::MatrixXd(rows, static_cast<Eigen::Index>(other.factors.size()))};
    for (Eigen::Index i = 0; i < rows; ++i) alternative.design.row(i) = design_row(alternative.formula, bindings[static_cast<std::size_t>(i)]);
    model.alternatives.push_back(std::move(alternative));
  }
}

// The points, values and spreads of the series' measurements (the repetitions aggregated).
void add_measurements(SeriesModel& model, const Series& series, Aggregate how) {
  for (const Measurement& measurement : series.measurements) {
    model.points.push_back(measurement.point);
    const double value = aggregate(measurement.values, how);
    model.values.push_back(value);
    double spread = 0.0;
    if (measurement.values.size() > 1) {
      const double average = core::mean(measurement.values);
      double sum = 0.0;
      for (double repetition : measurement.values) sum += (repetition - average) * (repetition - average);
      spread = average != 0 ? std::sqrt(sum / static_cast<double>(measurement.values.size() - 1)) / std::fabs(average) : 0.0;
    }
    model.spread.push_back(spread);
    model.minimum.push_back(*std::min_element(measurement.values.begin(), measurement.values.end()));
    model.maximum.push_back(*std::max_element(measurement.values.begin(), measurement.values.end()));
  }
}

// The formula given (`--formula`, or the series' own), its variables checked against the data's.
void read_formula(SeriesModel& model, const Series& series, const ModelOptions& options, const std::string& formula_text) {
  const std::string origin = !options.formula.empty()
                                 ? (options.formula_origin.empty() ? std::string("--formula") : options.formula_origin)
                                 : series.origin.file + ": the formula of " + series.region;
  model.formula = Formula::parse(core::SourceText(origin, formula_text));
  std::vector<std::string> known = model.parameters;
  for (const DerivedVariable& variable : model.derived) known.push_back(variable.name);
  for (const std::string& name : model.formula.variables()) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    for (const FormulaTerm& term : model.formula.terms()) {
      if (const core::Expression* node = term.factor ? find_name(*term.factor, name) : nullptr) {
        term.source->fail(node->offset, "unknown variable '" + name + "' (the data of " + series.region + " has " + join(known) + ")");
      }
    }
  }
}

// The design matrix of the formula's terms at the measured points.
Eigen::MatrixXd design_matrix(const SeriesModel& model, const std::vector<core::Bindings>& bindings) {
  const Eigen::Index rows = static_cast<Eigen::Index>(model.points.size());
  const Eigen::Index constants = static_cast<Eigen::Index>(model.formula.terms().size());
  Eigen::MatrixXd design(rows, constants);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const auto& point = model.points[static_cast<std::size_t>(i)];
    try {
      design.row(i) = design_row(model.formula, bindings[static_cast<std::size_t>(i)]);
    } catch (const core::InputError& error) {
      throw core::InputError(error.location(), error.message() + " at the measured point " + point_text(model.parameters, point));
    }
  }
  return design;
}

}  // namespace

SeriesModel build_model(const Series& series, const ModelOptions& options) {
  SeriesModel model;
  model.region = series.region;
  model.metric = series.metric;
  model.parameters = series.parameters;
  model.derived = options.derived;
  for (const DerivedVariable& variable : options.derived) {
    if (std::find(series.parameters.begin(), series.parameters.end(), variable.name) != series.parameters.end()) {
      throw core::InputError({"--variable " + variable.name, 0, 0}, "'" + variable.name + "' is already a parameter of the data");
    }
  }
  add_measurements(model, series, options.aggregate);
  const Eigen::Index rows = static_cast<Eigen::Index>(model.points.size());
  if (rows == 0) throw std::invalid_argument("no measured points");
  const Eigen::VectorXd values = Eigen::Map<const Eigen::VectorXd>(model.values.data(), rows);
  std::vector<core::Bindings> bindings;
  for (const auto& point : model.points) bindings.push_back(bind_point(model.parameters, model.derived, point));

  Eigen::MatrixXd parameters(rows, static_cast<Eigen::Index>(model.parameters.size()));
  for (Eigen::Index i = 0; i < rows; ++i) {
    for (std::size_t p = 0; p < model.parameters.size(); ++p) parameters(i, static_cast<Eigen::Index>(p)) = model.points[static_cast<std::size_t>(i)][p];
  }
  SegmentOptions segmenting;
  segmenting.segments = options.segments;
  segmenting.fit = options.fit;
  if (!options.segment_parameter.empty()) {
    const auto found = std::find(model.parameters.begin(), model.parameters.end(), options.segment_parameter);
    if (found == model.parameters.end()) {
      throw core::InputError({"--segment-by", 0, 0}, "unknown parameter '" + options.segment_parameter + "' (the data has " + join(model.parameters) + ")");
    }
    segmenting.parameter = static_cast<int>(found - model.parameters.begin());
  }
  const std::string formula_text = !options.formula.empty() ? options.formula : series.formula;
  if (!formula_text.empty()) {
    read_formula(model, series, options, formula_text);
  } else {
    search_formula(model, values, bindings, parameters, segmenting, options);
  }
  const bool split_by_search = model.searched && options.segments != 1;
  if (split_by_search && model.segmentation.segments.size() > 1) {
    finish(model, values);
    return model;
  }

  const Eigen::Index constants = static_cast<Eigen::Index>(model.formula.terms().size());
  if (rows < constants) {
    throw std::invalid_argument(std::to_string(rows) + " measured points cannot determine the " + std::to_string(constants) +
                                " constants of " + model.formula.text());
  }
  const Eigen::MatrixXd design = design_matrix(model, bindings);
  if (!split_by_search) model.segmentation = segment_fit(design, values, parameters, segmenting);
  if (model.searched) model.design = design;
  if (model.segmentation.segments.size() == 1 && !model.segmentation.segments.front().fit.full_rank()) {
    if (options.fit.relative && fit_linear(design, values).full_rank()) {  // independent, but not as weighted
      throw core::InputError(series.origin, "the terms of " + model.formula.text() + " cannot be told apart by a relative fit: " +
                                                "its weights 1/y² of the values measured (from " + core::format_shortest(values.cwiseAbs().minCoeff()) +
                                                " to " + core::format_shortest(values.cwiseAbs().maxCoeff()) +
                                                ") differ by more than double precision holds; fit without --relative");
    }
    throw std::invalid_argument("the terms of " + model.formula.text() + " are linearly dependent on the measured points: " +
                                "their constants cannot be told apart");
  }

  finish(model, values);
  return model;
}

const Formula& segment_formula(const SeriesModel& model, std::size_t index) {
  return index < model.pieces.size() ? model.pieces[index] : model.formula;
}

std::string symbolic_text(const SeriesModel& model) {
  if (model.pieces.empty()) return model.formula.text();
  std::string text;
  for (const Formula& piece : model.pieces) text += (text.empty() ? "" : "; ") + piece.text();
  return text;
}

std::string python_text(const SeriesModel& model, const std::vector<double>& constants, std::size_t index) {
  std::vector<std::pair<std::string, std::string>> replacements;
  for (const DerivedVariable& variable : model.derived) replacements.emplace_back(variable.name, variable.expression);
  const Formula& formula = segment_formula(model, index);
  if (replacements.empty()) return formula.with_values(constants, core::ExpressionStyle::Python);
  return formula.substituted(replacements).with_values(constants, core::ExpressionStyle::Python);
}

std::string piecewise_python_text(const SeriesModel& model) {
  const auto& segments = model.segmentation.segments;
  const auto constants_of = [](const Segment& segment) {
    return std::vector<double>(segment.fit.constants.data(), segment.fit.constants.data() + segment.fit.constants.size());
  };
  if (segments.size() == 1) return python_text(model, constants_of(segments[0]));
  std::string python;
  for (std::size_t index = 0; index < segments.size(); ++index) {
    const std::string piece = python_text(model, constants_of(segments[index]), index);
    python += index + 1 < segments.size() ? "(" + piece + ") if " + python_condition(model, index) + " else " : "(" + piece + ")";
  }
  return python;
}

Prediction predict(const SeriesModel& model, const std::vector<double>& point, double confidence, const std::string& origin) {
  if (point.size() != model.parameters.size()) {
    throw core::InputError({origin, 0, 0}, "the model of " + model.region + " needs values for " + join(model.parameters));
  }
  Prediction prediction;
  prediction.segment = segment_for(model.segmentation, point);
  Eigen::RowVectorXd row;
  try {
    row = design_row(segment_formula(model, prediction.segment), bind_point(model.parameters, model.derived, point));
  } catch (const core::InputError& error) {
    throw core::InputError({origin, 0, 0}, "the model of " + model.region + " is not defined at " +
                                                point_text(model.parameters, point) + ": " + error.message());
  }
  const LinearFit& fit = model.segmentation.segments[prediction.segment].fit;
  const bool single = model.segmentation.segments.size() == 1;
  const bool robust = model.searched && single && !fit.relative;
  const Eigen::Map<const Eigen::VectorXd> values(model.values.data(), static_cast<Eigen::Index>(model.values.size()));
  prediction.interval = robust ? predict_with_robust_interval(fit, model.design, values, row.transpose(), confidence)
                               : predict_with_interval(fit, row.transpose(), confidence);
  if (single && std::isfinite(prediction.interval.lower) && std::isfinite(prediction.interval.upper)) {
    const core::Bindings bindings = bind_point(model.parameters, model.derived, point);
    for (const AlternativeModel& other : model.alternatives) {
      Interval interval;
      try {
        const Eigen::VectorXd other_row = design_row(other.formula, bindings).transpose();
        interval = robust ? predict_with_robust_interval(other.fit, other.design, values, other_row, confidence)
                          : predict_with_interval(other.fit, other_row, confidence);
      } catch (const core::InputError&) {
        continue;  // not defined at this point
      }
      if (!std::isfinite(interval.lower) || !std::isfinite(interval.upper)) continue;
      prediction.interval.lower = std::min(prediction.interval.lower, interval.lower);
      prediction.interval.upper = std::max(prediction.interval.upper, interval.upper);
    }
  }
  return prediction;
}

}  // namespace augur::model
