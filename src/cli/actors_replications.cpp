// augur actors simulate --replications R [--threads T] (docs/actors.md, "Replications"): R runs of the
// program, each with its random streams from (seed, replication), over T threads and, under mpirun, over the
// ranks (sim/parallel); the mean execution time with its 95% interval, the messages, and each site's busy
// time and utilization, printed by rank 0. The figures are the same bits for any threads and ranks.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "actors_command.hpp"
#include "augur/sim/engine.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/stats_json.hpp"
#include "core/table.hpp"
#include "sim/parallel/ranks.hpp"

namespace augur::cli {
namespace {

using core::format_number;
namespace actors = sim::actors;

// What one replication gives: time, messages, events, players left waiting, then per site its busy time
// and its utilization (doubles, to cross ranks bit for bit).
std::vector<double> measure(const actors::Simulation& run) {
  std::vector<double> values{run.time, static_cast<double>(run.messages), static_cast<double>(run.events), static_cast<double>(run.deadlock.size())};
  for (const auto& site : run.sites) values.push_back(site.busy);
  for (const auto& site : run.sites) values.push_back(site.utilization);
  return values;
}

struct Summary {
  sim::Accumulator time;
  sim::Accumulator messages;
  double events = 0.0;  // whole numbers below 2^53: exact
  long deadlocks = 0;   // replications that ended in one
  std::vector<sim::Accumulator> busy;
  std::vector<sim::Accumulator> utilization;

  explicit Summary(int sites) : busy(static_cast<std::size_t>(sites)), utilization(static_cast<std::size_t>(sites)) {}
  void add(const std::vector<double>& values) {
    time.add(values[0]);
    messages.add(values[1]);
    events += values[2];
    deadlocks += values[3] > 0 ? 1 : 0;
    const std::size_t sites = busy.size();
    for (std::size_t s = 0; s < sites; ++s) {
      busy[s].add(values[4 + s]);
      utilization[s].add(values[4 + sites + s]);
    }
  }
};

std::string interval(const sim::Statistic& statistic) {
  return format_number(statistic.mean - statistic.half_width, 3) + " .. " + format_number(statistic.mean + statistic.half_width, 3);
}

std::string render_table(const ActorsOptions& cli, const actors::Machine& machine, const Summary& summary) {
  std::ostringstream out;
  const sim::Statistic time = summary.time.statistic();
  out << describe_simulation(cli, machine) << ", " << cli.replications << " replications\n";
  out << "Execution time " << format_number(time.mean, 3) << " (standard deviation " << format_number(time.deviation, 3) << "), 95% confidence interval of the mean "
      << interval(time) << ", from " << format_number(time.minimum, 3) << " to " << format_number(time.maximum, 3) << "\n";
  out << "Messages " << format_number(summary.messages.mean(), 3) << " a replication, " << format_number(summary.events, 0) << " events in all\n\n";
  core::TextTable sites({"Site", "Mean busy", "Mean utilization", "95% interval"});
  for (std::size_t s = 0; s < summary.busy.size(); ++s) {
    const sim::Statistic utilization = summary.utilization[s].statistic();
    sites.add_row({std::to_string(s), format_number(summary.busy[s].mean(), 3), format_number(utilization.mean, 3), interval(utilization)});
  }
  out << sites.render();
  if (summary.deadlocks > 0) out << "\nDeadlock in " << summary.deadlocks << " of " << cli.replications << " replications\n";
  return out.str();
}

nlohmann::ordered_json statistic_json(const sim::Statistic& statistic) {
  nlohmann::ordered_json json = core::estimate_json(statistic.estimate());
  json["minimum"] = statistic.minimum;
  json["maximum"] = statistic.maximum;
  return json;
}

std::string render_json(const ActorsOptions& cli, const Summary& summary) {
  nlohmann::ordered_json json;
  json["replications"] = cli.replications;
  json["seed"] = cli.seed;
  json["time"] = statistic_json(summary.time.statistic());
  json["messages"] = statistic_json(summary.messages.statistic());
  json["events"] = static_cast<std::uint64_t>(summary.events);
  json["deadlocks"] = summary.deadlocks;
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (std::size_t s = 0; s < summary.busy.size(); ++s) {
    sites.push_back({{"site", s}, {"busy", statistic_json(summary.busy[s].statistic())}, {"utilization", statistic_json(summary.utilization[s].statistic())}});
  }
  json["sites"] = std::move(sites);
  return core::json_text(json, 2) + "\n";
}

}  // namespace

int run_actors_replications(const ActorsOptions& cli, const ActorsInputs& inputs, const sim::parallel::Ranks& ranks) {
  // Replication 0 runs on rank 0 (the first block), on one of its threads: its timeline goes to --trace.
  // Rank 0 alone opens it; every rank learns whether it could before the replications' collectives.
  const std::unique_ptr<core::OutputFile> trace = sim::parallel::open_output_on_root(ranks, cli.trace);
  const auto replicate = [&](int replication) {
    actors::SimulationOptions options = inputs.options;
    options.replication = replication;
    if (replication != 0 || !trace) return measure(actors::simulate(inputs.program, inputs.machine, inputs.mapping, options));
    sim::TimelineWriter timeline([&trace](std::string_view text) { trace->write(text); });
    const actors::Simulation run = actors::simulate(inputs.program, inputs.machine, inputs.mapping, options, timeline);
    timeline.finish();
    return measure(run);
  };
  Summary summary(inputs.machine.sites);
  sim::parallel::run_replications_over_ranks(ranks, cli.replications, cli.threads, replicate, sim::parallel::encode_doubles,
                                             sim::parallel::decode_doubles, [&](int, std::vector<double>&& values) { summary.add(values); });
  if (!ranks.root()) return 0;
  if (trace) trace->commit();
  const std::string output = cli.json ? render_json(cli, summary) : render_table(cli, inputs.machine, summary);
  std::fputs(output.c_str(), stdout);
  if (summary.deadlocks > 0) {
    std::fprintf(stderr, "augur actors simulate: deadlock in %ld of %d replications\n", summary.deadlocks, cli.replications);
    return 1;
  }
  return 0;
}

}  // namespace augur::cli
