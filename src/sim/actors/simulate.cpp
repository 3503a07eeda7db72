// The actor simulator on the discrete-event engine (simulate.hpp, docs/actors.md): players, messages, sites
// and the runs of events. The interpreter is in simulate_interpreter.cpp, the links in simulate_links.cpp,
// the timeline in simulate_timeline.cpp.
#include "sim/actors/simulate.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <deque>
#include <map>
#include <unordered_map>

#include "augur/sim/engine.hpp"
#include "sim/actors/simulate_run.hpp"

namespace augur::sim::actors {
namespace detail {

Run::Run(const Program& program, const Machine& machine, const Mapping& mapping, const SimulationOptions& options, TimelineWriter* timeline)
    : program_(program), machine_(machine), mapping_(mapping), options_(options), source_(*program.source), timeline_(timeline),
      branches_(options.seed, 2 * static_cast<std::uint64_t>(options.replication)),
      placements_(options.seed, 2 * static_cast<std::uint64_t>(options.replication) + 1) {
  result_.sites.resize(static_cast<std::size_t>(machine.sites));
  result_.channels.resize(machine.channels.size());
  sites_.resize(static_cast<std::size_t>(machine.sites));
  channels_.resize(machine.channels.size());
  for (const auto& [name, site] : options.created_sites) created_sites_[name] = site;
  for (std::size_t p = 0; p < program.players.size(); ++p) {
    const auto& player = program.players[p];
    add_player(player.name, player.type, mapping.sites[p], nobody, player.place);
  }
  placed_ = static_cast<long>(program.players.size());
}

Simulation Run::run() {
  name_rows();
  for (const auto& start : program_.start) send_start(start);
  result_.events = engine_.run();
  finish();
  return std::move(result_);
}

int Run::add_player(std::string name, int type, int site, int parent, Place place) {
  const auto& type_data = program_.types[static_cast<std::size_t>(type)];
  PlayerState state;
  state.type = type;
  state.site = site;
  state.parent = parent;
  state.place = place;
  state.variables = type_data.initial;
  state.created.assign(type_data.created_names.size(), nobody);
  players_.push_back(std::move(state));
  result_.players.push_back({std::move(name), type_data.name, site, 0.0, 0, 0, false});
  ++result_.sites[static_cast<std::size_t>(site)].players;
  return static_cast<int>(players_.size() - 1);
}

int Run::new_message() {
  if (!free_messages_.empty()) {
    const int id = free_messages_.back();
    free_messages_.pop_back();
    return id;
  }
  messages_.emplace_back();
  return static_cast<int>(messages_.size() - 1);
}

int Run::make_message(int kind, int sender, int receiver, double size, std::size_t offset,
                      const std::vector<std::pair<int, Value>>& fields, const Scope& scope) {
  const int id = new_message();
  Message& message = messages_[static_cast<std::size_t>(id)];
  message.kind = kind;
  message.sender = sender;
  message.receiver = receiver;
  message.size = size;
  message.sent_at = offset;
  message.serial = static_cast<std::uint64_t>(result_.messages) + 1;
  message.flow_started = false;
  message.fields.assign(program_.kinds[static_cast<std::size_t>(kind)].fields.size(), 0.0);
  for (const auto& [slot, value] : fields) message.fields[static_cast<std::size_t>(slot)] = evaluate(value, scope, source_);
  ++result_.messages;
  if (sender != nobody) {
    ++result_.players[static_cast<std::size_t>(sender)].messages_out;
    count_partners(sender, receiver, size);
  }
  return id;
}

void Run::count_partners(int sender, int receiver, double size) {
  const std::uint64_t key = (static_cast<std::uint64_t>(sender) << 32) | static_cast<std::uint32_t>(receiver);
  const auto [entry, added] = partner_index_.try_emplace(key, result_.partners.size());
  if (added) result_.partners.push_back({sender, receiver, 0, 0.0});
  Partners& pair = result_.partners[entry->second];
  ++pair.messages;
  pair.traffic += size;
}

void Run::send_start(const StartMessage& start) {
  const Scope scope{};
  const double size = evaluate(start.size, scope, source_);
  for (const int receiver : receivers(start.target, nobody, scope, start.offset)) {
    const int id = make_message(start.kind, nobody, receiver, size, start.offset, start.fields, scope);
    engine_.schedule(0.0, [this, id] { deliver(id); });
  }
}

// The message reaches its player: consumed by a wait, or queued in the mailbox.
void Run::deliver(int id) {
  const Message& message = messages_[static_cast<std::size_t>(id)];
  const int receiver = message.receiver;
  PlayerState& state = player(receiver);
  ++result_.players[static_cast<std::size_t>(receiver)].messages_in;
  if (state.state == State::Stopped) return release(id);
  if (state.state == State::Waiting && message.kind == state.wait_kind) {
    release(id);
    if (++state.wait_received < state.wait_needed) return;
    state.state = State::Running;
    state.activation.pc = state.wait_pc + 1;
    return interpret(receiver);
  }
  state.mailbox.push_back(id);
  if (state.state == State::Idle && begin_next(receiver)) interpret(receiver);
}

// An idle player takes the first message of its mailbox and begins its behaviour; false when there is none.
bool Run::begin_next(int id) {
  PlayerState& state = player(id);
  if (state.mailbox.empty()) return false;
  const int message_id = state.mailbox.front();
  state.mailbox.pop_front();
  Message& message = messages_[static_cast<std::size_t>(message_id)];
  const auto& type = program_.types[static_cast<std::size_t>(state.type)];
  const auto behaviour = type.behaviours.find(message.kind);
  if (behaviour == type.behaviours.end())
    source_.fail(message.sent_at, "player '" + result_.players[static_cast<std::size_t>(id)].name + "' (type " + type.name +
                                      ") has no behaviour on message '" + program_.kinds[static_cast<std::size_t>(message.kind)].name + "'");
  state.activation.fields.swap(message.fields);
  state.activation.sender = message.sender;
  state.activation.kind = message.kind;
  state.activation.pc = behaviour->second;
  state.activation.loops.clear();
  state.state = State::Running;
  release(message_id);
  return true;
}

void Run::count_queue(SiteState& site) {
  site.queue_area += static_cast<double>(site.ready.size()) * (engine_.now() - site.queue_since);
  site.queue_since = engine_.now();
}

void Run::submit(int site_id, Work work) {
  SiteState& site = sites_[static_cast<std::size_t>(site_id)];
  count_queue(site);
  site.ready.push_back(work);
  auto& maximum = result_.sites[static_cast<std::size_t>(site_id)].maximum_queue;
  maximum = std::max(maximum, static_cast<long>(site.ready.size()) - (site.busy ? 0 : 1));
  if (!site.busy) start_work(site_id);
}

void Run::start_work(int site_id) {
  SiteState& site = sites_[static_cast<std::size_t>(site_id)];
  count_queue(site);
  const Work work = site.ready.front();
  site.ready.pop_front();
  site.busy = true;
  double duration = work.duration;
  double switching = 0.0;
  SiteResult& counts = result_.sites[static_cast<std::size_t>(site_id)];
  if (site.last != nobody && site.last != work.player) {
    switching = machine_.context_switch[static_cast<std::size_t>(site_id)];
    duration += switching;
    ++counts.context_switches;
  }
  if (timeline_ != nullptr) trace_work(site_id, work, switching, duration);
  site.last = work.player;
  site.current = work;
  counts.busy += duration;
  result_.players[static_cast<std::size_t>(work.player)].busy += work.duration;
  engine_.schedule(duration, [this, site_id] { end_work(site_id); });
}

void Run::end_work(int site_id) {
  SiteState& site = sites_[static_cast<std::size_t>(site_id)];
  const Work work = site.current;
  site.busy = false;
  if (!site.ready.empty()) start_work(site_id);
  if (work.then == Then::Deliver) return deliver(work.message);
  PlayerState& state = player(work.player);
  if (work.then == Then::SendAll) {
    std::vector<int> outbox;
    outbox.swap(state.outbox);
    for (const int id : outbox) inject(id);
  }
  ++player(work.player).activation.pc;
  interpret(work.player);
}

void Run::finish() {
  result_.time = engine_.now();
  for (std::size_t s = 0; s < sites_.size(); ++s) {
    count_queue(sites_[s]);
    SiteResult& site = result_.sites[s];
    site.utilization = result_.time > 0 ? site.busy / result_.time : 0.0;
    site.mean_queue = result_.time > 0 ? sites_[s].queue_area / result_.time : 0.0;
  }
  for (std::size_t p = 0; p < players_.size(); ++p) {
    const PlayerState& state = players_[p];
    if (state.state != State::Waiting) continue;
    const auto location = source_.locate(program_.code[static_cast<std::size_t>(state.wait_pc)].offset);
    result_.deadlock.push_back({static_cast<int>(p), program_.kinds[static_cast<std::size_t>(state.wait_kind)].name, state.wait_received,
                                state.wait_needed, location.file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column),
                                "", -1, ""});
  }
  if (machine_.wormhole) worm_deadlock();
  for (auto& channel : result_.channels) channel.utilization = result_.time > 0 ? channel.busy / result_.time : 0.0;
}

}  // namespace detail

using detail::Run;

Simulation simulate(const Program& program, const Machine& machine, const Mapping& mapping, const SimulationOptions& options) {
  assert(mapping.sites.size() == program.players.size() && "simulate: one site per static player");
  assert(std::all_of(mapping.sites.begin(), mapping.sites.end(), [&](int site) { return site >= 0 && site < machine.sites; }) &&
         "simulate: every site on the machine");
  return Run(program, machine, mapping, options, nullptr).run();
}

Simulation simulate(const Program& program, const Machine& machine, const Mapping& mapping, const SimulationOptions& options,
                    TimelineWriter& timeline) {
  assert(mapping.sites.size() == program.players.size() && "simulate: one site per static player");
  return Run(program, machine, mapping, options, &timeline).run();
}

}  // namespace augur::sim::actors
