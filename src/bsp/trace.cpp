// The reader of BSP superstep traces (docs/formats.md, "BSP superstep traces"): the header and the records;
// the machines are put together in trace_machines.cpp.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <set>
#include <string_view>
#include <utility>

#include "bsp/bsp.hpp"
#include "bsp/trace_reader.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"

namespace augur::bsp {
namespace trace_detail {

using core::InputError;
using core::significant_lines;

// A machine id: "/" followed by any number of "s:g/" (s ≥ 1, g ≥ 0, decimal without leading zeros).
// The (s, g) pairs, or nullopt when the text is not an id.
std::optional<std::vector<std::pair<int, int>>> parse_machine_id(const std::string& id) {
  if (id.empty() || id.front() != '/') return std::nullopt;
  std::vector<std::pair<int, int>> path;
  std::size_t position = 1;
  const auto number = [&](char terminator, int minimum) -> std::optional<int> {
    const std::size_t start = position;
    while (position < id.size() && id[position] >= '0' && id[position] <= '9') ++position;
    const std::size_t digits = position - start;
    if (digits == 0 || digits > 9 || (digits > 1 && id[start] == '0')) return std::nullopt;
    if (position >= id.size() || id[position] != terminator) return std::nullopt;
    const int value = std::stoi(id.substr(start, digits));
    ++position;
    if (value < minimum) return std::nullopt;
    return value;
  };
  while (position < id.size()) {
    const std::optional<int> superstep = number(':', 1);
    if (!superstep) return std::nullopt;
    const std::optional<int> group = number('/', 0);
    if (!group) return std::nullopt;
    path.emplace_back(*superstep, *group);
  }
  return path;
}

Trace TraceReader::read(const std::string& text) {
  const std::vector<Line> lines = significant_lines(text);
  if (lines.empty())
    throw InputError({file_, 0, 0}, "empty trace: expected the header {\"augur\":\"bsp\",\"version\":1,\"ranks\":P}");
  read_header(Record(file_, lines.front()));
  for (auto line = lines.begin() + 1; line != lines.end(); ++line) read_record(Record(file_, *line));
  if (records_.empty()) throw InputError({file_, lines.front().number, 1}, "no supersteps in the trace");
  build_machines();
  check_hierarchy();
  return std::move(trace_);
}

void TraceReader::read_header(const Record& header) {
  if (!header.has("augur")) {
    throw InputError(header.line_location(),
                     "the first line must be the header {\"augur\":\"bsp\",\"version\":1,\"ranks\":P}");
  }
  header.check_keys({"augur", "version", "ranks", "label"}, "the header");
  const std::string kind = header.string_of("augur");
  if (kind != "bsp") throw InputError(header.at("augur"), "unknown header 'augur': '" + kind + "' (expected 'bsp')");
  const Json& version = header.field("version");
  if (!version.is_number_integer()) throw InputError(header.at("version"), "'version' must be an integer");
  if (core::json_text(version) != "1") {
    throw InputError(header.at("version"), "augur bsp version " + core::json_text(version) + " is not supported (expected 1)");
  }
  trace_.file = file_;
  trace_.ranks = static_cast<int>(header.integer_of("ranks", 1, 1 << 24));
  if (header.has("label")) trace_.label = header.string_of("label");
}

void TraceReader::read_record(Record record) {
  if (record.has("augur"))
    throw InputError(record.line_location(), "the header {\"augur\": ...} must be the first line");
  record.check_keys({"rank", "machine", "pid", "nprocs", "superstep", "work", "in", "out", "partners", "sync", "end",
                     "child", "before_child"},
                    "a superstep record");
  RawRecord raw{std::move(record), {}, {}, 0, 0, 0, {}};
  const Record& r = raw.record;
  Superstep& step = raw.step;
  step.location = r.line_location();
  const int ranks = trace_.ranks;
  step.rank = static_cast<int>(r.integer_of("rank", 0, ranks - 1,
                                            "beyond the header's " + std::to_string(ranks) + " rank" +
                                                (ranks == 1 ? "" : "s") + " (0.." + std::to_string(ranks - 1) + ")"));
  raw.machine = r.string_of("machine");
  if (!parse_machine_id(raw.machine)) {
    throw InputError(r.at("machine"), "'" + raw.machine + "' is not a machine id: " + machine_id_rule);
  }
  raw.nprocs = static_cast<int>(
      r.integer_of("nprocs", 1, ranks, "more processes than the header's " + std::to_string(ranks) + " ranks"));
  raw.pid = static_cast<int>(r.integer_of(
      "pid", 0, raw.nprocs - 1,
      "out of range for nprocs " + std::to_string(raw.nprocs) + " (0.." + std::to_string(raw.nprocs - 1) + ")"));
  raw.superstep = static_cast<int>(r.integer_of("superstep", 1, 1 << 30));
  step.work = r.seconds_of("work");
  step.incoming_bytes = static_cast<double>(r.integer_of("in", 0, std::int64_t{1} << 53));
  step.outgoing_bytes = static_cast<double>(r.integer_of("out", 0, std::int64_t{1} << 53));
  const Json& partners = r.field("partners");
  if (!partners.is_array()) throw InputError(r.at("partners"), "'partners' must be an array of pids");
  std::set<int> seen;
  for (const Json& partner : partners) {
    const auto pid = static_cast<int>(Record::integer_value(
        partner, "partners", 0, raw.nprocs - 1,
        "out of range for nprocs " + std::to_string(raw.nprocs) + " (0.." + std::to_string(raw.nprocs - 1) + ")",
        r.at("partners")));
    if (!seen.insert(pid).second) {
      throw InputError(r.at("partners"), "partner " + std::to_string(pid) + " appears twice in 'partners'");
    }
    step.partners.push_back(pid);
  }
  const std::string sync = r.string_of("sync");
  if (sync == "none") {
    step.synchronization = Synchronization::None;
  } else if (sync == "oblivious") {
    step.synchronization = Synchronization::Oblivious;
  } else if (sync == "barrier") {
    step.synchronization = Synchronization::Barrier;
  } else {
    throw InputError(r.at("sync"), "unknown sync '" + sync + "' (expected none, oblivious or barrier)");
  }
  if (step.synchronization == Synchronization::None) {
    const char* why = "a superstep with sync 'none' does not communicate: ";
    if (step.incoming_bytes != 0) throw InputError(r.at("in"), std::string(why) + "'in' must be 0");
    if (step.outgoing_bytes != 0) throw InputError(r.at("out"), std::string(why) + "'out' must be 0");
    if (!step.partners.empty()) throw InputError(r.at("partners"), std::string(why) + "'partners' must be empty");
  }
  step.end = r.seconds_of("end");
  read_child(raw);
  add(std::move(raw));
}

// 'child' names the sub-machine the record's superstep runs, 'before_child' the work before it.
void TraceReader::read_child(RawRecord& raw) const {
  const Record& r = raw.record;
  Superstep& step = raw.step;
  if (r.has("child")) {
    raw.child = r.string_of("child");
    const auto path = parse_machine_id(raw.child);
    if (!path || path->empty()) {
      throw InputError(r.at("child"), "'" + raw.child + "' is not a sub-machine id: " + machine_id_rule);
    }
    const std::string expected = raw.machine + std::to_string(raw.superstep) + ":";
    if (!raw.child.starts_with(expected) || raw.child.find('/', expected.size()) + 1 != raw.child.size()) {
      throw InputError(r.at("child"), "child '" + raw.child + "' does not extend machine '" + raw.machine +
                                          "' in superstep " + std::to_string(raw.superstep) + " (expected '" +
                                          expected + "G/')");
    }
  }
  if (r.has("before_child")) {
    if (raw.child.empty()) throw InputError(r.at("before_child"), "'before_child' without 'child'");
    step.before_child = r.seconds_of("before_child");
    // work = before_child + the work after the child, both measured: allow for rounding (1 ns, or 1e-9 relative).
    if (step.before_child > step.work + 1e-9 * std::max(1.0, step.work)) {
      throw InputError(r.at("before_child"), "'before_child' (" + core::json_text(r.json()["before_child"]) +
                                                 ") exceeds 'work' (" + core::json_text(r.json()["work"]) +
                                                 "), which includes it");
    }
    step.before_child = std::min(step.before_child, step.work);
  }
}

// Files the record under its machine, checking it against the machine's earlier records.
void TraceReader::add(RawRecord raw) {
  const std::size_t index = records_.size();
  const auto [found, created] = machine_index_.try_emplace(raw.machine, builds_.size());
  if (created) {
    builds_.push_back({raw.machine, *parse_machine_id(raw.machine), raw.nprocs, index, {}, {}, {}});
  }
  MachineBuild& machine = builds_[found->second];
  const Record& r = raw.record;
  const auto line_of = [&](std::size_t record) { return line_reference(records_[record].record.line()); };
  if (raw.nprocs != machine.nprocs) {
    throw InputError(r.at("nprocs"), "nprocs " + std::to_string(raw.nprocs) + " differs from nprocs " +
                                         std::to_string(machine.nprocs) + " of machine '" + machine.id + "' at " +
                                         line_of(machine.first_record));
  }
  const int rank = raw.step.rank;
  const auto [pid_found, pid_created] = machine.pid_of_rank.try_emplace(rank, static_cast<std::size_t>(raw.pid));
  if (!pid_created && static_cast<int>(pid_found->second) != raw.pid) {
    throw InputError(r.at("pid"), "rank " + std::to_string(rank) + " is pid " + std::to_string(pid_found->second) +
                                      " of machine '" + machine.id + "' at " +
                                      line_of(machine.rank_record.at(static_cast<int>(pid_found->second))) +
                                      ", not pid " + std::to_string(raw.pid));
  }
  const auto [rank_found, rank_created] = machine.rank_record.try_emplace(raw.pid, index);
  if (!rank_created && records_[rank_found->second].step.rank != rank) {
    throw InputError(r.at("pid"), "pid " + std::to_string(raw.pid) + " of machine '" + machine.id + "' is rank " +
                                      std::to_string(records_[rank_found->second].step.rank) + " at " +
                                      line_of(rank_found->second) + "; rank " + std::to_string(rank) +
                                      " cannot have it too");
  }
  const auto [step_found, step_created] = machine.steps[raw.pid].try_emplace(raw.superstep, index);
  if (!step_created) {
    throw InputError(r.at("superstep"), "superstep " + std::to_string(raw.superstep) + " of rank " +
                                            std::to_string(rank) + " in machine '" + machine.id +
                                            "' is already recorded at " + line_of(step_found->second));
  }
  records_.push_back(std::move(raw));
}

}  // namespace trace_detail

const char* synchronization_name(Synchronization synchronization) {
  switch (synchronization) {
    case Synchronization::None:
      return "none";
    case Synchronization::Oblivious:
      return "oblivious";
    case Synchronization::Barrier:
      return "barrier";
  }
  return "?";
}

int Machine::pid_of(int rank) const {
  const auto found = std::find(ranks.begin(), ranks.end(), rank);
  return found == ranks.end() ? -1 : static_cast<int>(found - ranks.begin());
}

Trace parse_trace(const std::string& file, const std::string& text) {
  return trace_detail::TraceReader(file).read(text);
}

Trace read_trace(const std::string& path) {
  if (path == "-") {
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return parse_trace("<stdin>", text);
  }
  return parse_trace(path, core::read_file(path));
}

}  // namespace augur::bsp

