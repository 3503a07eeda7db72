#include <cmath>
#include <filesystem>
#include <cstdio>
#include <map>
#include <sstream>

#include "command.hpp"
#include "core/files.hpp"
#include "flags.hpp"
#include "core/json_text.hpp"
#include "core/process.hpp"
#include "fit_command.hpp"
#include "gnuplot.hpp"
#include "plot_script.hpp"

namespace augur::cli {

void add_plot_options(CLI::App* command, PlotOptions& options) {
  add_model_options(*command, options.model);
  command->add_option("-o,--output", options.output, "The picture: FILE.svg or FILE.png (written whole or not at all), or FILE.gp: the gnuplot script that draws it as SVG on stdout")->required();
  command->add_option("--x", options.x, "The parameter on the x axis (default: the first); one line per value of the others");
  command->add_option("--extend", options.extend, "Draw the model up to this multiple of the largest measured x")->default_val(2.0)->check(finite_number())->check(CLI::Range(1.0, 1000.0));
  command->add_option("--confidence", options.confidence, "Confidence of the prediction band")->default_val(0.95)->check(finite_number())->check(CLI::Range(0.5, 0.9999));
  command->footer("Example:\n  augur plot fft.csv --formula 'f[0] + f[1]*(N/P)*log(N/P)' --x P -o fft.svg\nNeeds gnuplot (Debian: gnuplot-nox).");
}

int run_plot_command(const PlotOptions& options) {
  try {
    const std::string extension = picture_extension(options.output);
    if (extension != "svg" && extension != "png" && extension != "gp") {
      throw core::InputError({"--output", 0, 0}, "the picture must end in .svg, .png or .gp (the gnuplot script), not '" + options.output + "'");
    }
    core::refuse_output_over_inputs(options.output, {options.model.data});
    const std::vector<FittedSeries> fitted = fit_all(options.model, "augur plot");
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
    const PlotScript script = plot_script(model, {x, options.extend, options.confidence, gnuplot_terminal(extension == "gp" ? "svg" : extension)});
    if (extension == "gp") {
      core::write_file_atomically(options.output, script.text);  // gnuplot FILE.gp > FILE.svg draws it
    } else {
      draw_picture(script.text, options.output, extension);
    }
    std::fprintf(stderr, "augur plot: wrote %s (%s · %s, %zu points, model %s)\n", options.output.c_str(), model.region.c_str(),
                 model.metric.c_str(), model.points.size(), model::symbolic_text(model).c_str());
    for (const std::string& note : script.notes) std::fprintf(stderr, "augur plot: note: %s\n", note.c_str());
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
