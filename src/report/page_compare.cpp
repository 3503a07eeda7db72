// Several inputs of one kind on one chart (docs/report.md, "Several inputs"): the speedups of augur speedup
// --json files (TS and SA(N exec) of each), and the models of augur fit --json files that have the same region,
// metric and varied parameter. Each input keeps its own part of the page; these charts come first.
#include <algorithm>
#include <map>
#include <set>

#include "builders.hpp"
#include "model_chart.hpp"
#include "report/report.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

// The colour of the n-th input: the palette without black (the ideal's and the diagonal's).
int input_color(std::size_t input) {
  return input < 6 ? static_cast<int>(input) : static_cast<int>(input) + 1;
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t index = 0; index < names.size(); ++index) {
    text += (index == 0 ? "" : index + 1 == names.size() ? " and " : ", ") + names[index];
  }
  return text;
}

struct Speedups {
  std::string name;
  std::vector<Point> ts, sa;  // TS with the range of its runs; SA(N exec)
};

Speedups speedups_of(const View& speedup, const std::string& name) {
  Speedups result{name, {}, {}};
  const View points = speedup["points"];
  for (std::size_t index = 0; index < points.size(); ++index) {
    const View point = points[index];
    const double p = point["p"].number();
    if (const auto value = point.maybe("ts")) result.ts.push_back({p, *value, point.maybe("ts_min"), point.maybe("ts_max")});
    if (const auto value = point.maybe("sa_n")) result.sa.push_back({p, *value, {}, {}});
  }
  const auto by_p = [](const Point& a, const Point& b) { return a.x < b.x; };
  std::stable_sort(result.ts.begin(), result.ts.end(), by_p);
  std::stable_sort(result.sa.begin(), result.sa.end(), by_p);
  return result;
}

std::string last_value(const std::vector<Point>& points) {
  return points.empty() ? "-" : "S(" + format_number(points.back().x) + ") = " + format_number(points.back().y, 3);
}

void compare_speedups(Part& part, const std::vector<Speedups>& all) {
  std::vector<std::string> names;
  for (const Speedups& one : all) names.push_back(one.name);
  Section& section = part.section("Speedups compared: " + listed(names));
  Chart chart{"Speedup against thread count: " + listed(names), {"threads p", false, {}, {}, true}, {"speedup", false, {}, {}}, {}, {}, 680, 400};
  double largest = 1;
  std::map<double, std::vector<std::optional<double>>> rows;  // p → TS and SA(N exec) of each input
  for (std::size_t input = 0; input < all.size(); ++input) {
    const Speedups& one = all[input];
    const int color = input_color(input);
    Series ts{one.name + ": TS", one.ts, Mark::line_points, color, false};
    Series ranges{"", {}, Mark::ranges, color, false};
    for (const Point& point : one.ts) {
      largest = std::max(largest, point.x);
      if (point.low && point.high) ranges.points.push_back(point);
      auto& row = rows[point.x];
      row.resize(2 * all.size());
      row[2 * input] = point.y;
    }
    Series sa{one.name + ": SA(N exec)", one.sa, Mark::line_points, color, true};
    for (const Point& point : one.sa) {
      largest = std::max(largest, point.x);
      auto& row = rows[point.x];
      row.resize(2 * all.size());
      row[2 * input + 1] = point.y;
    }
    for (Series* series : {&ts, &ranges, &sa}) {
      if (!series->points.empty()) chart.series.push_back(*series);
    }
    part.summary(one.name + ": TS " + last_value(one.ts) + ", SA(N exec) " + last_value(one.sa));
  }
  if (largest > 1) chart.series.insert(chart.series.begin(), Series{"ideal S(p) = p", {{1, 1, {}, {}}, {largest, largest, {}, {}}}, Mark::line, 6, true});
  section.paragraph("One line per input: TS (traditional, solid, with the range of its runs) and SA(N exec) (self-analysis, dashed), "
                    "in the input's colour.");
  section.svg(render_chart(chart));
  Table table{"Speedup per thread count", {"threads p"}, {}};
  for (const std::string& name : names) {
    table.headers.push_back(name + " TS");
    table.headers.push_back(name + " SA(N exec)");
  }
  for (const auto& [p, values] : rows) {
    std::vector<Cell> row{number_cell(p)};
    for (const auto& value : values) row.push_back(number_cell(value, 4));
    table.rows.push_back(std::move(row));
  }
  section.table(std::move(table));
}

// A fitted model of one input, with what its chart runs along.
struct FitModel {
  std::size_t input;
  View fit, model;
  ModelAxis axis;
};

