#include "plot_script.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"
#include "gnuplot.hpp"

namespace augur::cli {

namespace {

// The unit a name's ending gives: seconds ("time", "*_time", "*_s"), "*_ms", "*_us", "*_ns", bytes ("bytes",
// "*_bytes"), "*_kib", "*_mib", "*_gib"; empty otherwise.
std::string unit_of(const std::string& name) {
  const auto ends_with = [&name](const std::string& tail) {
    return name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (name == "time" || ends_with("_time") || ends_with("_s")) return "s";
  if (ends_with("_ms")) return "ms";
  if (ends_with("_us")) return "µs";
  if (ends_with("_ns")) return "ns";
  if (name == "bytes" || ends_with("_bytes")) return "bytes";
  if (ends_with("_kib")) return "KiB";
  if (ends_with("_mib")) return "MiB";
  if (ends_with("_gib")) return "GiB";
  return "";
}

std::string with_unit(const std::string& name, const std::string& unit) { return unit.empty() ? name : name + " (" + unit + ")"; }

}  // namespace

std::string metric_label(const std::string& metric) { return with_unit(metric, unit_of(metric)); }

std::string parameter_label(const std::string& parameter) {
  // P is the processor count in CALL's formulas (the seed's convention), as in every example of docs/fit.md.
  if (parameter == "P" || parameter == "p") return with_unit(parameter, "processors");
  return with_unit(parameter, unit_of(parameter));
}

namespace {

// One line of the picture per combination of the values of the parameters other than `x`: the indices of
// its measured points (in model.points).
using Groups = std::map<std::vector<double>, std::vector<std::size_t>>;

Groups group_points(const model::SeriesModel& model, std::size_t x) {
  Groups groups;
  for (std::size_t i = 0; i < model.points.size(); ++i) {
    std::vector<double> others = model.points[i];
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(x));
    groups[others].push_back(i);
  }
  if (groups.size() > 12) {
    throw core::InputError({"--x", 0, 0}, "the other parameters take " + std::to_string(groups.size()) +
                                               " combinations of values, too many lines to read; filter the data or choose another --x");
  }
  return groups;
}

// The x axis: from the smallest measured x to `top`, logarithmic (with the y axis) when the data spans a
// factor of 8 or more and every value is positive; in base 2 when every measured x is a power of two.
struct Axis {
  double low = INFINITY;
  double high = -INFINITY;  // the largest measured x: extrapolation begins beyond it
  double top = 0.0;
  bool logarithmic = false;
  bool base2 = true;
};

Axis axis_of(const model::SeriesModel& model, std::size_t x, double extend) {
  Axis axis;
  bool positive = true;
  for (std::size_t i = 0; i < model.points.size(); ++i) {
    const double value = model.points[i][x];
    axis.low = std::min(axis.low, value);
    axis.high = std::max(axis.high, value);
    positive = positive && model.values[i] > 0;
    axis.base2 = axis.base2 && value >= 1 && value <= 0x1p52 && value == std::floor(value) && std::has_single_bit(static_cast<std::uint64_t>(value));
  }
  axis.logarithmic = axis.low > 0 && axis.high / axis.low >= 8.0 && positive;
  axis.top = axis.high * extend;
  return axis;
}

// The model along the axis for one line: nothing where it is not defined (the log of a value below 1, ...).
struct Sample {
  double x = 0.0;
  model::Prediction prediction;
};

struct Line {
  std::string label;  // "N=2097152", or "" with one parameter
  std::vector<std::size_t> members;
  std::vector<std::optional<Sample>> samples;
};

Line sample_line(const model::SeriesModel& model, const PlotScriptOptions& options, const Axis& axis, const std::vector<double>& others,
                 const std::vector<std::size_t>& members) {
  Line line;
  line.members = members;
  for (std::size_t p = 0, o = 0; p < model.parameters.size(); ++p) {
    if (p == options.x) continue;
    line.label += (line.label.empty() ? "" : ", ") + model.parameters[p] + "=" + core::format_shortest(others[o++]);
  }
  for (int step = 0; step <= 200; ++step) {
    const double fraction = step / 200.0;
    const double x = axis.logarithmic ? axis.low * std::pow(axis.top / axis.low, fraction) : axis.low + (axis.top - axis.low) * fraction;
    std::vector<double> point;
    for (std::size_t p = 0, o = 0; p < model.parameters.size(); ++p) point.push_back(p == options.x ? x : others[o++]);
    try {
      line.samples.push_back(Sample{x, model::predict(model, point, options.confidence)});
    } catch (const core::InputError&) {
      line.samples.emplace_back();
    }
  }
  return line;
}

// The bottom of a log y axis: a tenth of the smallest positive value drawn; a band reaching 0 or below is cut there.
double log_floor(const model::SeriesModel& model, const std::vector<Line>& lines) {
  double smallest = INFINITY;
  for (std::size_t i = 0; i < model.values.size(); ++i) {
    if (model.minimum[i] > 0) smallest = std::min(smallest, model.minimum[i]);
  }
  for (const Line& line : lines) {
    for (const auto& sample : line.samples) {
      if (sample && sample->prediction.interval.value > 0) smallest = std::min(smallest, sample->prediction.interval.value);
    }
  }
  return std::isfinite(smallest) ? smallest / 10.0 : 1e-300;
}

// A data row: the numbers in their shortest exact form.
std::string row(std::initializer_list<double> numbers) {
  std::string text;
  for (double number : numbers) text += (text.empty() ? "" : " ") + core::format_shortest(number);
  return text + "\n";
}

// What one line's data block leaves out on a log axis.
struct Clipped {
  double first = INFINITY;  // the x range where the model is ≤ 0
  double last = -INFINITY;
  bool band = false;        // the band's lower end reached 0 or below somewhere
};

// The model's data block of one line: "x value lower upper" rows, a blank line at a gap (undefined or
// clipped) and two (a new gnuplot data block) where the segment changes, so that no line crosses a jump.
Clipped write_model_block(std::ostringstream& script, int index, const Line& line, const Axis& axis, double floor) {
  Clipped clipped;
  script << "$model" << index << " << EOD\n";
  int pending = 0;  // blank lines owed before the next row
  bool started = false;
  std::size_t segment = 0;
  for (const auto& sample : line.samples) {
    const bool defined = sample && std::isfinite(sample->prediction.interval.value);
    if (!defined || (axis.logarithmic && sample->prediction.interval.value <= 0)) {
      if (defined) {
        clipped.first = std::min(clipped.first, sample->x);
        clipped.last = std::max(clipped.last, sample->x);
      }
      pending = std::max(pending, started ? 1 : 0);
      continue;
    }
    const model::Interval& interval = sample->prediction.interval;
    if (started && sample->prediction.segment != segment) pending = 2;
    for (; pending > 0; --pending) script << '\n';
    double lower = std::isfinite(interval.lower) ? interval.lower : interval.value;
    const double upper = std::isfinite(interval.upper) ? interval.upper : interval.value;
    if (axis.logarithmic && lower <= floor) {
      clipped.band = clipped.band || lower <= 0;
      lower = floor;
    }
    script << row({sample->x, interval.value, lower, upper});
    started = true;
    segment = sample->prediction.segment;
  }
  script << "EOD\n";
  return clipped;
}

}  // namespace

namespace {

std::string three_digits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// The note drawn in the picture (and returned) for what a log axis left out of one line.
void add_notes(std::vector<std::string>& notes, const Clipped& clipped, const std::string& parameter, const std::string& label) {
  const std::string which = label.empty() ? "" : " (" + label + ")";
  if (clipped.first <= clipped.last) {
    notes.push_back("model ≤ 0 for " + parameter + " from " + three_digits(clipped.first) + " to " + three_digits(clipped.last) + which +
                    ": not drawn on the log axis");
  }
  if (clipped.band) notes.push_back("prediction band ≤ 0" + which + ": cut at the bottom of the log axis");
}

std::string header(const model::SeriesModel& model, const PlotScriptOptions& options, const Axis& axis) {
  std::ostringstream script;
  script << options.terminal;
  script << "set title " << gnuplot_quote(model.region + " · " + model.metric + ":  " + model::symbolic_text(model)) << " noenhanced\n";
  script << "set xlabel " << gnuplot_quote(parameter_label(model.parameters[options.x])) << " noenhanced\nset ylabel "
         << gnuplot_quote(metric_label(model.metric)) << " noenhanced\n";
  script << "set format x \"%g\"\nset format y \"%g\"\n";
  script << "set key top left noenhanced opaque\nset grid\n";
  if (axis.logarithmic) script << (axis.base2 ? "set logscale x 2\nset logscale y\n" : "set logscale xy\n");
  if (axis.top > axis.low) script << "set xrange [" << core::format_shortest(axis.low) << ":" << core::format_shortest(axis.top) << "]\n";
  if (axis.top > axis.high) {
    script << "set object 1 rect from first " << core::format_shortest(axis.high) << ", graph 0 to graph 1, graph 1 behind fillcolor rgb '#ececec' "
           << "fillstyle solid 1.0 noborder\n";
  }
  return script.str();
}

}  // namespace

PlotScript plot_script(const model::SeriesModel& model, const PlotScriptOptions& options) {
  const Groups groups = group_points(model, options.x);
  const Axis axis = axis_of(model, options.x, options.extend);
  std::vector<Line> lines;
  for (const auto& [others, members] : groups) lines.push_back(sample_line(model, options, axis, others, members));
  const double floor = log_floor(model, lines);

  PlotScript result;
  std::ostringstream script;
  script << header(model, options, axis);
  const std::string& parameter = model.parameters[options.x];
  std::string bands;
  std::string curves;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    const int index = static_cast<int>(i);
    const std::string color = " lc " + std::to_string(index % 8 + 1);
    const std::string name = line.label.empty() ? "" : " (" + line.label + ")";
    script << "$measured" << index << " << EOD\n";
    for (std::size_t m : line.members) {
      script << row({model.points[m][options.x], model.values[m], model.minimum[m], model.maximum[m]});
    }
    script << "EOD\n";
    add_notes(result.notes, write_model_block(script, index, line, axis, floor), parameter, line.label);
    const std::string block = "$model" + std::to_string(index);
    bands += ", \\\n     " + block + " using 1:3:4 with filledcurves" + color + " fillstyle transparent solid 0.2 noborder notitle";
    curves += ", \\\n     $measured" + std::to_string(index) + " using 1:2:3:4 with yerrorbars pt 7" + color + " title " +
              gnuplot_quote("measured" + name) + ", \\\n     " + block + " using 1:2 with lines lw 2" + color + " title " +
              gnuplot_quote("model" + name);
  }
  if (std::any_of(result.notes.begin(), result.notes.end(), [](const std::string& note) { return note.starts_with("prediction band"); })) {
    script << "set yrange [" << core::format_shortest(floor) << ":*]\n";
  }
  for (std::size_t n = 0; n < result.notes.size(); ++n) {
    script << "set label " << n + 1 << ' ' << gnuplot_quote(result.notes[n]) << " at graph 0.98, graph " << 0.04 + 0.05 * static_cast<double>(n)
           << " right front noenhanced\n";
  }
  script << "plot keyentry with filledcurves lc rgb '#909090' fillstyle transparent solid 0.4 noborder title "
         << gnuplot_quote(core::format_shortest(options.confidence * 100.0) + "% prediction band");
  if (axis.top > axis.high) {
    script << ", \\\n     keyentry with filledcurves lc rgb '#ececec' fillstyle solid 1.0 border lc rgb '#c0c0c0' title "
           << gnuplot_quote("extrapolation (" + parameter + " > " + core::format_shortest(axis.high) + ")");
  }
  script << bands << curves << "\n";
  result.text = script.str();
  return result;
}

}  // namespace augur::cli
