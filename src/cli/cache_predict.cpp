// augur cache predict: a program model's miss rates by the seed's stochastic cache simulator (seed 004 §2.2),
// or by the exact simulator or StatStack on the model's expanded trace (issue 17; docs/cache.md, "The
// stochastic simulator"). Printing: cache_predict_print.cpp.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "augur/sim/engine.hpp"
#include "cache_input.hpp"
#include "cache_predict.hpp"
#include "command.hpp"
#include "progress.hpp"
#include "core/files.hpp"
#include "sim/cache/cache_sim.hpp"
#include "sim/cache/model_trace.hpp"
#include "sim/cache/stack_distance.hpp"
#include "sim/cache/statstack.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

namespace cache = sim::cache;

// The model's text (kept: the table quotes each reference's statement); '-' reads standard input.
core::SourceText model_source(const std::string& path) {
  if (path == "-") return {"<stdin>", std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>())};
  return {path, core::read_file(path)};
}

std::vector<cache::CacheSpec> levels_of(const CachePredictOptions& options) {
  std::vector<cache::CacheSpec> levels;
  for (const std::string& text : options.caches) levels.push_back(cache::parse_cache_spec(text, "--cache"));
  cache::check_hierarchy(levels, "--cache");
  for (const cache::CacheSpec& level : levels) {
    const bool modelled = level.policy == cache::ReplacementPolicy::Lru || level.policy == cache::ReplacementPolicy::Random;
    if (options.method == "stochastic" && !modelled) {
      throw core::InputError({"--cache", 0, 0}, std::string("the stochastic simulator models lru and random replacement, not ") +
                                                    cache::policy_name(level.policy));
    }
    if (options.method == "statstack" && (level.policy != cache::ReplacementPolicy::Lru || levels.size() > 1)) {
      throw core::InputError({"--cache", 0, 0}, "statstack estimates one fully associative lru level");
    }
  }
  return levels;
}

// --sizes: the first level at each size (its line and associativity kept); every other level as given.
std::vector<std::vector<cache::CacheSpec>> configurations(const CachePredictOptions& options,
                                                          const std::vector<cache::CacheSpec>& levels) {
  if (options.sizes.empty()) return {levels};
  std::vector<std::vector<cache::CacheSpec>> result;
  for (const std::string& text : options.sizes) {
    std::uint64_t size = 0;
    cache::CacheSpec first = levels.front();
    const std::uint64_t ways = first.fully_associative ? 1 : first.assoc;
    if (!cache::parse_size(text, size) || size == 0 || size % (first.line * ways) != 0) {
      throw core::InputError({"--sizes", 0, 0}, "expected sizes that are multiples of line x assoc (" +
                                                    std::to_string(first.line * ways) + "), found '" + text + "'");
    }
    first.size = size;
    if (first.fully_associative) first.assoc = size / first.line;
    std::vector<cache::CacheSpec> configuration = levels;
    configuration.front() = first;
    result.push_back(std::move(configuration));
  }
  return result;
}

PredictPoint predict_stochastic(const cache::Model& model, const std::vector<cache::CacheSpec>& levels,
                                const CachePredictOptions& options) {
  std::vector<cache::StochasticLevel> stochastic;
  for (const cache::CacheSpec& level : levels) {
    stochastic.push_back({level.name, level.size, level.line, level.assoc,
                          level.policy == cache::ReplacementPolicy::Random ? cache::StochasticReplacement::Random
                                                                          : cache::StochasticReplacement::Lru});
  }
  cache::StochasticOptions settings;
  settings.loops = options.loops == "single" ? cache::LoopMethod::SinglePass : cache::LoopMethod::FixedPoint;
  PredictPoint point;
  point.levels = levels;
  point.stochastic = cache::predict_stochastic(model, stochastic, settings);
  for (const cache::StochasticLevelResult& level : point.stochastic->levels) point.counts.emplace_back(level.accesses, level.misses);
  return point;
}

