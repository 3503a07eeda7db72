// Pages of augur fit --json and augur predict --json: the model with its measurements, its segments and
// intervals of validity, the extrapolation region shaded; predictions with their intervals.
#include <algorithm>
#include <cmath>
#include <map>

#include "augur/core/expression.hpp"
#include "builders.hpp"
#include "model_chart.hpp"
#include "report/svg.hpp"

namespace augur::report {

// The bounds of every parameter over all segments of a model.
std::map<std::string, Bound> bounds_of(const View& segments) {
  std::map<std::string, Bound> bounds;
  for (std::size_t index = 0; index < segments.size(); ++index) {
    const auto segment_bounds = segments[index].find("bounds");
    if (!segment_bounds) continue;
    for (const auto& [name, pair] : segment_bounds->json().items()) {
      const View range = (*segment_bounds)[name];
      Bound& bound = bounds[name];
      bound.low = std::min(bound.low, range[0].number());
      bound.high = std::max(bound.high, range[1].number());
    }
  }
  return bounds;
}

namespace {

// The parameter a chart runs along: the one whose bounds span most (by ratio when positive).
std::string varied_parameter(const std::map<std::string, Bound>& bounds) {
  std::string best;
  double best_span = -1;
  for (const auto& [name, bound] : bounds) {
    const double span = bound.low > 0 ? std::log(bound.high / bound.low) : bound.high - bound.low;
    if (span > best_span) {
      best_span = span;
      best = name;
    }
  }
  return best;
}

// A formula of a segment evaluated at x (the other parameters fixed); NaN where it cannot be.
class Curve {
 public:
  Curve(const View& model, const View& segment) {
    // The symbolic formula with the segment's constants; else the segment's formula with its numbers in.
    if (const auto symbolic = model.find("symbolic"); symbolic && segment.find("constants")) {
      const View constants = segment["constants"];
      for (std::size_t index = 0; index < constants.size(); ++index) {
        bindings_[constants[index]["name"].text()] = constants[index]["value"].number();
      }
      if (try_parse(symbolic->text())) return;
    }
    bindings_.clear();
    try_parse(segment["formula"].text());
  }
  double operator()(core::Bindings parameters) const {
    if (!expression_) return NAN;
    parameters.insert(bindings_.begin(), bindings_.end());
    try {
      return core::evaluate(*expression_, parameters, *source_);
    } catch (const core::InputError&) {
      return NAN;  // outside the formula's domain (log of 0, ...): a gap in the line
    }
  }

