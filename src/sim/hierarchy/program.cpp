// Synthetic programs from a behaviour model, and the program file written and read (program.hpp).
#include "sim/hierarchy/program.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

#include "augur/core/diagnostics.hpp"

namespace augur::sim::hierarchy {

double Program::elementary_executions() const {
  // executions of each function, top-down (a function is only called from the level above it)
  std::vector<double> runs(functions.size(), 0.0);
  runs[0] = 1.0;
  double total = 0.0;
  std::vector<int> order(functions.size());
  for (std::size_t f = 0; f < order.size(); ++f) order[f] = static_cast<int>(f);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return functions[static_cast<std::size_t>(a)].level < functions[static_cast<std::size_t>(b)].level; });
  for (const int f : order) {
    const auto& function = functions[static_cast<std::size_t>(f)];
    for (int t = function.first_task; t < function.first_task + function.tasks; ++t) {
      const int called = callee[static_cast<std::size_t>(t)];
      if (called < 0) total += runs[static_cast<std::size_t>(f)];
      else runs[static_cast<std::size_t>(called)] += runs[static_cast<std::size_t>(f)];
    }
  }
  return total;
}

void link_dependencies(Program& program, std::vector<std::pair<int, int>>& edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const std::size_t tasks = program.callee.size();
  program.predecessors.assign(tasks, 0);
  program.successor_begin.assign(tasks + 1, 0);
  program.successors.clear();
  program.successors.reserve(edges.size());
  for (const auto& [from, to] : edges) {
    ++program.predecessors[static_cast<std::size_t>(to)];
    ++program.successor_begin[static_cast<std::size_t>(from) + 1];
    program.successors.push_back(to);
  }
  for (std::size_t t = 0; t < tasks; ++t) program.successor_begin[t + 1] += program.successor_begin[t];
}

namespace {

class Generator {
public:
  Generator(const ProgramModel& model, RandomStream& random, std::string where) : model_(model), random_(random), where_(std::move(where)) {}

  Program run() {
    program_.levels = model_.levels;
    function(1);
    link_dependencies(program_, edges_);
    return std::move(program_);
  }

private:
  // Generates a function of level `level` (and, depth first, the functions its tasks call); returns its index.
  int function(int level) {
    const auto& size = model_.size[static_cast<std::size_t>(level - 1)];
    const auto& firing = model_.firing[static_cast<std::size_t>(level - 1)];
    const int tasks = static_cast<int>(size.draw(random_, true));
    const int index = static_cast<int>(program_.functions.size());
    const int first = static_cast<int>(program_.callee.size());
    if (static_cast<long>(first) + tasks > maximum_tasks)
      throw core::InputError({where_, 0, 0}, "the program would have more than " + std::to_string(maximum_tasks) + " tasks");
    program_.functions.push_back({"f" + std::to_string(index), level, first, tasks});
    program_.callee.resize(static_cast<std::size_t>(first + tasks), -1);
    program_.time.resize(static_cast<std::size_t>(first + tasks), 0.0);
    // Figure 18: each dataflow firing makes N_df tasks executable (all that are left when fewer). The first
    // firing starts the graph; firing k + 1 follows the completion of task k (structured: that dependency
    // only; random: also one earlier task drawn uniformly).
    int created = std::min(tasks, static_cast<int>(firing.draw(random_, true)));
    for (int trigger = 0; created < tasks; ++trigger) {
      const int made = std::min(tasks - created, static_cast<int>(firing.draw(random_, true)));
      for (int task = created; task < created + made; ++task) {
        edges_.emplace_back(first + trigger, first + task);
        if (model_.pattern == Pattern::Random) {
          const int other = std::min(task - 1, static_cast<int>(random_.uniform() * task));
          edges_.emplace_back(first + other, first + task);
        }
      }
      created += made;
    }
    for (int task = 0; task < tasks; ++task) {
      const auto slot = static_cast<std::size_t>(first + task);
      if (level < model_.levels) program_.callee[slot] = function(level + 1);
      else program_.time[slot] = model_.execution_time.draw(random_, false);
    }
    return index;
  }

  const ProgramModel& model_;
  RandomStream& random_;
  std::string where_;
  Program program_;
  std::vector<std::pair<int, int>> edges_;
};

}  // namespace

Program generate_program(const ProgramModel& model, RandomStream& random, const std::string& where) {
  return Generator(model, random, where).run();
}

std::string write_program(const Program& program) {
  std::string text = "# augur hierarchy program (docs/formats.md, \"Hierarchical programs\")\nlevels " + std::to_string(program.levels) + "\n";
  std::vector<std::vector<int>> before(program.callee.size());
  for (std::size_t t = 0; t < program.callee.size(); ++t)
    for (int s = program.successor_begin[t]; s < program.successor_begin[t + 1]; ++s) before[static_cast<std::size_t>(program.successors[static_cast<std::size_t>(s)])].push_back(static_cast<int>(t));
  char number[64];
  for (const auto& function : program.functions) {
    text += "function " + function.name + "\n";
    for (int t = function.first_task; t < function.first_task + function.tasks; ++t) {
      const int called = program.callee[static_cast<std::size_t>(t)];
      if (called >= 0) {
        text += "  call " + program.functions[static_cast<std::size_t>(called)].name;
      } else {
        const auto written = std::to_chars(number, number + sizeof number, program.time[static_cast<std::size_t>(t)]);  // shortest exact
        text += "  run " + std::string(number, written.ptr);
      }
      const auto& waits = before[static_cast<std::size_t>(t)];
      if (!waits.empty()) {
        text += " after";
        for (const int p : waits) text += " " + std::to_string(p - function.first_task);
      }
      text += "\n";
    }
  }
  return text;
}

}  // namespace augur::sim::hierarchy
