// One execution on the hierarchical machine (simulate.hpp; docs/hierarchy.md, "The simulation"). CSs are
// numbered level by level from the top; the children of CS i of level l are CSs i·F .. i·F + F − 1 of level
// l + 1, the processors of lowest CS i are i·P .. i·P + P − 1.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>

#include "augur/core/diagnostics.hpp"
#include "sim/hierarchy/simulate.hpp"

namespace augur::sim::hierarchy {
namespace {

struct Packet {
  int instance = 0;  // the function instance whose graph holds the task
  int task = 0;      // global task index
  int owner = 0;     // the CS that holds the instance (results of migrated packets go back to it)
};

struct Instance {
  int function = 0;
  int cs = 0;            // where it runs
  Packet parent;         // the packet it executes (parent.instance = -1 for the top program)
  int remaining = 0;     // tasks not completed
  std::vector<int> pending;  // per task: predecessors not completed
};

struct ControlSubsystem {
  int level = 1;
  int index = 0;         // within its level
  int parent = -1;       // CS id
  std::deque<Packet> waiting;
  int incoming = 0;      // packets and instances on their way here
  int out = 0;           // packets handed to children, results not back
  double free_at = 0.0;  // when the control unit is free
  double busy = 0.0;
  double used = 0.0;     // space units held (reserved when a child is chosen)
  double maximum_used = 0.0;
  double occupancy = 0.0;  // integral of used over time
  double changed = 0.0;
  std::vector<int> idle;   // lowest level: idle processors (a stack)
  [[nodiscard]] long load() const { return static_cast<long>(waiting.size()) + incoming + out; }
};

class Hierarchy {
public:
  Hierarchy(const Program& program, const Machine& machine, TimelineWriter* timeline)
      : program_(program), machine_(machine), timeline_(timeline) {}
  Execution run();

private:
  [[nodiscard]] int first_of_level(int level) const { return level_start_[static_cast<std::size_t>(level - 1)]; }
  [[nodiscard]] const LevelSettings& settings(int level) const { return machine_.level[static_cast<std::size_t>(level - 1)]; }
  [[nodiscard]] int size_of(int function) const { return program_.functions[static_cast<std::size_t>(function)].tasks; }
  ControlSubsystem& cs(int id) { return cs_[static_cast<std::size_t>(id)]; }
  void build();
  void set_used(ControlSubsystem& c, double used);
  double control_unit(ControlSubsystem& c);  // charges one scheduling time, returns when it is done
  void start_instance(int function, int at, Packet parent);
  void fire(int instance, int task);
  void dispatch(int id);
  bool dispatch_to_processor(int id);
  bool dispatch_to_child(int id);
  void result_at_holder(int holder, Packet packet);
  void complete(Packet packet);
  void load_dropped(int id);
  void migrate_into(int id);
  void offer(int id);
  bool starving(int id);
  Execution collect(double time);
  // The timeline (docs/hierarchy.md, "The timeline"): rows are the CSs (by id), then the processors.
  void name_rows();
  [[nodiscard]] int processor_row(int processor) const { return static_cast<int>(cs_.size()) + processor; }
  void trace_move(int from_row, int to_row, const std::string& name, const char* category, double start, double end);
  void trace_result(int from_row, int to_row, int instance, double end);
  [[nodiscard]] const std::string& function_name(int instance) const {
    return program_.functions[static_cast<std::size_t>(instances_[static_cast<std::size_t>(instance)].function)].name;
  }

