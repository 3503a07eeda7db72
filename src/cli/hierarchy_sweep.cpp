// augur hierarchy sweep --model M[,M...] --fanout 2,4,8 --processors 4:1024:*2 [--levels L] [--seed S]
// [--replications R] [--threads T] [--json | --csv] [-q] (docs/hierarchy.md, "Sweeps"): the execution time
// relative to the ideal one (Figure 19) and the actual execution time (Figure 20) by system size, one row per
// model and fan-out.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "augur/core/diagnostics.hpp"
#include "core/json_text.hpp"
#include "core/stats_json.hpp"
#include "core/table.hpp"
#include "hierarchy_command.hpp"
#include "sim/hierarchy/sweep.hpp"
#include "sim/parallel/ranks.hpp"
#include "flags.hpp"
#include "progress.hpp"

namespace augur::cli {
namespace {

namespace hierarchy = sim::hierarchy;
using core::format_number;

// "4,8,16" or "4:1024:*2" (from 4 to 1024, times 2) or "4:20:+4", and mixtures separated by commas.
std::vector<long> parse_sizes(const std::vector<std::string>& items, const std::string& option, long maximum) {
  std::vector<long> sizes;
  const auto number = [&](const std::string& text) {
    std::size_t used = 0;
    long value = 0;
    try {
      value = std::stol(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || value < 1 || value > maximum)
      throw core::InputError({option, 0, 0}, "expected a whole number from 1 to " + std::to_string(maximum) + ", found '" + text + "'");
    return value;
  };
  for (const auto& item : items) {
    const std::size_t first = item.find(':');
    if (first == std::string::npos) {
      sizes.push_back(number(item));
      continue;
    }
    const std::size_t second = item.find(':', first + 1);
    if (second == std::string::npos || second + 2 > item.size() || (item[second + 1] != '*' && item[second + 1] != '+'))
      throw core::InputError({option, 0, 0}, "expected FROM:TO:*FACTOR or FROM:TO:+STEP, found '" + item + "'");
    const long from = number(item.substr(0, first));
    const long to = number(item.substr(first + 1, second - first - 1));
    const long step = number(item.substr(second + 2));
    const bool times = item[second + 1] == '*';
    if (times && step < 2) throw core::InputError({option, 0, 0}, "a factor must be 2 at least, found '" + item + "'");
    for (long value = from; value <= to && sizes.size() < 10000; value = times ? value * step : value + step) sizes.push_back(value);
  }
  return sizes;
}

std::string sweep_table(const HierarchyOptions& cli, int levels, const std::vector<hierarchy::SweepPoint>& points, const std::vector<long>& sizes) {
  std::ostringstream out;
  out << "Sweep: " << levels << " levels" << (cli.machine.empty() ? "" : " (settings of " + cli.machine + ")") << ", " << cli.replications << " replications per point, seed " << cli.seed
      << "; N processors in all, N / F^" << (levels - 1) << " under each lowest CS\n";
  for (const bool relative : {true, false}) {
    out << "\n" << (relative ? "Execution time relative to the ideal execution (Figure 19), by N" : "Execution time (Figure 20), by N; ideal in the last rows") << "\n";
    std::vector<std::string> header{"Model", "Fan-out"};
    for (const long size : sizes) header.push_back(std::to_string(size));
    core::TextTable table(header);
    for (std::size_t i = 0; i < points.size(); i += sizes.size()) {
      std::vector<std::string> row{points[i].model, std::to_string(points[i].fanout)};
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        const auto& point = points[i + k];
        row.push_back(!point.possible ? "-" : relative ? format_number(point.summary.ratio.mean, 3) : format_number(point.summary.time.mean, 1));
      }
      table.add_row(row);
    }
    if (!relative) {  // the ideal time depends on N only: one row per model, from its first fan-out that has the point
      for (std::size_t i = 0; i < points.size(); i += sizes.size()) {
        if (i > 0 && points[i].model == points[i - sizes.size()].model) continue;
        std::vector<std::string> row{points[i].model, "ideal"};
        for (std::size_t k = 0; k < sizes.size(); ++k) {
          std::string cell = "-";
          for (std::size_t j = i + k; j < points.size() && points[j].model == points[i].model; j += sizes.size())
            if (points[j].possible) {
              cell = format_number(points[j].summary.ideal_time.mean, 1);
              break;
            }
          row.push_back(cell);
        }
        table.add_row(row);
      }
    }
    out << table.render();
  }
  out << "(means over the replications; '-': N is not a multiple of F^" << (levels - 1) << "; --json has the 95% intervals)\n";
  return out.str();
}

std::string sweep_json(const HierarchyOptions& cli, int levels, const std::vector<hierarchy::SweepPoint>& points) {
  nlohmann::ordered_json json;
  json["levels"] = levels;
  json["seed"] = cli.seed;
  json["replications"] = cli.replications;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& point : points) {
    if (!point.possible) continue;
    const auto& ratio = point.summary.ratio;
    list.push_back({{"model", point.model}, {"fanout", point.fanout}, {"processors", point.processors},
                    {"time", core::estimate_json(point.summary.time.estimate())}, {"ideal_time", core::estimate_json(point.summary.ideal_time.estimate())},
                    {"ratio", core::estimate_json(ratio.estimate())}, {"ratio_ci", {ratio.mean - ratio.half_width, ratio.mean + ratio.half_width}},
                    {"packets", {{"grasped", point.summary.grasped.mean}, {"migrated", point.summary.migrated.mean}}}});
  }
  json["points"] = std::move(list);
  return core::json_text(json, 2) + "\n";
}

std::string sweep_csv(const std::vector<hierarchy::SweepPoint>& points) {
  std::string text = "model,fanout,processors,ratio,ratio_low,ratio_high,time,ideal_time,migrated\n";
  char line[512];
  for (const auto& point : points) {
    if (!point.possible) continue;
    const auto& s = point.summary;
    std::snprintf(line, sizeof line, "%s,%d,%ld,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", point.model.c_str(), point.fanout, point.processors, s.ratio.mean,
                  s.ratio.mean - s.ratio.half_width, s.ratio.mean + s.ratio.half_width, s.time.mean, s.ideal_time.mean, s.migrated.mean);
    text += line;
  }
  return text;
}

struct SweepLists {
  std::vector<std::string> models, fanouts, processors;
  bool csv = false;
};

}  // namespace

