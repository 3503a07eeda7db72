// augur cache curve TRACE [--line B] [--sets S] [--method exact|statstack]: the miss rate of every LRU cache
// size in one pass over a trace (docs/cache.md, "Miss-rate curves"); the engines are
// src/sim/cache/stack_distance.hpp (Mattson's stack distances) and src/sim/cache/statstack.hpp (StatStack).
#include <CLI/CLI.hpp>
#include <bit>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"
#include "cache_input.hpp"
#include "progress.hpp"
#include "command.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "gnuplot.hpp"
#include "model_common.hpp"
#include "sim/cache/stack_distance.hpp"
#include "sim/cache/statstack.hpp"
#include "sim/cache/trace_reader.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

namespace cache = sim::cache;

struct CacheCurveOptions {
  std::string trace;
  std::uint64_t line = 64;
  std::uint64_t sets = 1;
  std::string method = "exact";
  double sample = 1e-3;
  std::uint64_t seed = 1;
  std::string format = "detect";
  bool json = false;
  bool csv = false;
  std::string plot;
  bool progress = false;
  bool quiet = false;
};

// What was measured: the curve, and for StatStack its sampling.
struct Measured {
  std::string trace;  // the name in messages and titles
  cache::TraceFormat format = cache::TraceFormat::Detect;
  bool statstack = false;
  cache::StatStackCurve estimate;  // the curve of either method is estimate.curve
  [[nodiscard]] const cache::MissRateCurve& curve() const { return estimate.curve; }
};

// "64 B", "12 KiB", "1 MiB": the largest binary unit that divides the size.
std::string bytes_text(std::uint64_t bytes) {
  static const char* const units[] = {"GiB", "MiB", "KiB"};
  for (int unit = 0; unit < 3; ++unit) {
    const unsigned shift = 30 - 10 * static_cast<unsigned>(unit);
    if (bytes >= (std::uint64_t{1} << shift) && bytes % (std::uint64_t{1} << shift) == 0) return std::to_string(bytes >> shift) + " " + units[unit];
  }
  return std::to_string(bytes) + " B";
}

std::string describe(const CacheCurveOptions& options, const Measured& measured) {
  const cache::MissRateCurve& curve = measured.curve();
  std::ostringstream out;
  out << "Trace " << measured.trace << " (" << cache::trace_format_name(measured.format) << "): " << curve.accesses << " accesses, "
      << curve.references << " line references";
  if (!measured.statstack) out << ", " << curve.cold_misses << " distinct lines";
  out << "\n" << (curve.sets == 1 ? std::string("Fully associative LRU") : "LRU with " + std::to_string(curve.sets) + " sets")
      << ", line " << curve.line_size << " B: ";
  if (measured.statstack) {
    out << "StatStack (Eklov and Hagersten 2010) from " << measured.estimate.samples << " sampled reuses (rate "
        << core::format_shortest(measured.estimate.sample_rate) << ", seed " << options.seed << "; "
        << measured.estimate.unfinished << " never reused)\n";
  } else {
    out << "exact, from Mattson's stack distances\n";
  }
  return out.str();
}

std::string render_table(const CacheCurveOptions& options, const Measured& measured) {
  const cache::MissRateCurve& curve = measured.curve();
  core::TextTable table({"Size", curve.sets == 1 ? "Lines" : "Assoc", "Miss rate"});
  for (const cache::CurvePoint& point : curve.points) {
    table.add_row({bytes_text(point.size), std::to_string(point.ways), core::format_number(point.miss_rate * 100.0, 2) + "%"});
  }
  return describe(options, measured) + "\n" + table.render() +
         "\nMiss rate = misses / line references (an access straddling two lines is two). The last size is the\n"
         "first from which the curve is flat: " +
         (measured.statstack ? "every sampled reuse hits." : "only first references to a line miss.") + "\n";
}