 private:
  bool try_parse(const std::string& text) {
    try {
      source_ = std::make_unique<core::SourceText>("formula", text);
      expression_ = core::parse_expression(*source_);
      return true;
    } catch (const core::InputError&) {
      expression_.reset();
      return false;
    }
  }
  core::Bindings bindings_;
  std::unique_ptr<core::SourceText> source_;
  std::unique_ptr<core::Expression> expression_;
};

std::string bounds_text(const std::map<std::string, Bound>& bounds) {
  std::string text;
  for (const auto& [name, bound] : bounds) {
    text += (text.empty() ? "" : ", ") + name +
            (bound.low == bound.high ? " = " + format_number(bound.low, 7)
                                     : " in [" + format_number(bound.low, 7) + ", " + format_number(bound.high, 7) + "]");
  }
  return text;
}

}  // namespace

// The measurements the command attached ("measurements": the data file's series), at the fixed values of the
// other parameters: mean with the range of repetitions.
Series measured_series(const View& fit, const View& model, const std::string& varied, const core::Bindings& fixed) {
  Series series{"measurements (mean, range of repetitions)", {}, Mark::error_bars, 1, false};
  const auto all = fit.find("measurements");
  if (!all) return series;
  for (std::size_t index = 0; index < all->size(); ++index) {
    const View one = (*all)[index];
    if (one.text_or("region", "") != model.text_or("region", "") || one.text_or("metric", "") != model.text_or("metric", "")) continue;
    const View parameters = one["parameters"], points = one["points"];
    for (std::size_t at = 0; at < points.size(); ++at) {
      const View point = points[at];
      double x = NAN;
      bool matches = true;
      for (std::size_t k = 0; k < parameters.size(); ++k) {
        const std::string name = parameters[k].text();
        const double value = point["at"][k].number();
        if (name == varied) {
          x = value;
        } else if (const auto found = fixed.find(name); found != fixed.end() && found->second != value) {
          matches = false;
        }
      }
      const View values = point["values"];
      if (!matches || std::isnan(x) || values.size() == 0) continue;
      double sum = 0, low = INFINITY, high = -INFINITY;
      for (std::size_t k = 0; k < values.size(); ++k) {
        const double value = values[k].number();
        sum += value;
        low = std::min(low, value);
        high = std::max(high, value);
      }
      series.points.push_back({x, sum / static_cast<double>(values.size()), low, high});
    }
  }
  return series;
}

std::optional<ModelAxis> model_axis(const std::map<std::string, Bound>& bounds) {
  ModelAxis axis;
  axis.varied = varied_parameter(bounds);
  if (axis.varied.empty()) return std::nullopt;
  axis.range = bounds.at(axis.varied);
  for (const auto& [name, bound] : bounds) {
    if (name == axis.varied) continue;
    axis.fixed[name] = bound.high;
    axis.fixed_text += (axis.fixed_text.empty() ? "" : ", ") + name + " = " + format_number(bound.high, 7);
  }
  return axis;
}

bool logarithmic_range(const Bound& range) {
  return range.low > 0 && range.high / range.low >= 8;
}

double extrapolated_end(const Bound& range) {
  return logarithmic_range(range) ? range.high * 4 : range.high + (range.high - range.low) * 0.5 + (range.high == range.low);
}

std::vector<Series> segment_series(const View& model, const ModelAxis& axis, double end, bool logarithmic, int color) {
  std::vector<Series> pieces;
  const std::string& varied = axis.varied;
  const View segments = model["segments"];
  for (std::size_t index = 0; index < segments.size(); ++index) {
    const View segment = segments[index];
    const Curve curve(model, segment);
    double from = axis.range.low, to = end;
    if (const auto own = segment.find("bounds"); own && own->has(varied)) {
      from = (*own)[varied][0].number();
      if (index + 1 < segments.size()) to = (*own)[varied][1].number();
    }
    // A segment's piece reaches halfway to the next one's start on a jump, never across it.
    if (index + 1 < segments.size()) {
      if (const auto next = segments[index + 1].find("bounds"); next && next->has(varied)) {
        const double next_from = (*next)[varied][0].number();
        to = logarithmic ? std::sqrt(to * next_from) : (to + next_from) / 2;
      }
    }
    Series piece{segments.size() > 1 ? "segment " + std::to_string(index + 1) + ": " + segment.text_or("formula", "")
                                     : "model: " + model.text_or("formula", ""),
                 {}, Mark::line, segments.size() > 1 ? static_cast<int>(index == 0 ? 0 : index + 1) : 0, false};
    if (color >= 0) piece.color = color;
    constexpr int steps = 96;
    for (int step = 0; step <= steps; ++step) {
      const double t = static_cast<double>(step) / steps;
      const double x = logarithmic ? from * std::pow(to / from, t) : from + (to - from) * t;
      core::Bindings at = axis.fixed;
      at[varied] = x;
      piece.points.push_back({x, curve(at), {}, {}});
    }
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

namespace {

void add_model_chart(Section& section, const View& fit, const View& model, const std::map<std::string, Bound>& bounds) {
  const auto axis = model_axis(bounds);
  if (!axis) return;
  const bool logarithmic = logarithmic_range(axis->range);
  const double end = extrapolated_end(axis->range);
  const std::string metric = model.text_or("metric", "value");
  Chart chart{metric + " of " + model.text_or("region", "?") + " against " + axis->varied +
                  (axis->fixed_text.empty() ? "" : " (" + axis->fixed_text + ")"),
              {axis->varied, logarithmic, {}, {}}, {metric, logarithmic, {}, {}}, {}, {}, 680, 400};
  chart.series = segment_series(model, *axis, end, logarithmic, -1);
  const Series measured = measured_series(fit, model, axis->varied, axis->fixed);
  if (!measured.points.empty()) chart.series.push_back(measured);
  chart.shades.push_back({axis->range.high, end, "extrapolation (beyond the measurements)"});
  section.svg(render_chart(chart));
  if (measured.points.empty()) {
    section.paragraph("The measurements are not on this page: the data file " + fit.text_or("data", "-") +
                      " could not be read when the page was made.");
  }
}

}  // namespace

void add_fit(Part& part, const View& fit) {
  const View models = fit["models"];
  for (std::size_t index = 0; index < models.size(); ++index) {
    const View model = models[index];
    const View segments = model["segments"];
    const auto bounds = bounds_of(segments);
    const std::string name = model.text_or("region", "?") + ", " + model.text_or("metric", "?");
    const bool searched = model.has("searched") && model["searched"].json() == true;
    std::string line = name + ": " + (searched ? "best model " : "model ") + model["symbolic"].text();
    if (const auto loo = model.maybe("loo_smape")) line += ", leave-one-out SMAPE " + format_number(*loo, 2) + "%";
    if (!bounds.empty()) line += ", valid for " + bounds_text(bounds);
    part.summary(line);
    Section& section = part.section("Model of " + name);
    section.paragraph("Formula: " + model["formula"].text());
    add_model_chart(section, fit, model, bounds);
    Table quality{"Quality", {"measure", "value"}, {}};
    for (const char* key : {"points", "rss", "r2", "adjusted_r2", "smape", "loo_smape", "hypotheses"}) {
      if (const auto value = model.maybe(key)) quality.rows.push_back({text_cell(key), number_cell(*value, 6)});
    }
    section.table(std::move(quality));
    section.table(rows_table(model["constants"], "Constants (value and standard error)"));
    Table pieces{"Segments: intervals of validity", {"segment", "valid for", "points", "formula", "SMAPE %"}, {}};
    for (std::size_t k = 0; k < segments.size(); ++k) {
      const View segment = segments[k];
      std::map<std::string, Bound> own;
      if (const auto b = segment.find("bounds")) {
        for (const auto& [parameter, pair] : b->json().items()) own[parameter] = {(*b)[parameter][0].number(), (*b)[parameter][1].number()};
      }
      pieces.rows.push_back({number_cell(static_cast<double>(k + 1)), text_cell(bounds_text(own)), number_cell(segment.maybe("points")),
                             text_cell(segment.text_or("formula", "-")), number_cell(segment.maybe("smape"))});
    }
    section.table(std::move(pieces));
    if (const auto notes = model.find("notes")) {
      for (std::size_t k = 0; k < notes->size(); ++k) section.paragraph("Note: " + (*notes)[k].text());
    }
  }
  if (const auto errors = fit.find("errors")) {
    for (std::size_t index = 0; index < errors->size(); ++index) {
      part.summary("not modeled: " + scalar_text((*errors)[index].json()));
    }
  }
}

void add_predict(Part& part, const View& predict) {
  const View predictions = predict["predictions"];
  // Group by region and metric; the chart runs along the parameter whose values vary most.
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t index = 0; index < predictions.size(); ++index) {
    groups[predictions[index].text_or("region", "") + ", " + predictions[index].text_or("metric", "")].push_back(index);
  }
  for (const auto& [name, members] : groups) {
    std::map<std::string, Bound> spans;
    for (std::size_t index : members) {
      for (const auto& [parameter, value] : predictions[index]["at"].json().items()) {
        Bound& bound = spans[parameter];
        const double number = predictions[index]["at"][parameter].number();
        bound.low = std::min(bound.low, number);
        bound.high = std::max(bound.high, number);
      }
    }
    const std::string varied = varied_parameter(spans);
    Section& section = part.section("Predictions of " + name);
    Table table{"Predictions", {}, {}};
    for (const auto& [parameter, bound] : spans) table.headers.push_back(parameter);
    for (const char* header : {"value", "lower", "upper", "confidence", "measured", "error %", "segment"}) table.headers.push_back(header);
    Series band{"prediction interval", {}, Mark::band, 0, false};
    Series values{"predicted", {}, Mark::line_points, 0, false};
    Series measured{"measured", {}, Mark::points, 1, false};
    double measured_until = -INFINITY, last_x = -INFINITY;
    for (std::size_t index : members) {
      const View prediction = predictions[index];
      std::vector<Cell> row;
      for (const auto& [parameter, bound] : spans) row.push_back(number_cell(prediction["at"].maybe(parameter), 7));
      const double x = prediction["at"][varied].number(), value = prediction["value"].number();
      const auto lower = prediction.maybe("lower"), upper = prediction.maybe("upper"), seen = prediction.maybe("measured");
      band.points.push_back({x, value, lower, upper});
      values.points.push_back({x, value, {}, {}});
      last_x = std::max(last_x, x);
      if (seen) {
        measured.points.push_back({x, *seen, {}, {}});
        measured_until = std::max(measured_until, x);
      }
      for (const auto& cell : {number_cell(value, 5), number_cell(lower, 5), number_cell(upper, 5), number_cell(prediction.maybe("confidence")),
                               number_cell(seen, 5), number_cell(prediction.maybe("error_percent"), 3), number_cell(prediction.maybe("segment"))}) {
        row.push_back(cell);
      }
      table.rows.push_back(std::move(row));
    }
    const View last = predictions[members.back()];
    std::string at;
    for (const auto& [parameter, value] : last["at"].json().items()) {
      at += (at.empty() ? "" : ", ") + parameter + " = " + (value.is_number() ? format_number(value.get<double>(), 7) : scalar_text(value));
    }
    std::string line = name + " at " + at + ": " + format_number(last["value"].number());
    if (const auto lower = last.maybe("lower"), upper = last.maybe("upper"); lower && upper) {
      line += " [" + format_number(*lower) + ", " + format_number(*upper) + "] (" + percent(last.maybe("confidence").value_or(0.95), 2) + " prediction interval)";
    }
    part.summary(line);
    const bool logarithmic = spans[varied].low > 0 && spans[varied].high / spans[varied].low >= 8;
    Chart chart{name + " against " + varied, {varied, logarithmic, {}, {}}, {last.text_or("metric", "value"), logarithmic, {}, {}}, {}, {}, 680, 400};
    chart.series = {band, values};
    if (!measured.points.empty()) chart.series.push_back(measured);
    if (!measured.points.empty() && last_x > measured_until) chart.shades.push_back({measured_until, last_x, "extrapolation (beyond the measurements)"});
    if (members.size() > 1) section.svg(render_chart(chart));
    section.table(std::move(table));
  }
  part.summary("data: " + predict.text_or("data", "-"));
}

}  // namespace augur::report
