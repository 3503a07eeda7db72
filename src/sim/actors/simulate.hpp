// The actor simulator (seed 004 §3, Axe): a program's players, mapped to the sites of a machine, run on the
// discrete-event engine. A site runs one work item at a time from a FIFO of ready work (a compute, or the
// processor time of sending or receiving), with a context switch between players; a message between sites
// travels hop by hop on its route (store-and-forward, cut-through or wormhole), each channel sending one
// message at a time in order of arrival. docs/actors.md describes the model; docs/formats.md the program, machine and mapping files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/actors/machine.hpp"
#include "sim/actors/program.hpp"

namespace augur::sim {
class TimelineWriter;
}

namespace augur::sim::actors {

// Where the players are: a site for each static player, and a rule for players created while the program runs.
enum class Placement { RoundRobin, Random, OneSite, Creator };

struct Mapping {
  std::vector<int> sites;                     // one per static player of the program
  Placement created = Placement::Creator;     // where created players go
};

// The initial mapping by a rule: round-robin (player i on site i mod sites, created players continue the
// count), random (uniform, from the seed's stream 1), one-site (all on site 0); created players follow the rule.
[[nodiscard]] Mapping initial_mapping(const Program& program, const Machine& machine, Placement rule, std::uint64_t seed);

// A mapping file (docs/formats.md, "Mappings"): "PLAYER SITE" a line; every static player named once; a
// created player's name (its creation path) may be given too. Errors at file:line:col.
struct MappingFile {
  Mapping mapping;
  std::vector<std::pair<std::string, int>> created;  // created players named by the file
};
[[nodiscard]] MappingFile read_mapping(const std::string& text, const std::string& file, const Program& program, const Machine& machine);

struct SiteResult {
  double busy = 0.0;            // time running work, context switches included
  double utilization = 0.0;     // busy / time
  double mean_queue = 0.0;      // ready work items waiting, averaged over time
  long maximum_queue = 0;
  long context_switches = 0;
  long players = 0;             // players that were placed on it
};

struct ChannelResult {
  long messages = 0;
  double traffic = 0.0;         // size units sent
  double busy = 0.0;            // time transmitting
  double utilization = 0.0;
};

struct PlayerResult {
  std::string name;
  std::string type;
  int site = 0;
  double busy = 0.0;            // compute, send and receive time on its site (no context switches)
  long messages_in = 0;
  long messages_out = 0;
  bool stopped = false;
};

// The messages one player sent another (partners, for post-game analysis).
struct Partners {
  int sender = 0;
  int receiver = 0;
  long messages = 0;
  double traffic = 0.0;         // size units
};

struct Waiting {
  int player = 0;
  std::string kind;
  long received = 0;
  long needed = 0;
  std::string where;            // file:line:col of the wait
  // Wormhole switching: a message stuck in the network, its head waiting for a channel that another stuck
  // message holds (a deadlock of the network: docs/actors.md, "Wormhole"). `player` is its receiver, `kind`
  // its kind, `where` its send, received 0 of needed 1.
  std::string channel;          // the channel its head waits for, "FROM->TO"; empty for a player waiting
  int sender = -1;              // its sender
  std::string holder;           // the message holding that channel: "'KIND' from SENDER to RECEIVER"
};

struct Simulation {
  double time = 0.0;            // when the last event happened
  std::vector<SiteResult> sites;
  std::vector<ChannelResult> channels;  // as Machine::channels
  std::vector<PlayerResult> players;    // static players first, then created ones in order of creation
  std::vector<Partners> partners;       // every pair of players that exchanged messages, in order of first message
  std::vector<Waiting> deadlock;        // players left waiting for messages that never came, then messages stuck in the network
  long messages = 0;
  std::uint64_t events = 0;
};

struct SimulationOptions {
  std::uint64_t seed = 1;
  int replication = 0;          // the random streams: branches (seed, 2 × replication), placement (seed, 2 × replication + 1)
  std::vector<std::pair<std::string, int>> created_sites;  // created players placed by name
  long maximum_players = 1000000;                          // more created players is an error
};

// Runs the program once; an error of the program at run time (a group index out of range, a message kind
// with no behaviour, ...) is an InputError at the statement.
[[nodiscard]] Simulation simulate(const Program& program, const Machine& machine, const Mapping& mapping, const SimulationOptions& options);

// The same run with its timeline streamed into `timeline` as it goes (docs/actors.md, "The timeline"): row s
// is site s; a slice for each context switch ("switch to PLAYER"), compute ("PLAYER KIND", KIND the message
// whose behaviour runs), send overhead ("PLAYER send KIND") and receive overhead ("PLAYER receive KIND"); a
// flow for each message a player sent, from the row of the sender's site when its sending begins (the start
// of the send overhead, or the send statement when there is none) to the row of the receiver's site when it
// arrives there. The caller names nothing and finishes the writer.
[[nodiscard]] Simulation simulate(const Program& program, const Machine& machine, const Mapping& mapping, const SimulationOptions& options,
                                  TimelineWriter& timeline);

}  // namespace augur::sim::actors