std::string render_json(const CacheCurveOptions& options, const Measured& measured) {
  const cache::MissRateCurve& curve = measured.curve();
  nlohmann::ordered_json json;
  json["line"] = curve.line_size;
  json["sets"] = curve.sets;
  json["method"] = options.method;
  json["accesses"] = curve.accesses;
  json["references"] = curve.references;
  if (measured.statstack) {
    json["sample_rate"] = measured.estimate.sample_rate;
    json["samples"] = measured.estimate.samples;
    json["unfinished"] = measured.estimate.unfinished;
    json["seed"] = options.seed;
  } else {
    json["cold_misses"] = curve.cold_misses;
  }
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const cache::CurvePoint& point : curve.points) points.push_back({{"size", point.size}, {"assoc", point.ways}, {"miss_rate", point.miss_rate}});
  json["points"] = std::move(points);
  return core::json_text(json, 2) + "\n";
}

std::string render_csv(const Measured& measured) {
  std::string out = "size,assoc,miss_rate\n";
  for (const cache::CurvePoint& point : measured.curve().points) {
    out += std::to_string(point.size) + "," + std::to_string(point.ways) + "," + core::format_shortest(point.miss_rate) + "\n";
  }
  return out;
}

// The curve through gnuplot: miss rate in percent over the size on a log2 axis.
void plot_curve(const CacheCurveOptions& options, const Measured& measured) {
  const std::string extension = picture_extension(options.plot);
  std::ostringstream script;
  script << gnuplot_terminal(extension);
  script << "set title " << gnuplot_quote(measured.trace + " · line " + std::to_string(measured.curve().line_size) + " B · " +
                                          (measured.curve().sets == 1 ? "fully associative" : std::to_string(measured.curve().sets) + " sets") +
                                          " LRU · " + options.method)
         << " noenhanced\n";
  script << "set xlabel \"cache size (bytes, log scale)\"\nset ylabel \"miss rate (%)\"\nset format y \"%g\"\nset logscale x 2\nset yrange [0:*]\nset grid\nset key off\n";
  // Tics at the sizes that are powers of two, every other one when there are more than 12.
  std::vector<std::uint64_t> tics;
  for (const cache::CurvePoint& point : measured.curve().points) {
    if (std::has_single_bit(point.size)) tics.push_back(point.size);
  }
  const std::size_t step = tics.size() > 12 ? 2 : 1;
  script << "set xtics (";
  for (std::size_t i = 0; i < tics.size(); i += step) script << (i == 0 ? "" : ", ") << gnuplot_quote(bytes_text(tics[i])) << ' ' << tics[i];
  const auto& points = measured.curve().points;
  script << ")\nset xrange [" << static_cast<double>(points.front().size) / 1.25 << ":" << static_cast<double>(points.back().size) * 1.25
         << "]\n$curve << EOD\n";
  for (const cache::CurvePoint& point : measured.curve().points) script << point.size << ' ' << core::format_shortest(point.miss_rate * 100.0) << '\n';
  script << "EOD\nplot $curve using 1:2 with linespoints pt 7 lw 2\n";
  draw_picture(script.str(), options.plot, extension);
}

Measured measure(const CacheCurveOptions& options, cache::TraceFormat format) {
  const std::unique_ptr<TraceInput> input = open_trace_input(options.trace, format);
  cache::TraceReader& reader = *input->reader;
  Measured measured;
  measured.trace = input->name;
  Progress bar("augur cache curve", 0, "accesses", Progress::mode_for(options.quiet, options.progress));
  const auto progress = [&bar](std::uint64_t done) { bar.update(static_cast<long long>(done)); };
  measured.statstack = options.method == "statstack";
  if (measured.statstack) {
    measured.estimate = cache::statstack_curve(reader, options.line, options.sample, options.seed, progress);
  } else {
    measured.estimate.curve = cache::stack_distance_curve(reader, options.line, options.sets, progress);
  }
  measured.format = reader.format();
  return measured;
}