void compare_models(Part& part, const std::vector<FitModel>& models, const std::vector<std::string>& names) {
  const FitModel& first = models.front();
  Bound range;
  std::set<std::string> fixed_texts;
  std::vector<std::string> who;
  for (const FitModel& one : models) {
    range.low = std::min(range.low, one.axis.range.low);
    range.high = std::max(range.high, one.axis.range.high);
    fixed_texts.insert(one.axis.fixed_text);
    who.push_back(names[one.input]);
  }
  const bool logarithmic = logarithmic_range(range);
  const double end = extrapolated_end(range);
  const std::string region = first.model.text_or("region", "?"), metric = first.model.text_or("metric", "value");
  const std::string& varied = first.axis.varied;
  const bool same_fixed = fixed_texts.size() == 1;
  Section& section = part.section("Models compared: " + region + ", " + metric + " (" + listed(who) + ")");
  Chart chart{metric + " of " + region + " against " + varied + (same_fixed && !first.axis.fixed_text.empty() ? " (" + first.axis.fixed_text + ")" : ""),
              {varied, logarithmic, {}, {}}, {metric, logarithmic, {}, {}}, {}, {}, 680, 400};
  std::string line = region + ", " + metric + " against " + varied + ":";
  for (std::size_t index = 0; index < models.size(); ++index) {
    const FitModel& one = models[index];
    const int color = input_color(one.input);
    const std::string name = names[one.input] + (same_fixed || one.axis.fixed_text.empty() ? "" : " (" + one.axis.fixed_text + ")");
    std::vector<Series> pieces = segment_series(one.model, one.axis, end, logarithmic, color);
    for (std::size_t piece = 0; piece < pieces.size(); ++piece) {
      pieces[piece].name = piece == 0 ? name + ": model " + one.model.text_or("symbolic", "?") : "";
      chart.series.push_back(std::move(pieces[piece]));
    }
    Series measured = measured_series(one.fit, one.model, varied, one.axis.fixed);
    measured.name = name + ": measurements";
    measured.color = color;
    if (!measured.points.empty()) chart.series.push_back(std::move(measured));
    line += std::string(index == 0 ? " " : "; ") + names[one.input] + " " + one.model.text_or("symbolic", "?");
    if (const auto loo = one.model.maybe("loo_smape")) line += " (leave-one-out SMAPE " + format_number(*loo, 2) + "%)";
  }
  part.summary(line);
  chart.shades.push_back({range.high, end, "extrapolation (beyond every input's measurements)"});
  section.paragraph("One colour per input: its model over its intervals of validity and its measurements (mean, range of repetitions).");
  section.svg(render_chart(chart));
}

// The models of the fit inputs grouped by region, metric and varied parameter, in the order they first appear.
std::vector<std::vector<FitModel>> model_groups(const std::vector<Input>& inputs, const std::vector<View>& views) {
  std::vector<std::string> keys;
  std::vector<std::vector<FitModel>> groups;
  for (std::size_t input = 0; input < inputs.size(); ++input) {
    if (inputs[input].kind != Kind::fit) continue;
    const View models = views[input]["models"];
    for (std::size_t index = 0; index < models.size(); ++index) {
      const View model = models[index];
      const auto axis = model_axis(bounds_of(model["segments"]));
      if (!axis) continue;
      const std::string key = model.text_or("region", "") + '\x1f' + model.text_or("metric", "") + '\x1f' + axis->varied;
      const auto found = std::find(keys.begin(), keys.end(), key);
      if (found == keys.end()) {
        keys.push_back(key);
        groups.push_back({});
      }
      auto& group = groups[static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin())];
      if (std::none_of(group.begin(), group.end(), [&](const FitModel& other) { return other.input == input; })) {
        group.push_back({input, views[input], model, *axis});
      }
    }
  }
  return groups;
}

}  // namespace

std::vector<std::string> input_names(const std::vector<Input>& inputs) {
  std::vector<std::string> names;
  for (const Input& input : inputs) {
    if (!input.label.empty()) {
      names.push_back(input.label);
      continue;
    }
    const std::size_t slash = input.file.find_last_of('/');
    std::string stem = slash == std::string::npos ? input.file : input.file.substr(slash + 1);
    if (const std::size_t dot = stem.find_last_of('.'); dot != std::string::npos && dot > 0) stem.erase(dot);
    names.push_back(stem);
  }
  // Two inputs of the same stem (a/speedup.json, b/speedup.json) are named by their files.
  const std::vector<std::string> stems = names;
  for (std::size_t index = 0; index < inputs.size(); ++index) {
    if (inputs[index].label.empty() && std::count(stems.begin(), stems.end(), stems[index]) > 1) names[index] = inputs[index].file;
  }
  return names;
}

void add_comparisons(Page& page, const std::vector<Input>& inputs) {
  const std::vector<std::string> names = input_names(inputs);
  std::vector<View> views;
  for (const Input& input : inputs) views.emplace_back(input.document, input.file);
  Part part{page, ""};
  std::vector<Speedups> speedups;
  for (std::size_t input = 0; input < inputs.size(); ++input) {
    if (inputs[input].kind == Kind::speedup) speedups.push_back(speedups_of(views[input], names[input]));
  }
  if (speedups.size() > 1) compare_speedups(part, speedups);
  for (const auto& group : model_groups(inputs, views)) {
    if (group.size() > 1) compare_models(part, group, names);
  }
}

}  // namespace augur::report
