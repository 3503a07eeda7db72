// The machine of an actor simulation (docs/formats.md, "Machines"): sites with a processor speed and a
// context-switch cost, a topology of full-duplex links (each direction a channel of its own with a latency
// and a bandwidth), a routing, a switching (store-and-forward, cut-through or wormhole), and the processor time of
// sending and receiving a message.
#pragma once

#include <string>
#include <vector>

namespace augur::sim::actors {

// One direction of a link.
struct Channel {
  int from = 0;
  int to = 0;
  double latency = 0.0;    // time units from the end of transmission to the arrival at `to`
  double bandwidth = 1.0;  // size units per time unit
};

struct Machine {
  std::string topology;               // ring, mesh, torus, hypercube, full or links
  std::string routing;                // shortest or dimension-order
  std::string switching;              // store-and-forward (the default), cut-through or wormhole
  bool cut_through = false;           // switching == "cut-through"
  bool wormhole = false;              // switching == "wormhole"
  int sites = 0;
  std::vector<double> speed;          // work units per time unit, per site
  std::vector<double> context_switch; // time units, per site
  double send_overhead = 0.0;         // processor time of the sender's site per message sent to another site
  double receive_overhead = 0.0;      // processor time of the receiver's site per message received from another site
  std::vector<Channel> channels;
  // route[from * sites + to]: the channel a message at `from` bound for `to` takes next (-1 when from == to).
  std::vector<int> route;

  [[nodiscard]] int next_channel(int from, int to) const { return route[static_cast<std::size_t>(from) * static_cast<std::size_t>(sites) + static_cast<std::size_t>(to)]; }
  // The number of channels from `from` to `to`.
  [[nodiscard]] int hops(int from, int to) const;
};

// Parses a machine file; errors (a disconnected machine included) at file:line:col.
[[nodiscard]] Machine parse_machine(const std::string& text, const std::string& file);

}  // namespace augur::sim::actors
