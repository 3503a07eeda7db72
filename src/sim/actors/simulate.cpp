// The actor simulator on the discrete-event engine (simulate.hpp, docs/actors.md): players, messages, sites
// and the interpreter. The links are in simulate_links.cpp, the timeline in simulate_timeline.cpp.
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

std::vector<int> Run::receivers(const Target& target, int self, const Scope& scope, std::size_t offset) {
  // An index of `group` (its rows when `rows`); the message of an error is made only when there is one.
  const auto whole = [&](const Value& value, int size, const Group& group, bool rows) {
    const double index = evaluate(value, scope, source_);
    if (index != std::floor(index) || index < 0 || index >= size) {
      const std::string name = rows ? group.name + "' rows (0 to " + std::to_string(group.rows - 1) + "), group '" + group.name : group.name;
      source_.fail(value.offset, "index " + core::format_shortest(index) + " is outside group '" + name + "' (0 to " + std::to_string(size - 1) + ")");
    }
    return static_cast<int>(index);
  };
  switch (target.kind) {
    case Target::Kind::Player: return {target.player};
    case Target::Kind::Self: return {self};
    case Target::Kind::Sender:
      if (player(self).activation.sender == nobody) source_.fail(offset, "this message has no sender (it is a start message)");
      return {player(self).activation.sender};
    case Target::Kind::Parent:
      if (player(self).parent == nobody) source_.fail(offset, "'" + result_.players[static_cast<std::size_t>(self)].name + "' has no parent (it was not created by a player)");
      return {player(self).parent};
    case Target::Kind::Created: {
      const int created = player(self).created[static_cast<std::size_t>(target.created)];
      if (created == nobody) source_.fail(offset, "'" + program_.types[static_cast<std::size_t>(player(self).type)].created_names[static_cast<std::size_t>(target.created)] + "' names no player yet: create it first");
      return {created};
    }
    case Target::Kind::Element: {
      const Group& group = program_.groups[static_cast<std::size_t>(target.group)];
      if (!group.two_dimensional) return {group.first + whole(target.indices[0], group.columns, group, false)};
      const int row = whole(target.indices[0], group.rows, group, true);
      return {group.first + row * group.columns + whole(target.indices[1], group.columns, group, false)};
    }
    case Target::Kind::All: {
      const Group& group = program_.groups[static_cast<std::size_t>(target.group)];
      std::vector<int> all(static_cast<std::size_t>(group.rows * group.columns));
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = group.first + static_cast<int>(i);
      return all;
    }
  }
  return {};
}

void Run::send(int id, const Instruction& instruction) {
  const Scope scope = scope_of(player(id));
  const double size = evaluate(instruction.value, scope, source_);
  if (size < 0) source_.fail(instruction.value.offset, "a message's size must be at least 0, not " + core::format_shortest(size));
  long remote = 0;
  for (const int receiver : receivers(instruction.target, id, scope, instruction.offset)) {
    const int message = make_message(instruction.kind, id, receiver, size, instruction.offset, instruction.fields, scope);
    if (player(receiver).site != player(id).site) ++remote;
    player(id).outbox.push_back(message);
  }
  if (remote > 0 && machine_.send_overhead > 0) return;  // the caller submits the overhead
  std::vector<int> outbox;
  outbox.swap(player(id).outbox);
  for (const int message : outbox) inject(message);
}

int Run::place_created(const std::string& name, int creator) {
  const auto named = created_sites_.find(name);
  if (named != created_sites_.end()) return named->second;
  const long count = placed_++;
  switch (mapping_.created) {
    case Placement::RoundRobin: return static_cast<int>(count % machine_.sites);
    case Placement::Random: return std::min(machine_.sites - 1, static_cast<int>(placements_.uniform() * machine_.sites));
    case Placement::OneSite: return 0;
    case Placement::Creator: break;
  }
  return player(creator).site;
}

void Run::create(int id, const Instruction& instruction) {
  if (static_cast<long>(players_.size()) >= options_.maximum_players)
    source_.fail(instruction.offset, "more than " + std::to_string(options_.maximum_players) + " players (a creation without end?)");
  const auto& local = program_.types[static_cast<std::size_t>(player(id).type)].created_names[static_cast<std::size_t>(instruction.slot)];
  const int number = ++player(id).creations[local];
  std::string name = result_.players[static_cast<std::size_t>(id)].name + "/" + local + (number > 1 ? "#" + std::to_string(number) : "");
  const int site = place_created(name, id);
  const int child = add_player(std::move(name), instruction.type, site, id, player(id).place);
  player(id).created[static_cast<std::size_t>(instruction.slot)] = child;
}

