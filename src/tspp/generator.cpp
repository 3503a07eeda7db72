#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "augur/core/expression.hpp"
#include "augur/tspp.hpp"

namespace augur::tspp {
namespace {

class Generator {
public:
  explicit Generator(const GeneratorOptions& options) : options_(options), random_(options.seed) {}

  TaskSystem run() {
    TaskSystem system;
    for (int k = 0; k < options_.resources; ++k) {
      Resource resource;
      resource.name = "r" + std::to_string(k + 1);
      system.resources.push_back(resource);
    }
    std::uniform_real_distribution<double> demand(options_.demand_min, options_.demand_max);
    std::bernoulli_distribution uses(options_.use_probability);
    std::uniform_int_distribution<int> any_resource(0, options_.resources - 1);
    for (int i = 0; i < options_.tasks; ++i) {
      Task task;
      task.name = "t" + std::to_string(i + 1);
      task.demands.assign(static_cast<std::size_t>(options_.resources), 0.0);
      bool used = false;
      for (auto& value : task.demands) {
        if (uses(random_)) {
          value = round3(demand(random_));
          used = true;
        }
      }
      if (!used) task.demands[static_cast<std::size_t>(any_resource(random_))] = round3(demand(random_));
      system.tasks.push_back(task);
    }
    next_task_ = 0;
    const bool parallel_root = std::bernoulli_distribution(0.5)(random_);
    system.structure = group(options_.tasks, 1, parallel_root);
    return system;
  }

private:
  // Demands with three decimals: the file reads back to the same numbers.
  static double round3(double value) { return std::max(0.001, std::round(value * 1000.0) / 1000.0); }

  // A group of `count` tasks; groups alternate serial and parallel as they nest.
  Node group(int count, int level, bool parallel) {
    Node node;
    node.kind = parallel ? Node::Kind::Parallel : Node::Kind::Serial;
    if (count == 1 || level >= options_.depth) {
      for (int i = 0; i < count; ++i) node.children.push_back(leaf());
      return node;
    }
    // Split the tasks into 2 to 4 parts (fewer when there are fewer tasks).
    const int parts = std::uniform_int_distribution<int>(2, std::min(count, 4))(random_);
    std::vector<int> sizes(static_cast<std::size_t>(parts), 1);
    for (int extra = count - parts; extra > 0; --extra) {
      sizes[static_cast<std::size_t>(std::uniform_int_distribution<int>(0, parts - 1)(random_))] += 1;
    }
    for (int size : sizes) node.children.push_back(size == 1 ? leaf() : group(size, level + 1, !parallel));
    return node;
  }

  Node leaf() {
    Node node;
    node.kind = Node::Kind::Task;
    node.task = next_task_++;
    return node;
  }

  GeneratorOptions options_;
  std::mt19937_64 random_;
  int next_task_ = 0;
};

void write_node(const TaskSystem& system, const Node& node, int indent, std::string& text) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  if (node.kind == Node::Kind::Task) {
    text += pad + system.tasks[static_cast<std::size_t>(node.task)].name + ";\n";
    return;
  }
  text += pad + (node.kind == Node::Kind::Serial ? "{\n" : "[\n");
  for (const Node& child : node.children) write_node(system, child, indent + 1, text);
  text += pad + (node.kind == Node::Kind::Serial ? "}\n" : "]\n");
}

}  // namespace

std::string write_task_system(const TaskSystem& system) {
  std::string text = "resource\n";
  for (const Resource& resource : system.resources) {
    text += "  " + resource.name + " <- ";
    if (resource.kind == Resource::Kind::Delay) {
      text += "delay;\n";
    } else {
      text += resource.servers == 1 ? "queuing;\n" : "queuing " + std::to_string(resource.servers) + ";\n";
    }
  }
  text += "task\n";
  for (const Task& task : system.tasks) {
    text += "  " + task.name + " <- {";
    for (std::size_t k = 0; k < task.demands.size(); ++k) {
      if (task.demands[k] > 0.0) text += " " + system.resources[k].name + ": " + core::format_shortest(task.demands[k]) + ";";
    }
    text += " }\n";
  }
  text += "structure\n";
  write_node(system, system.structure, 1, text);
  return text;
}

TaskSystem generate_task_system(const GeneratorOptions& options) {
  if (options.tasks < 1 || options.resources < 1 || options.depth < 1) {
    throw std::invalid_argument("tasks, resources and depth must be at least 1");
  }
  if (!(options.demand_min > 0.0) || options.demand_max < options.demand_min) {
    throw std::invalid_argument("demands must satisfy 0 < demand_min <= demand_max");
  }
  return Generator(options).run();
}

}  // namespace augur::tspp
