// One execution on the hierarchical machine (simulate.hpp; docs/hierarchy.md, "The simulation"). CSs are
// numbered level by level from the top; the children of CS i of level l are CSs i·F .. i·F + F − 1 of level
// l + 1, the processors of lowest CS i are i·P .. i·P + P − 1.
#include <algorithm>
#include <string>

#include "augur/core/diagnostics.hpp"
#include "sim/hierarchy/hierarchy_run.hpp"
#include "sim/hierarchy/simulate.hpp"

namespace augur::sim::hierarchy {
namespace detail {

void Hierarchy::name_rows() {
  if (timeline_ == nullptr) return;
  for (std::size_t id = 0; id < cs_.size(); ++id)
    timeline_->name_row(static_cast<int>(id), "level " + std::to_string(cs_[id].level) + " CS " + std::to_string(cs_[id].index));
  for (long p = 0; p < machine_.total_processors(); ++p) timeline_->name_row(processor_row(static_cast<int>(p)), "processor " + std::to_string(p));
}

// A packet's move as a flow: from when the control unit starts serving it to its arrival.
void Hierarchy::trace_move(int from_row, int to_row, const std::string& name, const char* category, double start, double end) {
  if (timeline_ == nullptr) return;
  ++flows_;
  timeline_->flow_start(from_row, name, category, flows_, start);
  timeline_->flow_end(to_row, name, category, flows_, end);
}

// A result going up (or back to the CS of its instance after a migration): "result F", F the function whose
// task or instance completed, from now to its arrival.
void Hierarchy::trace_result(int from_row, int to_row, int instance, double end) {
  if (timeline_ != nullptr) trace_move(from_row, to_row, "result " + function_name(instance), "result", engine_.now(), end);
}

void Hierarchy::build() {
  for (int l = 1; l <= machine_.levels; ++l) {
    level_start_.push_back(static_cast<int>(cs_.size()));
    const long count = machine_.control_subsystems(l);
    for (long i = 0; i < count; ++i) {
      ControlSubsystem c;
      c.level = l;
      c.index = static_cast<int>(i);
      if (l > 1) c.parent = first_of_level(l - 1) + static_cast<int>(i / machine_.fanout[static_cast<std::size_t>(l - 2)]);
      if (l == machine_.levels)
        for (int p = machine_.processors - 1; p >= 0; --p) c.idle.push_back(static_cast<int>(i) * machine_.processors + p);
      cs_.push_back(std::move(c));
    }
  }
  processor_busy_.assign(static_cast<std::size_t>(machine_.total_processors()), 0.0);
  levels_.assign(static_cast<std::size_t>(machine_.levels), LevelRun{});
  name_rows();
}

void Hierarchy::set_used(ControlSubsystem& c, double used) {
  c.occupancy += c.used * (engine_.now() - c.changed);
  c.changed = engine_.now();
  c.used = used;
  c.maximum_used = std::max(c.maximum_used, used);
}

double Hierarchy::control_unit(ControlSubsystem& c) {
  const double schedule = settings(c.level).schedule;
  c.free_at = std::max(c.free_at, engine_.now()) + schedule;
  c.busy += schedule;
  if (timeline_ != nullptr && schedule > 0)
    timeline_->span(first_of_level(c.level) + c.index, "schedule", "schedule", c.free_at - schedule, c.free_at);
  return c.free_at;
}

void Hierarchy::start_instance(int function, int at, Packet parent) {
  const auto& f = program_.functions[static_cast<std::size_t>(function)];
  const int id = static_cast<int>(instances_.size());
  Instance instance{function, at, parent, f.tasks, {}};
  instance.pending.assign(program_.predecessors.begin() + f.first_task, program_.predecessors.begin() + f.first_task + f.tasks);
  instances_.push_back(std::move(instance));
  for (int t = 0; t < f.tasks; ++t)
    if (program_.predecessors[static_cast<std::size_t>(f.first_task + t)] == 0) fire(id, f.first_task + t);
}

// A task became executable: a packet waits in the CS of its instance.
void Hierarchy::fire(int instance, int task) {
  const int at = instances_[static_cast<std::size_t>(instance)].cs;
  cs(at).waiting.push_back({instance, task, at});
}

void Hierarchy::dispatch(int id) {
  ControlSubsystem& c = cs(id);
  const bool lowest = c.level == machine_.levels;
  while (!c.waiting.empty() && (lowest ? dispatch_to_processor(id) : dispatch_to_child(id))) {
  }
  if (!c.waiting.empty()) offer(id);
}

bool Hierarchy::dispatch_to_processor(int id) {
  ControlSubsystem& c = cs(id);
  if (c.idle.empty()) return false;
  const int processor = c.idle.back();
  c.idle.pop_back();
  const Packet packet = c.waiting.front();
  c.waiting.pop_front();
  ++c.out;
  auto& level = levels_[static_cast<std::size_t>(c.level - 1)];
  ++level.grasped;
  level.transfers += 2;
  const double transfer = settings(c.level).transfer;
  const double execution = program_.time[static_cast<std::size_t>(packet.task)];
  const double served = control_unit(c);
  const double finish = served + transfer + execution;
  const auto& function = program_.functions[static_cast<std::size_t>(instances_[static_cast<std::size_t>(packet.instance)].function)];
  if (timeline_ != nullptr) trace_move(id, processor_row(processor), "grasp " + function.name, "grasp", served - settings(c.level).schedule, served + transfer);
  engine_.schedule(finish - engine_.now(), [this, id, processor, packet, execution, transfer, start = served + transfer, &function] {
    processor_busy_[static_cast<std::size_t>(processor)] += execution;
    if (timeline_ != nullptr)
      timeline_->span(processor_row(processor), function.name + " " + std::to_string(packet.task - function.first_task), "elementary", start, engine_.now());
    ++elementary_;
    cs(id).idle.push_back(processor);
    trace_result(processor_row(processor), id, packet.instance, engine_.now() + transfer);
    engine_.schedule(transfer, [this, id, packet] { result_at_holder(id, packet); });
    dispatch(id);
  });
  return true;
}

// The child that grasps the head packet: the least loaded child below its threshold with room for the
// function, the first such on ties.
bool Hierarchy::dispatch_to_child(int id) {
  ControlSubsystem& c = cs(id);
  const Packet packet = c.waiting.front();
  const int function = program_.callee[static_cast<std::size_t>(packet.task)];
  const int size = size_of(function);
  const int child_level = c.level + 1;
  const int fanout = machine_.fanout[static_cast<std::size_t>(c.level - 1)];
  const int first = first_of_level(child_level) + c.index * fanout;
  const long threshold = machine_.grasp_threshold(child_level);
  int chosen = -1;
  for (int child = first; child < first + fanout; ++child) {
    const ControlSubsystem& d = cs(child);
    if (d.load() >= threshold || d.used + size > settings(child_level).capacity) continue;
    if (chosen < 0 || d.load() < cs(chosen).load()) chosen = child;
  }
  if (chosen < 0) return false;
  c.waiting.pop_front();
  ++c.out;
  ControlSubsystem& d = cs(chosen);
  ++d.incoming;
  set_used(d, d.used + size);
  auto& level = levels_[static_cast<std::size_t>(c.level - 1)];
  ++level.grasped;
  level.transfers += 2;
  const double served = control_unit(c);
  const double arrival = served + settings(c.level).transfer;
  if (timeline_ != nullptr)
    trace_move(id, chosen, "grasp " + program_.functions[static_cast<std::size_t>(function)].name, "grasp", served - settings(c.level).schedule, arrival);
  engine_.schedule(arrival - engine_.now(), [this, chosen, function, packet] {
    --cs(chosen).incoming;
    start_instance(function, chosen, packet);
    dispatch(chosen);
  });
  return true;
}

// The result of `packet` is back at the CS that handed it down; a migrated packet's result goes on to the CS
// that holds its instance, over the level's network.
void Hierarchy::result_at_holder(int holder, Packet packet) {
  ControlSubsystem& h = cs(holder);
  --h.out;
  if (packet.owner == holder) {
    complete(packet);
  } else {
    auto& level = levels_[static_cast<std::size_t>(h.level - 1)];
    ++level.network;
    trace_result(holder, packet.owner, packet.instance, engine_.now() + settings(h.level).network);
    engine_.schedule(settings(h.level).network, [this, packet] {
      complete(packet);
      load_dropped(packet.owner);  // new packets to hand out, and perhaps space freed for the parent's
    });
  }
  load_dropped(holder);
}

// A task of an instance completed in the instance's CS: its successors fire; the last task completes the
// instance, whose result goes up to the CS that handed it down (the parent CS).
void Hierarchy::complete(Packet packet) {
  Instance& instance = instances_[static_cast<std::size_t>(packet.instance)];
  const int id = packet.instance;
  for (int s = program_.successor_begin[static_cast<std::size_t>(packet.task)]; s < program_.successor_begin[static_cast<std::size_t>(packet.task) + 1]; ++s) {
    const int successor = program_.successors[static_cast<std::size_t>(s)];
    const int local = successor - program_.functions[static_cast<std::size_t>(instance.function)].first_task;
    if (--instance.pending[static_cast<std::size_t>(local)] == 0) fire(id, successor);
  }
  if (--instance.remaining > 0) return;
  ControlSubsystem& c = cs(instance.cs);
  set_used(c, c.used - size_of(instance.function));
  std::vector<int>().swap(instance.pending);
  if (instance.parent.instance < 0) {
    end_ = engine_.now();
    return;
  }
  const Packet parent = instance.parent;
  const int holder = c.parent;
  trace_result(instance.cs, holder, id, engine_.now() + settings(c.level - 1).transfer);
  engine_.schedule(settings(c.level - 1).transfer, [this, holder, parent] { result_at_holder(holder, parent); });
}

Execution Hierarchy::run() {
  build();
  set_used(cs(0), size_of(0));
  start_instance(0, 0, Packet{-1, -1, -1});
  dispatch(0);
  engine_.run();
  return collect(end_);
}

}  // namespace detail

void check_program_fits(const Program& program, const Machine& machine, const std::string& where) {
  if (program.levels != machine.levels)
    throw core::InputError({where, 0, 0}, "the program has " + std::to_string(program.levels) + " levels, the machine " + std::to_string(machine.levels) + " (they must be the same)");
  for (const auto& function : program.functions) {
    const double capacity = machine.level[static_cast<std::size_t>(function.level - 1)].capacity;
    if (function.tasks > capacity)
      throw core::InputError({where, 0, 0}, "function '" + function.name + "' has " + std::to_string(function.tasks) + " tasks: more than the capacity of a level-" +
                                                std::to_string(function.level) + " CS (" + std::to_string(static_cast<long>(capacity)) + " space units)");
  }
}

Execution simulate_hierarchy(const Program& program, const Machine& machine, const std::string& where, TimelineWriter* timeline) {
  check_program_fits(program, machine, where);
  return detail::Hierarchy(program, machine, timeline).run();
}

}  // namespace augur::sim::hierarchy

