// augur cache sim TRACE --cache SPEC [--cache SPEC ...] | --machine: the exact trace-driven simulation of a
// cache hierarchy (docs/cache.md, "Exact simulation"); the engine is src/sim/cache/cache_sim.hpp.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "augur/core/diagnostics.hpp"
#include "cache_input.hpp"
#include "progress.hpp"
#include "cache_machine.hpp"
#include "command.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "sim/cache/cache_sim.hpp"
#include "sim/cache/trace_reader.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

namespace cache = sim::cache;

struct CacheSimOptions {
  std::string trace;
  std::vector<std::string> caches;
  bool machine = false;
  std::string format = "detect";
  bool json = false;
  bool no_3c = false;
  bool progress = false;
  bool quiet = false;
};

constexpr std::uint64_t progress_every = std::uint64_t{1} << 24;  // also how often Ctrl-C is looked at

std::string size_text(std::uint64_t bytes) {
  if (bytes % (std::uint64_t{1} << 30) == 0) return std::to_string(bytes >> 30) + "G";
  if (bytes % (std::uint64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes % (std::uint64_t{1} << 10) == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes);
}

std::string render_table(const cache::CacheHierarchy& hierarchy, const std::string& trace, const cache::TraceReader& reader) {
  std::ostringstream out;
  out << "Trace " << trace << " (" << cache::trace_format_name(reader.format()) << "): " << hierarchy.accesses() << " accesses";
  if (reader.skipped() > 0) out << ", din records skipped (labels 3 and 4): " << reader.skipped();
  out << "\n\n";
  core::TextTable table({"Level", "Size", "Assoc", "Line", "Policy", "Accesses", "Misses", "Miss rate", "Read misses",
                         "Write misses", "Compulsory", "Capacity", "Conflict", "Writebacks"});
  for (const cache::CacheLevel& level : hierarchy.levels()) {
    const cache::CacheSpec& spec = level.spec();
    const cache::LevelStatistics& s = level.statistics();
    const auto classified = [&](std::uint64_t value) { return hierarchy.classified() ? std::to_string(value) : std::string("-"); };
    table.add_row({spec.name, size_text(spec.size), spec.fully_associative ? "full" : std::to_string(spec.assoc),
                   std::to_string(spec.line), cache::policy_name(spec.policy), std::to_string(s.accesses),
                   std::to_string(s.misses()), core::format_number(s.miss_rate() * 100.0, 2) + "%",
                   std::to_string(s.read_misses), std::to_string(s.write_misses), classified(s.compulsory),
                   classified(s.capacity), classified(s.conflict), std::to_string(s.writebacks)});
  }
  out << table.render();
  out << "\nAccesses and misses count lines: an access that straddles two lines is two. The 3C: compulsory = first\n"
         "access to the line at this level; capacity = also a miss in a fully associative LRU cache of the same size;\n"
         "conflict = the other misses.\n";
  return out.str();
}

std::string render_json(const cache::CacheHierarchy& hierarchy) {
  nlohmann::ordered_json json;
  json["accesses"] = hierarchy.accesses();
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const cache::CacheLevel& level : hierarchy.levels()) {
    const cache::CacheSpec& spec = level.spec();
    const cache::LevelStatistics& s = level.statistics();
    const auto classified = [&](std::uint64_t value) { return hierarchy.classified() ? nlohmann::ordered_json(value) : nlohmann::ordered_json(); };
    levels.push_back({{"name", spec.name}, {"size", spec.size}, {"assoc", spec.assoc}, {"line", spec.line},
                      {"policy", cache::policy_name(spec.policy)}, {"accesses", s.accesses}, {"misses", s.misses()},
                      {"miss_rate", s.miss_rate()}, {"compulsory", classified(s.compulsory)},
                      {"capacity", classified(s.capacity)}, {"conflict", classified(s.conflict)},
                      {"writebacks", s.writebacks}, {"read_misses", s.read_misses}, {"write_misses", s.write_misses}});
  }
  json["levels"] = std::move(levels);
  return core::json_text(json, 2) + "\n";
}

std::vector<cache::CacheSpec> levels_of(const CacheSimOptions& options) {
  std::vector<cache::CacheSpec> levels;
  if (options.machine) levels = machine_cache_levels();
  for (const std::string& text : options.caches) levels.push_back(cache::parse_cache_spec(text, "--cache"));
  cache::check_hierarchy(levels, "--cache");
  return levels;
}

int run_cache_sim(const CacheSimOptions& options) {
  try {
    const cache::TraceFormat format = trace_format_option(options.format);
    const std::vector<cache::CacheSpec> levels = levels_of(options);
    const std::unique_ptr<TraceInput> input = open_trace_input(options.trace, format);
    cache::TraceReader& reader = *input->reader;
    cache::CacheHierarchy hierarchy(levels, !options.no_3c);
    catch_interruptions();  // Ctrl-C: stops at the next progress call (quiet or not), nothing printed
    Progress progress("augur cache sim", 0, "accesses", Progress::mode_for(options.quiet, options.progress));
    hierarchy.run(reader, [&progress](std::uint64_t done) { progress.update(static_cast<long long>(done)); }, progress_every);
    progress.clear();
    const std::string output = options.json ? render_json(hierarchy) : render_table(hierarchy, input->name, reader);
    std::fputs(output.c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("cache sim", error);
  }
}

}  // namespace

Runner declare_cache_sim_command(CLI::App& command) {
  auto options = std::make_shared<CacheSimOptions>();
  command.add_option("trace", options->trace, "The memory trace: din, lackey or augur binary (docs/formats.md); '-': standard input")
      ->required();
  command.add_option("--cache", options->caches,
                     "A level, closest to the processor first: NAME:size=32K,assoc=8|full,line=64,policy=lru|fifo|random|plru,"
                     "write=back|through,alloc=yes|no[,seed=N]; l1i and l1d given first make a split first level")
      ->type_name("SPEC")
      ->allow_extra_args(false);  // one SPEC per --cache, so that a trace after it stays the trace
  command.add_flag("--machine", options->machine,
                   "This machine's levels from /sys/devices/system/cpu/cpu0/cache (LRU, write-back, write-allocate), "
                   "before any --cache");
  command.add_option("--format", options->format, "The trace's format: din, lackey, augur (default: detected from its first bytes)")
      ->check(CLI::IsMember({"detect", "din", "lackey", "augur"}));
  add_json_flag(command, options->json, "JSON instead of the table");
  command.add_flag("--no-3c", options->no_3c, "Do not classify the misses (faster, no memory per line touched)");
  add_progress_flags(command, options->progress, options->quiet, " (every 2^24 accesses)");
  command.footer(
      "Examples:\n"
      "  augur cache sim examples/cache/small.din --cache l1:size=256,assoc=2,line=16\n"
      "  augur cache sim trace.lackey --cache l1i:size=32K,assoc=8 --cache l1d:size=32K,assoc=8 --cache l2:size=1M,assoc=16\n"
      "  augur cache sim trace.lackey --machine --json\n"
      "Guide: docs/cache.md");
  return [options] { return run_cache_sim(*options); };
}

}  // namespace augur::cli
