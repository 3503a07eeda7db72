// The actor simulator's run (simulate.hpp, docs/actors.md), private to sim/actors: one simulation of a
// program on a machine under a mapping. Its parts: simulate.cpp (players, messages, sites, the results),
// simulate_interpreter.cpp (the behaviours' statements),
// simulate_links.cpp (messages on the channels: reservation, store-and-forward and cut-through switching),
// simulate_wormhole.cpp (wormhole switching: worms that hold their channels), simulate_timeline.cpp (the Perfetto timeline's rows, slices and flows).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/actors/simulate.hpp"

namespace augur::sim::actors::detail {

constexpr int nobody = -1;

struct Message {
  int kind = 0;
  int sender = nobody;
  int receiver = 0;
  double size = 0.0;
  std::size_t sent_at = 0;  // the text offset of its send (for errors about its delivery)
  std::uint64_t serial = 0;  // its number in the run, from 1 (the timeline's flow id)
  bool flow_started = false; // the timeline has its flow's start
  double tail_at = 0.0;      // cut-through: when its last byte is at the site its head has reached
  std::vector<double> fields;
};

// A message under wormhole switching (simulate_wormhole.cpp). It moves as one: its clock (virtual time) runs
// with the engine's except while its head waits for a channel; `offset` is the engine's time minus its clock.
struct Worm {
  std::vector<int> path;       // the channels of its route
  std::vector<double> entered; // per channel taken: the clock when its head took it
  std::size_t head = 0;        // channels taken
  std::size_t tail = 0;        // channels released
  double rate = 1.0;           // the smallest bandwidth of the route: the pace of its body
  double offset = 0.0;
  bool blocked = false;        // its head waits for path[head]
  double blocked_clock = 0.0;  // the clock when it began to wait
  double blocked_since = 0.0;  // the engine's time then
  bool release_pending = false;// an event will release path[tail]
  std::uint64_t epoch = 0;     // a new one for each message and once its tail has arrived: older events do nothing
};

enum class State { Idle, Running, Waiting, Stopped };

struct Activation {
  std::vector<double> fields;  // of the message that started the behaviour
  int sender = nobody;
  int kind = -1;               // of that message
  int pc = 0;
  std::vector<long> loops;     // remaining iterations of the enclosing loops
};

struct PlayerState {
  int type = 0;
  int site = 0;
  int parent = nobody;
  Place place;
  State state = State::Idle;
  std::vector<double> variables;
  std::vector<int> created;     // per created-name slot: the player it names
  std::deque<int> mailbox;      // messages
  Activation activation;
  int wait_kind = -1;
  long wait_needed = 0;
  long wait_received = 0;
  int wait_pc = 0;
  std::vector<int> outbox;      // messages waiting for the send overhead
  std::map<std::string, int> creations;  // per created name: how many were created
};

enum class Then { Continue, SendAll, Deliver };

struct Work {
  int player = 0;
  double duration = 0.0;
  Then then = Then::Continue;
  int message = -1;  // Deliver
};

struct SiteState {
  std::deque<Work> ready;
  Work current;
  bool busy = false;
  int last = nobody;
  double queue_since = 0.0;   // when the queue length last changed
  double queue_area = 0.0;    // integral of the queue length over time
};

struct ChannelState {
  double free_at = 0.0;
  // wormhole
  int holder = nobody;         // the message holding it
  double held_since = 0.0;
  std::deque<int> waiting;     // messages whose heads wait for it, in order of arrival
};

class Run {
public:
  Run(const Program& program, const Machine& machine, const Mapping& mapping, const SimulationOptions& options, TimelineWriter* timeline);
  Simulation run();

private:
  PlayerState& player(int id) { return players_[static_cast<std::size_t>(id)]; }
  int add_player(std::string name, int type, int site, int parent, Place place);
  Scope scope_of(const PlayerState& state) const {
    return {state.activation.fields.data(), state.variables.data(), state.place};
  }

  // ---- messages (simulate.cpp) ----
  int new_message();
  void release(int message) { free_messages_.push_back(message); }
  int make_message(int kind, int sender, int receiver, double size, std::size_t offset,
                   const std::vector<std::pair<int, Value>>& fields, const Scope& scope);
  void count_partners(int sender, int receiver, double size);
  void send_start(const StartMessage& start);
  void deliver(int id);
  bool begin_next(int id);  // an idle player takes the first message of its mailbox; false when there is none

  // ---- the links (simulate_links.cpp) ----
  void inject(int id);
  void hop(int id, int at);
  void arrive(int id, int at);
  void received(int id);

  // ---- wormhole switching (simulate_wormhole.cpp) ----
  void worm_inject(int id);
  void worm_request(int id);
  void worm_take(int id);
  void worm_arrive(int id);
  void worm_schedule_release(int id);
  void worm_release(int id);
  void worm_tail_arrives(int id);
  void worm_deadlock();
  std::string describe_message(int id) const;

  // ---- the timeline (simulate_timeline.cpp); nothing without one ----
  const std::string& name_of(int player_id) const { return result_.players[static_cast<std::size_t>(player_id)].name; }
  const std::string& kind_name(int kind) const { return program_.kinds[static_cast<std::size_t>(kind)].name; }
  void name_rows();
  void begin_flow(Message& message) {
    if (timeline_ != nullptr && !message.flow_started) trace_flow_start(message);
  }
  void end_flow(const Message& message, int site) {
    if (timeline_ != nullptr && message.sender != nobody) trace_flow_end(message, site);
  }
  void trace_flow_start(Message& message);
  void trace_flow_end(const Message& message, int site);
  void trace_work(int site_id, const Work& work, double switching, double duration);

  // ---- sites (simulate.cpp) ----
  void count_queue(SiteState& site);
  void submit(int site_id, Work work);
  void start_work(int site_id);
  void end_work(int site_id);

  // ---- the interpreter (simulate_interpreter.cpp) ----
  std::vector<int> receivers(const Target& target, int self, const Scope& scope, std::size_t offset);
  void interpret(int id);
  bool step(int id);  // runs one instruction; false when the player must wait for its site or a message
  void send(int id, const Instruction& instruction);
  void create(int id, const Instruction& instruction);
  bool wait(int id, const Instruction& instruction);
  int place_created(const std::string& name, int creator);

  void finish();  // simulate.cpp: the results at the end of the run

  const Program& program_;
  const Machine& machine_;
  const Mapping& mapping_;
  const SimulationOptions& options_;
  const core::SourceText& source_;
  TimelineWriter* timeline_;
  Engine engine_;
  RandomStream branches_;
  RandomStream placements_;
  std::vector<PlayerState> players_;
  std::vector<Message> messages_;
  std::vector<Worm> worms_;  // wormhole: one per message slot
  std::vector<int> free_messages_;
  std::vector<SiteState> sites_;
  std::vector<ChannelState> channels_;
  std::unordered_map<std::string, int> created_sites_;
  std::unordered_map<std::uint64_t, std::size_t> partner_index_;
  long placed_ = 0;
  Simulation result_;
};

}  // namespace augur::sim::actors::detail