  const Program& program_;
  const Machine& machine_;
  Engine engine_;
  std::vector<ControlSubsystem> cs_;
  std::vector<int> level_start_;
  std::vector<Instance> instances_;
  std::vector<double> processor_busy_;
  std::vector<LevelRun> levels_;
  double end_ = -1.0;
  long elementary_ = 0;
  TimelineWriter* timeline_ = nullptr;
  std::uint64_t flows_ = 0;
};

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

// The load of `id` fell (or its space was freed): its parent may hand it a packet; if the parent has none,
// it may take packets from the busiest CS of its level.
void Hierarchy::load_dropped(int id) {
  dispatch(id);
  const int parent = cs(id).parent;
  if (parent >= 0) dispatch(parent);
  migrate_into(id);
}

// Below its grasp threshold, and nothing to grasp from the parent.
bool Hierarchy::starving(int id) {
  ControlSubsystem& d = cs(id);
  if (d.parent < 0 || !settings(d.level).migrate) return false;
  return d.load() < machine_.grasp_threshold(d.level) && cs(d.parent).waiting.empty();
}

// Migration: a starving CS takes up to migrate-batch packets (and at most half) from the back of the queue
// of the CS of its level with the most waiting (at least migrate-minimum; the first such on ties). A packet
// migrates once at most (so that two idle CSs never hand packets back and forth).
void Hierarchy::migrate_into(int id) {
  if (!starving(id)) return;
  const int level = cs(id).level;
  const auto& rule = settings(level);
  int donor = -1;
  const int first = first_of_level(level);
  const int count = static_cast<int>(machine_.control_subsystems(level));
  for (int e = first; e < first + count; ++e) {
    if (e == id || static_cast<long>(cs(e).waiting.size()) < rule.migrate_minimum) continue;
    if (donor < 0 || cs(e).waiting.size() > cs(donor).waiting.size()) donor = e;
  }
  if (donor < 0) return;
  ControlSubsystem& e = cs(donor);
  const int moved = std::max<int>(1, std::min<int>(rule.migrate_batch, static_cast<int>(e.waiting.size() / 2)));
  auto& totals = levels_[static_cast<std::size_t>(level - 1)];
  for (int k = 0; k < moved && e.waiting.back().owner == donor; ++k) {  // a packet migrates once at most
    const Packet packet = e.waiting.back();
    e.waiting.pop_back();
    ++cs(id).incoming;
    ++totals.migrated;
    ++totals.network;
    const double served = control_unit(e);
    const double arrival = served + rule.network;
    trace_move(donor, id, "migrate", "migrate", served - rule.schedule, arrival);
    engine_.schedule(arrival - engine_.now(), [this, id, packet] {
      ControlSubsystem& d = cs(id);
      --d.incoming;
      d.waiting.push_back(packet);
      dispatch(id);
    });
  }
}

// `id` keeps packets its children cannot take: starving CSs of its level may take some.
void Hierarchy::offer(int id) {
  const int level = cs(id).level;
  if (level == 1 || !settings(level).migrate) return;
  const int first = first_of_level(level);
  const int count = static_cast<int>(machine_.control_subsystems(level));
  for (int d = first; d < first + count && static_cast<long>(cs(id).waiting.size()) >= settings(level).migrate_minimum; ++d)
    if (d != id && starving(d)) migrate_into(d);
}

Execution Hierarchy::collect(double time) {
  Execution run;
  run.time = time;
  run.elementary = elementary_;
  run.events = engine_.events_run();
  for (int l = 1; l <= machine_.levels; ++l) {
    LevelRun level = levels_[static_cast<std::size_t>(l - 1)];
    level.control_subsystems = machine_.control_subsystems(l);
    double busy = 0.0, occupancy = 0.0;
    for (int c = first_of_level(l); c < first_of_level(l) + static_cast<int>(level.control_subsystems); ++c) {
      ControlSubsystem& subsystem = cs(c);
      set_used(subsystem, subsystem.used);  // closes the occupancy integral at the end
      busy += subsystem.busy;
      occupancy += subsystem.occupancy;
      level.occupancy_maximum = std::max(level.occupancy_maximum, subsystem.maximum_used);
    }
    const double span = time * static_cast<double>(level.control_subsystems);
    level.utilization = span > 0 ? busy / span : 0.0;
    level.occupancy = span > 0 ? occupancy / span : 0.0;
    level.occupancy_share = level.occupancy / settings(l).capacity;
    run.levels.push_back(level);
  }
  for (const double busy : processor_busy_) run.processor_utilization.push_back(time > 0 ? busy / time : 0.0);
  return run;
}

Execution Hierarchy::run() {
  build();
  set_used(cs(0), size_of(0));
  start_instance(0, 0, Packet{-1, -1, -1});
  dispatch(0);
  engine_.run();
  return collect(end_);
}

}  // namespace

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
  return Hierarchy(program, machine, timeline).run();
}

}  // namespace augur::sim::hierarchy
