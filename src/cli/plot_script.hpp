// The gnuplot script of `augur plot`: the measurements, the model drawn segment by segment, its prediction
// band and the extrapolation region, both named in the legend; pure text, drawn by gnuplot.hpp.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace augur::cli {

struct PlotScriptOptions {
  std::size_t x = 0;          // the parameter on the x axis
  double extend = 2.0;        // the model is drawn up to this multiple of the largest measured x
  double confidence = 0.95;   // of the prediction band
  std::string terminal;       // the `set terminal` line (gnuplot_terminal)
};

struct PlotScript {
  std::string text;                 // without `set output`
  std::vector<std::string> notes;   // what the picture leaves out (model values ≤ 0 on a log axis), also drawn in it
};

// The y axis' label: the metric with its unit where the name says it ("time", "*_time" and "*_s": seconds;
// "*_ms", "*_us", "*_ns"; "bytes", "*_bytes", "*_kib", "*_mib", "*_gib"), else the metric alone.
[[nodiscard]] std::string metric_label(const std::string& metric);
// The x axis' label: the parameter with its unit the same way, and P (or p), CALL's processor count, in
// processors: "P (processors)", "size_bytes (bytes)", "N".
[[nodiscard]] std::string parameter_label(const std::string& parameter);

// Throws core::InputError (under --x) when the other parameters take more than 12 combinations of values.
[[nodiscard]] PlotScript plot_script(const model::SeriesModel& model, const PlotScriptOptions& options);

}  // namespace augur::cli