PredictPoint predict_from_trace(const cache::Model& model, const std::vector<cache::CacheSpec>& levels,
                                const CachePredictOptions& options) {
  PredictPoint point;
  point.levels = levels;
  cache::ModelTrace trace(model, sim::RandomStream(options.seed, 0));
  Progress bar("augur cache predict", 0, "accesses", Progress::mode_for(options.quiet));
  const auto progress = [&bar](std::uint64_t done) { bar.update(static_cast<long long>(done)); };
  if (options.method == "exact") {
    cache::CacheHierarchy hierarchy(levels, false);
    hierarchy.run(trace, progress, std::uint64_t{1} << 24);
    for (const cache::CacheLevel& level : hierarchy.levels()) {
      point.counts.emplace_back(static_cast<double>(level.statistics().accesses), static_cast<double>(level.statistics().misses()));
    }
    return point;
  }
  cache::StatStackSampler sampler(levels.front().line, options.sample_rate, options.seed);
  cache::read_batches(trace, [&sampler](std::span<const cache::Access> batch) { sampler.add(batch); }, progress);
  const cache::StatStackEstimate estimate = sampler.estimate();
  const auto references = static_cast<double>(sampler.references());
  point.counts.emplace_back(references, references * estimate.miss_rate(levels.front().lines()));
  point.samples = estimate.samples();
  return point;
}

int run_cache_predict(const CachePredictOptions& options) {
  try {
    const std::vector<cache::CacheSpec> levels = levels_of(options);
    const core::SourceText source = model_source(options.model);
    const cache::Model model = cache::parse_model(source, parse_model_defines(options.defines));
    CachePredictReport report{options, source, model, {}};
    catch_interruptions();  // Ctrl-C: stops at the next progress call or configuration, nothing printed
    for (const auto& configuration : configurations(options, levels)) {
      check_interrupted();
      const auto started = std::chrono::steady_clock::now();
      PredictPoint point = options.method == "stochastic" ? predict_stochastic(model, configuration, options)
                                                          : predict_from_trace(model, configuration, options);
      point.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      report.points.push_back(std::move(point));
    }
    const std::string output = options.json ? render_predict_json(report)
                               : options.csv ? render_predict_csv(report)
                                             : render_predict_table(report);
    std::fputs(output.c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("cache predict", error);
  }
}

}  // namespace

Runner declare_cache_predict_command(CLI::App& command) {
  auto options = std::make_shared<CachePredictOptions>();
  command.add_option("model", options->model, "The program model (docs/formats.md, \"Program models\"); '-': standard input")
      ->required();
  command.add_option("--cache", options->caches,
                     "A level, closest to the processor first: NAME:size=32K,assoc=8|full,line=64,policy=lru|random "
                     "(docs/formats.md, \"Cache specifications\")")
      ->type_name("SPEC")
      ->allow_extra_args(false)  // one SPEC per --cache, so that a model after it stays the model
      ->required();
  command.add_option("--method", options->method,
                     "stochastic: the seed's stochastic simulator, no trace; exact: the exact simulator on the model's "
                     "expanded trace; statstack: StatStack's estimate from sampled reuse distances of that trace")
      ->check(CLI::IsMember({"stochastic", "exact", "statstack"}))
      ->default_val("stochastic");
  command.add_option("--loops", options->loops,
                     "fixed: each loop's history at its fixed point (or periodic steady state); single: the seed's "
                     "method, the first iteration then one pass for all the others")
      ->check(CLI::IsMember({"fixed", "single"}))
      ->default_val("fixed");
  command.add_option("--sizes", options->sizes, "A miss-rate curve: the first level at each of these sizes (32K,64K,...)")
      ->delimiter(',')
      ->type_name("LIST")
      ->allow_extra_args(false);
  command.add_option("--define", options->defines, "Set a parameter of the model: NAME=VALUE (repeatable)")
      ->type_name("N=V")
      ->allow_extra_args(false);
  command.add_option("--seed", options->seed, "Seed of the expanded trace's branches and pointers (exact, statstack)")->default_val(1);
  command.add_option("--sample-rate", options->sample_rate, "StatStack's sampling rate")
      ->default_val(0.001)
      ->check(finite_number())
      ->check(CLI::Range(1e-9, 1.0));
  add_json_flag(command, options->json, "JSON instead of the table");
  add_csv_flag(command, options->csv, "CSV: one line per level (per size with --sizes)");
  command.add_flag("-q,--quiet", options->quiet, "No progress on stderr");
  command.footer(
      "Examples:\n"
      "  augur cache predict examples/cache/models/ab_loop.model --cache l1:size=1K,assoc=2,line=64\n"
      "  augur cache predict examples/cache/models/ab_loop.model --cache l1:size=1K,assoc=2 --loops single\n"
      "  augur cache predict examples/cache/models/matmul.model --cache l1:size=32K,assoc=8 --sizes 4K,8K,16K,32K,64K\n"
      "Guide: docs/cache.md");
  return [options] { return run_cache_predict(*options); };
}

}  // namespace augur::cli
