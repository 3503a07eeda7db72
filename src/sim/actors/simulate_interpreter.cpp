// The actor simulator's interpreter (simulate_run.hpp): a behaviour's statements, the receivers of a send,
// the players a statement creates and the messages a wait takes.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "sim/actors/simulate_run.hpp"

namespace augur::sim::actors::detail {

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

}  // namespace augur::sim::actors::detail
