// The tables of augur couple: src/cli/couple_print.hpp.
#include "couple_print.hpp"

#include <cmath>
#include <cstdio>

#include "core/table.hpp"
#include "model_common.hpp"

namespace augur::cli {
namespace {

using coupling::Run;

std::string seconds_text(double value) {
  return significant(value, 5);
}

std::string percent(std::optional<double> fraction) {
  if (!fraction || !std::isfinite(*fraction)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f%%", 100.0 * *fraction);
  return text;
}

std::string bytes_text(double bytes) {
  if (bytes <= 0) return "-";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return significant(bytes, 3) + " " + units[unit];
}

std::string describe(const Run& run) {
  std::string text = run.application;
  if (!run.dataset.empty()) text += " dataset " + run.dataset;
  text += " (size " + significant(run.problem_size, 6);
  if (run.footprint_bytes > 0) text += ", " + bytes_text(run.footprint_bytes);
  text += "), " + std::to_string(run.threads) + (run.threads == 1 ? " thread" : " threads");
  if (run.ranks > 1) text += " x " + std::to_string(run.ranks) + " ranks";
  return text;
}

std::string measured_text(const Run& run) {
  return seconds_text(run.loop ? run.loop->seconds : std::nan(""));
}

std::string size_per_processor_text(const Run& run) {
  return significant(run.problem_size / run.processors(), 5);
}

std::string noise_note(const coupling::Spread& widest) {
  if (!widest.noisy()) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%.0f%%", 100 * widest.width);
  return "  note: noisy timings: the confidence interval of " + widest.where + " spans " + text +
         " of its median; on a busy machine the predictions are not reliable (measure on an idle machine, or "
         "raise --samples)\n";
}

// A table of runs, then the mean |error| of a predictor (`words`) and of summation.
std::string with_means(const core::TextTable& table, const coupling::MeanErrors& means, const std::string& words) {
  std::string out = table.render();
  if (means.runs > 0) {
    out += "\nmean |error| over " + std::to_string(means.runs) + " runs: " + words + " " +
           percent(means.method()).substr(1) + ", summation " + percent(means.summation()).substr(1) + "\n";
  }
  return out;
}

std::string kernels_table(const Run& run, const coupling::Analysis& analysis) {
  const coupling::Prediction* chosen = analysis.chosen();
  core::TextTable kernels({"kernel", "N_i", "P_i (s)", "95% CI", "N_i*P_i (s)",
                           chosen ? "alpha_i (k=" + std::to_string(analysis.length) + ")" : "alpha_i"});
  for (std::size_t i = 0; i < run.kernels.size(); ++i) {
    const auto* timing = run.find({static_cast<int>(i)});
    const auto calls = run.invocations(static_cast<int>(i));
    kernels.add_row({run.kernels[i].name, std::to_string(calls), timing ? seconds_text(timing->seconds) : "-",
                     timing ? seconds_text(timing->ci_low) + " .. " + seconds_text(timing->ci_high) : "-",
                     timing ? seconds_text(static_cast<double>(calls) * timing->seconds) : "-",
                     chosen ? core::format_number(chosen->alpha[i], 4) : "-"});
  }
  return kernels.render() + "\n";
}

std::string chains_table(const Run& run, const coupling::LengthCouplings& values) {
  core::TextTable table({"chain (k=" + std::to_string(values.length) + ")", "P_W (s)", "sum P_j (s)", "C_W"});
  for (const auto& chain : values.chains) {
    table.add_row({coupling::chain_name(run, chain.chain), seconds_text(chain.time), seconds_text(chain.sum_alone),
                   core::format_number(chain.value, 4)});
  }
  return table.render() + "\n";
}

}  // namespace

std::string report_text(const SourcedRun& sourced, const coupling::Analysis& analysis, bool all_chains,
                        std::optional<int> asked) {
  const Run& run = sourced.run;
  std::string out = sourced.source + ": " + describe(run) + "\n";
  out += "  machine: " + run.machine.machine_class() +
         (run.machine.hostname.empty() ? "" : " (" + run.machine.hostname + ")") + "; loop of " +
         std::to_string(run.kernels.size()) + " kernels, " + std::to_string(run.iterations) + " iterations\n\n";
  out += kernels_table(run, analysis);
  for (const coupling::LengthCouplings& values : analysis.couplings) {
    if (all_chains || values.length == analysis.length) out += chains_table(run, values);
  }
  core::TextTable predictions({"method", "predicted (s)", "measured (s)", "error"});
  predictions.add_row(
      {"summation", seconds_text(analysis.summation.seconds), measured_text(run), percent(analysis.summation.error)});
  for (const auto& prediction : analysis.predictions) {
    predictions.add_row(
        {"coupling, k=" + std::to_string(prediction.length) + (prediction.length == analysis.length ? " *" : ""),
         seconds_text(prediction.seconds), measured_text(run), percent(prediction.error)});
  }
  out += predictions.render();
  if (analysis.predictions.empty()) {
    out += "  (no complete set of chains: only the summation predictor; measure chains with --chains all)\n";
  } else if (asked && analysis.length == 0) {
    out += "  (chains of length " + std::to_string(*asked) + " were not all measured in this run)\n";
  }
  return out + noise_note(analysis.widest);
}

std::string summary_text(const std::vector<SourcedRun>& runs, const std::vector<coupling::Analysis>& analyses) {
  core::TextTable table({"run", "dataset", "procs", "measured (s)", "summation", "coupling", "k", "widest CI"});
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i].run;
    const coupling::Analysis& analysis = analyses[i];
    const coupling::Prediction* coupled = analysis.chosen();
    table.add_row({runs[i].source, run.dataset, std::to_string(run.processors()),
                   run.loop ? seconds_text(run.loop->seconds) : "-", percent(analysis.summation.error),
                   coupled ? percent(coupled->error) : "-", analysis.length > 0 ? std::to_string(analysis.length) : "-",
                   percent(analysis.widest.width).substr(1)});
  }
  return with_means(table, coupling::mean_errors(analyses), "coupling");
}

