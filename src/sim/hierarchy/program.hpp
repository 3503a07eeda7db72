// Hierarchical dataflow programs (docs/formats.md, "Hierarchical programs"; seed 004 §4.2, Figure 17): a
// function is a dataflow graph of tasks; a task of a function above the ground level calls a function of the
// next level, a task of a ground-level function is an elementary function with its execution time. A task is
// executable when the tasks it depends on (earlier tasks of the same graph) have completed. Function 0 is
// the top-level program. A function occupies one space unit per task in the CS that runs it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/hierarchy/model.hpp"

namespace augur::sim::hierarchy {

struct Program {
  struct Function {
    std::string name;
    int level = 1;        // 1 is the top
    int first_task = 0;   // its tasks are first_task .. first_task + tasks − 1
    int tasks = 0;
  };
  int levels = 1;
  std::vector<Function> functions;
  // Per task (global index):
  std::vector<int> callee;            // the function it calls, -1 for an elementary function
  std::vector<double> time;           // T_et of an elementary function, 0 otherwise
  std::vector<int> predecessors;      // how many tasks it waits for
  std::vector<int> successor_begin;   // successors of task t: successors[successor_begin[t] .. successor_begin[t + 1])
  std::vector<int> successors;        // global task indices, in increasing order

  // The elementary functions one run executes (a function called twice counts twice).
  [[nodiscard]] double elementary_executions() const;
};

// Fills predecessors and the successor lists of `program` from (from, to) pairs of global task indices
// (sorted and made unique here).
void link_dependencies(Program& program, std::vector<std::pair<int, int>>& edges);

// The largest program generated or read: this many tasks in all.
inline constexpr long maximum_tasks = 20'000'000;

// A synthetic program drawn from `model` (with its levels set) on `random`; an InputError naming `where`
// when it would exceed maximum_tasks.
[[nodiscard]] Program generate_program(const ProgramModel& model, RandomStream& random, const std::string& where);

// The program file's text (parse_program reads it back to the same program).
[[nodiscard]] std::string write_program(const Program& program);

// Reads a program file; a call of a missing function, a dependency on a task that does not come before,
// a function called at two levels, an elementary function above the ground level ... are InputErrors at
// file:line:col.
[[nodiscard]] Program parse_program(const std::string& text, const std::string& file);

}  // namespace augur::sim::hierarchy
