// The hierarchical multiprocessor (docs/formats.md, "Hierarchical machines"; seed 004 §4.2, Figure 16): a
// tree of control subsystems (CS) over `levels` levels, level 1 the top CS; every CS above the lowest level
// has fanout[l] children, every lowest CS has `processors` processors. Per level: the CS capacity in space
// units, the control unit's scheduling time per packet it hands out, the transfer time of a packet (and of
// its result) between a CS of the level and a child, the network time of a packet between two CSs of the
// level, the grasp threshold and the migration rule.
#pragma once

#include <string>
#include <vector>

namespace augur::sim::hierarchy {

struct LevelSettings {
  double capacity = 1e9;       // space units of a CS of this level
  double schedule = 0.01;      // control-unit time per packet handed out (to a child CS or a processor)
  double transfer = 0.02;      // time of a packet down to a child, and of its result back up
  double network = 0.05;       // time of a packet (and of its result) between two CSs of this level
  int grasp = 0;               // a CS grasps from its parent while its load is below this (0: its children)
  bool migrate = true;         // whether idle CSs of this level take packets from others
  int migrate_batch = 1;       // at most this many packets per migration ...
  int migrate_minimum = 2;     // ... from a CS with at least this many waiting
};

struct Machine {
  int levels = 2;
  std::vector<int> fanout;     // levels − 1 values: the children of a CS of level l (1-based l, index l − 1)
  int processors = 4;          // under each lowest CS
  std::vector<LevelSettings> level;  // `levels` entries, index l − 1

  // The number of CSs at level l (1-based).
  [[nodiscard]] long control_subsystems(int l) const;
  [[nodiscard]] long total_processors() const { return control_subsystems(levels) * processors; }
  // The children of a CS of level l: CSs of level l + 1, or processors at the lowest level.
  [[nodiscard]] int children(int l) const { return l < levels ? fanout[static_cast<std::size_t>(l - 1)] : processors; }
  // The grasp threshold of level l: its setting, or the number of children.
  [[nodiscard]] int grasp_threshold(int l) const;
};

// The machine of the sweep flags (--levels, --fanout, --processors), the other settings at their defaults;
// an InputError naming the flag when a value is out of range.
[[nodiscard]] Machine uniform_machine(int levels, int fanout, int processors);

// Parses a machine file; an inconsistent machine (zero fan-out, a capacity below one space unit, a list of
// values that does not match the levels) is an InputError at file:line:col.
[[nodiscard]] Machine parse_machine(const std::string& text, const std::string& file);

// The largest machine accepted: 2^20 processors, 2^16 CSs on a level.
inline constexpr long maximum_processors = 1L << 20;

}  // namespace augur::sim::hierarchy
