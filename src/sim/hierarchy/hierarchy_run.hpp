// One execution on the hierarchical machine, private to sim/hierarchy: packets, instances, control subsystems
// and the run that moves them (hierarchy.cpp: dispatch and results; hierarchy_migration.cpp: grasp and
// migration).
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "sim/hierarchy/simulate.hpp"

namespace augur::sim::hierarchy::detail {

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

}  // namespace augur::sim::hierarchy::detail