std::string isocoupling_text(const SourcedRun& target, const std::vector<SourcedRun>& sources,
                             const coupling::Isocoupling& isocoupling) {
  const Run& run = target.run;
  std::string out =
      "target: " + target.source + ": " + describe(run) + "\n  machine: " + run.machine.machine_class() + "\n\n";
  core::TextTable table(
      {"coupling values from", "dataset", "size/proc", "procs", "machine", "predicted (s)", "measured (s)", "error"});
  const auto& sum = isocoupling.summation;
  table.add_row({"(summation)", "-", "-", "-", "-", seconds_text(sum.seconds), measured_text(run), percent(sum.error)});
  if (isocoupling.own) {
    table.add_row({"(its own, k=" + std::to_string(isocoupling.length) + ")", run.dataset, size_per_processor_text(run),
                   std::to_string(run.processors()), "same", seconds_text(isocoupling.own->seconds), measured_text(run),
                   percent(isocoupling.own->error)});
  }
  const auto& candidates = isocoupling.candidates;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const SourcedRun& source = sources[candidates[i].index];
    table.add_row({(i == 0 ? "* " : "  ") + source.source, source.run.dataset, size_per_processor_text(source.run),
                   std::to_string(source.run.processors()), candidates[i].same_class ? "same class" : "other class",
                   seconds_text(isocoupling.reused[i].seconds), measured_text(run),
                   percent(isocoupling.reused[i].error)});
  }
  out += table.render();
  if (candidates.empty()) {
    return out + "\nno other configuration can lend coupling values of length " + std::to_string(isocoupling.length) +
           " (same application and kernels, every chain of that length measured, a problem size, and not a repeat "
           "of the target's own machine class, size and processors)\n";
  }
  const Run& chosen = sources[candidates.front().index].run;
  const coupling::Prediction& reused = isocoupling.reused.front();
  return out + "\nchosen (*): " + sources[candidates.front().index].source + ", " +
         (candidates.front().same_class ? "the same machine class" : "another machine class (none of the same)") +
         ", " + std::to_string(chosen.processors()) + (chosen.processors() == 1 ? " processor" : " processors") +
         " against " + std::to_string(run.processors()) + ", size per processor " + size_per_processor_text(chosen) +
         " against " + size_per_processor_text(run) + "; predicted " + seconds_text(reused.seconds) + " s" +
         (reused.error ? ", error " + percent(reused.error) : std::string()) + "\n";
}

std::string reuse_text(const std::vector<SourcedRun>& runs, const std::vector<coupling::Reuse>& reuses) {
  core::TextTable table(
      {"target", "dataset", "procs", "summation", "own", "nearest", "reuse", "same procs", "other procs"});
  const auto mean_text = [](std::optional<double> mean) { return mean ? percent(*mean).substr(1) : std::string("-"); };
  for (std::size_t target = 0; target < runs.size(); ++target) {
    const Run& run = runs[target].run;
    const coupling::Reuse& reuse = reuses[target];
    table.add_row({runs[target].source, run.dataset, std::to_string(run.processors()), percent(reuse.summation.error),
                   reuse.own ? percent(reuse.own->error) : "-", reuse.nearest ? runs[*reuse.nearest].source : "-",
                   reuse.reused ? percent(reuse.reused->error) : "-", mean_text(reuse.same_processors_error),
                   mean_text(reuse.other_processors_error)});
  }
  return with_means(table, coupling::mean_errors(reuses), "reusing the nearest configuration's coupling values");
}

std::string size_series_text(const std::vector<SourcedRun>& runs, const coupling::SizeSeries& series,
                             double threshold) {
  core::TextTable table(
      {"run", "dataset", "procs", "size/proc", "footprint/proc", "mean C_W (k=" + std::to_string(series.length) + ")"});
  for (const std::size_t i : series.order) {
    const Run& run = runs[i].run;
    table.add_row({runs[i].source, run.dataset, std::to_string(run.processors()), size_per_processor_text(run),
                   bytes_text(run.footprint_bytes / run.processors()),
                   core::format_number(series.mean_coupling[i], 4)});
  }
  std::string out = table.render() + "\n";
  if (series.transitions.empty()) {
    out += "no transition: the mean |change| of C_W between consecutive sizes stays within " +
           significant(threshold, 3) + "\n";
  }
  for (const auto& transition : series.transitions) {
    out += "transition between " + runs[transition.before].source + " and " + runs[transition.after].source +
           ": C_W changes by " + core::format_number(transition.mean_change, 4) + " on average (mean |change| " +
           core::format_number(transition.mean_abs_change, 4) + ")";
    if (!transition.level.empty()) {
      out += "; the data per processor outgrows " + transition.level + " (" +
             bytes_text(static_cast<double>(transition.level_bytes)) + ")";
    }
    out += "\n";
  }
  return out;
}

}  // namespace augur::cli
