// TSPP: the task-system performance predictor of Flynn & Lundstrom (seed 004, section 1.3).
// This header holds the task-system model and its input language (Figure 11); the predictor
// and the simulator build on it. Language reference: docs/formats.md, "TSPP task systems".
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "augur/core/diagnostics.hpp"

namespace augur::tspp {

// The largest demand the input language reads: larger ones make the predictor's and the simulator's
// sums overflow.
constexpr double max_demand = 1e15;
// The smallest: a smaller demand (a subnormal one included) is read as 0, so that rates (1 / R),
// squares and products of demands stay finite and normal in every method.
constexpr double min_demand = 1e-100;

struct Resource {
  enum class Kind { Queuing, Delay };
  std::string name;
  Kind kind = Kind::Queuing;
  int servers = 1;  // queuing centres; delay centres have as many as needed
  core::SourceLocation declared;
};

struct Task {
  std::string name;
  std::vector<double> demands;  // one per resource, in declaration order; 0 where none is given
  core::SourceLocation declared;
};

// The series-parallel structure: a task, or a serial ({...}) or parallel ([...]) group.
struct Node {
  enum class Kind { Task, Serial, Parallel };
  Kind kind = Kind::Task;
  int task = -1;                // Kind::Task: index into TaskSystem::tasks
  std::vector<Node> children;   // groups: at least one
};

struct TaskSystem {
  std::vector<Resource> resources;
  std::vector<Task> tasks;
  Node structure;

  [[nodiscard]] int resource_index(const std::string& name) const;  // -1 when absent
  [[nodiscard]] int task_index(const std::string& name) const;      // -1 when absent
};

// Parses a task system. Throws core::InputError ("file:line:col: message") on the first error:
// syntax, an unknown or duplicate name, a task used twice or never, an empty group, a negative or
// non-finite demand or one above max_demand (one below min_demand is read as 0), a number of
// servers that is not a positive integer, a missing section.
[[nodiscard]] TaskSystem parse_task_system(const std::string& text, const std::string& file);

// The structure written back in the input language, on one line: "[ { [ a; b; ] c; } d; ]".
[[nodiscard]] std::string describe_structure(const TaskSystem& system);

// The whole task system in the input language (parse_task_system reads it back unchanged).
[[nodiscard]] std::string write_task_system(const TaskSystem& system);

// A random series-parallel task system, for tests and benchmarks (`augur gen-tasks`).
struct GeneratorOptions {
  int tasks = 10;
  int resources = 3;
  int depth = 3;              // groups nested at most this deep (1: one group of tasks)
  double demand_min = 0.1;    // each demand uniform in [demand_min, demand_max]
  double demand_max = 1.0;
  double use_probability = 0.7;  // chance that a task uses a resource (each task uses at least one)
  unsigned long long seed = 1;
};
// Throws std::invalid_argument for impossible options (demand_max above max_demand included).
[[nodiscard]] TaskSystem generate_task_system(const GeneratorOptions& options);
// The same system written in the input language (as write_task_system) as it is drawn, in pieces
// passed to `write`: the memory does not grow with the number of tasks.
void write_generated_task_system(const GeneratorOptions& options, const std::function<void(std::string_view)>& write);

}  // namespace augur::tspp