// Takes the waited messages already in the mailbox; true when there are enough.
bool Run::wait(int id, const Instruction& instruction) {
  PlayerState& state = player(id);
  const double needed = evaluate(instruction.value, scope_of(state), source_);
  state.wait_kind = instruction.kind;
  state.wait_needed = static_cast<long>(std::floor(needed));
  state.wait_received = 0;
  state.wait_pc = state.activation.pc;
  for (auto it = state.mailbox.begin(); it != state.mailbox.end() && state.wait_received < state.wait_needed;) {
    if (messages_[static_cast<std::size_t>(*it)].kind == instruction.kind) {
      release(*it);
      it = state.mailbox.erase(it);
      ++state.wait_received;
    } else {
      ++it;
    }
  }
  if (state.wait_received >= state.wait_needed) return true;
  state.state = State::Waiting;
  return false;
}

bool Run::step(int id) {
  PlayerState& state = player(id);
  const Instruction& instruction = program_.code[static_cast<std::size_t>(state.activation.pc)];
  using Op = Instruction::Op;
  switch (instruction.op) {
    case Op::Compute: {
      const double work = evaluate(instruction.value, scope_of(state), source_);
      if (work < 0) source_.fail(instruction.value.offset, "work must be at least 0, not " + core::format_shortest(work));
      if (work == 0) break;
      submit(state.site, {id, work / machine_.speed[static_cast<std::size_t>(state.site)], Then::Continue, -1});
      return false;
    }
    case Op::Send: {
      send(id, instruction);
      PlayerState& sender = player(id);
      if (sender.outbox.empty()) break;
      long remote = 0;
      for (const int message : sender.outbox) remote += player(messages_[static_cast<std::size_t>(message)].receiver).site != sender.site ? 1 : 0;
      submit(sender.site, {id, machine_.send_overhead * static_cast<double>(remote), Then::SendAll, -1});
      return false;
    }
    case Op::Create: create(id, instruction); break;
    case Op::LoopStart: {
      const double count = std::floor(evaluate(instruction.value, scope_of(state), source_));
      if (count < 1) {
        state.activation.pc = instruction.jump;
        return true;
      }
      state.activation.loops.push_back(static_cast<long>(count));
      break;
    }
    case Op::LoopEnd:
      if (--state.activation.loops.back() > 0) {
        state.activation.pc = instruction.jump + 1;
        return true;
      }
      state.activation.loops.pop_back();
      break;
    case Op::Branch:
      if (branches_.uniform() >= evaluate(instruction.value, scope_of(state), source_)) {
        state.activation.pc = instruction.jump;
        return true;
      }
      break;
    case Op::If: {
      const Scope scope = scope_of(state);
      const double left = evaluate(instruction.value, scope, source_);
      const double right = evaluate(instruction.right, scope, source_);
      const std::string& c = instruction.comparison;
      const bool holds = c == "<" ? left < right : c == "<=" ? left <= right : c == "==" ? left == right : c == "!=" ? left != right : c == ">" ? left > right : left >= right;
      if (!holds) {
        state.activation.pc = instruction.jump;
        return true;
      }
      break;
    }
    case Op::Jump: state.activation.pc = instruction.jump; return true;
    case Op::Wait:
      if (!wait(id, instruction)) return false;
      break;
    case Op::Assign: state.variables[static_cast<std::size_t>(instruction.slot)] = evaluate(instruction.value, scope_of(state), source_); break;
    case Op::Stop:
      state.state = State::Stopped;
      result_.players[static_cast<std::size_t>(id)].stopped = true;
      for (const int message : state.mailbox) release(message);
      state.mailbox.clear();
      return false;
    case Op::End:
      state.state = State::Idle;
      return begin_next(id);
  }
  ++player(id).activation.pc;
  return true;
}

// A behaviour runs until it needs its site or a message; a loop without either would never give the clock
// a chance to move, so a player that runs 10^8 statements in one go is an error there.
void Run::interpret(int id) {
  constexpr long limit = 100000000;
  for (long statements = 0; step(id); ++statements) {
    if (statements == limit)
      source_.fail(program_.code[static_cast<std::size_t>(player(id).activation.pc)].offset,
                   "'" + result_.players[static_cast<std::size_t>(id)].name + "' ran 100000000 statements without time passing (a loop without work?)");
  }
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
