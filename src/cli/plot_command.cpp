#include <cmath>
#include <filesystem>
#include <cstdio>
#include <map>
#include <sstream>

#include "command.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/process.hpp"
#include "fit_command.hpp"
#include "gnuplot.hpp"

namespace augur::cli {

void add_plot_options(CLI::App* command, PlotOptions& options) {
  add_model_options(*command, options.model);
  command->add_option("-o,--output", options.output, "The picture: FILE.svg or FILE.png (written whole or not at all)")->required();
  command->add_option("--x", options.x, "The parameter on the x axis (default: the first); one line per value of the others");
  command->add_option("--extend", options.extend, "Draw the model up to this multiple of the largest measured x")->default_val(2.0)->check(CLI::Range(1.0, 1000.0));
  command->add_option("--confidence", options.confidence, "Confidence of the prediction band")->default_val(0.95)->check(CLI::Range(0.5, 0.9999));
  command->footer("Example:\n  augur plot fft.csv --formula 'f[0] + f[1]*(N/P)*log(N/P)' --x P -o fft.svg\nNeeds gnuplot (Debian: gnuplot-nox).");
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

// The x axis: from the smallest measured x to `top`, logarithmic when the data spans a factor of 8 or more
// and every value is positive.
struct Axis {
  double low = INFINITY;
  double high = -INFINITY;  // the largest measured x
  double top = 0.0;
  bool logarithmic = false;
};

Axis axis_of(const model::SeriesModel& model, std::size_t x, double extend) {
  Axis axis;
  bool positive = true;
  for (std::size_t i = 0; i < model.points.size(); ++i) {
    axis.low = std::min(axis.low, model.points[i][x]);
    axis.high = std::max(axis.high, model.points[i][x]);
    positive = positive && model.values[i] > 0;
  }
  axis.logarithmic = axis.low > 0 && axis.high / axis.low >= 8.0 && positive;
  axis.top = axis.high * extend;
  return axis;
}

// One line's data (the measured points, the model sampled along the axis) into `script`, and its plot
// commands appended to `plots`.
void add_line(std::ostringstream& script, std::string& plots, const model::SeriesModel& model, std::size_t x, const Axis& axis,
              int index, const std::vector<double>& others, const std::vector<std::size_t>& members, double confidence) {
  std::string label;
  for (std::size_t p = 0, o = 0; p < model.parameters.size(); ++p) {
    if (p == x) continue;
    label += (label.empty() ? "" : ", ") + model.parameters[p] + "=" + core::format_shortest(others[o++]);
  }
  const int color = index % 8 + 1;
  script << "$measured" << index << " << EOD\n";
  for (std::size_t i : members) script << model.points[i][x] << ' ' << model.values[i] << ' ' << model.minimum[i] << ' ' << model.maximum[i] << '\n';
  script << "EOD\n$model" << index << " << EOD\n";
  for (int step = 0; step <= 200; ++step) {
    const double fraction = step / 200.0;
    const double value = axis.logarithmic ? axis.low * std::pow(axis.top / axis.low, fraction) : axis.low + (axis.top - axis.low) * fraction;
    std::vector<double> point;
    for (std::size_t p = 0, o = 0; p < model.parameters.size(); ++p) point.push_back(p == x ? value : others[o++]);
    try {
      const model::Prediction prediction = model::predict(model, point, confidence);
      const auto& interval = prediction.interval;
      if (axis.logarithmic && interval.value <= 0) continue;
      script << value << ' ' << interval.value << ' ' << (std::isfinite(interval.lower) ? interval.lower : interval.value) << ' '
             << (std::isfinite(interval.upper) ? interval.upper : interval.value) << '\n';
    } catch (const core::InputError&) {
      // the model is not defined there (log of a value below 1, ...): leave a gap
    }
  }
  script << "EOD\n";
  const std::string name = label.empty() ? "" : " (" + label + ")";
  plots += std::string(plots.empty() ? "plot " : ", \\\n     ") + "$measured" + std::to_string(index) +
           " using 1:2:3:4 with yerrorbars pt 7 lc " + std::to_string(color) + " title " + gnuplot_quote("measured" + name) +
           ", $model" + std::to_string(index) + " using 1:2 with lines lw 2 lc " + std::to_string(color) + " title " + gnuplot_quote("model" + name) +
           ", $model" + std::to_string(index) + " using 1:3 with lines dt 2 lc " + std::to_string(color) + " notitle" +
           ", $model" + std::to_string(index) + " using 1:4 with lines dt 2 lc " + std::to_string(color) + " notitle";
}

// The gnuplot script of the picture, without its `set output`.
std::string plot_script(const model::SeriesModel& model, std::size_t x, const PlotOptions& options, const std::string& extension) {
  const Groups groups = group_points(model, x);
  const Axis axis = axis_of(model, x, options.extend);
  std::ostringstream script;
  script.precision(17);
  script << gnuplot_terminal(extension);
  script << "set title " << gnuplot_quote(model.region + " · " + model.metric + ":  " + model::symbolic_text(model)) << " noenhanced\n";
  script << "set xlabel " << gnuplot_quote(model.parameters[x]) << " noenhanced\nset ylabel " << gnuplot_quote(model.metric) << " noenhanced\n";
  script << "set key top left noenhanced\nset grid\n";
  if (axis.logarithmic) script << "set logscale xy\n";
  std::string plots;
  int index = 0;
  for (const auto& [others, members] : groups) add_line(script, plots, model, x, axis, index++, others, members, options.confidence);
  script << "set arrow from " << axis.high << ", graph 0 to " << axis.high << ", graph 1 nohead dt 3 lc rgb 'gray'\n";
  script << plots << "\n";
  return script.str();
}

}  // namespace

int run_plot_command(const PlotOptions& options) {
  try {
    const std::string extension = picture_extension(options.output);
    if (extension != "svg" && extension != "png") throw core::InputError({"--output", 0, 0}, "the picture must end in .svg or .png, not '" + options.output + "'");
    core::refuse_output_over_inputs(options.output, {options.model.data});
    const std::vector<FittedSeries> fitted = fit_all(options.model);
    if (fitted.size() > 1) {
      throw core::InputError({options.model.data, 0, 0}, "the data holds " + std::to_string(fitted.size()) +
                                                              " series; choose one with --region and --metric");
    }
    if (!fitted.front().error.empty()) throw std::runtime_error(fitted.front().region + " · " + fitted.front().metric + ": " + fitted.front().error);
    const model::SeriesModel& model = fitted.front().model;
    if (model.parameters.empty()) throw core::InputError({options.model.data, 0, 0}, "the series has no parameter to draw along");
    std::size_t x = 0;
    if (!options.x.empty()) {
      const auto found = std::find(model.parameters.begin(), model.parameters.end(), options.x);
      if (found == model.parameters.end()) throw core::InputError({"--x", 0, 0}, "'" + options.x + "' is not a parameter of " + model.region);
      x = static_cast<std::size_t>(found - model.parameters.begin());
    }
    draw_picture(plot_script(model, x, options, extension), options.output, extension);
    std::fprintf(stderr, "augur plot: wrote %s (%s · %s, %zu points, model %s)\n", options.output.c_str(), model.region.c_str(),
                 model.metric.c_str(), model.points.size(), model::symbolic_text(model).c_str());
    // --json: the model drawn, as 'augur fit --json' gives it for the series.
    if (options.model.json) std::fputs((core::json_text(series_json(model), 2) + "\n").c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("plot", error);
  }
}

Runner declare_plot_command(CLI::App& command) {
  auto options = std::make_shared<PlotOptions>();
  add_plot_options(&command, *options);
  return [options] { return run_plot_command(*options); };
}

}  // namespace augur::cli
