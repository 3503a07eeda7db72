// The reader of BSP superstep traces (docs/formats.md, "BSP superstep traces"), private to src/bsp: the
// records as read (trace.cpp) and the machines put together from them (trace_machines.cpp).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bsp/bsp.hpp"
#include "core/json_line.hpp"
#include "core/lines.hpp"

namespace augur::bsp::trace_detail {

using Json = nlohmann::json;
using Line = core::TextLine;
using Record = core::JsonLine;

// A machine id: "/" followed by any number of "s:g/" (s ≥ 1, g ≥ 0, decimal without leading zeros).
// The (s, g) pairs, or nullopt when the text is not an id.
std::optional<std::vector<std::pair<int, int>>> parse_machine_id(const std::string& id);

inline constexpr const char* machine_id_rule = "a machine id is '/' followed by 'S:G/' per partition level, e.g. '/1:0/'";

// A record as read, before the machines are put together.
struct RawRecord {
  Record record;
  Superstep step;
  std::string machine;
  int pid = 0;
  int nprocs = 0;
  int superstep = 0;
  std::string child;  // empty: none
};

inline std::string line_reference(long line) {
  return "line " + std::to_string(line);
}

class TraceReader {
 public:
  explicit TraceReader(std::string file) : file_(std::move(file)) {}

  Trace read(const std::string& text);

 private:
  struct MachineBuild {
    std::string id;
    std::vector<std::pair<int, int>> path;
    int nprocs = 0;
    std::size_t first_record = 0;                     // index in records_
    std::map<int, std::size_t> pid_of_rank;           // rank → pid
    std::map<int, std::size_t> rank_record;           // pid → the record that gave it its rank
    std::map<int, std::map<int, std::size_t>> steps;  // pid → superstep → record
  };

  void read_header(const Record& header);
  void read_record(Record record);
  void read_child(RawRecord& raw) const;  // 'child' and 'before_child'
  // Files the record under its machine, checking it against the machine's earlier records.
  void add(RawRecord raw);
  // (trace_machines.cpp) Checks that each machine has all its processes and supersteps, and puts the
  // machines together, parents before children ("/" first).
  void build_machines();
  // (trace_machines.cpp) Parents and children agree: every child named exists and holds the rank, and every
  // member of a sub-machine enters it from the superstep of its parent that the id names.
  void check_hierarchy();

  std::string file_;
  Trace trace_;
  std::vector<RawRecord> records_;
  std::vector<MachineBuild> builds_;
  std::map<std::string, std::size_t> machine_index_;  // id → index in builds_
  std::map<std::string, std::size_t> final_index_;    // id → index in trace_.machines
};

}  // namespace augur::bsp::trace_detail
