// augur actors simulate PROGRAM --machine M [--mapping FILE | --initial RULE] [--seed S] [--set k=v] [--json]
// [--trace FILE] [--replications R [--threads T]] (docs/actors.md): reads the program, the machine and the
// mapping, runs the simulator once (or R times: actors_replications.cpp), prints.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "actors_command.hpp"
#include "augur/core/diagnostics.hpp"
#include "augur/sim/engine.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "sim/actors/simulate.hpp"
#include "sim/parallel/ranks.hpp"
#include "flags.hpp"

namespace augur::cli {

std::shared_ptr<ActorsOptions> add_actors_simulate(CLI::App& command) {
  auto options = std::make_shared<ActorsOptions>();
  add_actors_inputs(command, *options);
  command.add_option("--trace", options->trace, "Write a Chrome trace-event timeline (Perfetto) of the run, of the first replication with --replications")
      ->type_name("FILE");
  command.add_option("--replications", options->replications, "Run R replications, each with its own random streams from (seed, replication)")
      ->check(CLI::Range(1, 100000000))
      ->type_name("R");
  add_threads_option(command, options->threads,
                     "Threads the replications run on (default: the hardware concurrency, capped by the replications); the results are the same for any number");
  command.footer("Under mpirun the replications are shared among the ranks and rank 0 prints (docs/actors.md, \"Replications\").\n"
                 "Example:\n  augur actors simulate examples/actors/irregular.actors --machine examples/actors/mesh4x4.machine --replications 100");
  return options;
}

namespace {

using core::format_number;
namespace actors = sim::actors;

// "N players wait for messages that never come", and the messages stuck in the network (wormhole).
std::string deadlock_summary(const actors::Simulation& result) {
  const auto stuck = std::count_if(result.deadlock.begin(), result.deadlock.end(), [](const actors::Waiting& entry) { return !entry.channel.empty(); });
  const auto players = static_cast<long>(result.deadlock.size()) - stuck;
  std::string text = players > 0 || stuck == 0 ? std::to_string(players) + (players == 1 ? " player waits" : " players wait") + " for messages that never come" : "";
  if (stuck > 0) text += (text.empty() ? "" : ", ") + std::to_string(stuck) + (stuck == 1 ? " message is" : " messages are") + " stuck in the network";
  return text;
}

std::string describe_deadlock(const actors::Simulation& result) {
  std::string text;
  for (const auto& waiting : result.deadlock) {
    const std::string& receiver = result.players[static_cast<std::size_t>(waiting.player)].name;
    if (!waiting.channel.empty()) {  // wormhole: a message stuck in the network
      text += "  message '" + waiting.kind + "' from " + result.players[static_cast<std::size_t>(waiting.sender)].name + " to " + receiver +
              " (sent at " + waiting.where + ") waits for channel " + waiting.channel + ", held by " + waiting.holder + "\n";
      continue;
    }
    text += "  " + receiver + " waits for '" + waiting.kind + "' (" + std::to_string(waiting.received) + " of " + std::to_string(waiting.needed) +
            " received) at " + waiting.where + "\n";
  }
  return text;
}

std::string render_table(const ActorsOptions& cli, const actors::Machine& machine, const actors::Simulation& result) {
  std::ostringstream out;
  out << describe_simulation(cli, machine) << "\n";
  out << "Execution time " << format_number(result.time, 3) << ", " << result.messages << " messages, " << result.events << " events\n\n";
  core::TextTable sites({"Site", "Players", "Busy", "Utilization", "Mean queue", "Max queue", "Switches"});
  for (std::size_t s = 0; s < result.sites.size(); ++s) {
    const auto& site = result.sites[s];
    sites.add_row({std::to_string(s), std::to_string(site.players), format_number(site.busy, 3), format_number(site.utilization, 3),
                   format_number(site.mean_queue, 3), std::to_string(site.maximum_queue), std::to_string(site.context_switches)});
  }
  out << sites.render() << "\n";
  core::TextTable links({"Link", "Messages", "Traffic", "Busy", "Utilization"});
  long quiet = 0;
  for (std::size_t c = 0; c < result.channels.size(); ++c) {
    const auto& channel = result.channels[c];
    if (channel.messages == 0) {
      ++quiet;
      continue;
    }
    links.add_row({std::to_string(machine.channels[c].from) + "->" + std::to_string(machine.channels[c].to), std::to_string(channel.messages),
                   format_number(channel.traffic, 3), format_number(channel.busy, 3), format_number(channel.utilization, 3)});
  }
  if (quiet < static_cast<long>(result.channels.size())) out << links.render();
  out << "(" << quiet << " of " << result.channels.size() << " links carried nothing)\n\n";
  core::TextTable players({"Player", "Type", "Site", "Busy", "In", "Out"});
  for (const auto& player : result.players) {
    players.add_row({player.name + (player.stopped ? " (stopped)" : ""), player.type, std::to_string(player.site), format_number(player.busy, 3),
                     std::to_string(player.messages_in), std::to_string(player.messages_out)});
  }
  out << players.render() << "\n";
  core::TextTable partners({"Sender -> receiver", "Messages", "Traffic"});
  for (const auto& pair : result.partners) {
    partners.add_row({result.players[static_cast<std::size_t>(pair.sender)].name + " -> " + result.players[static_cast<std::size_t>(pair.receiver)].name,
                      std::to_string(pair.messages), format_number(pair.traffic, 3)});
  }
  out << "Partners: " << result.partners.size() << " pairs of players exchanged messages\n";
  if (!result.partners.empty()) out << partners.render();
  const bool stuck = std::any_of(result.deadlock.begin(), result.deadlock.end(), [](const actors::Waiting& entry) { return !entry.channel.empty(); });
  if (!result.deadlock.empty())
    out << "\nDeadlock: " << (stuck ? deadlock_summary(result) : "players wait for messages that never come") << ":\n" << describe_deadlock(result);
  return out.str();
}

std::string render_json(const actors::Machine& machine, const actors::Simulation& result) {
  nlohmann::ordered_json json;
  json["time"] = result.time;
  json["messages"] = result.messages;
  json["events"] = result.events;
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (std::size_t s = 0; s < result.sites.size(); ++s) {
    const auto& site = result.sites[s];
    sites.push_back({{"site", s}, {"players", site.players}, {"busy", site.busy}, {"utilization", site.utilization},
                     {"mean_queue", site.mean_queue}, {"maximum_queue", site.maximum_queue}, {"context_switches", site.context_switches}});
  }
  json["sites"] = std::move(sites);
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < result.channels.size(); ++c) {
    const auto& channel = result.channels[c];
    links.push_back({{"from", machine.channels[c].from}, {"to", machine.channels[c].to}, {"messages", channel.messages},
                     {"traffic", channel.traffic}, {"busy", channel.busy}, {"utilization", channel.utilization}});
  }
  json["links"] = std::move(links);
  nlohmann::ordered_json players = nlohmann::ordered_json::array();
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
  for (const auto& player : result.players) {
    players.push_back({{"name", player.name}, {"type", player.type}, {"site", player.site}, {"busy", player.busy},
                       {"messages_in", player.messages_in}, {"messages_out", player.messages_out}, {"stopped", player.stopped}});
    mapping[player.name] = player.site;
  }
  json["players"] = std::move(players);
  json["mapping"] = std::move(mapping);
  nlohmann::ordered_json partners = nlohmann::ordered_json::array();
  for (const auto& pair : result.partners) {
    partners.push_back({{"from", result.players[static_cast<std::size_t>(pair.sender)].name},
                        {"to", result.players[static_cast<std::size_t>(pair.receiver)].name}, {"messages", pair.messages}, {"traffic", pair.traffic}});
  }
  json["partners"] = std::move(partners);
  nlohmann::ordered_json deadlock = nlohmann::ordered_json::array();
  for (const auto& waiting : result.deadlock) {
    deadlock.push_back({{"player", result.players[static_cast<std::size_t>(waiting.player)].name}, {"kind", waiting.kind},
                        {"received", waiting.received}, {"needed", waiting.needed}, {"at", waiting.where}});
    if (waiting.channel.empty()) continue;
    deadlock.back()["sender"] = result.players[static_cast<std::size_t>(waiting.sender)].name;
    deadlock.back()["channel"] = waiting.channel;
    deadlock.back()["held_by"] = waiting.holder;
  }
  json["deadlock"] = std::move(deadlock);
  return core::json_text(json, 2) + "\n";
}

// The run with its timeline streamed into --trace (a temporary file beside it, renamed at the end).
actors::Simulation simulate_with_trace(const ActorsInputs& inputs, const std::string& trace) {
  core::OutputFile file(trace);
  sim::TimelineWriter timeline([&file](std::string_view text) { file.write(text); });
  actors::Simulation result = actors::simulate(inputs.program, inputs.machine, inputs.mapping, inputs.options, timeline);
  timeline.finish();
  file.commit();
  return result;
}

int simulate_once(const ActorsOptions& cli, const ActorsInputs& inputs) {
  const actors::Machine& machine = inputs.machine;
  const actors::Simulation result = cli.trace.empty() ? actors::simulate(inputs.program, machine, inputs.mapping, inputs.options)
                                                      : simulate_with_trace(inputs, cli.trace);
  if (!std::isfinite(result.time)) {  // latencies, sizes or work so large that the times overflow
    throw std::runtime_error("the execution time is not finite (the machine's or the program's times overflow)");
  }
  const std::string output = cli.json ? render_json(machine, result) : render_table(cli, machine, result);
  std::fputs(output.c_str(), stdout);
  if (!result.deadlock.empty()) {
    std::fprintf(stderr, "augur actors simulate: deadlock: %s\n", deadlock_summary(result).c_str());
    return 1;
  }
  return 0;
}

}  // namespace