std::shared_ptr<HierarchyOptions> add_hierarchy_sweep(CLI::App& command) {
  auto options = std::make_shared<HierarchyOptions>();
  auto lists = std::make_shared<SweepLists>();
  command.add_option("--model", lists->models, "Models: presets (UU20, XU11, XP11, XU20) or model files, separated by commas")->delimiter(',')->required();
  command.add_option("--fanout", lists->fanouts, "Fan-outs: 2,4,8,16 or FROM:TO:*FACTOR")->delimiter(',')->required();
  command.add_option("--processors", lists->processors, "Processors in all: 4:1024:*2, or a list")->delimiter(',')->required();
  auto* machine = command.add_option("--machine", options->machine, "A machine file whose levels and per-level settings (capacity, schedule, transfer, network, grasp, migration) the points take; its fan-out and processors are replaced")->type_name("FILE");
  command.add_option("--levels", options->levels, "Levels of control subsystems (without --machine)")->default_val(2)->check(CLI::Range(1, 8))->excludes(machine);
  command.add_option("--seed", options->seed, "Seed of the programs (replication r of every point runs the program of (seed, r))")->default_val(1);
  command.add_option("--replications", options->replications, "Replications per point")->default_val(10)->check(CLI::Range(1, 100000));
  add_threads_option(command, options->threads, "Threads over the points (0: the hardware's); the numbers do not depend on it", 0)->default_val(0);
  add_json_flag(command, options->json, "JSON instead of the tables");
  add_csv_flag(command, lists->csv, "CSV: one line per point");
  add_progress_flags(command, options->progress, options->quiet);
  command.callback([options, lists] {
    options->model.clear();
    for (const auto& model : lists->models) options->model += (options->model.empty() ? "" : ",") + model;
    options->output = lists->csv ? "csv" : "";
    options->sweep_fanouts = lists->fanouts;
    options->sweep_processors = lists->processors;
  });
  return options;
}

int run_hierarchy_sweep(const HierarchyOptions& cli) {
  return run_hierarchy_on_ranks("sweep", [&](const sim::parallel::Ranks& ranks) {
    hierarchy::SweepOptions options;
    options.levels = cli.levels;
    if (!cli.machine.empty()) {
      const hierarchy::Machine machine = load_machine(cli);
      options.levels = machine.levels;
      options.settings = machine.level;
    }
    std::vector<hierarchy::SweepModel> models;
    std::stringstream names(cli.model);
    for (std::string name; std::getline(names, name, ',');) models.push_back({name, load_model(name, options.levels, "--model")});
    std::vector<int> fanouts;
    for (const long fanout : parse_sizes(cli.sweep_fanouts, "--fanout", 65536)) fanouts.push_back(static_cast<int>(fanout));
    const std::vector<long> sizes = parse_sizes(cli.sweep_processors, "--processors", sim::hierarchy::maximum_processors);
    options.seed = cli.seed;
    options.replications = cli.replications;
    options.threads = cli.threads;
    catch_interruptions();  // Ctrl-C: the threads stop before their next replication, nothing is printed
    options.interruption = check_interrupted;
    const auto points_total = static_cast<long long>(models.size() * fanouts.size() * sizes.size());
    Progress bar("augur hierarchy sweep", points_total, "points", ranks.root() ? Progress::mode_for(cli.quiet, cli.progress) : Progress::Mode::off);
    options.progress = [&bar](int done, int /*total*/) { bar.update(done); };
    options.runner = [&ranks](int count, int threads, const std::function<hierarchy::SweepPoint(int)>& point,
                              const std::function<void(int, hierarchy::SweepPoint&&)>& combine) {
      sim::parallel::run_replications_over_ranks(
          ranks, count, threads, point, [](const hierarchy::SweepPoint& done) { return sim::parallel::encode_doubles(hierarchy::point_values(done)); },
          [](const std::string& bytes) { return hierarchy::point_from_values(sim::parallel::decode_doubles(bytes)); }, combine);
    };
    const auto points = hierarchy::sweep(models, fanouts, sizes, options);
    if (!ranks.root()) return 0;
    bar.clear();
    const std::string output = cli.json ? sweep_json(cli, options.levels, points) : cli.output == "csv" ? sweep_csv(points) : sweep_table(cli, options.levels, points, sizes);
    std::fputs(output.c_str(), stdout);
    return 0;
  });
}

}  // namespace augur::cli
