// The machines of a BSP superstep trace put together from its records, and their hierarchy checked
// (trace_reader.hpp).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "bsp/trace_reader.hpp"

namespace augur::bsp::trace_detail {

using core::InputError;

void TraceReader::build_machines() {
  if (!machine_index_.contains("/")) throw InputError({file_, 0, 0}, "no record of the top machine '/'");
  std::vector<std::size_t> order(builds_.size());
  for (std::size_t index = 0; index < order.size(); ++index) order[index] = index;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return builds_[a].path < builds_[b].path; });
  for (const std::size_t build_index : order) {
    const MachineBuild& build = builds_[build_index];
    const Record& first = records_[build.first_record].record;
    if (build.id == "/" && build.nprocs != trace_.ranks) {
      throw InputError(first.at("nprocs"), "the top machine '/' has nprocs " + std::to_string(build.nprocs) +
                                               " but the header says " + std::to_string(trace_.ranks) + " ranks");
    }
    for (int pid = 0; pid < build.nprocs; ++pid) {
      if (!build.steps.contains(pid)) {
        throw InputError(first.at("machine"), "machine '" + build.id + "' has nprocs " +
                                                  std::to_string(build.nprocs) + " but no record of pid " +
                                                  std::to_string(pid));
      }
    }
    // Every process has supersteps 1..R_pid without a gap, and the same R.
    int reference_pid = -1;
    int reference_count = 0;
    for (const auto& [pid, steps] : build.steps) {
      int expected = 1;
      for (const auto& [superstep, record] : steps) {
        if (superstep != expected) {
          const RawRecord& raw = records_[record];
          throw InputError(raw.record.at("superstep"), "missing superstep " + std::to_string(expected) + " of rank " +
                                                           std::to_string(raw.step.rank) + " in machine '" +
                                                           build.id + "' (found superstep " +
                                                           std::to_string(superstep) + ")");
        }
        ++expected;
      }
      const int count = expected - 1;
      if (reference_pid < 0) {
        reference_pid = pid;
        reference_count = count;
      } else if (count != reference_count) {
        const RawRecord& last = records_[steps.rbegin()->second];
        const RawRecord& other = records_[build.steps.at(reference_pid).rbegin()->second];
        throw InputError(last.record.at("superstep"),
                         "rank " + std::to_string(last.step.rank) + " has " + std::to_string(count) +
                             " supersteps in machine '" + build.id + "', rank " + std::to_string(other.step.rank) +
                             " has " + std::to_string(reference_count) + " (" + line_reference(other.record.line()) +
                             "): the members of a machine have the same supersteps");
      }
    }
    Machine machine;
    machine.id = build.id;
    machine.location = first.line_location();
    if (!build.path.empty()) {
      machine.parent_superstep = build.path.back().first;
      machine.group = build.path.back().second;
    }
    machine.ranks.resize(static_cast<std::size_t>(build.nprocs));
    machine.supersteps.assign(static_cast<std::size_t>(reference_count),
                              std::vector<Superstep>(static_cast<std::size_t>(build.nprocs)));
    for (const auto& [pid, steps] : build.steps) {
      for (const auto& [superstep, record] : steps) {
        machine.ranks[static_cast<std::size_t>(pid)] = records_[record].step.rank;
        machine.supersteps[static_cast<std::size_t>(superstep - 1)][static_cast<std::size_t>(pid)] =
            records_[record].step;
      }
    }
    final_index_[build.id] = trace_.machines.size();
    trace_.machines.push_back(std::move(machine));
  }
}

void TraceReader::check_hierarchy() {
  for (const RawRecord& raw : records_) {
    if (raw.child.empty()) continue;
    const auto found = final_index_.find(raw.child);
    if (found == final_index_.end()) {
      throw InputError(raw.record.at("child"), "no machine '" + raw.child + "' in the trace");
    }
    if (trace_.machines[found->second].pid_of(raw.step.rank) < 0) {
      throw InputError(raw.record.at("child"),
                       "rank " + std::to_string(raw.step.rank) + " is not a member of machine '" + raw.child + "'");
    }
    Machine& parent = trace_.machines[final_index_.at(raw.machine)];
    parent.supersteps[static_cast<std::size_t>(raw.superstep - 1)][static_cast<std::size_t>(raw.pid)].child =
        found->second;
  }
  for (std::size_t index = 1; index < trace_.machines.size(); ++index) {
    Machine& machine = trace_.machines[index];
    const std::string parent_id =
        machine.id.substr(0, machine.id.rfind('/', machine.id.size() - 2) + 1);  // drop the last "s:g/"
    const auto parent_found = final_index_.find(parent_id);
    const Record& first = records_[builds_[machine_index_.at(machine.id)].first_record].record;
    if (parent_found == final_index_.end()) {
      throw InputError(first.at("machine"),
                       "machine '" + machine.id + "' has no parent machine '" + parent_id + "' in the trace");
    }
    machine.parent = parent_found->second;
    const Machine& parent = trace_.machines[parent_found->second];
    for (const int rank : machine.ranks) {
      const int parent_pid = parent.pid_of(rank);
      if (parent_pid < 0) {
        throw InputError(first.at("machine"), "rank " + std::to_string(rank) + " of machine '" + machine.id +
                                                  "' is not a member of its parent machine '" + parent.id + "'");
      }
      if (machine.parent_superstep > parent.superstep_count()) {
        throw InputError(first.at("machine"), "machine '" + machine.id + "' is entered in superstep " +
                                                  std::to_string(machine.parent_superstep) + " of machine '" +
                                                  parent.id + "', which has " +
                                                  std::to_string(parent.superstep_count()) + " supersteps");
      }
      const Superstep& entry = parent.supersteps[static_cast<std::size_t>(machine.parent_superstep - 1)]
                                                [static_cast<std::size_t>(parent_pid)];
      if (entry.child != index) {
        throw InputError(
            entry.location,
            "rank " + std::to_string(rank) + " is a member of machine '" + machine.id + "' but its superstep " +
                std::to_string(machine.parent_superstep) + " of machine '" + parent.id + "' has " +
                (entry.child ? "child '" + trace_.machines[*entry.child].id + "'" : std::string("no 'child'")));
      }
    }
  }
}

}  // namespace augur::bsp::trace_detail