std::string describe_simulation(const ActorsOptions& cli, const actors::Machine& machine) {
  return "Program " + cli.program + " on " + cli.machine + " (" + machine.topology + ", " + std::to_string(machine.sites) + " sites, " +
         machine.routing + " routing, " + machine.switching + "), mapping " + (cli.mapping.empty() ? cli.initial : cli.mapping) + ", seed " +
         std::to_string(cli.seed);
}

// Under mpirun every rank reads the inputs; rank 0 alone reports errors and prints.
int run_actors_simulate(const ActorsOptions& cli) {
  std::unique_ptr<sim::parallel::Ranks> ranks;
  const int status = run_reporting_errors("simulate", [&] {
    ranks = std::make_unique<sim::parallel::Ranks>();
    return 0;
  });
  if (status != 0) return status;
  const auto simulate = [&]() -> int {
    if (!ranks->root() && cli.replications <= 1) return 0;  // one run: rank 0's
    if (!cli.trace.empty()) core::refuse_output_over_inputs(cli.trace, {cli.program, cli.machine, cli.mapping});
    const ActorsInputs inputs = load_actors_inputs(cli);
    return cli.replications > 1 ? run_actors_replications(cli, inputs, *ranks) : simulate_once(cli, inputs);
  };
  if (ranks->root()) return run_reporting_errors("simulate", simulate);
  try {
    return simulate();  // errors: rank 0 reports them
  } catch (const std::exception&) {
    return 1;
  }
}

}  // namespace augur::cli
