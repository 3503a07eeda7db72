// Grasp and migration on the hierarchical machine (docs/hierarchy.md, "The simulation"): a CS whose load fell
// takes packets from its parent or, starving, from the busiest CS of its level; the results collected.
#include <algorithm>

#include "sim/hierarchy/hierarchy_run.hpp"

namespace augur::sim::hierarchy::detail {

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

}  // namespace augur::sim::hierarchy::detail