int run_cache_curve(const CacheCurveOptions& options, const CLI::App& command) {
  const bool statstack = options.method == "statstack";
  const char* usage = nullptr;
  if (statstack && command.count("--sets") > 0) usage = "--sets: StatStack models fully associative caches; use --method exact";
  if (!statstack && (command.count("--sample") > 0 || command.count("--seed") > 0)) usage = "--sample and --seed go with --method statstack";
  if (usage != nullptr) {
    std::fprintf(stderr, "augur cache curve: %s\n", usage);
    return 2;
  }
  try {
    const cache::TraceFormat format = trace_format_option(options.format);
    if (!options.plot.empty()) {
      core::refuse_output_over_inputs(options.plot, {options.trace});
      const std::string extension = picture_extension(options.plot);
      if (extension != "svg" && extension != "png") throw core::InputError({"--plot", 0, 0}, "the picture must end in .svg or .png, not '" + options.plot + "'");
    }
    catch_interruptions();  // Ctrl-C: stops at the next progress call (every 2^24 accesses), nothing written
    const Measured measured = measure(options, format);
    if (!options.plot.empty()) plot_curve(options, measured);
    const std::string output = options.json ? render_json(options, measured) : options.csv ? render_csv(measured) : render_table(options, measured);
    std::fputs(output.c_str(), stdout);
    if (!options.plot.empty() && !options.quiet) std::fprintf(stderr, "augur cache curve: wrote %s\n", options.plot.c_str());
    return 0;
  } catch (const std::exception& error) {
    return report_error("cache curve", error);
  }
}

// CLI11's check of a power of two in [low, high].
CLI::Validator power_of_two(std::uint64_t low, std::uint64_t high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        std::uint64_t value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::has_single_bit(value) || value < low || value > high) {
          return "expected a power of two from " + std::to_string(low) + " to " + std::to_string(high) + ", found '" + text + "'";
        }
        return "";
      },
      "POWER_OF_2");
}

}  // namespace

Runner declare_cache_curve_command(CLI::App& command) {
  auto options = std::make_shared<CacheCurveOptions>();
  command.add_option("trace", options->trace, "The memory trace: din, lackey or augur binary (docs/formats.md); '-': standard input")->required();
  command.add_option("--line", options->line, "The line size in bytes")->default_val(64)->check(power_of_two(2, std::uint64_t{1} << 20));
  command.add_option("--sets", options->sets, "A fixed number of sets: the curve over associativities 1..16, then powers of two (default: 1, fully associative)")
      ->check(power_of_two(1, std::uint64_t{1} << 18));
  command.add_option("--method", options->method, "exact: Mattson's stack distances; statstack: StatStack's estimate from sampled reuse distances")
      ->check(CLI::IsMember({"exact", "statstack"}))->default_val("exact");
  command.add_option("--sample", options->sample, "StatStack's sampling rate: the share of line references sampled")
      ->default_val(1e-3)->check(finite_number())->check(CLI::Range(1e-9, 1.0));
  command.add_option("--seed", options->seed, "StatStack's random seed (the same seed samples the same references)")->default_val(1);
  command.add_option("--format", options->format, "The trace's format: din, lackey, augur (default: detected from its first bytes)")
      ->check(CLI::IsMember({"detect", "din", "lackey", "augur"}));
  add_json_flag(command, options->json, "JSON instead of the table: {\"line\", \"sets\", \"method\", ..., \"points\": [{\"size\", \"assoc\", \"miss_rate\"}]}");
  add_csv_flag(command, options->csv, "CSV instead of the table: size,assoc,miss_rate");
  command.add_option("--plot", options->plot, "Also draw the curve with gnuplot into FILE.svg or FILE.png (written whole or not at all)")->type_name("FILE");
  add_progress_flags(command, options->progress, options->quiet, " (every 2^24 accesses)");
  command.footer(
      "Sizes: with one set, every power of two of lines; with --sets S, S x assoc x line for assoc 1..16, then powers\n"
      "of two; each up to the first size from which the curve is flat.\n"
      "Examples:\n"
      "  augur cache curve examples/cache/transpose.lackey --line 64\n"
      "  augur cache curve trace.din --sets 64 --json\n"
      "  augur cache curve trace.augur --method statstack --sample 1e-3 --plot curve.svg\n"
      "Guide: docs/cache.md");
  return [options, &command] { return run_cache_curve(*options, command); };
}

}  // namespace augur::cli
