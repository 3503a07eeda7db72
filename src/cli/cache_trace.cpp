// augur cache trace MODEL -o FILE: a program model expanded into its exact address trace (docs/cache.md,
// "Program models and traces"); the engine is src/sim/cache/model_trace.hpp, the writer trace_writer.hpp.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <streambuf>

#include "augur/core/diagnostics.hpp"
#include "cache_input.hpp"
#include "command.hpp"
#include "progress.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "sim/cache/line_table.hpp"
#include "sim/cache/model_trace.hpp"
#include "sim/cache/trace_writer.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

namespace cache = sim::cache;

struct CacheTraceOptions {
  std::string model;
  std::string output;
  std::uint64_t seed = 1;
  std::vector<std::string> defines;
  std::string format = "augur";
  std::uint64_t line = 64;
  bool json = false;
  bool progress = false;
  bool quiet = false;
};

struct TraceSummary {
  std::uint64_t accesses = 0;
  std::uint64_t distinct_lines = 0;
  std::uint64_t bytes = 0;
  std::uint64_t skipped_calls = 0;
};

constexpr std::uint64_t progress_every = std::uint64_t{1} << 24;  // also how often Ctrl-C is looked at

// An ostream's buffer that hands everything to an OutputFile (written whole or not at all).
class OutputFileBuffer final : public std::streambuf {
 public:
  explicit OutputFileBuffer(core::OutputFile& file) : file_(file) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char character = traits_type::to_char_type(c);
    file_.write(std::string_view(&character, 1));
    return c;
  }
  std::streamsize xsputn(const char* text, std::streamsize count) override {
    file_.write(std::string_view(text, static_cast<std::size_t>(count)));
    return count;
  }

 private:
  core::OutputFile& file_;
};

TraceSummary write_trace(const cache::Model& model, const CacheTraceOptions& options, cache::TraceFormat format,
                         core::OutputFile& file) {
  OutputFileBuffer buffer(file);
  std::ostream out(&buffer);
  cache::TraceWriter writer(out, format);
  cache::ModelTrace trace(model, sim::RandomStream(options.seed, 0));
  cache::LineTable lines(1024);
  std::vector<cache::Access> batch(8192);
  Progress progress("augur cache trace", 0, "accesses", Progress::mode_for(options.quiet, options.progress));
  std::uint64_t next_report = progress_every;
  std::uint64_t previous = ~std::uint64_t{0};  // the last line counted: runs of one line are common
  for (std::size_t count; (count = trace.read(batch)) > 0;) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t first = batch[k].address / options.line;
      const std::uint64_t last = (batch[k].address + batch[k].size - 1) / options.line;
      if (first == previous && last == previous) continue;
      for (std::uint64_t line = first; line <= last; ++line) lines.insert_if_absent(line);
      previous = last;
    }
    writer.write(std::span<const cache::Access>(batch.data(), count));
    if (writer.accesses() >= next_report) {
      progress.update(static_cast<long long>(writer.accesses()));
      next_report += progress_every;
    }
  }
  writer.flush();
  return TraceSummary{writer.accesses(), lines.size(), writer.bytes(), trace.skipped_calls()};
}

std::string render(const TraceSummary& summary, const CacheTraceOptions& options) {
  if (options.json) {
    nlohmann::ordered_json json = {{"model", options.model},
                                   {"output", options.output},
                                   {"format", options.format},
                                   {"seed", options.seed},
                                   {"accesses", summary.accesses},
                                   {"line", options.line},
                                   {"distinct_lines", summary.distinct_lines},
                                   {"bytes", summary.bytes},
                                   {"skipped_calls", summary.skipped_calls}};
    return core::json_text(json, 2) + "\n";
  }
  std::string text = options.model + ": " + std::to_string(summary.accesses) + " accesses, " +
                     std::to_string(summary.distinct_lines) + " distinct " + std::to_string(options.line) +
                     "-byte lines, " + std::to_string(summary.bytes) + " bytes written to " + options.output + " (" +
                     options.format + ")";
  if (summary.skipped_calls > 0) text += ", " + std::to_string(summary.skipped_calls) + " calls skipped at max_depth";
  return text + "\n";
}

int run_cache_trace(const CacheTraceOptions& options) {
  try {
    if (options.line == 0 || (options.line & (options.line - 1)) != 0) {
      throw core::InputError({"--line", 0, 0},
                             "the line size must be a power of two, not " + std::to_string(options.line));
    }
    const cache::TraceFormat format = options.format == "din" ? cache::TraceFormat::Din : cache::TraceFormat::Augur;
    core::refuse_output_over_inputs(options.output, {options.model});
    const cache::Model model = read_cache_model(options.model, options.defines);
    catch_interruptions();  // Ctrl-C: stops at the next progress call, the trace's temporary removed
    core::OutputFile file(options.output);
    const TraceSummary summary = write_trace(model, options, format, file);
    file.commit();
    std::fputs(render(summary, options).c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("cache trace", error);
  }
}

}  // namespace

Runner declare_cache_trace_command(CLI::App& command) {
  auto options = std::make_shared<CacheTraceOptions>();
  command
      .add_option("model", options->model,
                  "The program model (docs/formats.md, \"Program models\"); '-': standard input")
      ->required();
  command.add_option("-o,--output", options->output, "The trace file to write (whole or not at all)")->required();
  command.add_option("--seed", options->seed, "Seed of the draws of branches and pointer references (default 1)");
  command
      .add_option("--define", options->defines, "A parameter's value, NAME=VALUE (repeatable), over the model's own")
      ->type_name("N=V");
  command.add_option("--format", options->format, "augur (binary, default) or din (text)")
      ->check(CLI::IsMember({"augur", "din"}));
  command.add_option("--line", options->line, "Line size in bytes for the count of distinct lines (default 64)");
  add_json_flag(command, options->json, "The summary as JSON");
  add_progress_flags(command, options->progress, options->quiet, " (every 2^24 accesses)");
  return [options] { return run_cache_trace(*options); };
}

}  // namespace augur::cli
